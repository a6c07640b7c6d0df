#!/bin/sh
# trace-arm.sh [BUFFER_KB]: define and enable everything a boot traces,
# once, with tracing off; trace-start.sh and trace-stop.sh then bound each
# window by tracing_on alone, with no live reader (docs/design.md, step 4:
# a reader wakes through irq_work and would disturb the CPUs it watches).
#
# Once, and before the other CPUs come online (guest-init/measure.sh
# qc_prepare): defining a kprobe, enabling a tracepoint, the function
# tracer or a trigger patches kernel text, and under TCG a vCPU can go on
# running its stale translation of a site another vCPU just patched (a
# stale int3: docs/findings.md, "Under TCG"). With the boot CPU alone
# online, nothing else runs the text being patched. A second arm in one
# boot is refused.
#
# Events come from events.list and the function filter from
# ipi-callbacks.list, both in tracing/ above this script; whatever the
# running kernel lacks is skipped with a warning, never fatal.
#
# The send-side probes (probes/QC_SENDS.list, group "qcsend": origins.list
# on 6.1, origins-6.12.list on 6.12; run.sh passes qc.sends) are defined on
# every variant and in every traced scenario; once tracing runs, the events
# of origin-stacks.list get a stacktrace trigger for the sends that target
# an isolated CPU (QC_ISOLATED): tracing/README.md, "Origins". QC_ORIGINS=no
# (run.sh --param origins=no) leaves them out, only to measure what they
# cost: the verdict rule refuses a trace without them.
#
# QC_PROBES="VARIANT [LIST...]" defines the exposure probes of
# probes/VARIANT.list (kprobe events on the kernel's own drain functions,
# group "qc") before tracing starts, and those of each further list
# (probes/audit.list: the audit's proof probes, group "qcaudit"); a
# definition the kernel refuses is fatal, since the analyzer could not
# then say which CPUs a drain reached, or whether a trigger's path ran.
#
# BUFFER_KB is the ring buffer per CPU (default 32768 = 32 MiB): the
# housekeeping CPU of a hammer window logs ~10k events/s (drains, ticks,
# wake-ups), so 32 MiB holds ~40 s of it; an isolated CPU needs far less
# but buffers are one size for all CPUs. The buffer is in overwrite mode:
# if it ever wraps, the oldest events go first, the "qc: window start"
# marker is lost and the analyzer refuses the trace rather than guess.
# The clock is "mono": one clock for every CPU, so the markers written on
# the housekeeping CPU bound the window on the isolated CPUs exactly.
# busybox ash
set -u
# The lists are in tracing/, one folder up, beside the analyzer that must
# know every event they name (tests/test-analyzer-table.sh checks it).
lists=$(cd "$(dirname "$0")/.." && pwd)
. "$lists/guest/trace-lib.sh"
kb=${1:-32768}

[ -d "$T/events" ] || { warn "no tracefs at $T (CONFIG_FTRACE? mounted?)"; exit 1; }
command -v trace-cmd >/dev/null 2>&1 || { warn "trace-cmd is not installed in the guest"; exit 1; }
case $kb in ''|*[!0-9]*) warn "buffer size '$kb' is not a number of KiB"; exit 1 ;; esac

[ ! -e "$QC_TRACE_ARMED" ] || { warn "tracing was armed already in this boot ($QC_TRACE_ARMED)"; exit 1; }
[ -w "$T/kprobe_events" ] || { warn "no $T/kprobe_events (CONFIG_KPROBE_EVENTS?)"; exit 1; }
# The kprobe optimizer would patch each probe again, into a jump, a few
# jiffies later, when the other CPUs may be online: int3 probes only.
echo 0 > /proc/sys/debug/kprobes-optimization ||
	{ warn "cannot switch the kprobe optimizer off (debug.kprobes-optimization)"; exit 1; }
# Every tree's send-side list defines the same events and fields
# (tests/test-variants.sh): origin-stacks.list and the analyzer name them.
origins=${QC_SENDS:-}
[ -n "$origins" ] || { warn "no send-side probe list named (qc.sends, e.g. origins)"; exit 1; }
[ "${QC_ORIGINS:-yes}" != no ] || origins=
for list in $origins ${QC_PROBES:-}; do
	probes=$lists/probes/$list.list
	[ -f "$probes" ] || { warn "no probe list '$list' ($probes)"; exit 1; }
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$probes" | while IFS= read -r def; do
		echo "$def" >> "$T/kprobe_events" ||
			{ warn "the kernel refused probe '$def' of $probes (function renamed or inlined?)"; exit 1; }
	done || exit 1
done

# any_isolated EXPR: "EXPR || EXPR ...", once per isolated CPU with @ as it
# ("" when QC_ISOLATED names none).
. /qc/common/cpulist.sh
qc_cpulist_mask "${QC_ISOLATED:-}" || { warn "isolated CPU list '${QC_ISOLATED:-}' is not a CPU list"; exit 1; }
any_isolated() {
	_f= _c=0
	while [ $((CL_MASK >> _c)) -ne 0 ]; do
		[ $((CL_MASK >> _c & 1)) -eq 0 ] || _f="$_f${_f:+ || }$(echo "$1" | sed "s/@/$_c/g")"
		_c=$((_c + 1))
	done
	echo "$_f"
}

# events.list: "system:event" or "system:*", and "isolated" after the
# events recorded on the isolated CPUs only (an event filter on CPU).
set --
while read -r ev where; do
	sys=${ev%%:*} name=${ev#*:}
	case $where in
	'') filter= ;;
	isolated)
		# (none named: the analysis then says it saw no transition)
		[ "$CL_MASK" -ne 0 ] || { warn "event $ev is for the isolated CPUs, and QC_ISOLATED names none: skipped"; continue; }
		filter=$(any_isolated 'CPU == @') ;;
	*) warn "events.list: '$where' after $ev is not 'isolated'"; exit 1 ;;
	esac
	if [ "$name" = '*' ] || [ "$name" = "$ev" ]; then
		if [ -d "$T/events/$sys" ]; then set -- "$@" -e "$sys"
		else warn "event system $sys not in this kernel: skipped"; continue; fi
	elif [ -d "$T/events/$sys/$name" ]; then
		set -- "$@" -e "$sys:$name"
	else
		warn "event $sys:$name not in this kernel: skipped"
		continue
	fi
	[ -z "$filter" ] || set -- "$@" -f "$filter"
done <<EOF
$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$lists/events.list")
EOF
[ $# -gt 0 ] || { warn "none of the events in events.list exists"; exit 1; }

# available_filter_functions lines are "name" or "name [module]".
nfunc=0
if [ -r "$T/available_filter_functions" ]; then
	avail=/tmp/qc-avail-funcs.$$
	awk '{ print $1 }' "$T/available_filter_functions" > "$avail"
	for f in $(sed -e 's/#.*//' "$lists/ipi-callbacks.list"); do
		if grep -qxF "$f" "$avail"; then
			set -- "$@" -l "$f"
			nfunc=$((nfunc + 1))
		else
			warn "function $f not traceable in this kernel: skipped"
		fi
	done
	rm -f "$avail"
else
	warn "no function tracer: IPIs are reported by vector only"
fi
[ $nfunc -eq 0 ] || set -- -p function "$@"

trace-cmd start -C mono -b "$kb" "$@" || exit 1
# Off until the first window (trace-start.sh clears what came meanwhile).
echo 0 > "$T/tracing_on" || { warn "cannot stop tracing after arming it"; exit 1; }
echo "${origins:+stacks}" > "$QC_TRACE_ARMED"
[ -n "$origins" ] || exit 0

# stack_filter SELECT: the trigger's filter for one origin-stacks.list line.
stack_filter() {
	case $1 in
	all) ;;
	here) echo "if $(any_isolated 'CPU == @')" ;;
	mask:*) echo "if ${1#mask:} & $CL_MASK" ;;
	*) echo "if $(any_isolated "($1 == @ && CPU != @)")" ;;
	esac
}
[ "$CL_MASK" -ne 0 ] || { warn "no isolated CPU (QC_ISOLATED) to stack the sends to"; exit 1; }
# stack_lines: origin-stacks.list's "EVENT SELECT" for this scenario: an
# event's line naming QC_SCENARIO, else its line naming no scenario.
stack_lines() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$lists/origin-stacks.list" |
		awk -v sc="${QC_SCENARIO:-}" '
			NF == 2 && !($1 in sel) { sel[$1] = $2; order[n++] = $1 }
			NF == 3 && $3 == sc { mine[$1] = $2; if (!($1 in sel)) { sel[$1] = $2; order[n++] = $1 } }
			END { for (i = 0; i < n; i++) print order[i], (order[i] in mine) ? mine[order[i]] : sel[order[i]] }'
}
stack_lines | while read -r ev select; do
	trig=$T/events/$ev/trigger
	[ -w "$trig" ] || { warn "no event $ev for a stack trigger (origin-stacks.list)"; exit 1; }
	echo "stacktrace $(stack_filter "$select")" > "$trig" ||
		{ warn "the kernel refused the stack trigger 'stacktrace $(stack_filter "$select")' on $ev"; exit 1; }
done || { trace-cmd reset >/dev/null 2>&1; rm -f "$QC_TRACE_ARMED"; exit 1; }
