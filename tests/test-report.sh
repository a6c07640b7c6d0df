#!/bin/sh
# scripts/report.sh renders tests/fixtures/run (synthetic variants in the
# analyzer's version-2 shape, see its README) into a self-contained report
# whose tables carry summary.json's numbers and whose every claim names
# its evidence (drains that reached the CPU, the window, the quiet
# control); the rule is stated from summary.json's policy, never from
# tracing/; subsets and missing data render too; a bad run directory and
# an old-format summary are refused in one line. Boots nothing.
# shellcheck disable=SC2016 # the expected Markdown has backticks
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
report=$root/scripts/report.sh
run=$scratch/run
cp -r "$root/tests/fixtures/run" "$run"
# Without the report committed with the fixture: every file checked below
# is one this render wrote, and the bare run's re-render (below) starts
# from this render's report, not from the committed one.
rm -r "$run/report.md" "$run/report.html" "$run/plots"

ktap_require jq gnuplot
ktap_plan 44

render_fixture() { "$report" "$run" >"$scratch/out" 2>"$scratch/err"; }
ktap_check "report.sh renders the three-variant fixture" render_fixture
# Its last lines (make compare's too): the answer table, one row a variant.
answer_last() {
	tail -n 4 "$scratch/out" | awk '{ print $1, $2 }' | paste -sd' ' - | grep -qx 'variant verdict wq FAIL rcu PASS spinlock UNEXPOSED'
}
ktap_check "report.sh prints the answer table last, one row per variant in the run's order" answer_last
ktap_check "report.md and report.html are written" test -s "$run/report.md" -a -s "$run/report.html"
# flat REPORT.MD: its paragraphs and list items one line each again
# (report.md wraps them at 100 columns), table rows as they are.
flat() {
	awk 'function out() { if (buf != "") print buf; buf = "" }
	     /^$/ { out(); print; next }
	     /^(- |\||#|!\[)/ { out(); buf = $0; next }
	     { sub(/^  /, ""); buf = (buf == "" ? $0 : buf " " $0) }
	     END { out() }' "$1"
}
flat "$run/report.md" > "$scratch/flat.md"
# has FILE STRING...: FILE holds every STRING (fixed strings, each within
# a line), in one awk for them all, not a grep each. (The strings are
# awk's operands past FILE, taken as they are: no escape is read in them.)
has() {
	awk 'BEGIN { for (i = 2; i < ARGC; i++) want[ARGV[i]]; ARGC = 2 }
	     { for (s in want) if (!(s in seen) && index($0, s)) seen[s] }
	     END { for (s in want) if (!(s in seen)) { print "# missing: " s; bad = 1 }; exit bad }' "$@"
}

# The fixture with rcu as its first variant, judged again by summarize.sh
# (without its committed report: every file checked is one a render
# wrote): its summary.json, given an older policy (legacy.json below), is
# also the run judged by time, one render for both cases (the older
# rule's words and verdicts do not depend on the variants' order, nor
# the allocator table's baseline on the rule).
base=$scratch/base
cp -r "$root/tests/fixtures/run" "$base"
rm -r "$base/report.md" "$base/report.html" "$base/plots"
sed -i 's/^variants: .*/variants: rcu wq spinlock/' "$base/run.txt"
if "$root/scripts/summarize.sh" "$base" >/dev/null 2>&1; then summarized=yes; else summarized=no; fi

# What the cases below read, derived from the fixture's summary.json (the
# first input) and the summary.json summarize.sh wrote above (the second)
# in one jq (each jq a start): "@@ NAME" and its lines, split into
# $scratch/NAME. rows: every variant's row as the per-variant table must
# carry it. one: the subset, one variant (rcu), no allocator benchmark, no
# drain samples, and a policy of its own (the rule is stated from
# summary.json's policy, not from tracing/). old: an old-format summary;
# noexp: one CPU without its exposure. older: a run judged before each
# variant had its hardware_time. legacy: a run judged by time (an
# older policy).
jq -nr 'input | "@@ rows", (.variants | to_entries[] | "- variant: \(.key); verdict: **\(.value.verdict)**; drain_all_pages() calls: \(.value.drain.calls); reached an isolated CPU: \(.value.drains.reached);"),
	"@@ one.json", (.variants |= {rcu} | del(.alloc_bench) | del(.variants.rcu.plot.drain)
		| .policy.min_exposure.refill = 77 | .policy.drain_functions = ["made_up"]
		| (.policy.verdicts[] | select(.name == "FAIL") | .sentence) = "a sentence of this run'"'"'s own"
		| .policy.verdicts = [{name: "SLOW", when: "slow", class: "warn", sentence: "a verdict only the policy names"}] + .policy.verdicts
		| .variants.rcu.verdict = "SLOW" | .variants.rcu.verdict_cpus = ["2"] | tojson),
	"@@ old.json", (del(.policy) | .variants[].cpus[] |= (del(.exposure, .charged, .workload) + {drain_interruptions: 0}) | tojson),
	"@@ noexp.json", (.variants.rcu.cpus["2"] |= del(.exposure) | tojson),
	(input | ("@@ older.json", (del(.variants[].hardware_time) | tojson)),
	 ("@@ legacy.json", (.policy |= (del(.rule, .verdicts, .drain_functions) + {coincidence_margin: {factor: 3, plus: 10}})
		| .variants.rcu.verdict = "INCONCLUSIVE" | tojson)))' "$run/summary.json" "$base/summary.json" |
	awk -v dir="$scratch" '/^@@ / { f = dir "/" $2; printf "" > f; next } { print > f }'

# Self-contained: nothing the browser would fetch (namespace URLs and the
# SVG DOCTYPE's DTD URL are stripped when the SVGs are inlined).
no_external() {
	! grep -Eiq "https?://|src=|<script|<link|<iframe|@import|url\([^#]|href=[\"'][^#]" "$1"
}
ktap_check "report.html refers to nothing outside itself" no_external "$run/report.html"
ktap_check "report.html inlines the four plots" test "$(grep -c '<svg' "$run/report.html")" -eq 4
# The report reads summary.json alone: the same report and plots from a
# run directory that holds nothing else of the run (no variant file, no
# run.txt), only its status and the report the first render wrote, so
# that the same render is also a re-render over an earlier report (one
# render for both, each a report.sh of half a CPU-second).
bare=$scratch/bare
mkdir "$bare"
cp -r "$run/summary.json" "$run/status" "$run/report.md" "$run/report.html" "$run/plots" "$bare/"
"$report" "$bare" >/dev/null 2>&1
same_report() {
	for f in report.md plots/interruptions.svg plots/oslat.svg plots/refill.svg plots/drain-cdf.svg; do
		cmp -s "$run/$f" "$bare/$f" || return 1
	done
}
ktap_check "the same report and plots from summary.json alone, no variant file" same_report
for p in interruptions oslat refill drain-cdf; do
	if command -v xmllint >/dev/null 2>&1; then
		ktap_check "plots/$p.svg is well-formed XML" xmllint --noout "$run/plots/$p.svg"
	else
		ktap_check "plots/$p.svg is an SVG document" has "$run/plots/$p.svg" '<svg' '</svg>'
	fi
done
ktap_check "interruptions plot: drains reached under each bar, charged part hatched" \
	has "$run/plots/interruptions.svg" '398 dr' 'hatched: charged to the drain'

# The tables carry summary.json's numbers: every variant's row, as
# summary.json has it, and the verdict lines with their evidence.
rows_ok() {
	[ -s "$scratch/rows" ] || return 1
	set --
	while IFS= read -r row; do set -- "$@" "$row"; done < "$scratch/rows"
	has "$scratch/flat.md" "$@"
}
ktap_check "per-variant table carries each verdict, drain_all_pages() calls and calls that reached a CPU" rows_ok
ktap_check "wq FAILs with what the drain sent, its chain, the drains that reached each CPU and the quiet control" has "$scratch/flat.md" \
	'**wq: FAIL** — 1,600 interruptions sent by the drain to CPU 1, 2 and 3.' \
	'- chains: `workqueue:drain_local_pages_wq <- remote: qc_hammer/0 on CPU 0: __queue_work < queue_work_on < __drain_all_pages < drain_all_pages < qc_hammer_fn < kthread` ×800;'
ktap_check "... each CPU's evidence by cause and the control's RCU forcing" has "$scratch/flat.md" \
	'- CPU 2 (refill): 398 drains reached it, 796 of 799 interruptions sent by the drain, 0 forced by RCU for its grace periods (0 shared), 0 without a sender' \
	'- CPU 3 (refill): 401 drains reached it, 801 of 804 interruptions sent by the drain, 0 forced by RCU for its grace periods (0 shared), 0 without a sender' \
	'- control: the quiet control (10.4 s, same boot and workloads, no drains) had 5 interruptions, 3 of them RCU forcing a quiescent state, 0 without a sender'
ktap_check "... and nothing of the retired rule by time" sh -c "! grep -qiE 'old rule|cross-check' '$run/report.md'"
ktap_check "rcu PASSes with its exposure per CPU, every interruption with a sender" has "$scratch/flat.md" \
	'**rcu: PASS** — no interruption of CPU 1, 2 and 3 was sent by the drain or forced by RCU for a grace period it requested, and every one has a sender.' \
	'- window: the hammer window (10.4 s, 311 drain_all_pages() calls, 311 of them reaching an isolated CPU)' \
	'- CPU 1 (oslat): 1 drain reached it, not interrupted' '- CPU 2 (refill): 305 drains reached it, 0 of 1 interruption sent by the drain'
ktap_check "the answer first: one row per variant with the number that decided it" grep -qF \
	'| wq | **FAIL** | 1,600 sent by the drain | 402 of 402 calls | 5 (3 RCU QS) |' "$run/report.md"
answer_first() {
	grep -m1 '^## ' "$run/report.md" | grep -qx '## Answer' &&
		sed -n '/^## Answer$/,$p' "$run/report.md" | sed -n 3p |
		grep -qxF '| variant | verdict | decided by | exposure | quiet control |'
}
ktap_check "... and it is the report's first section: its heading, then the table's head" answer_first
ktap_check "spinlock is UNEXPOSED, naming the CPU, its exposure and the threshold" has "$scratch/flat.md" \
	'**spinlock: UNEXPOSED** — no interruption charged, but too few drains reached CPU 3 (refill: 40) for the window to test the drain there (the policy needs ≥ 100 on a refill CPU, ≥ 1 on an oslat CPU).' \
	'| spinlock | **UNEXPOSED** | drains reached CPU 3: 40 < 100 |'
ktap_check "the report says plainly what exposure an oslat CPU can have" grep -qF \
	"A CPU whose task never frees pages (oslat) can be drained only once: its exposure is 1 by construction; the refill CPUs' exposure is what tests every drain" \
	"$scratch/flat.md"
ktap_check "the rule names the drain's functions and the verdicts summary.json recorded" grep -qF \
	'one of the drain'"'"'s functions (`drain_all_pages`, `__drain_all_pages`, `drain_local_pages_wq`, `drain_local_pages`, `drain_pages`, `drain_pages_zone`, `drain_detached_pcplists`)' \
	"$scratch/flat.md"
ktap_check "cause table: each cause summed over the isolated CPUs, with how many the drain sent" grep -qF \
	'| `workqueue:drain_local_pages_wq` | 800 (800 charged) | 0 | 0 |' "$run/report.md"
# The per-CPU table is too wide for report.md (a row over 200 characters):
# a list there, one item a row, and a table in report.html.
ktap_check "per-CPU table: workload, primed, drains reached, pages freed, interruptions, charged by rule, control, causes, latency" grep -qF -- \
	'- variant: wq; CPU: 2; workload: refill; pcp pages primed: 388; drains reached: 398; pages freed: 25,472; interruptions: 799; by cause (rule): 796 sent, 0 indirect, 0 unknown; quiet control (RCU QS / all): 3 / 3; top causes: `irq_vectors:reschedule` 398, `workqueue:drain_local_pages_wq` 398, `timer:tick_sched_timer` 3; latency max (µs): 206864; latency p99 (µs): 1' \
	"$scratch/flat.md"
ktap_check "per-CPU table: an oslat CPU's latency from oslat.json" grep -qF -- \
	'- variant: spinlock; CPU: 1; workload: oslat; pcp pages primed: 247; drains reached: 1; pages freed: 247; interruptions: 0; by cause (rule): 0 sent, 0 indirect, 0 unknown; quiet control (RCU QS / all): 0 / 0; top causes: –; latency max (µs): 220278; latency p99 (µs): 1' "$scratch/flat.md"
ktap_check "... and report.html keeps it a table" grep -qF \
	'<tr><td class="l">spinlock</td><td class="r">1</td><td class="l">oslat</td><td class="r">247</td>' "$run/report.html"
# short FILE: FILE was written, and no line of it is over 200 characters.
short() { [ -s "$1" ] && ! awk 'length > 200' "$1" | grep -q .; }
ktap_check "no line of report.md is over 200 characters" short "$run/report.md"
ktap_check "self-test judged per variant and CPU, with the verdict-level check" grep -qF \
	'wq 30/30 (CPU 1 10/10, CPU 2 10/10, CPU 3 10/10), the planter judged as the drain: FAIL with exactly the planted count charged on each CPU, as it must; rcu 30/30' \
	"$scratch/flat.md"
ktap_check "run facts say QEMU TCG and what it means" has "$scratch/flat.md" 'QEMU TCG' 'emulation artefacts' 'Event counts'
ktap_check "allocator table: mean, sd, difference to the baseline wq, significance" has "$run/report.md" \
	'| spinlock | 5 | 379,580 | 4,602 | 1.2 | -7.9 % | **yes** |' '| sd % | vs wq |'
ktap_check "report.html carries the same verdicts" has "$run/report.html" \
	'<strong class="v-FAIL">wq: FAIL</strong>' '<strong class="v-UNEXPOSED">spinlock: UNEXPOSED</strong>' '25,472'
# The bare render above re-rendered over the first render's report.
ktap_check "re-rendering gives the same report" cmp -s "$run/report.md" "$bare/report.md"

# The same run (rcu first: its baseline, below) rendered by cause, then
# judged by time (an older policy): its report is frozen, kept as it is.
legacy=$base
if [ "$summarized" = yes ] && "$report" "$base" >/dev/null 2>&1; then rendered=yes; else rendered=no; fi
[ "$rendered" = no ] || cp "$base/report.md" "$scratch/base-report.md"
cp "$scratch/legacy.json" "$legacy/summary.json"
frozen() {
	"$report" "$legacy" > "$scratch/frozen.out" 2>&1 &&
		grep -q 'judged by the retired rule by time: its report.md and report.html are frozen as committed' "$scratch/frozen.out" &&
		cmp -s "$legacy/report.md" "$scratch/base-report.md"
}
ktap_check "a run judged by the retired rule by time keeps its report, frozen" frozen
# (and one judged before each variant had its hardware_time: older)
cp "$scratch/older.json" "$legacy/summary.json"
older() {
	"$report" "$legacy" > "$scratch/older.out" 2>&1 &&
		grep -q 'judged on an older basis (no no_sender, probe_misses or hardware_time per variant): its report.md and report.html are frozen' "$scratch/older.out" &&
		cmp -s "$legacy/report.md" "$scratch/base-report.md"
}
ktap_check "... and so does a run judged on an older basis" older
cp "$scratch/legacy.json" "$legacy/summary.json"
rm "$legacy/report.md"
expect_one_error "... and one without a report of its own is refused, not rendered by time" quietcore \
	"judged by the retired rule by time and has no report to keep" "$report" "$legacy"
# Every verdict of the policy's table has a colour; INDIRECT and AUDIT too.
ktap_check "report.html colours every verdict of the table (INDIRECT, INCONCLUSIVE, AUDIT included)" has "$run/report.html" \
	'.v-INDIRECT { color: var(--warn); }' '.v-AUDIT { color: var(--info); }' '.v-PASS { color: var(--good); }'

# The baseline is the run's first variant, whatever it is (the run above).
if [ "$rendered" = yes ]; then
	ktap_check "a run whose first variant is rcu compares against rcu" has "$scratch/base-report.md" \
		'| sd % | vs rcu |' '| rcu | 5 | 407,220 | 10,758 | 2.6 | baseline |' '| wq | 5 | 412,160 | 4,892 | 1.2 | +1.21 % |'
else
	ktap_not_ok "a run whose first variant is rcu compares against rcu"
fi

# A subset: one variant, no allocator benchmark, no drain samples; its
# policy changed too (one render for both cases: the rule's sentences do
# not depend on the variants), with a verdict of its own that model.jq
# has no words for (docs/design.md, "Adding a verdict").
one=$scratch/one
mkdir "$one"
cp -r "$run/run.txt" "$run/status" "$one/"
cp "$scratch/one.json" "$one/summary.json"
if "$report" "$one" >/dev/null 2>"$scratch/err"; then
	# The rule comes from summary.json alone: change its policy, not tracing/.
	flat "$one/report.md" > "$scratch/pol.md"
	ktap_check "the rule is stated from summary.json's policy, not from tracing/" has "$scratch/pol.md" \
		'≥ 77 drains reaching each refill CPU' 'functions (`made_up`)' '**FAIL**: a sentence of this run'
	ktap_check "a verdict only the policy names is reported in its words, with the CPUs it holds on" has "$scratch/pol.md" \
		'**rcu: SLOW** — a verdict only the policy names.' '| rcu | **SLOW** | CPU 2 |' '**SLOW**: a verdict only the policy names'
	subset_text() { grep -q 'Not measured in this run' "$one/report.md" && ! grep -q '^| wq ' "$one/report.md"; }
	ktap_check "one variant: allocator cost 'not measured', no other variant" subset_text
	subset_plots() {
		test ! -e "$one/plots/drain-cdf.svg" && test -e "$one/plots/oslat.svg" &&
			test "$(grep -c '<svg' "$one/report.html")" -eq 3
	}
	ktap_check "one variant: no drain samples, no CDF plot" subset_plots
else
	ktap_not_ok "the rule is stated from summary.json's policy, not from tracing/"
	ktap_not_ok "a verdict only the policy names is reported in its words, with the CPUs it holds on"
	ktap_not_ok "one variant: allocator cost 'not measured', no other variant"
	ktap_not_ok "one variant: no drain samples, no CDF plot"
	ktap_diag "$(cat "$scratch/err")"
fi

# Bad run directories and summaries: one "quietcore: error:" line and a
# non-zero exit.
mkdir "$scratch/empty"
one_line_error() { desc=$1; shift; expect_one_error "$desc" quietcore "$@"; }
one_line_error "a run directory without summary.json is refused in one line" \
	"has no summary.json .*: make report RUN=.* REANALYZE=1" "$report" "$scratch/empty"
one_line_error "a missing run directory is refused in one line" "is not a directory" \
	"$report" "$scratch/nonexistent"
old=$scratch/old
cp -r "$run" "$old"
cp "$scratch/old.json" "$old/summary.json"
one_line_error "an old-format summary.json is refused: re-analyse a copy" \
	"old-format summary .*REANALYZE=1" "$report" "$old"
cp "$scratch/noexp.json" "$old/summary.json"
one_line_error "a summary without one CPU's exposure is refused" "old-format summary" "$report" "$old"

ktap_finish
