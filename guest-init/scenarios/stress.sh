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
. /qc/guest-init/lib.sh
. /qc/guest-init/triggers.sh
. /qc/guest-init/series-regressions.sh
set -e
insmod /qc/modules/qc_hammer.ko cpu="$QC_HOUSEKEEPING" ${QC_RATE:+rate_hz=$QC_RATE}
end=$(( $(date +%s) + QC_DURATION ))
echo "$QC_DURATION" > /sys/kernel/debug/qc_hammer/run
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
	} >> /results/stress-phases.txt 2>&1 || true
	qc_say "stress: phase $phase done, $(( end - $(date +%s) )) s left"
done
wait $load || true
n=0
while [ "$(cat /sys/kernel/debug/qc_hammer/state)" = running ] && [ $n -lt 30 ]; do sleep 1; n=$((n + 1)); done
cat /sys/kernel/debug/qc_hammer/stats > /results/hammer.json
grep -E '^(allocstall|pgscan_direct|oom_kill|compact_stall)' /proc/vmstat > /results/vmstat-pressure.txt
qc_say "stress: $(grep -c '^phase' /results/stress-phases.txt) phases, $(grep -c 'offline/online: memory' /results/stress-phases.txt) memory offline/online, $(grep -c 'zone emptied: yes' /results/stress-phases.txt) ZONE_MOVABLE emptied and refilled, $(grep -c 'page_owner ran' /results/stress-phases.txt) pagetypeinfo drains, $(grep -o '"calls":[0-9]*' /results/hammer.json)"
