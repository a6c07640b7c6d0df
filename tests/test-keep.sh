#!/bin/sh
# make keep (scripts/keep.sh) on fake runs, copies of tests/fixtures/run
# with traces, an audit's per-sub-window analyses, logs and raw plugin
# counts added: a run that renders becomes a reference run (named in
# results/.gitignore, one line in results/README.md, what a reader does
# not need moved out to the cache, alloc-cost.jsonl compressed); anything
# else is refused in one line and changes nothing. And results/.gitignore
# itself: a new run leaves `git status` clean, a kept one shows. Boots
# nothing.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
repo=$scratch/repo
export QC_RESULTS="$repo/results" QC_CACHE="$scratch/cache"
mkdir -p "$QC_RESULTS"
cp "$root/results/.gitignore" "$root/results/README.md" "$QC_RESULTS/"
keep=$root/scripts/keep.sh

ktap_require jq gnuplot git gzip
ktap_plan 24

# fake ID: a run of the fixture with what keep drops, in $QC_RESULTS/ID.
fake() {
	_r=$QC_RESULTS/$1
	cp -r "$root/tests/fixtures/run" "$_r"
	echo trace > "$_r/wq/trace.dat"
	echo trace > "$_r/wq/trace-quiet.dat"
	mkdir -p "$_r/wq/audit" && echo '{}' > "$_r/wq/audit/gap-1.json"
	# (a log inside the audit's folder: keep drops the folder, and the log with it)
	echo log > "$_r/wq/audit/gap-1.log"
	echo console > "$_r/wq/console.log" && : > "$_r/wq/qemu.err"
	mkdir -p "$_r/wq-cost" && printf '{"window":1}\n{"window":2}\n' > "$_r/wq-cost/alloc-cost.jsonl"
}

# The ignore file: a new run is no change to git, a kept one is.
git -C "$repo" init -q
git -C "$repo" add results
git -C "$repo" -c user.name=test -c user.email=test@localhost commit -qm results
fake 20990101-000000
ktap_check "a new run leaves git status clean (results/.gitignore)" \
	test -z "$(git -C "$repo" status --porcelain --untracked-files=all)"

r=$QC_RESULTS/20990101-000000
before=$(cat "$QC_RESULTS/.gitignore" "$QC_RESULTS/README.md" | cksum)
expect_error "a keep without a note is refused" "NOTE must be one line" \
	make -s -C "$root" keep RUN="$r"
mkdir -p "$scratch/elsewhere/20990101-000000"
expect_one_error "a directory outside results/ is refused" quietcore "is not a run of" \
	"$keep" "$scratch/elsewhere/20990101-000000" "a note"
mkdir -p "$QC_RESULTS/20990101-000001"
expect_one_error "a run without summary.json is refused" quietcore "has no summary.json" \
	"$keep" "$QC_RESULTS/20990101-000001" "a note"
fake 20990101-000002
echo '{"format": 1}' > "$QC_RESULTS/20990101-000002/summary.json"
expect_one_error "a run report.sh cannot render is refused, with report.sh's reason" quietcore \
	"20990101-000002 does not render, so it is not kept: ." "$keep" "$QC_RESULTS/20990101-000002" "a note"
ktap_check "... and nothing of it was dropped" test -f "$QC_RESULTS/20990101-000002/wq/trace.dat"
ktap_check "the refusals changed neither results/.gitignore nor results/README.md" \
	test "$(cat "$QC_RESULTS/.gitignore" "$QC_RESULTS/README.md" | cksum)" = "$before"

# The keep itself, through make.
ktap_check "make keep RUN=... NOTE=... keeps a run that renders" \
	sh -c "make -s -C '$root' keep RUN='$r' NOTE='the fixture, kept by test-keep' 2>'$scratch/err'"
ktap_check "... it rendered its report" test -s "$r/report.md" -a -s "$r/report.html"
ktap_check "... its traces are out of the run" test ! -e "$r/wq/trace.dat" -a ! -e "$r/wq/trace-quiet.dat"
ktap_check "... kept in the cache, not deleted" test -f "$QC_CACHE/dropped/20990101-000000/wq/trace.dat"
ktap_check "... the audit's per-sub-window analyses and the logs are out" \
	test ! -e "$r/wq/audit" -a ! -e "$r/wq/console.log" -a ! -e "$r/wq/qemu.err"
ktap_check "... alloc-cost.jsonl is compressed, whole" \
	test ! -e "$r/wq-cost/alloc-cost.jsonl" -a "$(gzip -dc "$r/wq-cost/alloc-cost.jsonl.gz" 2>/dev/null | wc -l)" = 2
"$root/scripts/reanalyze.sh" "$r" >/dev/null 2>&1 || true
ktap_check "... and a re-analysis of the kept run reads it decompressed, whole" \
	test "$(cat "$r"-reanalyzed-*/wq-cost/alloc-cost.jsonl 2>/dev/null | wc -l)" = 2 -a ! -e "$(ls -d "$r"-reanalyzed-* | head -n1)/wq-cost/alloc-cost.jsonl.gz"
rm -rf "$r"-reanalyzed-*
ktap_check "... its summary, run.txt and each guest's JSON stay" \
	test -s "$r/summary.json" -a -s "$r/run.txt" -a -s "$r/wq/analysis.json" -a -s "$r/wq/hammer.json"
ktap_check "... results/.gitignore names it once" test "$(grep -cxF '!/20990101-000000/' "$QC_RESULTS/.gitignore")" = 1
ktap_check "... results/README.md has its one line, with the note" \
	test "$(grep -cF '[20990101-000000](20990101-000000/report.md): the fixture, kept by test-keep' "$QC_RESULTS/README.md")" = 1
git -C "$repo" status --porcelain --untracked-files=all > "$scratch/status"
ktap_check "... git now sees the kept run, and no other" \
	sh -c "grep -q '^?? results/20990101-000000/summary.json' '$scratch/status' && ! grep -q '20990101-00000[12]' '$scratch/status'"
ktap_check "... and no trace of it" sh -c "! grep -q 'trace.*\.dat' '$scratch/status'"
expect_one_error "a run kept already is refused" quietcore "already a reference run" \
	"$keep" "$r" "again"

# TRACES=1: the traces stay, for one compare and one audit.
fake 20990101-000003
# (A note may quote: NOTE='with "traces"' reaches results/README.md whole.)
ktap_check "make keep ... TRACES=1 keeps the traces" \
	sh -c "make -s -C '$root' keep RUN='$QC_RESULTS/20990101-000003' NOTE='with \"traces\"' TRACES=1 2>'$scratch/err' &&
		test -f '$QC_RESULTS/20990101-000003/wq/trace.dat' -a ! -e '$QC_RESULTS/20990101-000003/wq/console.log'"
ktap_check "... and its README.md line says so, with the note's quotes" \
	grep -qF '[20990101-000003](20990101-000003/report.md) (with traces): with "traces"' "$QC_RESULTS/README.md"

# A stress run (the stress fixture, summarized as stress.sh does) keeps
# its consoles, the evidence that its debug kernels had no splat, and its
# report names the phases each went through.
s=$QC_RESULTS/20990101-000004
cp -r "$root/tests/fixtures/stress-run" "$s"
echo console > "$s/rcu-debug/console.log" && echo dmesg > "$s/rcu-debug/dmesg.log"
printf 'phase 1\nmovable cycle 1: zone emptied: yes\n' > "$s/rcu-debug/stress-phases.txt"
"$root/scripts/summarize.sh" "$s" >/dev/null 2>&1
# (named as README.md names runs, relative: results/<run-id>)
ktap_check "keep keeps a summarized stress run given as results/<run-id>, its console.log with it" \
	sh -c "cd '$repo' && '$keep' results/${s##*/} stress 2>'$scratch/err' &&
		test -s '$s/rcu-debug/console.log' -a ! -e '$s/rcu-debug/dmesg.log'"
ktap_check "... and its report names the phases" \
	sh -c "tr '\\n' ' ' < '$s/report.md' | grep -qF 'Its phases: phase 1; movable cycle 1: zone emptied: yes'"
ktap_finish
