# Scenario "fifo": oslat at SCHED_FIFO 1 with RT throttling off, so an
# isolated CPU never yields. A drain that needs the target CPU to run a
# work item (wq) then waits until oslat ends: the hammer reports the stall;
# oslat's own time limit keeps the rig from hanging.
. /qc/guest-init/lib.sh
. /qc/guest-init/measure.sh
set -e
qc_isolate --rt-throttle off
qc_load_hammer
qc_prime
qc_window_done() { qc_hammer_done; }
qc_window "" "$QC_DURATION" qc_hammer_start --rtprio 1
# A stalled drain finishes once oslat has gone; give it a bounded time.
n=0
while ! qc_hammer_done && [ $n -lt 30 ]; do sleep 1; n=$((n + 1)); done
cat $QC_HAMMER/stats > /results/hammer.json
sh /qc/guest-init/pcp-counts.sh /results/pcp-after.json
qc_selftest
