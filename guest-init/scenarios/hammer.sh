# Scenario "hammer" (the default): oslat (SCHED_OTHER) on the isolated
# CPUs while the housekeeping CPU calls drain_all_pages() at QC_RATE/s
# (default 100) for the whole window; then the planted-noise self-test.
. /qc/guest-init/lib.sh
. /qc/guest-init/measure.sh
set -e
qc_prepare
qc_window_done() { qc_hammer_done; }
qc_window "" "$QC_DURATION" qc_hammer_start
cat $QC_HAMMER/stats > /results/hammer.json
sh /qc/guest-init/pcp-counts.sh /results/pcp-after.json
qc_selftest
