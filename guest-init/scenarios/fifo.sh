# Scenario "fifo": oslat at SCHED_FIFO 1 with RT throttling off, so an
# isolated CPU never yields. A drain that needs the target CPU to run a
# work item (wq) then waits until oslat ends: the hammer reports the stall;
# oslat's own time limit keeps the rig from hanging.
# qc-scenario: traced selftest hammer tasks=oslat,refill
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/measure.sh
set -e
# oslat's main thread (SCHED_OTHER) sleeps on the first isolated CPU and
# ends the run; a SCHED_FIFO worker there would starve it and oslat would
# never stop. So the FIFO workers spin on the other isolated CPUs.
qc_cpulist_first "$QC_ISOLATED"
qc_cpulist_of_mask $((CL_MASK & ~(1 << CL_FIRST)))
[ -n "$CL_LIST" ] || { qc_say "fifo needs at least two isolated CPUs"; exit 2; }
export QC_OSLAT_WORKERS=$CL_LIST
qc_prepare --rt-throttle off
qc_window_done() { qc_hammer_done; }
qc_window "" "$QC_DURATION" qc_hammer_start --rtprio 1
# A stalled drain finishes once oslat has gone; give it a bounded time.
qc_hammer_finish "/results/$QC_HAMMER_JSON" 30
sh /qc/guest-init/pcp-counts.sh "/results/$QC_PCP_AFTER"
qc_selftest
