# (c) drain_all_pages() latency CDF per variant, from qc_hammer's per-call
# samples. Log x: a remote drain costs ~1 us with a spinlock and a grace
# period or a work item's round trip otherwise.
# Data drain-cdf-<variant>.dat: a quoted title line, then latency_us fraction.
load lib.'/common.gp'
set logscale x
set format x '%g'
set yrange [0:1.02]
set ytics 0, 0.1
set xlabel 'drain_all_pages() latency per call (µs, log scale)'
set ylabel 'fraction of calls at or below'
set title 'drain_all_pages() latency CDF on the housekeeping CPU'
plot for [i = 1:n] vfile('drain-cdf', i) using 1:2 with steps \
	lc rgb vcolor(word(variants, i)) dt vdt(word(variants, i)) \
	lw 2 title columnheader(2)
