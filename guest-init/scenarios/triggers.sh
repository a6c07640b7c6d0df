# Scenario "triggers": no hammer; the window holds the kernel's own reasons
# to drain every CPU's pcplists, one after another:
#   1. a memory block offline/online (zone_pcp_disable: a forced drain);
#   2. a gigantic (1 GiB) page allocation (alloc_contig_range drains);
#   3. direct reclaim under pressure: a hog that ends in the OOM killer.
# Each phase is marked in the trace; "/results/$QC_TRIGGERS" says what ran.
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/measure.sh
. /qc/guest-init/drain-triggers.sh
set -e
qc_isolate
qc_prime

# The disturbance: each real trigger in turn, marked in the trace, in the
# background on the housekeeping CPU.
qc_triggers() {
	(
		# A trigger that fails (the hog is OOM-killed on purpose) must not
		# end the others: no set -e in here.
		set +e
		for t in memory_offline gigantic_page direct_reclaim; do
			sh /qc/tracing/trace-mark.sh "qc: trigger $t"
			qc_say "trigger: $t"
			"trigger_$t"
		done > "/results/$QC_TRIGGERS" 2>&1
		touch /tmp/triggers.done
	) &
}

# Driving 2 GiB of faults into the OOM killer takes a while under TCG:
# the window stays open until every trigger has run, at most 120 s more.
qc_window_done() { [ -f /tmp/triggers.done ]; }
QC_WINDOW_GRACE=120
qc_window "" "$QC_DURATION" qc_triggers
sh /qc/guest-init/pcp-counts.sh "/results/$QC_PCP_AFTER"
