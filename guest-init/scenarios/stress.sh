# Scenario "stress": correctness under load, for the debug builds (lockdep,
# PROVE_RCU, DEBUG_VM...). For QC_DURATION seconds the housekeeping CPU
# calls drain_all_pages() at QC_RATE/s (default 100) while pft allocates
# and frees pages on every CPU, and a phase loop offlines and onlines a
# memory block (a forced drain of every CPU), allocates a gigantic page
# (alloc_contig_range) and drives a hog through direct reclaim into the
# OOM killer. While the hog reclaims, the series' regression checks run
# (guest-init/series-regressions.sh): ZONE_MOVABLE emptied and onlined
# again, and page_owner's drain through /proc/pagetypeinfo. The host
# fails the run on any splat in the console.
# ZONE_MOVABLE takes the top 256 MiB, two memory blocks, above the first
# 2 GiB, so that the 1 GiB page can still come from [1 GiB, 2 GiB) of DMA32.
# qc-kernel-args: movablecore=256M page_owner=on
# qc-guest-mem: 2304
. /qc/guest-init/lib.sh
. /qc/guest-init/triggers.sh
. /qc/guest-init/series-regressions.sh
set -e
movable=$(qc_movable_blocks | tr '\n' ' ')
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
		# shellcheck disable=SC2086
		regress_movable_cycle $movable || true
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
