# Scenario "triggers": no hammer; the window holds the kernel's own reasons
# to drain every CPU's pcplists, one after another:
#   1. a memory block offline/online (zone_pcp_disable: a forced drain);
#   2. a gigantic (1 GiB) page allocation (alloc_contig_range drains);
#   3. direct reclaim under pressure: a hog that ends in the OOM killer.
# Each phase is marked in the trace; /results/triggers.txt says what ran.
. /qc/guest-init/lib.sh
. /qc/guest-init/measure.sh
set -e
qc_isolate
qc_prime
# Driving 2 GiB of faults into the OOM killer takes a while under TCG:
# the window stays open until every trigger has run, at most 120 s more.
qc_window_done() { [ -f /tmp/triggers.done ]; }
QC_WINDOW_GRACE=120
qc_window "" "$QC_DURATION" qc_triggers
sh /qc/guest-init/pcp-counts.sh /results/pcp-after.json
