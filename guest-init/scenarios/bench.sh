# Scenario "bench": the page allocator's cost. pft (bench/pft.c) faults in
# and frees anonymous memory on every CPU at once; one warm-up run, then
# QC_BENCH_RUNS (default 5) measured runs, one JSON line each, in
# /results/pft.jsonl. No isolation, no tracing: only the allocator's speed.
. /qc/guest-init/lib.sh
set -e
runs=${QC_BENCH_RUNS:-5}
qc_say "pft: warm-up run"
pft -r 2 > /dev/null
qc_say "pft: $runs measured runs"
pft -r 4 -n "$runs" > /results/pft.jsonl
qc_say "pft: $(wc -l < /results/pft.jsonl) runs recorded"
