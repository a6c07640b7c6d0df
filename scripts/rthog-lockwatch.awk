# rthog-lockwatch.awk: the rthog scenario's trace instance (lockwatch.txt,
# the text of /sys/kernel/tracing/instances/qclock/trace) as records, one
# a line, tab-separated, for scripts/rthog.sh:
#   contention PID COMM LOCK TARGET_CPU BEGIN_S DURATION_US
#       an RT lock slow path (lock:contention_begin flags RT .. _end) of
#       task PID; TARGET_CPU is the CPU whose pcplists the task was
#       draining then (qc/drain_cpu .. qc/drain_cpu_ret), "-" outside a drain
#   pcp LOCK CPU
#       LOCK is CPU's per_cpu_pages (the pointer qclock/bulk saw a drain
#       free from while draining CPU): stock 6.12's pcp->lock is its first
#       member, so a contended LOCK equal to it is that CPU's pcp->lock
#   preempt CPU TIME_S FRAMES
#       the hog, at a real-time priority, preempted refill on CPU
#       (sched_switch refill => rthog); FRAMES: refill's kernel stack
#       then, innermost first, comma-separated, after "state:S" with
#       refill's state (R or R+: preempted; D: it had blocked, on an RT
#       lock say, and the hog ran in its place)
#   resume CPU TIME_S PRIO
#       refill ran again on CPU (sched_switch to refill, from the hog or
#       from whatever ran after it), at
#       priority PRIO (the kernel's: 120 is nice 0, under 100 real-time,
#       i.e. boosted)
#   drain PID BEGIN_S END_S
#       one drain_all_pages() call of the drainer (qc/drain_all .. _ret)
#   unfinished PID COMM LOCK BEGIN_S
#       a contention_begin with no end before the trace stopped
#   lost TEXT
#       the ring buffer lost or overwrote events: the caller must refuse
#       the trace
#   events N
#       how many event lines were read (0: not a trace)
# mawk-compatible: no gensub, no capture groups.

function flush_stack() {
	if (in_stack) {
		printf "preempt\t%s\t%s\t%s\n", stack_cpu, stack_ts, frames
		in_stack = 0
	}
}

# An event line: "COMM-PID [CPU] FLAGS TIME: EVENT: ARGS" (FLAGS may be
# absent; COMM may hold spaces). Sets ev_pid, ev_comm, ev_cpu, ev_ts,
# ev_name, ev_args; returns 0 if the line is not one.
function parse_event(line,    n, f, i, k, t, task) {
	n = split(line, f, " ")
	k = 0
	for (i = 1; i <= n; i++)
		if (f[i] ~ /^\[[0-9]+\]$/) { k = i; break }
	if (k < 2)
		return 0
	t = 0
	for (i = k + 1; i <= n; i++)
		if (f[i] ~ /^[0-9]+\.[0-9]+:$/) { t = i; break }
	if (!t || t + 1 > n)
		return 0
	task = f[1]
	for (i = 2; i < k; i++)
		task = task " " f[i]
	if (!match(task, /-[0-9]+$/))
		return 0
	ev_comm = substr(task, 1, RSTART - 1)
	ev_pid = substr(task, RSTART + 1)
	ev_cpu = substr(f[k], 2, length(f[k]) - 2) + 0
	ev_ts = substr(f[t], 1, length(f[t]) - 1)
	ev_name = f[t + 1]
	sub(/:$/, "", ev_name)
	ev_args = ""
	for (i = t + 2; i <= n; i++)
		ev_args = ev_args (i > t + 2 ? " " : "") f[i]
	return 1
}

# The value of "KEY=VALUE" among the event's arguments, "" if absent.
function arg(key,    n, a, i) {
	n = split(ev_args, a, " ")
	for (i = 1; i <= n; i++)
		if (index(a[i], key "=") == 1)
			return substr(a[i], length(key) + 2)
	return ""
}

# One spelling of an address: the kprobe's x64 prints 0x..., the lock
# events' unhashed %p prints it bare.
function addr(a) {
	sub(/^0x/, "", a)
	return a
}

/LOST [0-9]+ EVENTS/ { flush_stack(); print "lost\t" $0; next }
# The ring buffer overwrites its oldest events when full: fewer events in
# it than were written is a loss too.
/^# entries-in-buffer\/entries-written: / {
	split($3, n, "/")
	if (n[1] != n[2])
		printf "lost\t%d of %d events written were overwritten\n", n[2] - n[1], n[2]
	next
}
/^#/ { next }
/^ *=> / {
	if (in_stack) {
		fn = $2
		sub(/\+0x.*/, "", fn)
		frames = frames (frames == "" ? "" : ",") fn
	}
	next
}
{
	flush_stack()
	if (!parse_event($0))
		next
	events++
	if (ev_name == "drain_cpu") {
		draining[ev_pid] = arg("cpu")
	} else if (ev_name == "drain_cpu_ret") {
		draining[ev_pid] = ""
	} else if (ev_name == "drain_all") {
		drain_ts[ev_pid] = ev_ts
	} else if (ev_name == "drain_all_ret") {
		if (ev_pid in drain_ts)
			printf "drain\t%s\t%s\t%s\n", ev_pid, drain_ts[ev_pid], ev_ts
		delete drain_ts[ev_pid]
	} else if (ev_name == "bulk") {
		a1 = addr(arg("pcp"))
		if (draining[ev_pid] != "" && !(a1 in pcp_seen)) {
			pcp_seen[a1] = 1
			printf "pcp\t%s\t%s\n", a1, draining[ev_pid]
		}
	} else if (ev_name == "contention_begin") {
		split(ev_args, a, " ")
		begin_ts[ev_pid] = ev_ts
		begin_lock[ev_pid] = addr(a[1])
		begin_comm[ev_pid] = ev_comm
		begin_tgt[ev_pid] = draining[ev_pid] == "" ? "-" : draining[ev_pid]
	} else if (ev_name == "contention_end") {
		if (ev_pid in begin_ts) {
			printf "contention\t%s\t%s\t%s\t%s\t%s\t%.3f\n", ev_pid, begin_comm[ev_pid],
				begin_lock[ev_pid], begin_tgt[ev_pid], begin_ts[ev_pid],
				(ev_ts - begin_ts[ev_pid]) * 1e6
			delete begin_ts[ev_pid]
		}
	} else if (ev_name == "<stack") {
		# "<stack trace>", on the CPU of the switch it belongs to: the
		# file merges the CPUs' buffers by time, and the unwind may be
		# stamped later than events of other CPUs.
		if (switch_pid[ev_cpu] == ev_pid) {
			in_stack = 1
			stack_cpu = ev_cpu
			stack_ts = switch_ts[ev_cpu]
			frames = switch_state[ev_cpu]
		}
		switch_pid[ev_cpu] = ""
	} else if (ev_name == "sched_switch") {
		switch_pid[ev_cpu] = ""
		# (The hog's first switch-in, still SCHED_OTHER before it
		# raises its priority, is its start-up, not a preemption.)
		if (ev_args ~ /prev_comm=refill / && ev_args ~ /next_comm=rthog / && arg("next_prio") + 0 < 100) {
			switch_pid[ev_cpu] = ev_pid
			switch_ts[ev_cpu] = ev_ts
			# R, R+: preempted; D, S: refill blocked and the hog ran
			switch_state[ev_cpu] = "state:" arg("prev_state")
		}
	}
	if (ev_name == "sched_switch" && ev_args ~ /next_comm=refill /)
		printf "resume\t%s\t%s\t%s\n", ev_cpu, ev_ts, arg("next_prio")
}
END {
	flush_stack()
	for (p in begin_ts)
		printf "unfinished\t%s\t%s\t%s\t%s\n", p, begin_comm[p], begin_lock[p], begin_ts[p]
	printf "events\t%d\n", events
}
