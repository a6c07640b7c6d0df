#!/bin/sh
# scripts/report.sh renders tests/fixtures/run (a real spinlock run plus
# synthetic wq and rcu variants, see its README) into a self-contained
# report whose tables carry summary.json's numbers; subsets and missing
# data render too; a bad run directory is refused in one line. Boots nothing.
# shellcheck disable=SC2016 # the expected Markdown has backticks
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
report=$root/scripts/report.sh
run=$scratch/run
cp -r "$root/tests/fixtures/run" "$run"

ktap_plan 21

ktap_check "report.sh renders the three-variant fixture" sh -c "'$report' '$run' 2>'$scratch/err'"
ktap_check "report.md and report.html are written" test -s "$run/report.md" -a -s "$run/report.html"

# Self-contained: nothing the browser would fetch (namespace URLs and the
# SVG DOCTYPE's DTD URL are stripped when the SVGs are inlined).
no_external() {
	! grep -Eiq "https?://|src=|<script|<link|<iframe|@import|url\([^#]|href=[\"'][^#]" "$1"
}
ktap_check "report.html refers to nothing outside itself" no_external "$run/report.html"
ktap_check "report.html inlines the three plots" test "$(grep -c '<svg' "$run/report.html")" -eq 3
for p in interruptions oslat drain-cdf; do
	if command -v xmllint >/dev/null 2>&1; then
		ktap_check "plots/$p.svg is well-formed XML" xmllint --noout "$run/plots/$p.svg"
	else
		ktap_check "plots/$p.svg is an SVG document" sh -c "grep -q '<svg' '$run/plots/$p.svg' && grep -q '</svg>' '$run/plots/$p.svg'"
	fi
done

# The tables carry summary.json's numbers: every variant's row, as
# summary.json has it, and the verdict lines with their evidence.
rows_ok() {
	jq -r '.variants | to_entries[] | "| \(.key) | **\(.value.verdict)** | \(.value.drain.calls) |"' "$run/summary.json" |
		while IFS= read -r row; do grep -qF "$row" "$run/report.md" || { echo "# missing row: $row"; return 1; }; done
}
ktap_check "per-variant table carries each verdict and drain_all_pages() call count" rows_ok
ktap_check "wq FAILs with the drain work item counted per CPU" grep -qF \
	'**wq: FAIL** — `workqueue:drain_local_pages_wq` interrupted CPU 1 37 times, CPU 2 41, CPU 3 39 across 402 drain_all_pages() calls' \
	"$run/report.md"
ktap_check "rcu PASSes with its other causes shown, not hidden" grep -qF \
	'**rcu: PASS** — no drain-caused interruption on CPU 1, 2 and 3 (pcp pages primed: 251/390/384) across 311 drain_all_pages() calls; other causes (shown, not deciding the verdict; some can be side effects of a drain, e.g. waking a kworker kicks the nohz_full tick): 2 in all' \
	"$run/report.md"
ktap_check "cause table sums the drain cause over the isolated CPUs" grep -qF \
	'| `workqueue:drain_local_pages_wq` | **yes** | 117 | 0 | 0 |' "$run/report.md"
ktap_check "per-CPU table carries primed pages and oslat max" grep -qF \
	'| spinlock | 1 | 247 | 0 | 0 | – | 220278 | 1 |' "$run/report.md"
ktap_check "self-test line: planted vs counted" grep -qF 'planted 30, counted 30 — **pass**' "$run/report.md"
ktap_check "run facts say QEMU TCG and what it means" \
	sh -c "grep -q 'QEMU TCG' '$run/report.md' && grep -q 'emulation artefacts' '$run/report.md' && grep -q 'Event counts' '$run/report.md'"
ktap_check "allocator table: mean, sd, difference to wq, significance" grep -qF \
	'| spinlock | 5 | 379,580 | 4,602 | 1.2 | -7.9 % | **yes** |' "$run/report.md"
ktap_check "report.html carries the same verdicts" \
	sh -c "grep -qF '<strong class=\"v-FAIL\">wq: FAIL</strong>' '$run/report.html' && grep -qF '402' '$run/report.html'"
cp "$run/report.md" "$scratch/first.md"
"$report" "$run" 2>/dev/null
ktap_check "re-rendering gives the same report" cmp -s "$scratch/first.md" "$run/report.md"

# A subset: one variant, no allocator benchmark, no drain samples.
one=$scratch/one
mkdir "$one"
cp -r "$run/run.txt" "$run/status" "$run/rcu" "$one/"
rm "$one/rcu/hammer.json"
jq '.variants |= {rcu} | del(.alloc_bench)' "$run/summary.json" > "$one/summary.json"
if "$report" "$one" 2>"$scratch/err"; then
	ktap_check "one variant: allocator cost 'not measured', no other variant" \
		sh -c "grep -q 'Not measured in this run' '$one/report.md' && ! grep -q '^| wq ' '$one/report.md'"
	ktap_check "one variant: no drain samples, no CDF plot" \
		sh -c "test ! -e '$one/plots/drain-cdf.svg' && test -e '$one/plots/oslat.svg' && test \"\$(grep -c '<svg' '$one/report.html')\" -eq 2"
else
	ktap_not_ok "one variant: allocator cost 'not measured', no other variant"
	ktap_not_ok "one variant: no drain samples, no CDF plot"
	ktap_diag "$(cat "$scratch/err")"
fi

# Bad run directories: one "quietcore: error:" line and a non-zero exit.
mkdir "$scratch/empty"
one_line_error() { desc=$1; shift; expect_one_error "$desc" quietcore "$@"; }
one_line_error "a run directory without summary.json is refused in one line" \
	"has no summary.json: run scripts/summarize.sh" "$report" "$scratch/empty"
one_line_error "a missing run directory is refused in one line" "is not a directory" \
	"$report" "$scratch/nonexistent"

ktap_finish
