#!/bin/sh
# Fail closed on every input (issue 21): each bad or tampered input a
# review tried, built here from tests/fixtures/run (never from results/),
# must be refused in one "quietcore: error:" line, never judged:
#   - values against their schema (docs/schemas/), one validator call each:
#     NaN, -1, a string where a count belongs, a duplicate CPU key, a
#     missing or wrong sum, a duplicate run.txt line;
#   - cross-checks (scripts/check-run.sh): run.txt against the guests'
#     boot-params.txt, CPU lists bounded before they are expanded, each
#     analysis naming its own directory's trace, the self-test agreeing
#     with its evidence;
#   - the steps: analyze.sh leaves no stale analysis behind a refusal,
#     summarize.sh sends a jq crash through its refusal, and make report
#     never rewrites a run's summary or status.
# Boots nothing.
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fixture=$root/tests/fixtures/run
validate=$root/scripts/validate.sh
check=$root/scripts/check-run.sh

ktap_require jq make gcc pkg-config
ktap_plan 41

# bad DESCRIPTION PATTERN KIND FILE: the validator refuses FILE in one line.
bad() { expect_one_error "$1" quietcore "$2" "$validate" "$3" "$4"; }

# The tampered files, each $scratch/NAME, one jq for them all (a jq start
# each was most of this program's CPU time): "NAME<tab>TEXT" lines, which
# awk writes out. (TEXT is compact JSON: a tab inside it is escaped.) The
# validator's cases' files, then the cross-checks' and make report's.
jq -n -r --slurpfile an "$fixture/wq/analysis.json" --slurpfile ham "$fixture/wq/hammer.json" \
	--slurpfile pcp "$fixture/wq/pcp-window.json" --slurpfile st "$fixture/wq/selftest.json" \
	--slurpfile oslat "$fixture/wq/oslat.json" --slurpfile quiet "$fixture/rcu/analysis-quiet.json" \
	--slurpfile summary "$fixture/summary.json" '
	$an[0] as $an | $ham[0] as $ham
	| def file($name): "\($name)\t\(tojson)";
	($an | .cpus["1"].exposure.drains = -1 | file("neg.json")),
	($ham | .stalls = "0" | file("str.json")),
	($ham | .calls = "402" | file("calls.json")),
	($pcp[0] | .["1"] = -5 | file("pcp.json")),
	# A duplicate CPU key whose last copy the drain sent nothing in: jq
	# would keep it. (As text: the first copy put back in front of the last.)
	($an | .cpus["2"].origins |= (.drain = 0 | .drain_by_cause = {})
	 | file("dup.json") | sub("\"cpus\":\\{"; "\"cpus\":{\"2\":\($an.cpus["2"] | tojson),")),
	($an | del(.cpus["3"].liveness) | file("noliveness.json")),
	($an | .cpus["3"].origins.drain_by_cause["workqueue:drain_local_pages_wq"] = 400 | file("sum.json")),
	# an interruption without a sender that its causes do not name
	($an | .cpus["3"].origins |= (.classes.unknown = 2 | .unknown_by_cause = {"irq_vectors:reschedule": 1}) | file("unnamed.json")),
	($st[0] | .counted = 31 | file("st.json")),
	($oslat[0] | .thread |= map_values(.histogram = {"x": 1}) | file("oslat.json")),
	# A self-test forged to 1 planted, 1 counted per CPU, both files agreeing.
	($st[0] | .cpus[] = {planted: 1, counted: 1} | .planted = 3 | .counted = 3 | file("forged-selftest.json")),
	# The summary without the data of its plots and the tables of the
	# allocator (one plot to draw is enough).
	($summary[0] | del(.variants[].plot) | .alloc_bench = null | .alloc_cost = null | file("summary.json"))' |
	awk -F '\t' -v dir="$scratch" '{ print $2 > (dir "/" $1) }'

# --- values: each file against its schema ------------------------------------
ktap_check "the fixture's files all hold (each kind once)" sh -c "'$validate' analysis '$fixture/wq/analysis.json' &&
	'$validate' hammer '$fixture/wq/hammer.json' && '$validate' selftest '$fixture/wq/selftest.json' &&
	'$validate' pcp-window '$fixture/wq/pcp-window.json' && '$validate' run-txt '$fixture/run.txt'"
# NaN: jq 1.6 reads it as a number, and NaN > 0 is false.
sed 's/"interruptions": 799,/"interruptions": NaN,/' "$fixture/wq/analysis.json" > "$scratch/nan.json"
bad "NaN in interruptions is refused" 'cpus\["2"\].interruptions is NaN, not integer' analysis "$scratch/nan.json"
bad "-1 drains reaching a CPU is refused" 'exposure.drains is -1, below its minimum 0' analysis "$scratch/neg.json"
bad "a string in stalls is refused" '.stalls is "0", not integer' hammer "$scratch/str.json"
bad "a string in calls is refused" '.calls is "402", not integer' hammer "$scratch/calls.json"
bad "a negative pcp-window count is refused" '\["1"\] is -5, below its minimum 0' pcp-window "$scratch/pcp.json"
bad "a CPU key given twice is refused (jq alone keeps the last copy)" 'cpus has the key "2" twice' analysis "$scratch/dup.json"
bad "a missing liveness is refused" 'cpus\["3"\].liveness is missing' analysis "$scratch/noliveness.json"
bad "drain_by_cause that does not add up to the drain's count is refused" 'drain is 801, but the sum of .cpus\["3"\].origins.drain_by_cause is 800' \
	analysis "$scratch/sum.json"
bad "interruptions without a sender not all named by cause are refused (2, 1 named)" \
	'classes.unknown is 2, but the sum of .cpus\["3"\].origins.unknown_by_cause is 1' analysis "$scratch/unnamed.json"
bad "a self-test whose total is not the sum of its CPUs is refused" '.counted is 31, but the sum of .cpus\[\].counted is 30' \
	selftest "$scratch/st.json"
cat "$fixture/run.txt" > "$scratch/run.txt"
echo "isolated: 1" >> "$scratch/run.txt"
bad "a run.txt line given twice is refused" 'has the key "isolated" twice' run-txt "$scratch/run.txt"
bad "a latency histogram bucket that is no number is refused" 'histogram has the key "x"' oslat "$scratch/oslat.json"
printf '{"1": 3}{"1": 0}\n' > "$scratch/two.json"
bad "a file of two JSON values is refused" 'holds 2 JSON values' pcp-window "$scratch/two.json"

# --- cross-checks: one check-run.sh call each ------------------------------
r=$scratch/run
# fresh: $r, the fixture as a run not yet summarized (its allocator
# benchmark's guests and summary.json left out once, in $pristine).
pristine=$scratch/pristine
cp -r "$fixture" "$pristine"
rm -rf "$pristine"/*-bench "$pristine/summary.json"
fresh() { rm -rf "$r"; cp -r "$pristine" "$r"; }
# run_txt SED-ARGS...: $r's run.txt made afresh, the pristine one edited by
# sed (the run.txt cases edit nothing else: $r is otherwise fresh).
run_txt() { sed "$@" "$pristine/run.txt" > "$r/run.txt"; }
cross() { expect_one_error "$1" quietcore "$2" "$check" "$r"; }
fresh
ktap_check "the fixture passes every cross-check" "$check" "$r"
# The verdict policy (check-run.sh --policy, as summarize.sh calls it),
# checked once the run's files hold: a missing one, and one that is none.
policy() { expect_one_error "$1" quietcore "$2" "$check" --policy "$3" "$r"; }
policy "a missing verdict policy is refused" "the verdict policy $scratch/no-policy.json is missing: restore it" \
	"$scratch/no-policy.json"
echo '{"rule": "time"}' > "$scratch/not-a-policy.json"
policy "a verdict policy of another rule is refused" "not-a-policy.json is not a verdict policy (needs rule \"origins\"" \
	"$scratch/not-a-policy.json"
run_txt -e 's/^isolated: .*/isolated: 1-2/' -e 's/^refill: .*/refill: 2/'
cross "run.txt isolating fewer CPUs than the guests did is refused" "says 'isolated: 1-2' but guest rcu isolated '1-3'"
run_txt 's/^refill: .*/refill: /'
cross "a blank refill line while the guests ran refill is refused" "says 'refill: ' but guest rcu ran the refill workload on '2-3'"
run_txt 's/^scenario: .*/scenario: Hammer/'
cross "an unknown scenario is refused" "unknown scenario 'Hammer'"
run_txt 's/^scenario: .*/scenario: quiet/'
cross "a scenario other than the guests' is refused" "says 'scenario: quiet' but guest rcu ran 'hammer'"
run_txt 's/^isolated: .*/isolated: 1-99999999/'
# Timed in CPU time (the shell's times: its children's user and system
# time), not by the clock: on a loaded machine, or beside the suite's other
# programs, the refusal may wait for a CPU longer than it takes; expanding
# 99,999,999 CPUs would take far more than a second of CPU.
cpu_ms() {
	times > "$scratch/times"
	cpu=$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%d\n", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000 }' \
		"$scratch/times")
}
# (One call, timed, serves both checks: its refusal and its time.)
cpu_ms
start=$cpu
refusal=$("$check" "$r" 2>&1)
rc=$?
cpu_ms
ms=$((cpu - start))
# refused WORDS: the timed call failed with one error line holding WORDS
# (what it said instead goes to the log).
refused() {
	[ $rc -ne 0 ] && ktap_one_error_line "$refusal" quietcore "$1" && return 0
	ktap_diag "exit $rc: $refusal"
	return 1
}
ktap_check "an isolated list beyond the guest's vCPUs is refused" \
	refused "'isolated: 1-99999999' is not a list of CPUs 1-3 of the 4-vCPU guest"
in_time() { [ "$ms" -lt 1000 ] && refused 'is not a list of CPUs'; }
ktap_check "... in under 1 s of CPU time (the list is bounded before it is expanded; took $ms ms)" in_time
run_txt 's/^isolated: .*/isolated: 0-3/'
cross "an isolated list with housekeeping CPU 0 is refused" "'isolated: 0-3' includes housekeeping CPU 0"
fresh
cp "$fixture/spinlock/analysis.json" "$r/rcu/analysis.json"
cross "one variant's analysis.json copied into another's directory is refused" \
	"rcu/analysis.json was made from results/20261203-051418/spinlock/trace.dat, not its own"
fresh
# A file whose text closes its value and opens another (so not JSON):
# check-run.sh's one jq parses each file alone and stops at it, naming
# it, rcu's, the run's eighth file (the seven before it then checked,
# where wq's came after every other guest's).
printf '{"1": 5}}\n{"i": 8, "t": {"1": 7}\n' > "$r/rcu/pcp-window.json"
cross "a file whose text closes its value and opens another is refused, named" "rcu/pcp-window.json: is not JSON"
fresh
# A key twice: the parsed file keeps the last copy; check-run's one jq
# sees the parser's events too, and each file alone then names it.
sed -i '0,/"total"/s//"total": 0, "total"/' "$r/rcu/analysis.json"
cross "a guest's file with a key twice is refused by the run's checks, named" \
	'rcu/analysis.json: the top level has the key "total" twice'
fresh
cp "$scratch/forged-selftest.json" "$r/wq/selftest.json"
cross "a self-test forged to 1/1 without its analysis agreeing is refused" \
	"wq/selftest.json disagrees with its evidence: CPU 1 planted 1, but selftest-planted.txt says 10"

# --- the steps ----------------------------------------------------------------
# analyze.sh: a refused trace leaves no analysis, old or new, behind.
g=$scratch/guest/wq
mkdir -p "$g"
cp "$root/tests/fixtures/traces/exposure-wq.dat" "$g/trace.dat"
head -c 100000 "$root/tests/fixtures/traces/quiet-wq.dat" > "$g/trace-quiet.dat"
echo ok > "$g/status"
cp "$root/tests/fixtures/run/run.txt" "$scratch/guest/"
echo '{"stale": true}' > "$g/analysis.json"
echo '{"stale": true}' > "$g/analysis-quiet.json"
expect_one_error "analyze.sh refuses a cut quiet-control trace" quietcore "the analyzer refused .*trace-quiet.dat" \
	"$root/scripts/analyze.sh" "$g" 1-3
ktap_check "... leaving no analysis.json or analysis-quiet.json, stale or new" \
	sh -c "test ! -e '$g/analysis.json' && test ! -e '$g/analysis-quiet.json'"
ktap_check "... and the guest's status failed" grep -q '^failed: the analyzer refused' "$g/status"
# ... and a guest directory outside its run, whose scenario (and so its
# measured tasks) is unknown, is refused before anything is analysed.
rm "$scratch/guest/run.txt"
expect_one_error "analyze.sh refuses a guest directory without its run's run.txt" quietcore \
	"names no scenario, so the measured tasks are unknown" "$root/scripts/analyze.sh" "$g" 1-3

# summarize.sh: a jq crash (an audit.json, which no schema covers, whose
# triggers are no list) goes through the refusal: one line, no
# summary.json, the status failed.
fresh
echo '{"triggers": "x"}' > "$r/rcu/audit.json"
echo '{"stale": true}' > "$r/summary.json"
expect_one_error "a jq crash inside summarize.sh is one refusal line" quietcore "summarize.sh stopped .*jq: error" \
	"$root/scripts/summarize.sh" "$r"
ktap_check "... with no summary.json left and the run's status failed" \
	sh -c "test ! -e '$r/summary.json' && grep -q '^failed: summarize.sh stopped' '$r/status'"

# make report: renders summary.json and touches nothing else of the run,
# even when the run's inputs would now be refused.
# (The summary: $scratch/summary.json, made above.)
fresh
cp "$scratch/summary.json" "$r/"
sed -i 's/"interruptions": 799,/"interruptions": NaN,/' "$r/wq/analysis.json"
make -s -C "$root" report RUN="$r" >/dev/null 2>&1
ktap_check "make report on a run whose inputs summarize would refuse still renders its summary" test -s "$r/report.md"
ktap_check "... and leaves its summary.json and status as they were" \
	sh -c "cmp -s '$scratch/summary.json' '$r/summary.json' && test \"\$(cat '$r/status')\" = ok"
rm "$r/summary.json" "$r/report.md"
# (make's own "Error 1" line left out: the refusal is report.sh's line.)
make_report() { out=$(make -s -C "$root" report RUN="$1" 2>&1); rc=$?; printf '%s\n' "$out" | grep -v '^make[^ ]*: \*\*\* ' >&2; return $rc; }
expect_one_error "make report on a run without summary.json names the fix" quietcore "no summary.json .*REANALYZE=1" \
	make_report "$r"
ktap_check "... and writes nothing" sh -c "test \"\$(cat '$r/status')\" = ok && test ! -e '$r/report.md'"

# REANALYZE=1 works on a copy in a new directory: here (the fixture has
# no traces to analyse again) the copy's judging is refused, the run
# itself stays as it was.
fresh
cp "$scratch/summary.json" "$r/"
cp -r "$r" "$scratch/before"
make -s -C "$root" report RUN="$r" REANALYZE=1 >/dev/null 2>&1
ktap_check "make report REANALYZE=1 leaves the run itself as it was" diff -r "$scratch/before" "$r"
ktap_check "... and judges a copy in a new directory, whose status says why it was refused" \
	sh -c "grep -q '^failed: .*analysis.json is missing' '$r'-reanalyzed-*/status"

# jq 1.6: "E?" on a filter that succeeds (tonumber?, fromjson?) swallows
# an error raised later in the same program, output and all, so a crash
# ends in exit 0 and an empty file (merging summarize.sh's jq programs did
# exactly that once). try ... catch does not; the host's jq may not use
# the other form.
swallow=$(cd "$root" && grep -nE '(tonumber|fromjson|tostring|ltrimstr|test|splits|capture|getpath)\?' \
	scripts/*.sh scripts/*.jq scripts/report/*.jq scripts/lib/*.sh bench/plugin/*.jq 2>/dev/null | grep -v '^[^:]*:[0-9]*:[[:space:]]*#')
ktap_check "no host jq program uses E? on a filter (jq 1.6 would swallow later errors)${swallow:+: $swallow}" \
	test -z "$swallow"
ktap_finish
