# Scenario "cost": the page allocator's cost counted, not timed. Run under
# the qc-cost TCG plugin (scripts/run.sh --count-cost): pft's threads on
# the isolated CPUs 1, 1-2 and 1-3 in turn (1, 2 and 3 threads), its main
# thread on the housekeeping CPU, so that every window the plugin counts
# holds one pft thread's timed loop on its own CPU and nothing of the
# housekeeping CPU's work. For each thread count: one warm-up run (the
# first one of the boot is also what switches the plugin's counting on),
# then QC_COST_RUNS (default 5) measured runs, one pft JSON line each in
# /results/pft-cost.jsonl, warm-ups flagged "warmup":true. Each run is
# small (QC_COST_MIB MiB x QC_COST_ROUNDS rounds per thread): the counts
# are exact, so a few thousand faults settle the figure.
. /qc/guest-init/guest-lib.sh
set -e
runs=${QC_COST_RUNS:-5}
mib=${QC_COST_MIB:-8}
rounds=${QC_COST_ROUNDS:-2}
cl_first "$QC_HOUSEKEEPING"
hk=$CL_FIRST
cl_first "$QC_ISOLATED"
first=$CL_FIRST
out=/results/$QC_PFT_COST
: > "$out"
for threads in 1 2 3; do
	cpus=$first-$((first + threads - 1))
	[ "$threads" -gt 1 ] || cpus=$first
	qc_say "pft under the plugin: $threads thread(s) on CPUs $cpus, warm-up and $runs runs"
	taskset -c "$hk" pft -a "$cpus" -m "$mib" -r "$rounds" | sed 's/}$/,"warmup":true}/' >> "$out"
	taskset -c "$hk" pft -a "$cpus" -m "$mib" -r "$rounds" -n "$runs" | sed 's/}$/,"warmup":false}/' >> "$out"
done
qc_say "pft: $(grep -c '"warmup":false' "$out") counted runs recorded"
