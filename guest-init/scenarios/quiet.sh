# Scenario "quiet": the control. Everything as in "hammer" (isolation,
# module loaded, priming, tracing, oslat) but no drains: what is left is
# noise the rig or the kernel makes by itself.
# qc-scenario: traced selftest refill tasks=oslat,refill
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/measure.sh
set -e
qc_prepare
qc_window "" "$QC_DURATION" true
sh /qc/guest-init/pcp-counts.sh "/results/$QC_PCP_AFTER"
qc_selftest
