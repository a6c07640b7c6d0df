# (d) The allocator's counted cost: kernel instructions per page fault
# (spin-waiting left out) by pft thread count, one line per variant, error
# bars of one sample standard deviation over the runs.
# Data alloc-cost-<variant>.dat: a quoted title line, then threads mean sd.
load lib.'/common.gp'
set xrange [0.5:3.5]
set xtics 1
set xlabel 'pft threads (one per isolated CPU)'
set ylabel 'kernel instructions per fault (counted, TCG)'
set title "Kernel instructions per page fault, spin-waiting left out (qc-cost TCG plugin)\nerror bars: ±1 sd over the runs"
set offsets 0, 0, graph 0.1, graph 0.1
off(i) = (i - (n + 1) / 2.0) * 0.06
plot for [i = 1:n] vfile('alloc-cost', i) using ($1 + off(i)):2:3 with yerrorlines \
	lc rgb vcolor(word(variants, i)) dt vdt(word(variants, i)) pt vpt(word(variants, i)) \
	lw 2 title columnheader(2)
