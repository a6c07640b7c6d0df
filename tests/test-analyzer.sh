#!/bin/sh
# test-analyzer.sh: KTAP tests of tracing/qc-analyze on real guest traces
# (tests/fixtures/traces/, captured by the capture*.sh scripts there;
# README.md there lists what each holds and the counts checked here, each
# cross-checked by hand against `trace-cmd report`), and the adversarial
# cases a reviewer would try: traces cut or overwritten, windows whose
# edge falls between an IPI and its work item. Boots nothing.
cd "$(dirname "$0")/.." || exit 2
. tests/ktap.sh
QC_ROOT=$PWD
. scripts/lib/paths.sh

FX=tests/fixtures/traces
QA=tracing/qc-analyze
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# causes(CPU): by_cause of one CPU as sorted "cause=count" words.
causes_jq='def causes($c): .cpus[$c].by_cause | to_entries | map("\(.key)=\(.value)") | sort | join(" ");'
jqv() { jq -r "$2" "$1" 2>/dev/null || echo FAIL; }
# vals FILE NAME PROGRAM [JQ-ARGS...]: the figures PROGRAM makes of FILE
# (an object of them; causes(CPU) as causes gives it) as shell variables
# NAME_KEY, each as jq -r prints it, FAIL where it failed (ktap_jq_vals).
vals() {
	_v_file=$1 _v_name=$2 _v_prog=$3
	shift 3
	ktap_jq_vals "$_v_file" "${_v_name}_" "def v(f): [try (f | if type == \"string\" then . else tojson end) catch \"FAIL\"] | join(\"\\n\");
		$causes_jq $_v_prog" "$@"
}

# expect_fail DESCRIPTION PATTERN ARGS...: exit 2, one error line matching
# PATTERN (a shell pattern: [0-9], ?), no JSON left.
expect_fail() {
	desc=$1 pattern=$2
	shift 2
	# (rm, wc and grep only where the shell cannot: three processes a call)
	[ ! -e "$tmp/err.json" ] || rm -f "$tmp/err.json"
	"$QA" --json "$tmp/err.json" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	lines=0 line=
	while IFS= read -r _l; do lines=$((lines + 1)) line=$_l; done < "$tmp/err"
	# shellcheck disable=SC2254 # PATTERN is a pattern
	case $line in "qc-analyze: error: "*$pattern*) matched=yes ;; *) matched=no ;; esac
	if [ $rc -eq 2 ] && [ $lines -eq 1 ] && [ $matched = yes ] &&
		[ ! -e "$tmp/err.json" ] && [ ! -s "$tmp/out" ]; then
		ktap_ok "$desc"
	else
		ktap_not_ok "$desc"
		ktap_diag "exit $rc; stderr: $(cat "$tmp/err"); stdout: $(head -c 200 "$tmp/out")"
	fi
}

# check DESCRIPTION GOT WANT
check() {
	if [ "$2" = "$3" ]; then ktap_ok "$1"; else ktap_not_ok "$1"; ktap_diag "got:  $2" "want: $3"; fi
}

ktap_require make pkg-config jq
make -s -C tracing check-deps >/dev/null 2>&1 ||
	ktap_skip_all "libtracecmd-dev, libtraceevent-dev or libtracefs-dev is missing (sudo make setup installs them)"
ktap_plan 52

# 1: it builds, warning-free: from clean, in a copy of the sources (other
# programs of the suite run tracing/qc-analyze meanwhile), then here. The
# copy is compiled through ccache where there is one (make setup installs
# it; the kernel builds' cache, as scripts/build.sh has it), which gives
# a file unchanged since it was last compiled its object and its warnings
# again: the same build, for most of this program's CPU time less. (Each
# copy's directory is new: ccache is told not to hash it.)
mkdir "$tmp/src"
cp -r tracing common "$tmp/src/"
cc=${CC:-cc}
! command -v ccache >/dev/null 2>&1 || cc="ccache $cc"
if make -s -C "$tmp/src/tracing" clean >/dev/null 2>&1 &&
	(export CCACHE_DIR="${CCACHE_DIR:-$QC_CACHE/ccache}" CCACHE_NOHASHDIR=1 &&
	 make -s -C "$tmp/src/tracing" CC="$cc") > "$tmp/build" 2>&1 &&
	[ -x "$tmp/src/$QA" ] && ! grep -q 'warning:' "$tmp/build" &&
	make -s -C tracing >> "$tmp/build" 2>&1 && [ -x "$QA" ]; then
	ktap_ok "make -C tracing builds qc-analyze without warnings"
else
	ktap_not_ok "make -C tracing builds qc-analyze without warnings"
	ktap_diag "$(cat "$tmp/build")"
	ktap_bail_out "no analyzer to test"
fi

# planted.dat: 5 work items planted on CPU 1, 7 IPIs on CPU 3, oslat on 1-3.
"$QA" --cpus 1-3 --task oslat --json "$tmp/p.json" \
	--expect 1:workqueue:qc_planted_work=5 \
	--expect 3:irq_vectors:call_function_single:qc_planted_ipi=7 \
	"$FX/planted.dat" > "$tmp/p.txt" 2> "$tmp/p.err"
check "planted: exactly 5 workqueue:qc_planted_work on CPU 1, 7 planted IPIs on CPU 3 (--expect, exit 0)" \
	"$?:$(cat "$tmp/p.err")" "0:"
vals "$tmp/p.json" p '{cpu1: v(causes("1")), cpu3: v(causes("3")),
	counts: v([.cpus["1","2","3"].interruptions, .total] | join(" ")),
	sums: v([.cpus[] | (.by_cause | add // 0) == .interruptions] | all),
	window: v(.window | "\(.start_ns) \(.end_ns) \(.duration_ns == .end_ns - .start_ns)"),
	events3: v(.cpus["3"].events | to_entries | map("\(.key)=\(.value)") | sort | join(" ")),
	nested: v(.cpus["1"].all_causes["irq_vectors:local_timer"]),
	by_cause: v([.cpus[] | .by_cause] | tostring)}'
check "planted: CPU 1 by cause, as read in trace-cmd report" "$p_cpu1" \
	"irq_vectors:call_function_single:nohz_full_kick_func=4 irq_vectors:irq_work:nohz_full_kick_func=1 irq_vectors:local_timer=1 irq_vectors:reschedule=4 sched:ksoftirqd/1=1 timer:tick_sched_timer=7 workqueue:qc_planted_work=5 workqueue:vmstat_update=1"
check "planted: CPU 3 has only the 7 planted IPIs" "$p_cpu3" \
	"irq_vectors:call_function_single:qc_planted_ipi=7"
check "planted: interruptions 24 / 0 / 7 on CPUs 1 / 2 / 3, total 24 + 7" \
	"$p_counts" "24 0 7 31"
check "planted: each CPU's by_cause sums to its interruptions" \
	"$p_sums" "true"
check "planted: window from the markers (start, end, duration in ns)" \
	"$p_window" \
	"10310889142 10897063515 true"
check "planted: raw events on CPU 3 (7 entries, 7 exits, 7 callbacks)" \
	"$p_events3" \
	"ftrace:function=7 irq_vectors:call_function_single_entry=7 irq_vectors:call_function_single_exit=7"
check "planted: nested causes kept in all_causes (8 ticks on CPU 1, as local_timer_entry in the report)" \
	"$p_nested" "8"
if grep -q '^ *1 *- *24 *- ' "$tmp/p.txt" && grep -qx 'total: 31 interruptions' "$tmp/p.txt"; then
	ktap_ok "planted: the table shows CPU 1's 24 and the total"
else
	ktap_not_ok "planted: the table shows CPU 1's 24 and the total"
	ktap_diag "$(cat "$tmp/p.txt")"
fi
"$QA" --cpus 1-3 --json "$tmp/p0.json" "$FX/planted.dat" > /dev/null 2>&1
vals "$tmp/p0.json" p0 '{by_cause: v([.cpus[] | .by_cause] | tostring)}'
check "planted: without --task the task on the CPU at the window start is the measured one (same counts)" \
	"$p0_by_cause" "$p_by_cause"
"$QA" --cpus 1-3 --task oslat -q --expect 1:workqueue:qc_planted_work=6 "$FX/planted.dat" > /dev/null 2> "$tmp/e.err"
rc=$?
check "planted: a failed --expect exits 1 and says what it counted" \
	"$rc:$(cat "$tmp/e.err")" "1:qc-analyze: expected 6 x workqueue:qc_planted_work on CPU 1, counted 5"

# mixed.dat: oslat on 1 and 3, CPU 2 idle; text patching IPIs everywhere,
# a task and 3 planted IPIs on CPU 2.
"$QA" --cpus 1,3 --task oslat --json "$tmp/m.json" "$FX/mixed.dat" > /dev/null 2>&1
vals "$tmp/m.json" m '{cpu1: v(causes("1")), cpu3: v(causes("3")), counts: v([.cpus["1","3"].interruptions, .total] | join(" "))}'
check "mixed: CPUs 1 and 3 (oslat): only the 6 text-patching IPIs each" \
	"$m_cpu1 / $m_cpu3" \
	"irq_vectors:call_function:do_sync_core=6 / irq_vectors:call_function:do_sync_core=6"
check "mixed: interruptions 6 / 6, total 12" \
	"$m_counts" "6 6 12"
expect_fail "mixed: idle CPU 2 logged nothing before the window: refused, not read as watched" \
	'isolated CPU 2 has no event before the window' --cpus 1-3 --task oslat "$FX/mixed.dat"

# drain-wq.dat: the wq variant, CPUs 1-3 primed, oslat there, 18 remote
# drains from CPU 0 in the window: each isolated CPU runs the drain once.
"$QA" --cpus 1-3 --task oslat --json "$tmp/w.json" \
	--expect 1:workqueue:drain_local_pages_wq=1 --expect 2:workqueue:drain_local_pages_wq=1 \
	--expect 3:workqueue:drain_local_pages_wq=1 "$FX/drain-wq.dat" > /dev/null 2> "$tmp/w.err"
check "drain-wq: one workqueue:drain_local_pages_wq on each isolated CPU" "$?:$(cat "$tmp/w.err")" "0:"
vals "$tmp/w.json" w '{cpu1: v(causes("1")), cpu2: v(causes("2")), cpu3: v(causes("3")),
	counts: v([.cpus["1","2","3"].interruptions, .total] | join(" ")),
	probes: v([.drains.probes, ([.cpus[].exposure] | unique)] | tostring)}'
check "drain-wq: CPU 1 by cause (the drain's IPIs, its flush barrier, the tick left running)" \
	"$w_cpu1" \
	"irq_vectors:call_function_single:nohz_full_kick_func=1 irq_vectors:reschedule=1 timer:tick_sched_timer=14 workqueue:drain_local_pages_wq=1 workqueue:vmstat_update=1 workqueue:wq_barrier_func=1"
check "drain-wq: CPUs 2 and 3 by cause" \
	"$w_cpu2 / $w_cpu3" \
	"irq_vectors:call_function_single:nohz_full_kick_func=1 irq_vectors:irq_work:nohz_full_kick_func=1 irq_vectors:reschedule=1 timer:tick_sched_timer=3 workqueue:drain_local_pages_wq=1 workqueue:vmstat_update=1 / irq_vectors:call_function_single:nohz_full_kick_func=1 irq_vectors:irq_work:nohz_full_kick_func=1 irq_vectors:reschedule=1 timer:tick_sched_timer=2 workqueue:drain_local_pages_wq=1 workqueue:vmstat_update=1"
check "drain-wq: interruptions 19 / 8 / 7, total 34" \
	"$w_counts" "19 8 7 34"
check "drain-wq: a trace without exposure probes says so (probes false, exposure null)" \
	"$w_probes" '[false,[null]]'

# exposure-wq.dat: the wq variant with the exposure probes; oslat on CPU 1
# (primed), refill on CPUs 2-3, 2 s of drains at 100/s. Expected values
# from an awk reading of `trace-cmd report` (README.md there).
"$QA" --cpus 1-3 --task oslat,refill --json "$tmp/x.json" \
	"$FX/exposure-wq.dat" > "$tmp/x.txt" 2>&1
vals "$tmp/x.json" x '{drains: v([.drains.calls, .drains.reached, .drains.probes] | join(" ")),
	exposure: v([.cpus["1","2","3"].exposure | "\(.drains)/\(.pages)"] | join(" "))}'
check "exposure: 103 drain_all_pages() calls in the window, 96 reached an isolated CPU" \
	"$x_drains" "103 96 true"
check "exposure: drains reached / pages freed: oslat CPU 1 once (156), refill CPUs 2 and 3 66 (9656) and 78 (12555)" \
	"$x_exposure" "1/156 66/9656 78/12555"
# The hammer's own count (hammer.json, --hammer-calls): the window's calls
# by its thread, qc_hammer/0, must be as many; one fewer is a dropped
# drain_all hit (or a call outside the window), and refuses the trace.
"$QA" --cpus 1-3 --task oslat,refill --hammer-calls=103@0 --json "$tmp/h.json" \
	"$FX/exposure-wq.dat" > /dev/null 2>&1
check "exposure: the window's 103 calls are the hammer thread's, as many as it counted" \
	"$(jq -r .drains.hammer_calls "$tmp/h.json" 2>/dev/null)" "103"
rc=0
"$QA" --cpus 1-3 --task oslat,refill --hammer-calls=104@0 --json "$tmp/h2.json" \
	"$FX/exposure-wq.dat" > /dev/null 2> "$tmp/h.err" || rc=$?
check "... a hammer that counted 104 refuses the trace in one line, naming the probe, the CPU and both counts, and writes no JSON" \
	"$rc $(grep -c 'the hammer counted 104 drain_all_pages() calls on CPU 0, the window holds 103 by its thread (qc_hammer/\*, probe qc:drain_all)' "$tmp/h.err") $(wc -l < "$tmp/h.err") $(test -e "$tmp/h2.json" && echo json || echo none)" \
	"2 1 1 none"
check "exposure: the table names the drains that reached each CPU" \
	"$(grep -c '^ *[23] *[0-9][0-9] ' "$tmp/x.txt")" "2"
"$QA" --cpus 1-3 --task oslat,refill --json "$tmp/q.json" "$FX/quiet-wq.dat" > /dev/null 2>&1
vals "$tmp/q.json" q '{drains: v([.drains.calls, ([.cpus[].exposure] | unique | tostring)] | join(" "))}'
check "control: the quiet window is read on its own, its own drain calls (none) and exposure (0), no other trace's" \
	"$q_drains" '0 [{"drains":0,"pages":0}]'

# Edges. drain-wq CPU 2: reschedule IPI at 12.222797264, the nohz kick at
# 12.222875411, kworker/2:0 switched in at 12.223019863, its drain work
# item at 12.223065529. A window that starts between the IPI and the
# work item counts the work item, by its own time; one that starts while
# the kworker already runs (foreign task from before the start through
# the work item) counts it too, once. (Both windows counted by one run,
# as audit.sh counts its sub-windows: --windows, each as --window would.)
printf '%s\n' "12222850000:13072729515 - $tmp/e1.json" "12223040000:12223700000 - $tmp/e2.json" |
	"$QA" --cpus 2 --task oslat --windows - "$FX/drain-wq.dat" > /dev/null 2>&1
# (both analyses read by one jq)
# shellcheck disable=SC2016 # a jq program, single-quoted on purpose
vals "$tmp/e1.json" e '{e1: v([.cpus["2"].by_cause["workqueue:drain_local_pages_wq"], (.cpus["2"].by_cause["irq_vectors:reschedule"] // 0)] | join(" ")),
	e2: v($e2[0] | causes("2"))}' --slurpfile e2 "$tmp/e2.json"
check "edge: a work item whose IPI landed before the start and whose kworker ran after it counts 1" \
	"$e_e1" "1 0"
check "edge: a kworker running from before the start through its work item counts 1 (the work)" \
	"$e_e2" "workqueue:drain_local_pages_wq=1"

# Bad input: a clear one-line error and exit 2, never a verdict.
expect_fail "a trace without window markers is refused" 'no "qc: window start" marker' \
	--cpus 1-3 "$FX/nomarkers.dat"

# Whole-trace liveness and loss (README.md there says how each was made).
expect_fail "a trace whose isolated CPU's buffer wrapped over the window is refused (kernel statistics: overrun)" \
	'ring buffer of CPU 1 lost [0-9]* events (overrun)' --cpus 1-3 --task oslat "$FX/overwritten.dat"
# Loss anywhere, whole trace: housekeeping CPU 0 records the drain calls
# and the sends to the isolated CPUs. lost_stat FILE OUT CPU COUNT: FILE
# with its kernel statistics saying CPU's COUNT ("overrun", "commit
# overrun") is 4 (the digit after that CPU's first "COUNT: 0" patched in
# place; the data untouched). lost_on_cpu0 FILE OUT: CPU 0 overran.
lost_stat() {
	cp "$1" "$2"
	off=$(grep -boa -e "CPU: $3\$" -e "^$4: 0\$" "$2" |
		awk -F: -v n=${#4} '$2 == "CPU" { cpu = 1; next } cpu { print $1 + n + 2; exit }')
	printf 4 | dd of="$2" bs=1 seek="$off" conv=notrunc 2>/dev/null
}
lost_on_cpu0() { lost_stat "$1" "$2" 0 overrun; }
lost_on_cpu0 "$FX/drain-wq.dat" "$tmp/lost0.dat"
expect_fail "a trace whose housekeeping CPU 0 lost events is refused (kernel statistics), though CPUs 1-3 lost none" \
	'ring buffer of CPU 0 lost 4 events (overrun)' --cpus 1-3 --task oslat "$tmp/lost0.dat"
# A commit overrun (events lost while commits nested too deep: an
# interrupt's events inside a probe's) is loss too, on any CPU.
lost_stat "$FX/drain-wq.dat" "$tmp/commit2.dat" 2 "commit overrun"
expect_fail "a trace whose CPU 2 had a commit overrun is refused (kernel statistics)" \
	'ring buffer of CPU 2 lost 4 events (commit overrun)' --cpus 1-3 --task oslat "$tmp/commit2.dat"
lost_on_cpu0 "$FX/exposure-wq.dat" "$tmp/lost0x.dat"
expect_fail "a trace of drain calls whose CPU 0 lost events is refused: its drain calls would be incomplete" \
	'lost0x.dat: the kernel?s ring buffer of CPU 0 lost 4 events' --cpus 1-3 --task oslat,refill "$tmp/lost0x.dat"
if command -v trace-cmd >/dev/null 2>&1; then
	ktap_tracecmd_kept split "$FX/overwritten.dat" -o ow.dat
	expect_fail "the same without its statistics (trace-cmd split keeps the data): the lost-events flag refuses it" \
		'events were lost on CPU [0-9]' --cpus 1-3 --task oslat "$KTAP_KEPT/ow.dat.1"
	# The window of drain-wq.dat, cut out with trace-cmd split as a
	# reviewer did: the isolated CPUs' data before the start is gone.
	ktap_tracecmd_kept split "$FX/drain-wq.dat" -o cut.dat 12.073840 13.072730
	expect_fail "a trace split to its window (no isolated CPU event before it) is refused" \
		'isolated CPU 1 has no event before the window' --cpus 1-3 --task oslat "$KTAP_KEPT/cut.dat.1"
else
	ktap_skip "overwritten trace without statistics (no trace-cmd)"
	ktap_skip "a trace split to its window (no trace-cmd)"
fi
# Dropped probe hits (tracing/profile.c): the guest's kprobe_profile at
# the window's start ("@ start") and end ("@ end"), as common/contract.sh
# states it. Each probe whose missed count grew is reported with how many,
# and "unplaced" unless the trace places its misses off the isolated CPUs
# (every recorded hit of it in the window made in an interrupt, a softirq
# or an NMI ran on another CPU: a missed hit is one nested in another
# probe's handler, so in such a context, from the same call sites). The window stands either way:
# the verdict weighs an unplaced miss (judge.jq's probe_missed,
# tested in test-summarize). Snapshots that do not bracket one window are
# refused; no file is "not measured" in the JSON, never a 0.
# origins-wq.dat's window: resched recorded in interrupt context on
# isolated CPUs only, tick_dep_task on CPU 0 alone (rcu_do_batch's, 15 of
# its 111 in a softirq), tick_dep_signal nowhere.
profile() { printf '%s\n' "$@" > "$tmp/profile.txt"; }
OX=$FX/origins-wq.dat
misses() { jq -c '.probe_misses | [.missed, .unplaced, [.placed[] | [.probe, .missed, .recorded_isolated > 0, .recorded_other > 0, .unplaced]]]' "$1" 2>&1; }
profile '@ start' '  resched     100   0' '  tick_dep_task 40   0' '@ end' '  resched     180   3' '  tick_dep_task 90   0'
"$QA" --cpus 1-3 --task oslat,refill --quiet --json "$tmp/unplaced.json" --kprobe-profile "$tmp/profile.txt" "$OX"
ktap_check "a probe that missed hits and recorded some on isolated CPUs: its 3 misses are unplaced, and the window stands" \
	test "$(misses "$tmp/unplaced.json")" = '[3,3,[["resched",3,true,false,true]]]'
profile '@ start' '  tick_dep_signal 0   0' '@ end' '  tick_dep_signal 0   1'
"$QA" --cpus 1-3 --task oslat,refill --quiet --json "$tmp/unrecorded.json" --kprobe-profile "$tmp/profile.txt" "$OX"
ktap_check "... and so is one that recorded no hit in the window: its miss cannot be placed" \
	test "$(misses "$tmp/unrecorded.json")" = '[1,1,[["tick_dep_signal",1,false,false,true]]]'
profile '@ start' '  resched     100   0' '  tick_dep_task 40   1' '@ end' '  resched     180   0' '  tick_dep_task 90   3'
"$QA" --cpus 1-3 --task oslat,refill --quiet --json "$tmp/placed.json" --kprobe-profile "$tmp/profile.txt" "$OX"
ktap_check "misses whose probe recorded every hit off the isolated CPUs are placed there: counted, none unplaced" \
	test "$(jq -c '.probe_misses | [.missed, .unplaced, .placed]' "$tmp/placed.json" 2>&1)" = \
	'[2,0,[{"probe":"tick_dep_task","missed":2,"recorded_isolated":0,"recorded_other":15,"unplaced":false}]]'
profile '@ start' '  resched     100   0'
expect_fail "a profile without its end snapshot is refused, not read as no misses" \
	'has no "@ end" snapshot' --cpus 1-3 --kprobe-profile "$tmp/profile.txt" "$FX/drain-wq.dat"
profile '@ start' '  resched     100   0' '  drain_all   40   2' '@ end' '  resched     180   0'
expect_fail "a probe missing at the window's end is refused" \
	'2 probes at the window?s start, 1 at its end' --cpus 1-3 --kprobe-profile "$tmp/profile.txt" "$FX/drain-wq.dat"
profile '@ start' '  resched     100   0' '  drain_all   40   2' '@ end' '  resched     180   0' '  drain_all   90   2'
"$QA" --cpus 1-3 --quiet --json "$tmp/measured.json" --kprobe-profile "$tmp/profile.txt" "$FX/drain-wq.dat" &&
	"$QA" --cpus 1-3 --quiet --json "$tmp/unmeasured.json" "$FX/drain-wq.dat"
ktap_check "no missed hit: measured, 2 probes, 130 hits; no file: not measured, never 0" \
	test "$(jq -c .probe_misses "$tmp/measured.json" "$tmp/unmeasured.json" 2>&1 | tr '\n' ' ')" = \
	'{"measured":true,"probes":2,"hits":130,"missed":0,"unplaced":0,"placed":[]} {"measured":false,"missed":null} '
expect_fail "a bad --window is refused" 'is not START_NS:END_NS' --cpus 1-3 --window 5:3 "$FX/drain-wq.dat"
size=$(wc -c < "$FX/planted.dat")
head -c $((size * 6 / 10)) "$FX/planted.dat" > "$tmp/cut60.dat"
expect_fail "a trace cut to 60% is refused as truncated" 'truncated or corrupt' \
	--cpus 1-3 "$tmp/cut60.dat"
head -c $((size - 500)) "$FX/planted.dat" > "$tmp/cut-tail.dat"
expect_fail "a trace missing the end of its last CPU's data is refused" 'truncated or corrupt' \
	--cpus 1-3 "$tmp/cut-tail.dat"
head -c 100 "$FX/planted.dat" > "$tmp/cut-head.dat"
expect_fail "a trace cut inside its header is refused" 'truncated or corrupt' \
	--cpus 1-3 "$tmp/cut-head.dat"
printf 'CPU 1: 0 interruptions\n' > "$tmp/text.dat"
expect_fail "a text file is refused as not a trace" 'is not a trace-cmd trace.dat file' \
	--cpus 1-3 "$tmp/text.dat"
: > "$tmp/empty.dat"
expect_fail "an empty file is refused" 'is not a trace-cmd trace.dat file' \
	--cpus 1-3 "$tmp/empty.dat"
expect_fail "a missing file is refused" 'cannot read' --cpus 1-3 "$tmp/nonexistent.dat"
expect_fail "CPUs the trace does not have are refused" 'CPU 4 is not in' \
	--cpus 1-7 "$FX/planted.dat"
expect_fail "no --cpus is refused" 'pass --cpus' "$FX/planted.dat"

# The same trace in file version 6 (uncompressed, mmapped by libtracecmd).
if command -v trace-cmd >/dev/null 2>&1 &&
	ktap_tracecmd_kept convert "$FX/planted.dat" --file-version 6 -o v6.dat; then
	v6=$KTAP_KEPT/v6.dat
	"$QA" --cpus 1-3 --task oslat --json "$tmp/v6.json" "$v6" > /dev/null 2>&1
	check "planted, converted to file version 6: the same counts" \
		"$(jqv "$tmp/v6.json" '[.cpus[] | .by_cause] | tostring')" "$p_by_cause"
	head -c $(($(wc -c < "$v6") - 5000)) "$v6" > "$tmp/v6-cut.dat"
	expect_fail "a version 6 trace missing the end of its data is refused, not crashed on" \
		'truncated or corrupt' --cpus 1-3 "$tmp/v6-cut.dat"
else
	ktap_skip "planted, converted to file version 6: the same counts (no trace-cmd convert)"
	ktap_skip "a version 6 trace missing the end of its data is refused (no trace-cmd convert)"
fi

ktap_finish
