# Scenario "cost": the page allocator's cost counted, not timed. Run under
# the qc-cost TCG plugin (scripts/run.sh --count-cost): pft's workers on
# the isolated CPUs 1, 1-2 and 1-3 in turn (1, 2 and 3 "threads"), its main
# thread on the housekeeping CPU, so that every window the plugin counts
# holds one pft worker's timed loop on its own CPU and nothing of the
# housekeeping CPU's work. For each worker count: one warm-up run (the
# first one of the boot is also what switches the plugin's counting on),
# then QC_COST_RUNS (default 5) measured runs, one pft JSON line each in
# /results/pft-cost.jsonl, warm-ups flagged "warmup":true. Each run is
# QC_COST_MIB (8) MiB x QC_COST_ROUNDS (16) rounds per worker.
#
# QC_COST_MODE (qc.cost_mode): "processes" (the default since Dec 7) runs
# the workers as processes, an mm each, that start each round together
# (pft -P -S); "threads", the threads of one process, as before. Threads
# share one mmap_lock and VMA tree: how often one blocks, spins on or
# wakes another and how long find_vma() walks moved the per-fault figure
# by up to 0.56 % (CV) at 2-3 threads, none of it the allocator's. At 2-3
# workers the buddy allocator's merging follows how the workers' frees
# interleave: the round barrier draws that anew each round, and 16 rounds
# (not 2) average it, and dilute the odd extra pcplist spill a run takes.
# docs/findings.md, "Counted cost at 2-3 threads" (Dec 7), has the runs.
# qc-scenario:
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/module.sh
set -e
runs=${QC_COST_RUNS:-5}
mib=${QC_COST_MIB:-8}
rounds=${QC_COST_ROUNDS:-16}
case ${QC_COST_MODE:-processes} in
processes) mode="-P -S" ;;
threads) mode= ;;
*) qc_say "qc.cost_mode=$QC_COST_MODE: threads or processes"; exit 1 ;;
esac
qc_cpulist_first "$QC_HOUSEKEEPING"
hk=$CL_FIRST
qc_cpulist_first "$QC_ISOLATED"
first=$CL_FIRST
# The module's load patches text (its jump labels and ftrace sites): with
# the boot CPU alone (guest-lib.sh qc_online_cpus). Its drains come last.
insmod /qc/modules/qc_hammer.ko cpu="$hk" rate_hz="${QC_DRAIN_RATE:-20}" markers=1
qc_online_cpus
out=/results/$QC_PFT_COST
: > "$out"
# No address-space randomisation for pft: find_vma()'s walk of the maple
# tree costs 116 or 178 instructions a fault depending on where the
# randomised layout puts pft's mappings (Dec 7, docs/findings.md), a figure
# that moved between runs and boots without any change to the allocator.
echo 0 > /proc/sys/kernel/randomize_va_space
# shellcheck disable=SC2086 # $mode: pft's options, a word each
for threads in 1 2 3; do
	cpus=$first-$((first + threads - 1))
	[ "$threads" -gt 1 ] || cpus=$first
	qc_say "pft under the plugin: $threads worker(s) (${QC_COST_MODE:-processes}) on CPUs $cpus, warm-up and $runs runs"
	taskset -c "$hk" pft $mode -a "$cpus" -m "$mib" -r "$rounds" | sed 's/}$/,"warmup":true}/' >> "$out"
	taskset -c "$hk" pft $mode -a "$cpus" -m "$mib" -r "$rounds" -n "$runs" | sed 's/}$/,"warmup":false}/' >> "$out"
done
qc_say "pft: $(grep -c '"warmup":false' "$out") counted runs recorded"

# The drain's own cost: refill on every isolated CPU (so that the calls
# find pages there), and the hammer with markers=1 on the housekeeping CPU,
# so that every drain_all_pages() call is one window of the plugin on that
# vCPU. QC_DRAIN_SECONDS (default 3) at QC_DRAIN_RATE (default 20) calls/s;
# the hammer's own per-call wall times go to /results/drain-hammer.json, the
# guest's zone count (for_each_zone()) to /results/drain-zones.txt.
drain_s=${QC_DRAIN_SECONDS:-3}
iso=$QC_ISOLATED
qc_say "drain cost: refill on CPUs $iso, drain_all_pages() at ${QC_DRAIN_RATE:-20}/s for $drain_s s on CPU $hk"
grep -c '^Node' /proc/zoneinfo > "/results/$QC_DRAIN_ZONES"
refill -c "$iso" -T 20 -P 64 -D $((drain_s + 60)) -q --json /results/drain-refill.json > /results/drain-refill.txt 2>&1 &
refill_pid=$!
sleep 2
# markers=1 is this scenario's own module argument, so the module is
# loaded here; the run and its end go through guest-init/module.sh.
qc_hammer_start "$drain_s"
qc_hammer_finish "/results/$QC_DRAIN_HAMMER" 60
kill -INT "$refill_pid" 2>/dev/null || true
wait "$refill_pid" || true
qc_say "drain cost: $(grep -o '"calls":[0-9]*' "/results/$QC_DRAIN_HAMMER") calls recorded"
