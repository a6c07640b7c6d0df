# trace-lib.sh: what trace-arm.sh, trace-start.sh and trace-stop.sh share
# (busybox ash, sourced): tracefs, and the file that says this boot's
# tracing was armed ("stacks" in it when the send-side stacks were).
T=/sys/kernel/tracing
QC_TRACE_ARMED=/tmp/qc-trace.armed
# warn MSG: the script's own complaint, on stderr.
warn() { echo "${0##*/}: $*" >&2; }
# irq_marks: each CPU's reschedule IPIs, irq_work IPIs and local timer
# ticks so far (/proc/interrupts' RES, IWI and LOC lines, CPU 0 first),
# into the trace as "qc: RES counts N0 N1 ...", and so on: the qc-entry
# plugin numbers each CPU's interrupts the same way, and the analyzer
# matches its counts to the traced vectors by that order
# (tracing/README.md, "Hardware time"). "qc: counts read" goes first: a
# vector traced between it and the counts' markers may or may not be in
# the counts, and the analyzer allows for exactly those (hwtime.h
# HWTIME_READ_MARK).
irq_marks() {
	echo "qc: counts read" > "$T/trace_marker"
	awk '$1 == "RES:" || $1 == "IWI:" || $1 == "LOC:" {
		printf "qc: %s counts", substr($1, 1, 3)
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) printf " %s", $i
		printf "\n" }' /proc/interrupts > /tmp/qc-irq-marks
	[ "$(wc -l < /tmp/qc-irq-marks)" -eq 3 ] || { warn "/proc/interrupts lacks a RES, IWI or LOC line"; return 1; }
	while read -r _m; do echo "$_m" > "$T/trace_marker"; done < /tmp/qc-irq-marks
}
