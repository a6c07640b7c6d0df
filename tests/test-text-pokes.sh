#!/bin/sh
# scripts/text-pokes.sh, the check that no kernel text was patched while a
# second CPU could run it (tracing/guest/poke-watch.sh's instance text):
# patches counted by step, the audit's text_poke trigger exempt, a patch
# after the CPUs came up refused with its callers named, and a watch that
# lost events or never saw the CPUs come up refused. Boots nothing.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
check=$root/scripts/text-pokes.sh

ktap_plan 7

# hit TIME WHO: one batch of two pokes, with the stacks the watch records.
hit() {
	cat <<HIT
              sh-86      [000] .....    $1: batch: (text_poke_bp_batch+0x0/0x1a0) nr=2
              sh-86      [000] .....    $1: <stack trace>
 => kprobe_trace_func
 => kprobe_dispatcher
 => kprobe_ftrace_handler
 => 0xffffffffa00000c8
 => text_poke_bp_batch
 => text_poke_flush
 => arch_jump_label_transform_apply
 => static_key_enable_cpuslocked
 => $2
 => ksys_write
HIT
	for a in 83 ea; do
		cat <<HIT
              sh-86      [000] .....    $1: poke: (__text_poke+0x0/0x2f2) addr=0xffffffff810347$a len=1
              sh-86      [000] .....    $1: <stack trace>
 => kprobe_trace_func
 => __text_poke
 => text_poke_bp_batch
 => $2
HIT
	done
}
mark() { echo "              sh-99      [000] .....    $1: tracing_mark_write: $2"; }
# watch [LOST] [STEPS...]: a saved watch; STEPS are "hit TIME WHO" or
# "mark TIME TEXT" lines, run in order after the boot's own patches.
watch() {
	lost=$1; shift
	for c in 0 1 2 3; do echo "# stats cpu$c: overrun: 0"; echo "# stats cpu$c: dropped events: $lost"; done
	echo "# tracer: nop"
	hit 5.1 trace_event_enable
	mark 5.6 "qc: boot CPU alone online"
	hit 6.0 kprobe_arm
	while [ $# -gt 0 ]; do eval "$1"; shift; done
}
clean="mark 20.2 'qc: onlining CPUs'|mark 22.0 'qc: CPUs online'|mark 47.5 'qc: window start'|mark 58.1 'qc: window end'"
# steps STRING: the '|'-separated steps as arguments to watch.
run_watch() { lost=$1 s=$2; IFS='|'; set -- $s; unset IFS; watch "$lost" "$@" > "$scratch/w.txt"; }

run_watch 0 "$clean"
out=$(sh "$check" "$scratch/w.txt" 2>&1)
ktap_check "a boot that patched only with one CPU: counted by step, passes" \
	test "$out" = "alone 2, onlining 0, online 0, exempt 0"

run_watch 0 "$clean|mark 60.0 'qc: audit text_poke start'|hit 60.1 qc_textpoke_init|mark 60.5 'qc: audit text_poke end'"
out=$(sh "$check" "$scratch/w.txt" 2>&1)
ktap_check "the audit's text_poke trigger: its patches exempt, and counted" \
	test "$out" = "alone 2, onlining 0, online 0, exempt 1"

run_watch 0 "mark 20.2 'qc: onlining CPUs'|hit 21.0 _cpu_up.constprop.0|mark 22.0 'qc: CPUs online'"
expect_error "a patch while the CPUs came up is refused" \
	"1 kernel text patch(es) while more than the boot CPU was online, the first by static_key_enable_cpuslocked <- _cpu_up.constprop.0 <- ksys_write" \
	sh "$check" "$scratch/w.txt"

run_watch 0 "$clean|hit 60.0 trace_event_enable|hit 61.0 trace_event_enable"
expect_error "patches in a window are refused, counted, and the first one's callers named" \
	"2 kernel text patch(es) while more than the boot CPU was online, the first by static_key_enable_cpuslocked <- trace_event_enable <- ksys_write" \
	sh "$check" "$scratch/w.txt"

run_watch 3 "$clean"
expect_error "a watch that dropped events is refused" "the text-patch watch lost events (cpu0: dropped events: 3)" \
	sh "$check" "$scratch/w.txt"

run_watch 0 "mark 20.2 'qc: onlining CPUs'"
expect_error "a watch that never saw the CPUs come up is refused" "no \"qc: CPUs online\" marker" \
	sh "$check" "$scratch/w.txt"

expect_error "no watch at all is refused" "no text-patch watch" sh "$check" "$scratch/none.txt"
ktap_finish
