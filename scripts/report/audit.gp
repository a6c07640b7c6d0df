# The isolation audit's heat map: triggers as rows (in the audit's order,
# top to bottom), variants as columns, each cell the interruptions of the
# isolated CPUs in that trigger's sub-window (colour: log scale, label: the
# count). Extra -e variables: triggers (names, in order).
# Data: audit-measured.dat "col row count label", audit-other.dat
# "col row label" (NOT-TRIGGERED, not implemented, failed: grey).
load lib.'/common.gp'
nt = words(triggers)
set terminal svg size 760,(140 + 26 * nt) font 'Helvetica,12' noenhanced background '#ffffff'
set output out
unset key
set grid noytics
set border 0
set xrange [-0.5:n - 0.5]
set yrange [nt - 0.5:-0.5]
set xtics () scale 0 nomirror
set ytics () scale 0 nomirror
do for [i = 1:n] { set xtics add (word(variants, i) i - 1) }
do for [i = 1:nt] { set ytics add (word(triggers, i) i - 1) }
unset x2tics
set logscale cb
set cbrange [1:*]
set cblabel 'interruptions in the sub-window (log scale)'
set palette defined (0 '#fff5eb', 1 '#fdae6b', 2 '#e6550d', 3 '#7f2704')
set title 'Isolation audit: interruptions of the isolated CPUs per trigger and variant'
set style fill solid 1.0 noborder
plot dir.'/audit-measured.dat' using 1:2:(0.5):(0.5):($3 < 1 ? 1 : $3) with boxxyerror fc palette, \
	dir.'/audit-other.dat' using 1:2:(0.5):(0.5) with boxxyerror fc rgb '#d9d9d9', \
	dir.'/audit-measured.dat' using 1:2:4 with labels font ',10', \
	dir.'/audit-other.dat' using 1:2:3 with labels font ',9' tc rgb '#555555'
