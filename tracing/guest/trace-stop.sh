#!/bin/sh
# trace-stop.sh OUTFILE [REACH]: stop the tracing trace-start.sh began, write the
# ring buffers to OUTFILE (a trace-cmd trace.dat: trace-cmd 3.1 writes file
# version 7, zstd-compressed, by default), then reset tracing so that
# nothing keeps tracing. REACH: first the drain calls that reached each CPU
# (cpu-drains.awk), read from the text trace, which extract then empties.
# busybox ash
set -u
[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: trace-stop.sh OUTFILE [REACH]" >&2; exit 2; }
out=$1 reach=${2:-}
warn() { echo "trace-stop: $*" >&2; }
rc=0
trace-cmd stop || { warn "trace-cmd stop failed"; rc=1; }
if [ -n "$reach" ]; then
	awk -f "$(dirname "$0")/cpu-drains.awk" /sys/kernel/tracing/trace > "$reach" ||
		{ warn "counting the drains' reach into $reach failed"; rc=1; }
fi
# extract writes per-CPU temporary files next to OUTFILE.
trace-cmd extract -o "$out" >/dev/null || { warn "trace-cmd extract -o $out failed"; rc=1; }
[ -s "$out" ] || { warn "$out is empty"; rc=1; }
trace-cmd reset >/dev/null 2>&1 || warn "trace-cmd reset failed"
exit $rc
