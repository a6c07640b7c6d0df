# (b) oslat latency histograms, summed over the isolated CPUs, one line per
# variant. Log y: the 1 us bucket holds ~10^8 samples, the tail a handful.
# Extra -e variables: last (oslat's last bucket, which holds everything
# at or above it). Data oslat-<variant>.dat: a quoted title line, then
# bucket_us count.
load lib.'/common.gp'
set logscale y
set format y '1e%T'
set xrange [0.5:last + 0.5]
set xtics 4, 4, last - 2
set xtics add (1, sprintf(">=%d", last) last)
set xlabel sprintf('latency bucket (µs; 1 µs wide, the last holds everything >= %d µs)', last)
set ylabel 'samples (sum over isolated CPUs)'
set title 'oslat latency histogram per variant (QEMU TCG: compare shapes, not values)'
plot for [i = 1:n] vfile('oslat', i) using 1:2 with linespoints \
	lc rgb vcolor(word(variants, i)) dt vdt(word(variants, i)) \
	lw 1.5 pt vpt(word(variants, i)) ps 0.6 title columnheader(2)
