#!/bin/sh
# trace-start.sh: open a window's trace: empty the ring buffers of what
# came since the last window, then tracing_on. Everything traced was
# defined and enabled once in this boot by trace-arm.sh, which this runs
# first if nothing armed it yet (a one-window script); switching tracing
# on and off patches no kernel text. trace-stop.sh closes the window.
# busybox ash
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/trace-lib.sh"
[ -e "$QC_TRACE_ARMED" ] || sh "$here/trace-arm.sh" "$@" || exit 1
[ "$(cat "$T/tracing_on")" = 0 ] || { warn "tracing is on already: a window is open"; exit 1; }
# Truncating trace empties every CPU's buffer (and waits for an RCU grace
# period: the window has not opened yet).
: > "$T/trace" || { warn "cannot empty the ring buffers"; exit 1; }
echo 1 > "$T/tracing_on" || { warn "cannot switch tracing on"; exit 1; }
irq_marks || exit 1
