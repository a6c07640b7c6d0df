# Shared look of the report's plots, loaded by each plot script.
# Set by report.sh with -e: lib (this directory), out (the SVG), dir (data
# files), variants (names, in run order).
# One colour per variant, the same in every plot, so bars and lines match.
set terminal svg size 760,440 font 'Helvetica,12' noenhanced background '#ffffff'
set encoding utf8
set output out
set border 3
set tics nomirror
set grid ytics lc rgb '#e0e0e0'
# Below the graph, so the legend never covers data.
set key outside bottom center horizontal Left reverse maxcols 4 samplen 2 width -1
vcolor(v) = v eq 'wq' ? '#d62728' : v eq 'rcu' ? '#1f77b4' : v eq 'spinlock' ? '#2ca02c' : '#7f7f7f'
n = words(variants)
vfile(kind, i) = sprintf('%s/%s-%s.dat', dir, kind, word(variants, i))
# A second cue besides colour (for print and overlapping lines).
vpt(v) = v eq 'wq' ? 7 : v eq 'rcu' ? 5 : v eq 'spinlock' ? 9 : 11
vdt(v) = v eq 'wq' ? 1 : v eq 'rcu' ? 2 : v eq 'spinlock' ? 4 : 5
