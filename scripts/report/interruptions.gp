# (a) Interruptions per isolated CPU, one bar per variant, clustered by CPU.
# The part charged to the drain is hatched: that part decides the verdict.
# Under each bar: how many drains reached that CPU (the count's evidence).
# Extra -e variables: cpus (isolated CPUs), peak (the highest bar), title.
# Data int-<variant>.dat: slot cpu total charged label label_y drains
# ('?' = no trace).
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
# The CPU names sit below the per-bar drain labels.
set xtics () scale 0 offset 0,-1
# Room for the drain labels, the CPU names and the legend below them.
set bmargin 5
do for [c = 1:ncpu] { set xtics add (sprintf('CPU %s', word(cpus, c)) c - 1) }
set ylabel 'interruptions in the window (count)'
set title title."\nhatched: charged to the drain (what decides the verdict); under each bar: drains that reached the CPU (dr)"
plot for [i = 1:n] vfile('int', i) using ($1 + off(i)):3 with boxes \
		lc rgb vcolor(word(variants, i)) title word(variants, i), \
	for [i = 1:n] vfile('int', i) using ($1 + off(i)):4 with boxes \
		fs pattern 4 border lc rgb '#000000' lc rgb '#000000' notitle, \
	for [i = 1:n] vfile('int', i) using ($1 + off(i)):6:5 with labels \
		offset 0,0.6 font ',10' notitle, \
	for [i = 1:n] vfile('int', i) using ($1 + off(i)):(0):7 with labels \
		offset 0,-0.7 font ',9' tc rgb '#555555' notitle
