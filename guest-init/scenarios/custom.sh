# Scenario "custom": run the guest script given to scripts/run.sh with
# --guest-script, packed as /qc/custom.sh. Its working directory is
# /results, so whatever it writes there comes home.
. /qc/guest-init/guest-lib.sh
[ -f /qc/custom.sh ] || { qc_say "no /qc/custom.sh: pass --guest-script FILE"; exit 2; }
cd /results && sh -e /qc/custom.sh
