# Scenario "custom": run the guest script given to scripts/run.sh with
# --guest-script, packed as /qc/custom.sh. Its working directory is
# /results, so whatever it writes there comes home. A trace it leaves
# there (measure.sh's windows) is analysed with oslat and refill as the
# measured tasks, as the rig's own windows are.
# qc-scenario: tasks=oslat,refill
. /qc/guest-init/guest-lib.sh
[ -f /qc/custom.sh ] || { qc_say "no /qc/custom.sh: pass --guest-script FILE"; exit 2; }
# The other CPUs come up first, unless the script says
# "# qc-custom: one-cpu": then it patches kernel text (tracing, modules)
# with the boot CPU alone and brings them up itself (qc_online_cpus).
grep -q '^# qc-custom: one-cpu' /qc/custom.sh || qc_online_cpus
cd /results && sh -e /qc/custom.sh
