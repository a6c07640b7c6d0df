# Scenario "stress": correctness under load, for the debug builds (lockdep,
# PROVE_RCU, DEBUG_VM...). For QC_DURATION seconds the housekeeping CPU
# calls drain_all_pages() at QC_RATE/s (default 100) while pft allocates
# and frees pages on every CPU, and a phase loop offlines and onlines a
# memory block (a forced drain of every CPU), allocates a gigantic page
# (alloc_contig_range) and drives a hog through direct reclaim into the
# OOM killer. While the hog reclaims, the series' regression checks run
# (guest-init/series-regressions.sh): a block onlined into the empty
# ZONE_MOVABLE and offlined until the zone is empty again, three times a
# phase (--param movable_cycles=N), and page_owner's drain through
# /proc/pagetypeinfo. The host fails the run on any splat in the console.
# qc-kernel-args: page_owner=on
# qc-scenario:
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/housekeeping-triggers.sh
. /qc/guest-init/module.sh
. /qc/guest-init/series-regressions.sh
set -e
qc_hammer_load
qc_online_cpus
end=$(( $(date +%s) + QC_DURATION ))
qc_hammer_start
qc_say "stress: drains at ${QC_RATE:-100}/s + allocation load on every CPU for $QC_DURATION s"
(
	while [ "$(date +%s)" -lt "$end" ]; do pft -r 2 -m 8 > /dev/null || true; done
) &
load=$!
phase=0
while [ "$(date +%s)" -lt "$end" ]; do
	phase=$((phase + 1))
	{
		echo "phase $phase"
		trigger_memory_offline
		trigger_gigantic_page
		trigger_direct_reclaim > /tmp/reclaim.txt 2>&1 &
		reclaim=$!
		regress_movable_cycle "${QC_MOVABLE_CYCLES:-3}" || true
		regress_pagetypeinfo || true
		wait $reclaim || true
		cat /tmp/reclaim.txt
	} >> "/results/$QC_STRESS_PHASES" 2>&1 || true
	qc_say "stress: phase $phase done, $(( end - $(date +%s) )) s left"
done
wait $load || true
qc_hammer_finish "/results/$QC_HAMMER_JSON" 30
grep -E '^(allocstall|pgscan_direct|oom_kill|compact_stall)' /proc/vmstat > "/results/$QC_VMSTAT_PRESSURE"
qc_say "stress: $(grep -c '^phase' "/results/$QC_STRESS_PHASES") phases, $(grep -c 'offline/online: memory' "/results/$QC_STRESS_PHASES") memory offline/online, $(grep -c 'zone emptied: yes' "/results/$QC_STRESS_PHASES") ZONE_MOVABLE emptied and refilled, $(grep -c 'page_owner ran' "/results/$QC_STRESS_PHASES") pagetypeinfo drains, $(grep -o '"calls":[0-9]*' "/results/$QC_HAMMER_JSON")"
