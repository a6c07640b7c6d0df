#!/bin/sh
# poke-watch.sh arm | mark TEXT | save FILE: watch the kernel patch its
# own text for a whole boot, in a trace instance of its own (probes of
# tracing/text-poke.list, each hit with its stack), apart from the
# windows' trace: arm first thing in /init, with the boot CPU alone
# online; mark each step that matters (trace-mark.sh marks the windows'
# steps here too); save the instance's text at the end, for the host's
# check (scripts/text-pokes.sh).
# busybox ash
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/trace-lib.sh"
W=$T/instances/qcwatch
case ${1:-} in
arm)
	[ ! -d "$W" ] || { warn "the text-patch watch is armed already"; exit 1; }
	mkdir "$W" || { warn "cannot make the trace instance $W"; exit 1; }
	echo mono > "$W/trace_clock"
	echo 2048 > "$W/buffer_size_kb"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/../text-poke.list" > /tmp/qc-pokes.list
	while IFS= read -r def; do
		echo "$def" >> "$T/kprobe_events" ||
			{ warn "the kernel refused the text-patch probe '$def'"; exit 1; }
		ev=${def#p:} ev=${ev%% *}
		echo stacktrace > "$W/events/$ev/trigger" && echo 1 > "$W/events/$ev/enable" ||
			{ warn "cannot enable $ev with its stack in $W"; exit 1; }
	done < /tmp/qc-pokes.list
	echo 1 > "$W/tracing_on"
	echo "qc: boot CPU alone online" > "$W/trace_marker" ;;
mark)
	shift
	[ ! -d "$W" ] || printf '%s\n' "$*" > "$W/trace_marker" ;;
save)
	[ $# -eq 2 ] || { echo "usage: poke-watch.sh save FILE" >&2; exit 2; }
	[ -d "$W" ] || { warn "the text-patch watch was never armed"; exit 1; }
	echo 0 > "$W/tracing_on"
	# Each CPU's overrun and dropped counts first ("# stats cpuN: ..."):
	# a watch that lost events proves nothing, and the host refuses it.
	{
		for c in "$W"/per_cpu/cpu*; do
			grep -E '^(overrun|dropped events):' "$c/stats" | sed "s|^|# stats ${c##*/}: |"
		done
		cat "$W/trace"
	} > "$2" ;;
*) echo "usage: poke-watch.sh arm | mark TEXT | save FILE" >&2; exit 2 ;;
esac
