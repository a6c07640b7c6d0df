#!/bin/sh
# scripts/summarize.sh judges tests/fixtures/run (synthetic variant files
# in the analyzer's version-2 shape, see its README) by the verdict policy:
# the verdicts, their evidence per CPU and the policy it applied; FAIL is
# decided before UNPRIMED and UNEXPOSED; and every input that would let a
# verdict be judged from nothing is refused: one "quietcore: error:" line,
# a non-zero exit, no summary.json, the run's status "failed: ...".
# Boots nothing: each case edits a copy of the fixture with jq.
# shellcheck disable=SC2016,SC2154 # jq programs are single-quoted on purpose; ktap_jq_vals sets the figures (f_..., m_...)
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
summarize=$root/scripts/summarize.sh
fixture=$root/tests/fixtures/run

# fresh NAME [VARIANT...]: a copy of the fixture at $scratch/NAME without
# its summary and (faster: no t-test to build) without its allocator
# benchmark, made from one such copy; with VARIANTs, a run of those
# variants' guests only (check-run.sh reads every guest of a pass, ~40 ms
# each, and most refusals need one).
base=$scratch/fixture-judged
cp -r "$fixture" "$base"
rm -r "$base/summary.json" "$base"/*-bench
fresh() {
	_f=$scratch/$1
	cp -r "$base" "$_f"
	if [ $# -gt 1 ]; then
		shift
		for _v in wq rcu spinlock; do
			case " $* " in *" $_v "*) ;; *) rm -r "${_f:?}/$_v" ;; esac
		done
		sed -i "s/^variants: .*/variants: $*/" "$_f/run.txt"
	fi
	echo "$_f"
}
# edit FILE JQ: one JSON file of a copy to be rewritten with a jq filter
# (all of its changes in one: ktap_jq_edit), made with the others before
# the run is judged (edits_made: one jq for them all); an analysis keeps
# the totals it states the sums of (scripts/check-run.sh refuses one that
# does not: tests/test-fail-closed.sh tries that).
resum='if has("cpus") and has("total") then .total = ([.cpus[].interruptions] | add // 0) else . end'
edit() { ktap_jq_edit "$1" "$2 | $resum"; }
# verdicts RUN: "wq=FAIL rcu=PASS ..." from a run's summary.json.
# (verdicts_jq: that line's jq, read with other figures too)
verdicts_jq='[.variants | to_entries[] | "\(.key)=\(.value.verdict)"] | join(" ")'
verdicts() { jq -r "$verdicts_jq" "$1/summary.json" 2>/dev/null; }
# summarized SCRIPT RUN [ENV=VALUE...]: SCRIPT (a summarize.sh) judges
# RUN; when it fails, its output as a diagnostic (the checks of the
# summary it did not write fail).
summarized() {
	_sum=$1 _r=$2
	shift 2
	env "$@" "$_sum" "$_r" > "$scratch/out" 2>&1 ||
		ktap_diag "summarize.sh failed on $_r: $(cat "$scratch/out")"
}
# verdicts_are DESCRIPTION EXPECTED GOT: a run's verdicts, GOT (as
# verdicts_jq makes them: read with the case's other figures), are EXPECTED.
verdicts_are() {
	if [ "$3" = "$2" ]; then ktap_ok "$1"; else ktap_not_ok "$1"; ktap_diag "got: $3, want: $2"; fi
}
# judged DESCRIPTION EXPECTED RUN [ENV=VALUE...]: summarize RUN (exit 0)
# and compare its verdicts with EXPECTED.
judged() {
	desc=$1 want=$2 r=$3
	shift 3
	summarized "$summarize" "$r" "$@"
	verdicts_are "$desc" "$want" "$(verdicts "$r")"
}
# refused DESCRIPTION PATTERN RUN [ENV=VALUE...]: summarize must refuse RUN
# with exactly one line, "quietcore: error: ...PATTERN...", a non-zero
# exit, no summary.json (a stale one from an earlier pass and a stale .tmp
# are gone too) and the same reason in the run's status file.
refused() {
	desc=$1 pattern=$2 r=$3
	shift 3
	echo '{"stale": true}' > "$r/summary.json"
	echo '{"stale": true}' > "$r/summary.json.tmp"
	if out=$(env "$@" "$summarize" "$r" 2>&1); then
		ktap_not_ok "$desc"; ktap_diag "exited 0: $(printf '%s\n' "$out" | tail -n 5)"
	elif ! ktap_one_line "$out" || ! printf '%s\n' "$out" | grep -q "^quietcore: error: .*$pattern"; then
		ktap_not_ok "$desc"; ktap_diag "wrong message: $out"
	elif [ -e "$r/summary.json" ] || [ -e "$r/summary.json.tmp" ]; then
		ktap_not_ok "$desc"; ktap_diag "a summary.json was left in $r"
	elif [ "$(cat "$r/status")" != "failed: ${out#quietcore: error: }" ]; then
		ktap_not_ok "$desc"; ktap_diag "status: $(cat "$r/status")"
	else
		ktap_ok "$desc"
	fi
}

ktap_require jq gcc make gnuplot
ktap_plan 64

# --- the fixture as committed ---------------------------------------------
run=$scratch/run
cp -r "$fixture" "$run"
echo '{"stale": true}' > "$run/summary.json.tmp"
ktap_check "summarize judges the three-variant fixture" sh -c "'$summarize' '$run' > '$scratch/table' 2>'$scratch/err'"
# The summary's figures the checks below compare, and what they are
# compared with (the committed summary; the drain-cause list's patterns,
# its lines but comments and blank ones; the latency files' maxima), one
# jq: f_<KEY>.
ktap_jq_vals "$run/summary.json" f_ '{
	same: (. == $committed[0]),
	verdicts: ('"$verdicts_jq"'),
	probe_misses: ([.variants[].probe_misses] | unique | tojson),
	wq2: (.variants.wq.cpus["2"] | [.workload, .interruptions, .charged, .indirect, .unknown, .exposure, .control.rcu_qs, .control.charged] | tojson),
	rcu: (.variants.rcu | [.charged_total, .interruptions_total, .cpus["3"].by_cause] | tojson),
	spinlock: (.variants.spinlock | [.verdict_cpus, .cpus["3"].exposure.drains, .cpus["3"].charged] | tojson),
	policy: (.policy | [.min_drain_calls, .min_exposure, .exposure_scenarios, .baseline, .continuation_ns] | tojson),
	retired: ([paths | .[-1] | strings | select(test("coincidence|drain_causes|calls_from"))] | unique | join(" ")),
	selftest: ([.variants[].selftest | [.counted, .planted, .verdict_check.verdict, .verdict_check.exact]] | unique | tojson),
	latency: (.variants.rcu.cpus | [.["1"].latency_tool, .["1"].latency_max_us, .["2"].latency_tool, .["2"].latency_max_us] | tojson),
	latency_files: (["oslat", ($oslat[0].thread[] | select(.cpu == 1) | .max), "refill", ($refill[0].thread[] | select(.cpu == 2) | .max)] | tojson),
	bench: (.alloc_bench | [.wq.diff_pct_vs_baseline, (.spinlock.diff_pct_vs_baseline | . * 10 | round), .spinlock.significant] | tojson)}' \
	--slurpfile committed "$fixture/summary.json" \
	--slurpfile oslat "$run/rcu/oslat.json" --slurpfile refill "$run/rcu/refill.json"
ktap_check "the committed fixture summary is what summarize writes (regenerate it: see its README)" \
	test "$f_same" = true
# (the fixture's analyses are from before the guest recorded kprobe_profile)
ktap_check "dropped probe hits an analysis does not state are 'not measured', never 0 ($f_probe_misses)" \
	test "$f_probe_misses" = '[{"measured":false,"missed":null}]'
ktap_check "no stale summary.json.tmp is left" test ! -e "$run/summary.json.tmp"
ktap_check "the run's status stays ok" test "$(cat "$run/status")" = ok
ktap_check "verdicts: wq FAIL, rcu PASS, spinlock UNEXPOSED" test "$f_verdicts" = "wq=FAIL rcu=PASS spinlock=UNEXPOSED"
ktap_check "wq CPU 2: sent by the drain, the drains that reached it and the quiet control's RCU forcing" \
	test "$f_wq2" = '["refill",799,796,0,0,{"drains":398,"pages":25472},3,0]'
ktap_check "nothing of the retired rule by time in the summary (${f_retired:-none})" test -z "$f_retired"
ktap_check "rcu PASSes with uncharged other causes shown, not hidden" \
	test "$f_rcu" = '[0,2,{"irq_vectors:reschedule":1}]'
ktap_check "spinlock is UNEXPOSED by its refill CPU 3 (40 drains reached it, the policy needs 100)" \
	test "$f_spinlock" = '[["3"],40,0]'
ktap_check "summary.json records the policy it applied: thresholds, baseline, continuation" \
	test "$f_policy" = "[100,{\"refill\":100,\"oslat\":1},[\"hammer\"],\"wq\",1000000]"
ktap_check "each variant's self-test is judged on its own, verdict check FAIL with exact counts" \
	test "$f_selftest" = '[[30,30,"FAIL",true]]'
ktap_check "latency per CPU from its workload's file (CPU 1 oslat.json, CPU 2 refill.json)" \
	test "${f_latency:-none}" = "${f_latency_files:-missing}"
# The verdict table names the evidence per CPU, one CPU a line, within 100 columns.
ktap_check "verdict table: wq's row with CPU 1's evidence" grep -qxF \
	'wq         FAIL               402    19618    98213      0  cpu1 3/1 oslat, ind 0, unk 0' "$scratch/table"
ktap_check "verdict table: CPU 2's evidence on its own line" grep -qxF \
	'                                                            cpu2 796/398 refill, ind 0, unk 0' "$scratch/table"
ktap_check "verdict table: no line over 100 columns" sh -c "! awk 'length > 100' '$scratch/table' | grep -q ."
ktap_check "allocator benchmark against the baseline (wq)" test "$f_bench" = '[0,-79,true]'

# case_guest CASE VARIANT: g, the case's copy of the fixture's VARIANT guest
# in the run $cases, named VARIANT-CASE (qc_label's VARIANT-TAG form), its
# analyses naming their own directory's traces (check-run.sh).
case_guest() {
	g=$cases/$2-$1
	cp -r "$fixture/$2" "$g"
	sed -i "s|/$2/trace|/$2-$1/trace|g" "$g"/*.json
}

# --- fail closed: each input a verdict would otherwise be judged without ---
# A guest's own inputs, those the judge (judge.jq) refuses a guest for:
# one run holds a guest per case, and one summarize pass judges them all
# (each pass costs ~0.4 CPU-s). It refuses the run by the first guest
# refused, checked as refused() checks every refusal; QC_JUDGED keeps
# every refusal, a line each naming its guest's directory: each case is
# checked there.
cases=$(fresh refusals)
rm -r "${cases:?}/wq" "$cases/rcu" "$cases/spinlock"
case_guest nocpus rcu
edit "$g/analysis.json" '.cpus = {}'
case_guest onecpu wq
edit "$g/analysis.json" 'del(.cpus["2"])'
case_guest nohammer spinlock
rm "$g/hammer.json"
case_guest noselftest rcu
rm "$g/selftest.json"
case_guest vcheckshort rcu
edit "$g/selftest-charged.json" '.cpus["3"].origins |= (.drain_by_cause["workqueue:qc_planted_work"] = 4 | .drain -= 1)'
case_guest vcheckpass wq
edit "$g/selftest-charged.json" '.cpus[].origins |= (.drain = 0 | .drain_by_cause = {})'
case_guest noorigins rcu
edit "$g/analysis.json" 'del(.origin_probes, .cpus[].origins) | .origin_probes = {complete: false, missing: "qcsend:resched"}'
case_guest otherfunctions wq
edit "$g/analysis.json" '.policy.drain_functions = ["drain_all_pages"]'
case_guest planter spinlock
edit "$g/selftest-charged.json" '.policy.drain_functions = ["drain_all_pages"]'
# The refusals summarize makes itself, each run alone. All these runs,
# the one above too, are made first (their edits in one jq), then each
# judged.
old_analysis=$(fresh old-analysis spinlock)
edit "$old_analysis/spinlock/analysis.json" 'del(.cpus[].exposure, .drains, .policy)'
no_isolated=$(fresh no-isolated)
sed -i 's/^isolated: .*/isolated: /' "$no_isolated/run.txt"
selftest_fail=$(fresh selftest-fail wq)
edit "$selftest_fail/wq/selftest.json" '.pass = false'
# One variant a planted item short on CPU 1, another one over: summed over
# the variants they would read 60/60, a pass.
per_variant=$(fresh per-variant wq rcu)
edit "$per_variant/wq/selftest.json" '.cpus["1"].counted = 9 | .counted = 29'
edit "$per_variant/rcu/selftest.json" '.cpus["1"].counted = 11 | .counted = 31'
per_cpu=$(fresh per-cpu spinlock)
edit "$per_cpu/spinlock/selftest.json" '.cpus["1"].counted = 9 | .cpus["2"].counted = 11'
# (check-run.sh's jq parses each file alone and names the first it cannot;
# the validator then says what is wrong with it: rcu's guest alone is
# enough.)
cut=$(fresh cut rcu)
head -c 300 "$fixture/rcu/analysis.json" > "$cut/rcu/analysis.json"
ktap_jq_edits_made
refused "a run with guests the judging refuses is refused" "" "$cases" QC_JUDGED="$scratch/judged"
guest_refusals=$(sed -n 's/^quietcore: error: //p' "$scratch/judged")
ktap_check "... by the first guest it refused, as judged" \
	test "$(sed -n 's/^failed: //p' "$cases/status")" = "$(printf '%s\n' "$guest_refusals" | head -n1)"
# guest_refused DESCRIPTION GUEST PATTERN: the judging refused GUEST, its
# refusal naming its file, "<run>/GUEST/PATTERN".
guest_refused() {
	if printf '%s\n' "$guest_refusals" | grep -q "^$cases/$2/$3"; then ktap_ok "$1"
	else ktap_not_ok "$1"; ktap_diag "no refusal of $2 matches '$3': $(printf '%s\n' "$guest_refusals" | grep "/$2/")"; fi
}
guest_refused "an analysis.json without per-CPU entries is refused" rcu-nocpus "analysis.json has no per-CPU entry .* CPU 1,2,3"
guest_refused "an analysis.json missing one isolated CPU is refused" wq-onecpu "analysis.json has no per-CPU entry .* CPU 2 "
guest_refused "a missing hammer.json in a hammer run is refused" spinlock-nohammer "hammer.json is missing"
guest_refused "a missing self-test in a hammer run is refused" rcu-noselftest "selftest.json is missing"
guest_refused "a verdict-level self-test charging other than planted is refused" rcu-vcheckshort \
	"selftest-charged.json: .*verdict rule gave FAIL, charging CPU 1 10 of 10 planted, CPU 2 10 of 10 planted, CPU 3 9 of 10"
guest_refused "a verdict-level self-test that does not FAIL is refused" wq-vcheckpass \
	"selftest-charged.json: .*verdict rule gave UNEXPOSED, charging CPU 1 0 of 10 planted"
guest_refused "a trace without the send-side probes is refused, never judged by time" rcu-noorigins \
	"analysis.json has no origins: its trace lacks the send-side probes (qcsend:resched)"
guest_refused "an analysis charged with other drain functions than the policy's is refused" wq-otherfunctions \
	"analysis.json was charged with the drain's functions \[drain_all_pages\]"
guest_refused "a verdict-level self-test not charged with the planter as the drain is refused" spinlock-planter \
	"selftest-charged.json was charged with the drain's functions \[drain_all_pages\], not \[qc_plant_write\]"
refused "an old-format analysis.json (no exposure, no drain counts) is refused" \
	"spinlock/analysis.json: .* is missing .*re-run scripts/analyze.sh" "$old_analysis"
refused "an empty isolated: line is refused" "run.txt says 'isolated: ' but guest rcu isolated '1-3'" "$no_isolated"
refused "a self-test with pass: false is refused" "wq/selftest.json disagrees with its evidence: pass is false" "$selftest_fail"
refused "a self-test short in one variant and over in another is refused, not summed" \
	"rcu/selftest.json disagrees with its evidence: CPU 1 counted 11, but selftest-analysis.json counted 10" "$per_variant"
refused "a self-test short on one CPU and over on another is refused, not summed" \
	"spinlock/selftest.json disagrees with its evidence: CPU 1 counted 9, but selftest-analysis.json counted 10" "$per_cpu"
refused "a cut analysis.json is refused, not read as absent" "rcu/analysis.json: is not JSON" "$cut"

# --- the order of the rule ------------------------------------------------
# Every case below is judged in one run, m: each case's guests are copies
# of the fixture's, named VARIANT-CASE (qc_label's VARIANT-TAG form),
# edited as the case says. summarize.sh judges each guest on its own, so
# one call (~2 CPU-s) serves them all. (The fixture's own guests, whose
# verdicts the cases do not change, are checked above.)
m=$(fresh rule)
rm -r "${m:?}/wq" "$m/rcu" "$m/spinlock"
cases=$m
case_guest unprimed wq
edit "$g/pcp-window.json" '.["1"] = 0'
case_guest unprimed rcu
edit "$g/pcp-window.json" '.["2"] = 0'
case_guest unexposed wq
edit "$g/analysis.json" '.cpus["2"].exposure.drains = 10'
case_guest unexposed rcu
edit "$g/analysis.json" '.cpus["1"].exposure.drains = 0'
case_guest noprobes rcu
edit "$g/analysis.json" '.drains.probes = false | .cpus[].exposure = null'
case_guest few rcu
edit "$g/hammer.json" '.calls = 50 | .samples_kept = 50 | .samples_dropped = 0'
case_guest few spinlock
edit "$g/analysis.json" '.cpus["3"].exposure.drains = 100'
edit "$g/hammer.json" '.stalls = 1'
# By cause: RCU forcing for a drain's grace period, a remote-type
# interruption without a sender, and time alone (which decides nothing).
indirect='.cpus["2"].origins |= (.classes.rcu_qs += 2 | .rcu_qs_by_grace_period.drain_requested = 2)'
unknown='.cpus["3"].origins |= (.classes.unknown = 1 | .classes.remote = ([.classes.remote - 1, 0] | max)
	| .unknown_by_cause = {"irq_vectors:reschedule": 1})'
case_guest indirect rcu
edit "$g/analysis.json" "$indirect"
case_guest indirect spinlock
edit "$g/analysis.json" '.cpus["3"].exposure.drains = 100 | '"$unknown"
# A lock hand-off (on RT: the drain's unlock woke a task that blocked on
# its lock): counted apart. Alone it is CONTENDED, decided after INDIRECT
# and before UNEXPOSED; beside a drain send that is no hand-off, FAIL.
# sent: one more reschedule IPI on CPU C, sent by the drain.
sent='.cpus[$c] |= (.interruptions += 1 | .by_cause["irq_vectors:reschedule"] += 1
	| .origins |= (.classes.remote += 1 | .drain += 1 | .drain_by_cause["irq_vectors:reschedule"] += 1))'
handoff="def sent(\$c): $sent; sent(\"2\") | .cpus[\"2\"].origins |= (.drain_handoff += 1
	| .drain_handoff_by_cause[\"irq_vectors:reschedule\"] += 1)"
case_guest handoff spinlock
edit "$g/analysis.json" "$handoff"
case_guest handoff rcu
edit "$g/analysis.json" "$handoff | $indirect"
# The ladder: an interruption without a sender is decided right after
# FAIL, so that INDIRECT and CONTENDED need none of them.
case_guest ladder rcu
edit "$g/analysis.json" "$indirect | $unknown"
case_guest ladder spinlock
edit "$g/analysis.json" "$handoff | $unknown"
case_guest mixed spinlock
edit "$g/analysis.json" "$handoff | def sent(\$c): $sent; sent(\"3\")"
case_guest order wq
edit "$g/analysis.json" "$indirect | $unknown"
case_guest order rcu
edit "$g/analysis.json" "$unknown | .cpus[\"2\"].origins.rcu_qs_by_grace_period.drain_waited = 5"
# A probe's dropped hit the trace cannot place off the isolated CPUs is
# decided right after no_sender; placed ones decide nothing.
miss='.probe_misses = {measured: true, probes: 40, hits: 900, missed: $n, unplaced: $u,
	placed: [{probe: "csd_queue", missed: $n, recorded_isolated: (if $u > 0 then 2 else 0 end), recorded_other: 50, unplaced: ($u > 0)}]}'
case_guest missed rcu
edit "$g/analysis.json" "3 as \$n | 3 as \$u | $indirect | $miss"
case_guest missed wq
edit "$g/analysis.json" "3 as \$n | 3 as \$u | $miss"
case_guest placed rcu
edit "$g/analysis.json" "2 as \$n | 0 as \$u | $indirect | $miss"
# A trace without RCU's request path: its forcing cannot be charged or
# cleared (INCONCLUSIVE, decided after probe_missed, not over FAIL); one
# with it whose untraced requests predate the trace decides nothing.
untraced='.grace_periods = {requests_traced: false, started: 300, drain_requested: null, request_untraced: null}
	| .cpus["2"].origins |= (.classes.rcu_qs += 2 | .rcu_qs_by_grace_period.request_untraced = 2)'
case_guest untraced rcu
edit "$g/analysis.json" "$untraced"
case_guest untraced wq
edit "$g/analysis.json" "$untraced"
case_guest pretrace spinlock
edit "$g/analysis.json" '.cpus["3"].exposure.drains = 100
	| .cpus["2"].origins |= (.classes.rcu_qs += 2 | .rcu_qs_by_grace_period.request_untraced = 2)'
# Hardware time: an emulator-timed forcing (its stretch shorter on
# hardware than RCU's forcing interval) does not decide INDIRECT.
timed='.cpus["2"].rcu_qs_timing = {emulator_timed: $e, hardware_plausible: (2 - $e), untimed: 0,
	indirect: {emulator_timed: $e, hardware_plausible: (2 - $e), untimed: 0}, stretch_insns: []}'
case_guest emulated rcu
edit "$g/analysis.json" "2 as \$e | $indirect | $timed"
case_guest halftimed rcu
edit "$g/analysis.json" "1 as \$e | $indirect | $timed"
inflight='.cpus["2"] |= (.interruptions += $n | .by_cause["timer:tick_sched_timer"] += $n
	| .origins.classes.rcu_qs += $n | .origins.rcu_qs_by_grace_period.other += $n)'
case_guest coincidence rcu
edit "$g/analysis.json" "26 as \$n | $inflight"
rm "$g/analysis-quiet.json"
# A guest that failed (its status says so, its analysis is cut short) and
# a variant run.txt names with no guest at all (spinlock-6.12): each is
# FAILED-RUN, and the others are still judged.
case_guest failed spinlock
echo "failed: guest died" > "$g/status"
head -c 100 "$fixture/spinlock/analysis.json" > "$g/analysis.json"
sed -i 's/^variants: .*/& spinlock-6.12/' "$m/run.txt"
ktap_jq_edits_made
"$summarize" "$m" > "$scratch/out" 2>&1 || ktap_diag "summarize.sh refused the cases' run: $(cat "$scratch/out")"
# The cases' figures, read from the summary once (ktap_jq_vals): m_verdicts,
# every guest's "GUEST=VERDICT"; m_failed, the FAILED-RUN ones; the
# others as JSON.
ktap_jq_vals "$m/summary.json" m_ '{verdicts: ('"$verdicts_jq"'),
	indirect: ([.variants["rcu-indirect"].indirect_total, .variants["rcu-indirect"].verdict_cpus,
	            .variants["spinlock-indirect"].cpus["3"].unknown_by_cause] | tojson),
	handoffs: ([.variants["spinlock-handoff"] | .handoff_total, .charged_total, .verdict_cpus]
	           + [.variants["spinlock-mixed"] | .handoff_total, .charged_total, .verdict_cpus] | tojson),
	no_sender: ([.variants["rcu-ladder", "spinlock-ladder", "rcu-indirect"] | .no_sender] | tojson),
	failed: ([.variants | to_entries[] | select(.value.verdict == "FAILED-RUN") | .key] | join(" "))}'
# case_verdicts DESCRIPTION "GUEST=VERDICT ...": those guests' verdicts in m
# (looked up in m_verdicts).
case_verdicts() {
	got=
	for gv in $2; do
		_v="${gv%%=*}=null"
		for _gv in $m_verdicts; do [ "${_gv%%=*}" != "${gv%%=*}" ] || _v=$_gv; done
		got="${got:+$got }$_v"
	done
	if [ "$got" = "$2" ]; then ktap_ok "$1"; else ktap_not_ok "$1"; ktap_diag "got: $got, want: $2"; fi
}
case_verdicts "FAIL is decided before UNPRIMED (wq CPU 1 unprimed and charged), UNPRIMED still found (rcu)" \
	"wq-unprimed=FAIL rcu-unprimed=UNPRIMED"
case_verdicts "FAIL is decided before UNEXPOSED; an oslat CPU no drain reached is UNEXPOSED" \
	"wq-unexposed=FAIL rcu-unexposed=UNEXPOSED"
case_verdicts "a trace without exposure probes is UNEXPOSED, never PASS" "rcu-noprobes=UNEXPOSED"
case_verdicts "STALLED and TOO-FEW-DRAINS come last; exposure at the threshold is enough" \
	"rcu-few=TOO-FEW-DRAINS spinlock-few=STALLED"
case_verdicts "RCU forcing for a grace period a drain requested: INDIRECT; a reschedule without a sender: INCONCLUSIVE" \
	"rcu-indirect=INDIRECT spinlock-indirect=INCONCLUSIVE"
ktap_check "... rcu's indirect count and spinlock's unknown cause in the summary" \
	test "$m_indirect" = '[2,["2"],{"irq_vectors:reschedule":1}]'
case_verdicts "a lock hand-off alone: CONTENDED, before UNEXPOSED; after INDIRECT; beside another drain send: FAIL" \
	"spinlock-handoff=CONTENDED rcu-handoff=INDIRECT spinlock-mixed=FAIL"
ktap_check "... the hand-offs in the summary, apart from and within the drain's sends" \
	test "$m_handoffs" = '[1,1,["2"],1,2,["3"]]'
case_verdicts "an interruption without a sender beside RCU forcing or a lock hand-off: INCONCLUSIVE, not INDIRECT or CONTENDED" \
	"rcu-ladder=INCONCLUSIVE spinlock-ladder=INCONCLUSIVE"
ktap_check "... each named by CPU, cause and count ($m_no_sender)" \
	test "$m_no_sender" = '[[{"cpu":"3","cause":"irq_vectors:reschedule","count":1}],[{"cpu":"3","cause":"irq_vectors:reschedule","count":1}],[]]'
case_verdicts "FAIL before INCONCLUSIVE before INDIRECT; RCU forcing a drain only waited on (shared) is not charged" \
	"wq-order=FAIL rcu-order=INCONCLUSIVE"
case_verdicts "a dropped probe hit that may be an isolated CPU's: INCONCLUSIVE over RCU forcing, not over FAIL; placed ones: INDIRECT stands" \
	"rcu-missed=INCONCLUSIVE wq-missed=FAIL rcu-placed=INDIRECT"
case_verdicts "RCU forcing in a trace without RCU's request path: INCONCLUSIVE, not over FAIL; untraced requests from before a traced trace decide nothing" \
	"rcu-untraced=INCONCLUSIVE wq-untraced=FAIL spinlock-pretrace=PASS"
case_verdicts "RCU forcing for a drain's grace period, all emulator-timed: PASS; one of two hardware-plausible: INDIRECT" \
	"rcu-emulated=PASS rcu-halftimed=INDIRECT"
case_verdicts "26 ticks in flight during drains, another's grace period, no control: time alone charges nothing (PASS)" \
	"rcu-coincidence=PASS"
# (the FAILED-RUN guests: those two, no other)
ktap_check "a failed or missing variant is FAILED-RUN and the rest is still judged" \
	test "$m_failed" = "spinlock-failed spinlock-6.12"

# --- runs of other shapes ---------------------------------------------------
r=$scratch/baseline
cp -r "$fixture" "$r"
sed -i 's/^variants: .*/variants: rcu wq spinlock/' "$r/run.txt"
summarized "$summarize" "$r"
ktap_jq_vals "$r/summary.json" b_ '{verdicts: ('"$verdicts_jq"'),
	bench: ([.policy.baseline, .alloc_bench.rcu.diff_pct_vs_baseline, (.alloc_bench.wq.diff_pct_vs_baseline > 0)] | tojson)}'
verdicts_are "a run whose first variant is rcu is judged the same" "rcu=PASS wq=FAIL spinlock=UNEXPOSED" "${b_verdicts-}"
ktap_check "... and compares against rcu, its first variant, not wq" test "${b_bench-}" = '["rcu",0,true]'
r=$(fresh no-refill-line)
sed -i '/^refill:/d' "$r/run.txt"
sed -i 's/ qc\.refill=[^ ]*//g' "$r"/*/boot-params.txt
judged "a run from before the refill line: every isolated CPU counts as oslat" "wq=FAIL rcu=PASS spinlock=PASS" "$r"

# summarize reads the guest directories a run has, not names rebuilt from
# run.txt: a stress run (tests/fixtures/stress-run: wq-debug, rcu-debug,
# spinlock-debug, no trace) and a single make run result (one variant, no
# benchmark).
r=$scratch/stress
cp -r "$root/tests/fixtures/stress-run" "$r"
printf 'phase 1\nmemory offline/online: memory9 ok\n' > "$r/rcu-debug/stress-phases.txt"
# (spinlock-debug with 1,500 samples, 1499 µs down to 0: over the plot's 1,000)
edit "$r/spinlock-debug/hammer.json" '.samples_us = [range(1499; -1; -1)] | .samples_kept = 1500 | .samples_dropped = .calls - 1500'
ktap_jq_edits_made
summarized "$summarize" "$r"
# (the summary's verdicts and figures and the guests' hammer.json calls, one jq)
ktap_jq_vals "$r/summary.json" s_ '{verdicts: ('"$verdicts_jq"'), phases: ([.variants[].stress] | tojson),
	plot: (.variants["spinlock-debug"].plot.drain.samples_us | [length, first, .[1], last] | tojson),
	calls: ([.variants[].drain.calls] | tojson), hammer_calls: ([$wq[0].calls, $rcu[0].calls, $spinlock[0].calls] | tojson)}' \
	--slurpfile wq "$r/wq-debug/hammer.json" --slurpfile rcu "$r/rcu-debug/hammer.json" \
	--slurpfile spinlock "$r/spinlock-debug/hammer.json"
verdicts_are "a stress run is judged from its <variant>-debug directories" \
	"wq-debug=NO-TRACE rcu-debug=NO-TRACE spinlock-debug=NO-TRACE" "${s_verdicts-}"
ktap_check "... with the phases a guest wrote, line by line, and none where it wrote none" \
	test "$s_phases" = '[null,{"phases":["phase 1","memory offline/online: memory9 ok"]},null]'
ktap_check "... and a plot of over 1,000 drain samples keeps 1,000 order statistics, the first and the last among them" \
	test "$s_plot" = '[1000,0,1,1499]'
# (none read, none equal)
ktap_check "... with each one's drain calls from its hammer.json" test "${s_calls:-none}" = "${s_hammer_calls:-missing}"
r=$(fresh single)
rm -r "$r/rcu" "$r/spinlock"
sed -i 's/^variants: .*/variants: wq/' "$r/run.txt"
judged "a single-variant run (make run) is judged" "wq=FAIL" "$r"
ktap_check "... and its report renders" sh -c "'$root/scripts/report.sh' '$r' >/dev/null 2>&1"
# The repository's policy, both its parts, judge one run: the thresholds
# come from the policy file (QC_VERDICT_POLICY: refill 40, which spinlock
# passes), and a variant patches/series marks "baseline" is the baseline
# when the run has it (a copy of the repository's host side with rcu
# marked).
jq '.min_exposure.refill = 40' "$root/tracing/verdict-policy.json" > "$scratch/policy.json"
mark=$scratch/marked-repo
mkdir -p "$mark/patches" "$mark/guest-init" "$mark/tracing"
cp -r "$root/scripts" "$mark/"
cp -r "$root/common" "$mark/"
cp -r "$root/guest-init/scenarios" "$mark/guest-init/"
cp -r "$root/docs" "$mark/"
cp "$root/tracing/verdict-policy.json" "$mark/tracing/"
sed 's/^rcu .*/& baseline/' "$root/patches/series" > "$mark/patches/series"
r=$(fresh policy)
summarized "$mark/scripts/summarize.sh" "$r" QC_ROOT="$mark" QC_VERDICT_POLICY="$scratch/policy.json"
ktap_jq_vals "$r/summary.json" p_ '{verdicts: ('"$verdicts_jq"'),
	baseline: ([.policy.baseline, .policy.baseline_rule] | tojson)}'
verdicts_are "the thresholds come from the policy file (refill 40: spinlock PASSes)" \
	"wq=FAIL rcu=PASS spinlock=PASS" "${p_verdicts-}"
ktap_check "a variant patches/series marks 'baseline' is the baseline, not the first" \
	test "${p_baseline-}" = '["rcu","marked baseline in patches/series"]'
# The ladder is the policy's data: its order decides (INDIRECT moved
# before INCONCLUSIVE gives the old order back), and a condition the
# judge does not know is refused.
jq '.verdicts |= (map(select(.name == "INDIRECT")) + map(select(.name != "INDIRECT")))' \
	"$root/tracing/verdict-policy.json" > "$scratch/policy-order.json"
r=$(fresh ladder rcu)
edit "$r/rcu/analysis.json" "$indirect | $unknown"
ktap_jq_edits_made
judged "the ladder's order is the policy's (INDIRECT first: rcu with a sender-less interruption is INDIRECT)" \
	"rcu=INDIRECT" "$r" QC_VERDICT_POLICY="$scratch/policy-order.json"
jq '(.verdicts[] | select(.name == "FAIL") | .when) = "drain_sent_maybe"' \
	"$root/tracing/verdict-policy.json" > "$scratch/policy-when.json"
r=$(fresh when rcu)
refused "a ladder condition the judge does not know is refused" \
	'verdict FAIL is decided by "drain_sent_maybe", not a condition' "$r" QC_VERDICT_POLICY="$scratch/policy-when.json"
r=$(fresh stray wq)
mkdir "$r/notes"
refused "a directory that is no variant's guest is refused, not skipped" "$r/notes is not the directory of a variant" "$r"

ktap_finish
