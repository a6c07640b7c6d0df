# trace-lib.sh: what trace-arm.sh, trace-start.sh and trace-stop.sh share
# (busybox ash, sourced): tracefs, and the file that says this boot's
# tracing was armed ("stacks" in it when the send-side stacks were).
T=/sys/kernel/tracing
QC_TRACE_ARMED=/tmp/qc-trace.armed
# warn MSG: the script's own complaint, on stderr.
warn() { echo "${0##*/}: $*" >&2; }
# resched_mark: each CPU's reschedule IPIs so far (/proc/interrupts' RES
# line, CPU 0 first), into the trace as "qc: resched counts N0 N1 ...":
# the qc-entry plugin numbers each CPU's IPIs the same way, and the
# analyzer matches its counts to the traced IPIs by that order
# (tracing/README.md, "Hardware time").
resched_mark() {
	_r=$(awk '$1 == "RES:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) printf "%s%s", (i > 2 ? " " : ""), $i }' /proc/interrupts)
	[ -n "$_r" ] || { warn "no RES line in /proc/interrupts"; return 1; }
	printf 'qc: resched counts %s\n' "$_r" > "$T/trace_marker"
}
