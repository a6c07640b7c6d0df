# Scenario "rthog": the hammer's window with a SCHED_FIFO hog
# (guest-init/rthog.c) on one refill CPU, waking every
# QC_RTHOG_PERIOD_MS and spinning QC_RTHOG_SPIN_MS at SCHED_FIFO
# QC_RTHOG_PRIO, RT throttling off. Each wake-up preempts refill wherever
# it is; on PREEMPT_RT that may be inside its pcp section (a spinlock_t
# under migrate_disable(), and an RCU reader), which the remote drain then
# waits for: on the pcp->lock (spinlock-6.12-rt) or in synchronize_rcu()
# (rcu-6.12-rt, unless RCU priority boosting, rcutree.kthread_prio= above
# the hog's priority, lifts the reader first). The hammer's per-call
# latencies say how long each drain waited; a second trace instance
# (qclock, below) says on which lock the drainer blocked, for how long,
# and where each wake-up preempted refill. No quiet control: the question
# is the drain's wait, not a baseline of interruptions.
# qc-scenario: traced selftest hammer refill tasks=oslat,refill,rthog
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/measure.sh
set -e
[ -n "$QC_REFILL_CPUS" ] || { qc_say "rthog needs a refill CPU to hog (qc.refill=none)"; exit 2; }
qc_cpulist_mask "$QC_REFILL_CPUS"
refill_mask=$CL_MASK
# The hog's CPU: the last refill CPU unless qc.rthog_cpu= names one.
if [ -z "${QC_RTHOG_CPU:-}" ]; then
	c=0
	while [ $((refill_mask >> c)) -ne 0 ]; do
		[ $((refill_mask >> c & 1)) -eq 0 ] || QC_RTHOG_CPU=$c
		c=$((c + 1))
	done
fi
case $QC_RTHOG_CPU in ''|*[!0-9]*) qc_say "rthog CPU '$QC_RTHOG_CPU' is not a CPU number"; exit 2 ;; esac
[ $((refill_mask >> QC_RTHOG_CPU & 1)) -eq 1 ] ||
	{ qc_say "rthog CPU $QC_RTHOG_CPU is not a refill CPU ($QC_REFILL_CPUS): the hog must preempt refill"; exit 2; }
: "${QC_RTHOG_PRIO:=$QC_RTHOG_DEFAULT_PRIO}" "${QC_RTHOG_PERIOD_MS:=$QC_RTHOG_DEFAULT_PERIOD_MS}" \
	"${QC_RTHOG_SPIN_MS:=$QC_RTHOG_DEFAULT_SPIN_MS}"
# refill every 1 ms (not 20): under TCG a refill of 64 pages takes longer
# than that, so refill spends most of its time refilling (64-73% in the
# measured runs, refill.json's refill_total_us over duration) and a
# wake-up often lands in the kernel, now and then in a pcp section.
: "${QC_REFILL_MS:=1}"
export QC_REFILL_MS


LW=/sys/kernel/tracing/instances/qclock
TR=/sys/kernel/tracing
# The switches from refill to the hog, with refill's kernel stack at that
# moment (sched_switch runs on the preempted task's stack), and every
# switch back to refill (from the hog, or from a per-CPU kthread that ran
# after it): how long refill was kept off its CPU, and at what priority
# it came back (real-time when RCU boosting lifted it).
PREEMPT_FILTER='prev_comm == "refill" && next_comm == "rthog"'
SWITCH_FILTER="($PREEMPT_FILTER) || next_comm == \"refill\""

# qc_lockwatch_arm: a trace instance of its own, armed with the rest of
# the boot's tracing before the other CPUs come up (qc_arm_extra) and
# switched on for the window alone (qc_window_workloads), so that qc-analyze's
# trace stays as in every scenario: RT lock contention (rtlock's slow
# path emits lock:contention_begin with flags RT, and contention_end), the
# exposure probes (each drain call, and which CPU's pcplists the drainer
# is in), the pcp each
# free_pcppages_bulk() frees from (its third argument: stock 6.12's
# per_cpu_pages, whose first member is the lock; rcu-6.12-rt's lists) and
# refill's preemptions by the hog. Cheap: contention fires only on the
# slow path, the rest at most a few hundred times a second.
qc_lockwatch_arm() {
	mkdir "$LW" || return 1
	echo 0 > "$LW/tracing_on"
	echo mono > "$LW/trace_clock"
	echo 8192 > "$LW/buffer_size_kb"
	# Raw lock addresses, to compare with the pcp pointers.
	[ ! -e "$LW/options/hash-ptr" ] || echo 0 > "$LW/options/hash-ptr"
	echo 'p:qclock/bulk free_pcppages_bulk pcp=%dx:x64' >> "$TR/kprobe_events" || return 1
	echo 'flags & 8' > "$LW/events/lock/contention_begin/filter" || return 1
	for e in lock/contention_begin lock/contention_end qclock/bulk qc/drain_all qc/drain_all_ret \
		qc/drain_cpu qc/drain_cpu_ret; do
		echo 1 > "$LW/events/$e/enable" || { qc_say "lockwatch: cannot enable $e"; return 1; }
	done
	echo "$SWITCH_FILTER" > "$LW/events/sched/sched_switch/filter" &&
		echo "stacktrace if $PREEMPT_FILTER" > "$LW/events/sched/sched_switch/trigger" &&
		echo 1 > "$LW/events/sched/sched_switch/enable"
}
qc_arm_extra() { qc_lockwatch_arm; }

# qc_lockwatch_stop: keep the instance's text. Its events stay enabled:
# disabling them would patch kernel text with every CPU online.
qc_lockwatch_stop() {
	echo 0 > "$LW/tracing_on"
	cat "$LW/trace" > "/results/$QC_LOCKWATCH"
}

# A drain that waited for the hog is a stall: half its spin or more (at
# least the module's minimum, 1 ms).
qc_prepare --rt-throttle off
stall_ms=$((QC_RTHOG_SPIN_MS / 2))
[ "$stall_ms" -ge 1 ] || stall_ms=1
echo "$stall_ms" > $QC_HAMMER/stall_threshold_ms

# What boosting can do here, recorded before the window: rcutree's
# kthread_prio (the RCU kthreads' and the boost's SCHED_FIFO priority) and
# the real-time priority of each RCU kthread (/proc/PID/stat field 40).
{
	echo "kthread_prio=$(cat /sys/module/rcutree/parameters/kthread_prio 2>/dev/null || echo none)"
	echo "rt_runtime_us=$(cat /proc/sys/kernel/sched_rt_runtime_us)"
	for s in /proc/[0-9]*/stat; do
		read -r line 2>/dev/null < "$s" || continue
		comm=${line#*(} comm=${comm%%)*}
		case $comm in rcub/*|rcu_preempt|rcuc/*|rcuog/*|rcuop/*) ;; *) continue ;; esac
		# Fields after "comm)": state is field 3, rt_priority field 40.
		set -- ${line##*) }
		shift 37
		echo "rt_priority $comm=$1"
	done
} > "/results/$QC_RTHOG_ENV"

hog_pid=
qc_window_workloads() {
	[ -z "$1" ] || return 0
	: > "$LW/trace" && echo 1 > "$LW/tracing_on" || { qc_say "lockwatch: cannot switch $LW on"; return 1; }
	sh /qc/cpusets/enter-isolated.sh -- rthog -c "$QC_RTHOG_CPU" -p "$QC_RTHOG_PRIO" \
		-P "$QC_RTHOG_PERIOD_MS" -T "$QC_RTHOG_SPIN_MS" -D "$limit" -q \
		--json "/results/$QC_RTHOG_JSON" > /results/rthog.txt 2>&1 &
	hog_pid=$!
	qc_say "rthog: SCHED_FIFO $QC_RTHOG_PRIO on CPU $QC_RTHOG_CPU, ${QC_RTHOG_SPIN_MS} ms every ${QC_RTHOG_PERIOD_MS} ms; $(head -n1 "/results/$QC_RTHOG_ENV")"
}
qc_window_ending() {
	[ -z "$1" ] || return 0
	if [ -n "$hog_pid" ]; then
		kill -INT "$hog_pid" 2>/dev/null || true
		wait "$hog_pid" || { qc_say "rthog exited with $?: $(tail -n1 /results/rthog.txt)"; return 1; }
		hog_pid=
	fi
	qc_lockwatch_stop
}
qc_window_done() { qc_hammer_done; }
qc_window "" "$QC_DURATION" qc_hammer_start
# The hog is gone: a drain that waited for it has returned by now.
qc_hammer_finish "/results/$QC_HAMMER_JSON" 30
sh /qc/guest-init/pcp-counts.sh "/results/$QC_PCP_AFTER"
qc_selftest
