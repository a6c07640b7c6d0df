# Scenario "hammer" (the default): oslat (SCHED_OTHER) on the oslat CPUs
# and the refill workload on the refill CPUs (measure.sh) while the
# housekeeping CPU calls drain_all_pages() at QC_RATE/s (default 100) for
# the whole window (with qc.decoy=N, the decoy too: hammer/decoy.c); then
# the quiet control window and the planted-noise self-test.
# qc-scenario: traced selftest hammer exposure refill tasks=oslat,refill
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/measure.sh
set -e
qc_prepare
qc_window_done() { qc_hammer_done; }
qc_window "" "$QC_DURATION" qc_hammer_start_decoy
# The window waited for the run already; a run still going would drain
# into the control: stop it.
qc_hammer_finish "/results/$QC_HAMMER_JSON" 0
qc_decoy_finish
sh /qc/guest-init/pcp-counts.sh "/results/$QC_PCP_AFTER"
# The control, in the same boot: the same workloads and window length, no
# drains. The host overlays the hammer window's drain calls on it: what
# the charging rule would have charged there is coincidence.
qc_say "quiet control: the same window without drains"
qc_window "$QC_WINDOW_QUIET" "$QC_DURATION" true
qc_selftest
