# Scenario "audit": which housekeeping operations interrupt an isolated
# CPU. The isolated CPUs run the measured workloads of the hammer scenario
# (oslat on the first, refill on the others) for one window; inside it,
# from the housekeeping CPU, each trigger of the kernel's audit list
# (tracing/probes/<qc.audit>.list, kept as /results/$QC_AUDIT_LIST)
# (guest-init/housekeeping-triggers.sh: audit_<name>) fires in its own sub-window
#     "qc: audit <name> start" .. "qc: audit <name> end"
# in the list's order, with a quiet gap of QC_AUDIT_GAP (>= 1) s before
# each and after the last: the gaps are the baseline. The proof probes of
# the same list say, per sub-window, whether the trigger's kernel path ran.
# "/results/$QC_AUDIT_TXT": one line per trigger, "<name> <status> <what it did>",
# status ran, failed or not-implemented. Then the planted-noise self-test.
# The audit's guest is bigger than the others (read by scripts/lib/inputs.sh,
# qc_guest_of): a second housekeeping CPU (the last, CPU 4) to take
# offline, a second NUMA node (1280 MB, no CPUs) to migrate pages to, and
# on it room for a 1 GiB hugetlb CMA area, from which the contiguous
# allocation succeeds (a 1 GiB page does not: every other 1 GiB range
# holds some unmovable kernel page); the memory controller for the memcg
# trigger. Its window lasts as long as its triggers take (~2 min on TCG),
# and it counts interruptions only: no allocator benchmarks unless asked.
# qc-guest: smp=5 mem=3328 numa=2048,1280 memcg=on timeout=900 bench-runs=0
# qc-kernel-args: hugetlb_cma=1:1G
# qc-scenario: traced selftest refill tasks=oslat,refill
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/measure.sh
. /qc/guest-init/housekeeping-triggers.sh
set -e
QC_AUDIT_GAP=${QC_AUDIT_GAP:-1}
[ "$QC_AUDIT_GAP" -ge 1 ] 2>/dev/null || { qc_say "audit gap '$QC_AUDIT_GAP' is not a whole number >= 1"; exit 2; }
# The memcg trigger needs the workloads charged to the isolated cgroup:
# the memory controller goes on before they start.
echo +memory > /sys/fs/cgroup/cgroup.subtree_control ||
	qc_say "cannot enable the memory controller: the memcg trigger will fail"
# Every probe of the boot is armed once, before the other CPUs come up
# (qc_prepare): the audit's proof probes too, which then also stand in
# the self-test's window, where no trigger fires.
QC_PROBES="$QC_PROBES $QC_AUDIT"
qc_prepare
# The TLB trigger's task spins on the last isolated CPU (a refill CPU
# when there is one), so oslat's CPU sees only what reaches every CPU.
qc_cpulist_mask "$QC_ISOLATED"
c=0
while [ $((CL_MASK >> c)) -gt 1 ]; do c=$((c + 1)); done
export QC_AUDIT_ISO_CPU=$c

# The triggers, in order, from the one list, which goes home with the
# results: scripts/audit.sh reads the triggers and probes this guest used.
audit_list=/qc/tracing/probes/${QC_AUDIT:-}.list
[ -f "$audit_list" ] || { qc_say "no audit list '${QC_AUDIT:-}' (qc.audit=, $audit_list)"; exit 2; }
cp "$audit_list" "/results/$QC_AUDIT_LIST"
triggers=$(sed -n 's|^p:qcaudit/\([a-z_]*\) .*|\1|p' "$audit_list")
qc_audit_run() {
	(
		set +e
		n=$(echo $triggers | wc -w) i=0
		for t in $triggers; do
			i=$((i + 1))
			sleep "$QC_AUDIT_GAP"
			qc_say "audit step $i/$n: $t ($(( (n - i + 1) * (QC_AUDIT_GAP + 2) )) s left at most)"
			sh /qc/tracing/guest/trace-mark.sh "qc: audit $t start"
			out=$("audit_$t" 2>&1)
			rc=$?
			# A mechanism the trigger set off (a deferred work item, an
			# RCU callback) lands in the sub-window, not in the next gap.
			sleep 0.3
			sh /qc/tracing/guest/trace-mark.sh "qc: audit $t end"
			case $rc in 0) st=ran ;; 3) st=not-implemented ;; *) st=failed ;; esac
			echo "$t $st $(echo "$out" | tr '\n' ' ')" >> "/results/$QC_AUDIT_TXT"
		done
		sleep "$QC_AUDIT_GAP"
		touch /tmp/audit.done
	) &
}
qc_window_done() { [ -f /tmp/audit.done ]; }
QC_WINDOW_GRACE=300
: > "/results/$QC_AUDIT_TXT"
qc_window "" 1 qc_audit_run
a=/results/$QC_AUDIT_TXT
qc_say "audit: $(grep -c ' ran ' "$a") ran, $(grep -c ' failed ' "$a") failed, $(grep -c ' not-implemented ' "$a") not implemented"
qc_selftest
