# Scenario "probe": boot and exit at once. scripts/accel.sh uses it to see
# whether an accelerator really runs a guest.
# qc-scenario:
. /qc/guest-init/guest-lib.sh
qc_online_cpus
exit 0
