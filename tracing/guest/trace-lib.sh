# trace-lib.sh: what trace-arm.sh, trace-start.sh and trace-stop.sh share
# (busybox ash, sourced): tracefs, and the file that says this boot's
# tracing was armed ("stacks" in it when the send-side stacks were).
T=/sys/kernel/tracing
QC_TRACE_ARMED=/tmp/qc-trace.armed
# warn MSG: the script's own complaint, on stderr.
warn() { echo "${0##*/}: $*" >&2; }
