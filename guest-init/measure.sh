# The isolation measurement, shared by the hammer, fifo, quiet and
# audit scenarios (docs/design.md, "The measurement, step by step").
# Sourced after guest-lib.sh; every step writes its evidence under
# /results, in the files common/contract.sh names.
#
# Order matters: isolate first (so priming and oslat land on settled
# CPUs), prime, then start tracing with no live reader and open the window
# only once oslat's threads run, so its start-up (affinity changes wake
# migration/N) stays outside what is counted.

. /qc/guest-init/module.sh

QC_OSLAT_SETTLE=${QC_OSLAT_SETTLE:-3}
# The exposure probes of this kernel (tracing/probes/<variant>.list).
export QC_PROBES

# The measured workloads. oslat spins and never enters the kernel, so once
# a drain has emptied its CPU's pcplists every later non-forced drain skips
# that CPU: it is drained once. refill (guest-init/refill.c) refills its
# own CPU's lists every QC_REFILL_MS, so every drain finds pages there.
# QC_REFILL (from the host, qc.refill=) names the refill CPUs; the other
# isolated CPUs run oslat, the pure-spin reference.
qc_cpulist_mask "$QC_ISOLATED"
qc_iso_mask=$CL_MASK
qc_refill_mask=0
case ${QC_REFILL:-none} in
none) ;;
*) qc_cpulist_mask "$QC_REFILL" || { qc_say "bad refill CPU list '$QC_REFILL'"; exit 2; }
   qc_refill_mask=$CL_MASK ;;
esac
qc_cpulist_of_mask $((qc_refill_mask & qc_iso_mask))
QC_REFILL_CPUS=$CL_LIST
qc_cpulist_of_mask $((qc_iso_mask & ~qc_refill_mask))
QC_OSLAT_CPUS=$CL_LIST
[ -n "$QC_OSLAT_CPUS" ] || { qc_say "no isolated CPU is left for oslat (refill $QC_REFILL)"; exit 2; }

qc_isolate() {
	qc_say "isolating CPUs $QC_ISOLATED (housekeeping $QC_HOUSEKEEPING)"
	sh /qc/cpusets/isolate.sh "$@" "$QC_HOUSEKEEPING" "$QC_ISOLATED" "/results/$QC_ISOLATION" ||
		{ qc_say "cpusets/isolate.sh failed"; return 1; }
	# isolate.sh's record says which IRQs refused to move (managed ones):
	# verify.sh reports those as info, not as a failure.
	if ! sh /qc/cpusets/verify.sh --record "/results/$QC_ISOLATION" "$QC_HOUSEKEEPING" "$QC_ISOLATED" \
		> "/results/$QC_VERIFY" 2>&1; then
		qc_say "isolation verification failed:"
		head -n 5 "/results/$QC_VERIFY" > /dev/console
		return 1
	fi
}

# What every traced scenario does before its window. First, with the boot
# CPU alone online, everything that patches kernel text (guest-lib.sh
# qc_online_cpus says why): the cgroups (the first cpuset's mkdir flips
# the cpuset static keys), the module (its plant serves the self-test),
# the tracing of every window of the boot (trace-arm.sh: QC_PROBES names
# them all) and the scenario's own (qc_arm_extra). Then the other CPUs
# come up; isolate (options go to isolate.sh) and prime them.
qc_prepare() {
	sh /qc/cpusets/isolate.sh --cgroups-only "$QC_HOUSEKEEPING" "$QC_ISOLATED" ||
		{ qc_say "cpusets/isolate.sh could not make the cgroups"; return 1; }
	qc_hammer_load
	# (the planter's own probe: its functions exist once the module is in)
	QC_PROBES="${QC_PROBES:-} plant" sh /qc/tracing/guest/trace-arm.sh || { qc_say "trace-arm failed"; return 1; }
	qc_arm_extra || { qc_say "the scenario's own tracing could not be armed"; return 1; }
	qc_online_cpus
	qc_isolate "$@"
	qc_prime
}
qc_arm_extra() { true; }

# Fill each isolated CPU's pcplists and keep the counts before and after.
qc_prime() {
	sh /qc/guest-init/pcp-counts.sh "/results/$QC_PCP_BEFORE"
	prime "$QC_ISOLATED" > "/results/$QC_PRIME" 2>&1 || { qc_say "priming failed"; return 1; }
	sh /qc/guest-init/pcp-counts.sh "/results/$QC_PCP_PRIMED"
	qc_say "pcp pages after priming: $(tr -d '\n ' < "/results/$QC_PCP_PRIMED")"
}

# qc_window NAME SECONDS START_CMD [OSLAT_ARGS...]: trace one window of
# SECONDS while oslat runs on the isolated CPUs; START_CMD (a shell
# function) starts the disturbance right after the start marker and
# qc_window_done (defined by the caller, default: true) is polled until it
# says the disturbance is over, at most QC_WINDOW_GRACE (10) s past the window.
qc_window() {
	name=$1 secs=$2 start=$3
	shift 3
	sh /qc/tracing/guest/trace-start.sh || { qc_say "trace-start failed"; return 1; }
	# The workloads must live in the isolated partition to be allowed
	# there. oslat's main thread sleeps on its first CPU until the end;
	# its workers spin on QC_OSLAT_WORKERS (default: the oslat CPUs).
	first=${QC_OSLAT_CPUS%%[,-]*}
	# -D is only a backstop (both are stopped by SIGINT after the end
	# marker): it must outlast the settle, the checks before the start
	# marker (28 s on a 6.12 guest under TCG) and the grace, or refill
	# exits inside the window.
	limit=$((secs + QC_OSLAT_SETTLE + ${QC_WINDOW_GRACE:-10} + 90))
	sh /qc/cpusets/enter-isolated.sh -- oslat -c "${QC_OSLAT_WORKERS:-$QC_OSLAT_CPUS}" -C "$first" \
		-D "$limit" -q "$@" \
		--json="/results/$(qc_window_file oslat "$name" json)" > "/results/$(qc_window_file oslat "$name" txt)" 2>&1 &
	oslat_pid=$!
	refill_pid=
	if [ -n "$QC_REFILL_CPUS" ]; then
		sh /qc/cpusets/enter-isolated.sh -- refill -c "$QC_REFILL_CPUS" \
			-T "${QC_REFILL_MS:-20}" -P "${QC_REFILL_PAGES:-64}" -D "$limit" -q \
			--json "/results/$(qc_window_file refill "$name" json)" > "/results/$(qc_window_file refill "$name" txt)" 2>&1 &
		refill_pid=$!
	fi
	qc_window_workloads "$name" || return 1
	sleep "$QC_OSLAT_SETTLE"
	# oslat's start-up (mlock, thread stacks) eats primed pages: what the
	# drains find is what the lists hold when the window opens.
	sh /qc/guest-init/pcp-counts.sh "/results/$(qc_window_file pcp-window "$name" json)"
	sh /qc/cpusets/verify.sh --measured --record /results/isolation.txt "$QC_HOUSEKEEPING" "$QC_ISOLATED" \
		> "/results/$(qc_window_file verify-window "$name" txt)" 2>&1 ||
		qc_say "isolation check during the window failed: see $(qc_window_file verify-window "$name" txt)"
	# Probe hits the kernel dropped (a probe hit inside another's handler):
	# the host places each window's misses, and one that may have been an
	# isolated CPU's makes the verdict INCONCLUSIVE unless a FAIL stands.
	profile=/results/$(qc_window_file "$QC_KPROBE_PROFILE" "$name" txt)
	{ echo "@ start"; cat /sys/kernel/tracing/kprobe_profile; } > "$profile"
	sh /qc/tracing/guest/trace-mark.sh "qc: window start"
	$start
	qc_wait_progress "$secs" "${name:-window}"
	waited=0
	while ! qc_window_done && [ $waited -lt "${QC_WINDOW_GRACE:-10}" ]; do
		sleep 1
		waited=$((waited + 1))
	done
	sh /qc/tracing/guest/trace-mark.sh "qc: window end"
	{ echo "@ end"; cat /sys/kernel/tracing/kprobe_profile; } >> "$profile"
	qc_window_ending "$name" || return 1
	# oslat's -D outlasts the window and its grace; SIGINT ends it now and
	# it still writes its JSON. (If it is gone already, that is fine too.)
	kill -INT "$oslat_pid" 2>/dev/null || true
	wait "$oslat_pid" || qc_say "oslat exited with $?"
	if [ -n "$refill_pid" ]; then
		kill -INT "$refill_pid" 2>/dev/null || true
		wait "$refill_pid" || { qc_say "refill exited with $?: $(tail -n1 "/results/$(qc_window_file refill "$name" txt)")"; return 1; }
	fi
	# A lab's console (qc.results=console) also gets each CPU's drains
	# as a test case (console-results.sh): the measurement window's reach.
	reach=
	[ "${QC_RESULTS:-}" != console ] || [ -n "$name" ] || reach=/results/$QC_CPU_DRAINS
	sh /qc/tracing/guest/trace-stop.sh "/results/$(qc_window_file trace "$name" dat)" ${reach:+"$reach"} ||
		{ qc_say "trace-stop failed"; return 1; }
}
qc_window_done() { true; }
# A scenario's own additions to a window NAME ("" for the measurement
# window): qc_window_workloads starts more workloads once oslat and refill
# have (so that their start-up, too, settles before the window opens);
# qc_window_ending stops them after the end marker, while the trace still
# runs (scenario rthog: the hog and its own trace instance).
qc_window_workloads() { true; }
qc_window_ending() { true; }

# The rig's own sensitivity: plant a known number of interruptions on
# isolated CPUs in a window of their own; the host's analyzer must count
# exactly that many (scripts/analyze.sh).
qc_selftest() {
	k=${QC_PLANT:-5}
	qc_cpulist_mask "$QC_ISOLATED"
	c=0
	planted=/results/$QC_PLANTED
	: > "$planted"
	while [ $((CL_MASK >> c)) -ne 0 ]; do
		if [ $((CL_MASK >> c & 1)) -eq 1 ]; then
			echo "work $c $k" >> "$planted"
			echo "dwork $c $k" >> "$planted"
			echo "ipi $c $k" >> "$planted"
			echo "iwork $c $k" >> "$planted"
			echo "clone $c $k" >> "$planted"
			echo "bare $c $k" >> "$planted"
		fi
		c=$((c + 1))
	done
	qc_say "self-test: planting $k work items, $k delayed ones, $k IPIs, $k IPIs sent from an irq_work, $k from a function named as a compiler clone and $k sender-less reschedule vectors on each of CPUs $QC_ISOLATED"
	QC_OSLAT_SETTLE=2 qc_window "$QC_WINDOW_SELFTEST" 2 qc_plant
}
qc_plant() { qc_hammer_plant "/results/$QC_PLANTED"; }
