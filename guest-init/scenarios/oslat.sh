# Scenario "oslat": oslat on the isolated CPUs for QC_DURATION seconds,
# nothing else. The baseline measurement of a booted variant.
# qc-scenario:
. /qc/guest-init/guest-lib.sh
set -e
qc_online_cpus
qc_say "oslat on CPUs $QC_ISOLATED for $QC_DURATION s"
oslat -c "$QC_ISOLATED" -D "$QC_DURATION" -q --json=/results/oslat.json > /results/oslat.txt 2>&1 &
pid=$!
qc_wait_progress "$QC_DURATION" oslat
wait $pid
qc_say "oslat done"
