#!/bin/sh
# trace-mark.sh TEXT: put TEXT in the trace as an ftrace:print event, the
# way phase boundaries are marked. The analyzer's window is bounded by
# exactly "qc: window start" and "qc: window end". A plain write to
# trace_marker: no trace-cmd process, nothing woken on other CPUs. The
# text-patch watch's instance gets the same marker, when it runs
# (poke-watch.sh), so that its patches are placed in the same steps.
[ $# -gt 0 ] || { echo "usage: trace-mark.sh TEXT" >&2; exit 2; }
m=/sys/kernel/tracing/trace_marker
[ -w "$m" ] || { echo "trace-mark: $m is not writable (tracefs mounted?)" >&2; exit 1; }
printf '%s\n' "$*" > "$m"
w=/sys/kernel/tracing/instances/qcwatch/trace_marker
[ ! -w "$w" ] || printf '%s\n' "$*" > "$w"
