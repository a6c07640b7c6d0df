#!/bin/sh
# test-analyzer.sh: KTAP tests of tracing/qc-analyze on real guest traces
# (tests/fixtures/traces/, captured by capture.sh there; README.md there
# lists what each holds and the counts checked here, each cross-checked
# by hand against `trace-cmd report`). Boots nothing.
cd "$(dirname "$0")/.." || exit 2
. tests/ktap.sh

FX=tests/fixtures/traces
QA=tracing/qc-analyze
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# by_cause of one CPU as sorted "cause=count" words, or "FAIL".
causes() { jq -r --arg c "$2" '.cpus[$c].by_cause | to_entries | map("\(.key)=\(.value)") | sort | join(" ")' "$1" 2>/dev/null || echo FAIL; }
jqv() { jq -r "$2" "$1" 2>/dev/null || echo FAIL; }

# expect_fail DESCRIPTION PATTERN ARGS...: exit 2, one error line matching PATTERN, no JSON left.
expect_fail() {
	desc=$1 pattern=$2
	shift 2
	rm -f "$tmp/err.json"
	"$QA" --json "$tmp/err.json" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
		grep -q "^qc-analyze: error: .*$pattern" "$tmp/err" &&
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

ktap_plan 32

# 1: it builds, warning-free.
if make -s -C tracing clean >/dev/null 2>&1 && make -s -C tracing > "$tmp/build" 2>&1 &&
	[ -x "$QA" ] && ! grep -q 'warning:' "$tmp/build"; then
	ktap_ok "make -C tracing builds qc-analyze without warnings"
else
	ktap_not_ok "make -C tracing builds qc-analyze without warnings"
	ktap_diag "$(cat "$tmp/build")"
	echo "$ktap_pass passed, $((ktap_fail + 31)) failed"
	exit 1
fi

# planted.dat: 5 work items planted on CPU 1, 7 IPIs on CPU 3, oslat on 1-3.
"$QA" --cpus 1-3 --task oslat --json "$tmp/p.json" \
	--expect 1:workqueue:qc_planted_work=5 \
	--expect 3:irq_vectors:call_function_single:qc_planted_ipi=7 \
	"$FX/planted.dat" > "$tmp/p.txt" 2> "$tmp/p.err"
check "planted: exactly 5 workqueue:qc_planted_work on CPU 1, 7 planted IPIs on CPU 3 (--expect, exit 0)" \
	"$?:$(cat "$tmp/p.err")" "0:"
check "planted: CPU 1 by cause, as read in trace-cmd report" "$(causes "$tmp/p.json" 1)" \
	"irq_vectors:call_function_single:nohz_full_kick_func=4 irq_vectors:irq_work:nohz_full_kick_func=1 irq_vectors:local_timer=1 irq_vectors:reschedule=3 sched:ksoftirqd/1=1 timer:tick_sched_timer=3 workqueue:qc_planted_work=5 workqueue:vmstat_update=1"
check "planted: CPU 3 has only the 7 planted IPIs" "$(causes "$tmp/p.json" 3)" \
	"irq_vectors:call_function_single:qc_planted_ipi=7"
check "planted: interruptions 19 / 0 / 7 on CPUs 1 / 2 / 3, total 26" \
	"$(jqv "$tmp/p.json" '[.cpus["1","2","3"].interruptions, .total] | join(" ")')" "19 0 7 26"
check "planted: each CPU's by_cause sums to its interruptions" \
	"$(jqv "$tmp/p.json" '[.cpus[] | (.by_cause | add // 0) == .interruptions] | all')" "true"
check "planted: window from the markers (start, end, duration in ns)" \
	"$(jqv "$tmp/p.json" '.window | "\(.start_ns) \(.end_ns) \(.duration_ns == .end_ns - .start_ns)"')" \
	"10310889142 10897063515 true"
check "planted: raw events on CPU 3 (7 entries, 7 exits, 7 callbacks)" \
	"$(jqv "$tmp/p.json" '.cpus["3"].events | to_entries | map("\(.key)=\(.value)") | sort | join(" ")')" \
	"ftrace:function=7 irq_vectors:call_function_single_entry=7 irq_vectors:call_function_single_exit=7"
check "planted: nested causes kept in all_causes (8 ticks on CPU 1, as local_timer_entry in the report)" \
	"$(jqv "$tmp/p.json" '.cpus["1"].all_causes["irq_vectors:local_timer"]')" "8"
if grep -q '^ *1 *19 ' "$tmp/p.txt" && grep -q '^total: 26 interruptions' "$tmp/p.txt"; then
	ktap_ok "planted: the table shows CPU 1's 19 and the total"
else
	ktap_not_ok "planted: the table shows CPU 1's 19 and the total"
	ktap_diag "$(cat "$tmp/p.txt")"
fi
"$QA" --cpus 1-3 --json "$tmp/p0.json" "$FX/planted.dat" > /dev/null 2>&1
check "planted: without --task the task on the CPU at the window start is the measured one (same counts)" \
	"$(jqv "$tmp/p0.json" '[.cpus[] | .by_cause] | tostring')" "$(jqv "$tmp/p.json" '[.cpus[] | .by_cause] | tostring')"
"$QA" --cpus 1-3 --task oslat -q --expect 1:workqueue:qc_planted_work=6 "$FX/planted.dat" > /dev/null 2> "$tmp/e.err"
rc=$?
check "planted: a failed --expect exits 1 and says what it counted" \
	"$rc:$(cat "$tmp/e.err")" "1:qc-analyze: expected 6 x workqueue:qc_planted_work on CPU 1, counted 5"

# mixed.dat: oslat on 1 and 3, CPU 2 idle; text patching IPIs everywhere,
# a task and 3 planted IPIs on CPU 2.
"$QA" --cpus 1-3 --task oslat --json "$tmp/m.json" "$FX/mixed.dat" > /dev/null 2>&1
check "mixed: CPU 2 (idle): 6 do_sync_core, 3 planted IPIs, the task, its tick's nohz kick and vmstat work" \
	"$(causes "$tmp/m.json" 2)" \
	"irq_vectors:call_function:do_sync_core=6 irq_vectors:call_function_single:qc_planted_ipi=3 irq_vectors:irq_work:nohz_full_kick_func=1 sched:taskset=1 workqueue:vmstat_update=1"
check "mixed: CPUs 1 and 3 (oslat): only the 6 text-patching IPIs each" \
	"$(causes "$tmp/m.json" 1) / $(causes "$tmp/m.json" 3)" \
	"irq_vectors:call_function:do_sync_core=6 / irq_vectors:call_function:do_sync_core=6"
check "mixed: interruptions 6 / 12 / 6, total 24" \
	"$(jqv "$tmp/m.json" '[.cpus["1","2","3"].interruptions, .total] | join(" ")')" "6 12 6 24"
"$QA" --cpus 2 --json "$tmp/m2.json" "$FX/mixed.dat" > /dev/null 2>&1
check "mixed: --cpus 2 alone gives CPU 2 the same counts" \
	"$(causes "$tmp/m2.json" 2)/$(jqv "$tmp/m2.json" '.cpus | keys | join(",")')" \
	"$(causes "$tmp/m.json" 2)/2"

# drain-wq.dat: the wq variant, CPUs 1-3 primed, oslat there, 18 remote
# drains from CPU 0 in the window: each isolated CPU runs the drain once.
"$QA" --cpus 1-3 --task oslat --json "$tmp/w.json" \
	--expect 1:workqueue:drain_local_pages_wq=1 --expect 2:workqueue:drain_local_pages_wq=1 \
	--expect 3:workqueue:drain_local_pages_wq=1 "$FX/drain-wq.dat" > /dev/null 2> "$tmp/w.err"
check "drain-wq: one workqueue:drain_local_pages_wq on each isolated CPU" "$?:$(cat "$tmp/w.err")" "0:"
check "drain-wq: CPU 1 by cause (the drain's flush barrier preempted, the tick left running)" \
	"$(causes "$tmp/w.json" 1)" \
	"irq_vectors:call_function_single:nohz_full_kick_func=1 irq_vectors:reschedule=1 timer:tick_sched_timer=9 workqueue:drain_local_pages_wq=1 workqueue:vmstat_update=1 workqueue:wq_barrier_func=1"
check "drain-wq: CPUs 2 and 3 by cause" \
	"$(causes "$tmp/w.json" 2) / $(causes "$tmp/w.json" 3)" \
	"$(for c in 2 3; do printf '%s' "irq_vectors:call_function_single:nohz_full_kick_func=1 irq_vectors:irq_work:nohz_full_kick_func=1 irq_vectors:reschedule=1 timer:tick_sched_timer=1 workqueue:drain_local_pages_wq=1 workqueue:vmstat_update=1"; [ $c = 3 ] || printf ' / '; done)"
check "drain-wq: interruptions 14 / 6 / 6, total 26" \
	"$(jqv "$tmp/w.json" '[.cpus["1","2","3"].interruptions, .total] | join(" ")')" "14 6 6 26"
pats=$(grep -v '^#' tracing/drain-causes.list | jq -R . | jq -s -c .)
drain_keys() { jq -r --argjson p "$pats" '[.cpus | to_entries[] | .key as $cpu | .value.by_cause | keys[] | select(. as $c | any($p[]; . as $x | $c | test($x))) | "\($cpu):\(.)"] | join(" ")' "$1"; }
if drain_keys "$tmp/w.json" | tr ' ' '\n' | grep -c ':workqueue:drain_local_pages_wq$' | grep -qx 3 &&
	[ -z "$(drain_keys "$tmp/p.json")$(drain_keys "$tmp/m.json")" ]; then
	ktap_ok "drain-causes.list names the drain on all 3 CPUs of drain-wq and nothing in planted or mixed"
else
	ktap_not_ok "drain-causes.list names the drain on all 3 CPUs of drain-wq and nothing in planted or mixed"
	ktap_diag "drain-wq: $(drain_keys "$tmp/w.json"); planted: $(drain_keys "$tmp/p.json"); mixed: $(drain_keys "$tmp/m.json")"
fi

# Bad input: a clear one-line error and exit 2, never a verdict.
expect_fail "a trace without window markers is refused" 'no "qc: window start" marker' \
	--cpus 1-3 "$FX/nomarkers.dat"
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
	trace-cmd convert --file-version 6 -i "$FX/planted.dat" -o "$tmp/v6.dat" >/dev/null 2>&1; then
	"$QA" --cpus 1-3 --task oslat --json "$tmp/v6.json" "$tmp/v6.dat" > /dev/null 2>&1
	check "planted, converted to file version 6: the same counts" \
		"$(jqv "$tmp/v6.json" '[.cpus[] | .by_cause] | tostring')" "$(jqv "$tmp/p.json" '[.cpus[] | .by_cause] | tostring')"
	head -c $(($(wc -c < "$tmp/v6.dat") - 5000)) "$tmp/v6.dat" > "$tmp/v6-cut.dat"
	expect_fail "a version 6 trace missing the end of its data is refused, not crashed on" \
		'truncated or corrupt' --cpus 1-3 "$tmp/v6-cut.dat"
else
	ktap_skip "planted, converted to file version 6: the same counts (no trace-cmd convert)"
	ktap_skip "a version 6 trace missing the end of its data is refused (no trace-cmd convert)"
fi

echo "$ktap_pass passed, $ktap_fail failed"
[ "$ktap_fail" -eq 0 ]
