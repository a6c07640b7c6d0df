# (a) Interruptions per isolated CPU, one bar per variant, clustered by CPU.
# The drain-caused part of each bar is hatched: that part decides the verdict.
# Extra -e variables: cpus (isolated CPUs), peak (the highest bar), title.
# Data int-<variant>.dat: slot cpu total drain label label_y ('?' = no trace).
load lib.'/common.gp'
set datafile missing '?'
ncpu = words(cpus)
w = 0.8 / n
off(i) = (i - (n + 1) / 2.0) * w
set boxwidth w * 0.95 absolute
set style fill solid 0.9 noborder
set xrange [-0.5:ncpu - 0.5]
set yrange [0:ceil(peak * 1.2) + 1]
# Counts are whole numbers: no 0.2 ticks on a near-empty plot.
if (peak < 10) { set ytics 1 }
# An empty plot must not look like a broken one.
if (peak == 0) { set label 'no interruption on any isolated CPU' at graph 0.5, 0.5 center }
set xtics () scale 0
do for [c = 1:ncpu] { set xtics add (sprintf('CPU %s', word(cpus, c)) c - 1) }
set ylabel 'interruptions in the measurement window (count)'
set title title."\nhatched: the part caused by the drain (what decides the verdict)"
plot for [i = 1:n] vfile('int', i) using ($1 + off(i)):3 with boxes \
		lc rgb vcolor(word(variants, i)) title word(variants, i), \
	for [i = 1:n] vfile('int', i) using ($1 + off(i)):4 with boxes \
		fs pattern 4 border lc rgb '#000000' lc rgb '#000000' notitle, \
	for [i = 1:n] vfile('int', i) using ($1 + off(i)):6:5 with labels \
		offset 0,0.6 font ',10' notitle
