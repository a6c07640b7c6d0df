#!/bin/sh
# trace-stop.sh OUTFILE [REACH]: close the window trace-start.sh opened
# (tracing off) and write its ring buffers to OUTFILE (a trace-cmd
# trace.dat: trace-cmd 3.1 writes file version 7, zstd-compressed, by
# default). What trace-arm.sh enabled stays enabled for the next window:
# disabling it would patch kernel text with every CPU online. REACH:
# first the drain calls that reached each CPU (cpu-drains.awk), read from
# the text trace, which extract then empties.
# busybox ash
set -u
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: trace-stop.sh OUTFILE [REACH]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/trace-lib.sh"
out=$1 reach=${2:-}
rc=0
# (again at the end: the analyzer checks the trace holds every IPI between)
irq_marks || rc=1
echo 0 > "$T/tracing_on" || { warn "cannot switch tracing off"; rc=1; }
if [ -n "$reach" ]; then
	awk -f "$here/cpu-drains.awk" "$T/trace" > "$reach" ||
		{ warn "counting the drains' reach into $reach failed"; rc=1; }
fi
# extract writes per-CPU temporary files next to OUTFILE. Without -k it
# disables every event and the function tracer once it is done.
trace-cmd extract -k -o "$out" >/dev/null || { warn "trace-cmd extract -k -o $out failed"; rc=1; }
[ -s "$out" ] || { warn "$out is empty"; rc=1; }
exit $rc
