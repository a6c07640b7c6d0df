# (b) Latency histograms of one measured workload, summed over the CPUs it
# ran on, one line per variant: oslat (the pure-spin reference) or the
# refill workload (oslat's JSON shape, its own refill phases left out).
# Log y: the 1 us bucket holds ~10^8 samples, the tail a handful.
# Extra -e variables: kind ('oslat' or 'refill': the data files' prefix),
# where (its CPUs, for the labels), last (the last bucket, which holds
# everything at or above it). Data <kind>-<variant>.dat: a quoted title
# line, then bucket_us count.
load lib.'/common.gp'
set logscale y
set format y '1e%T'
set xrange [0.5:last + 0.5]
set xtics 4, 4, last - 2
set xtics add (1, sprintf(">=%d", last) last)
set xlabel sprintf('latency bucket (µs; 1 µs wide, the last holds everything >= %d µs)', last)
set ylabel sprintf('samples (sum over CPUs %s)', where)
set title sprintf('%s latency histogram per variant, CPUs %s (QEMU TCG: compare shapes, not values)', kind, where)
plot for [i = 1:n] vfile(kind, i) using 1:2 with linespoints \
	lc rgb vcolor(word(variants, i)) dt vdt(word(variants, i)) \
	lw 1.5 pt vpt(word(variants, i)) ps 0.6 title columnheader(2)
