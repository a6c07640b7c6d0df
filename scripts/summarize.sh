#!/bin/sh
# summarize.sh RUNDIR: gather one run's per-variant files into
# RUNDIR/summary.json and print the verdict table. Reads only what the
# guests brought home and the analyzer wrote; runs nothing in a guest.
set -eu
. "$(dirname "$0")/lib.sh"
need_cmd jq
run=${1:?usage: summarize.sh RUNDIR}
[ -f "$run/run.txt" ] || die "$run is not a quietcore run directory (no run.txt)"
kv() { sed -n "s/^$2: //p" "$1" | head -n1; }

# One JSON object per variant, from whatever that variant's run produced.
variant_json() {
	d=$1
	jqin() { if [ -f "$d/$1" ]; then cat "$d/$1"; else echo null; fi; }
	jq -n \
		--arg status "$(cat "$d/status" 2>/dev/null || echo missing)" \
		--argjson oslat "$(jqin oslat.json)" \
		--argjson analysis "$(jqin analysis.json)" \
		--argjson hammer "$(jqin hammer.json)" \
		--argjson primed "$(jqin pcp-window.json)" \
		--argjson selftest "$(jqin selftest.json)" \
		--argjson isolated "$(cpulist_expand "$(kv "$run/run.txt" isolated)" | jq -R . | jq -s .)" \
		--argjson drain_causes "$(grep -v -e '^#' -e '^[[:space:]]*$' "$QC_ROOT/tracing/drain-causes.list" 2>/dev/null | jq -R . | jq -s . || echo '[]')" \
		-f "$QC_ROOT/scripts/summarize-variant.jq"
}

variants=$(kv "$run/run.txt" variants)
first=$(echo "$variants" | awk '{ print $1 }')
bp=$run/$first/boot-params.txt
all='{}'
for v in $variants; do
	[ -d "$run/$v" ] || continue
	all=$(echo "$all" | jq --arg v "$v" --argjson o "$(variant_json "$run/$v")" '.[$v] = $o')
done
# The allocator's cost: pft faults/s per run, each variant against wq by
# Welch's t-test (bench/welch), as mmtests marks a difference significant.
alloc_bench() {
	tmp=$(mktemp -d)
	out='{}'
	for v in $variants; do
		f=$run/$v-bench/pft.jsonl
		[ -s "$f" ] || continue
		jq -r .faults_per_sec "$f" > "$tmp/$v"
	done
	if [ -n "$(ls "$tmp")" ]; then
		make -s -f "$QC_ROOT/bench/Makefile" BENCH_OUT="$tmp" "$tmp/welch" >/dev/null ||
			die "bench/welch does not build"
		for v in $variants; do
			[ -f "$tmp/$v" ] || continue
			stats='null'
			if [ -f "$tmp/wq" ] && [ "$v" != wq ]; then
				stats=$("$tmp/welch" --json "$tmp/wq" "$tmp/$v" 2>/dev/null || echo null)
			fi
			out=$(echo "$out" | jq --arg v "$v" --argjson w "$stats" --rawfile s "$tmp/$v" '
				($s | split("\n") | map(select(length > 0) | tonumber)) as $x
				| ($x | add / length) as $m
				| .[$v] = {samples: $x, n: ($x | length), mean: $m,
				           sd: (if ($x | length) > 1 then
				                  (($x | map((. - $m) * (. - $m)) | add) / (($x | length) - 1) | sqrt)
				                else null end),
				           diff_pct_vs_wq: (if $v == "wq" then 0 else $w.diff_pct end),
				           significant: $w.significant, t: $w.t, df: $w.df, p: $w.p}')
		done
	fi
	rm -rf "$tmp"
	echo "$out"
}

jq -n \
	--arg id "$(kv "$run/run.txt" id)" \
	--arg accel "$(kv "$bp" accel 2>/dev/null || echo unknown)" \
	--arg tree "$(kv "$bp" kernel_tree 2>/dev/null | sed 's/ + patches.*//')" \
	--arg scenario "$(kv "$run/run.txt" scenario)" \
	--argjson duration "$(kv "$run/run.txt" duration_s)" \
	--arg isolated "$(kv "$run/run.txt" isolated)" \
	--arg housekeeping "$(housekeeping_of "$(kv "$run/run.txt" isolated)" "$(kv "$bp" smp 2>/dev/null || echo 4)")" \
	--argjson variants "$all" \
	--argjson alloc "$(alloc_bench)" \
	'{run: {id: $id, accel: $accel, kernel_tree: $tree, scenario: $scenario,
	        duration_s: $duration, isolated_cpus: $isolated, housekeeping_cpus: $housekeeping},
	  variants: $variants,
	  alloc_bench: (if $alloc == {} then null else $alloc end),
	  selftest: ([$variants[] | .selftest // empty] | if length > 0 then
	             {planted: (map(.planted) | add), counted: (map(.counted) | add)} else null end)}' \
	> "$run/summary.json.tmp"
mv "$run/summary.json.tmp" "$run/summary.json"

# The verdict table, as the last lines of make compare.
echo
printf '%-10s %-12s %8s %8s %8s %7s  %s\n' variant verdict drains p99_us max_us stalls "interruptions per isolated CPU (top cause)"
jq -r '.variants | to_entries[] | [.key, .value.verdict,
	(.value.drain.calls // "-"), (.value.drain.p99_us // "-"), (.value.drain.max_us // "-"),
	(.value.drain.stalls // "-"),
	([.value.cpus | to_entries[] | "cpu\(.key)=\(.value.interruptions // "-")" +
	  (if (.value.by_cause // {}) == {} then "" else "(" + (.value.by_cause | to_entries | max_by(.value) | .key) + ")" end)] | join(" "))]
	| @tsv' "$run/summary.json" |
	while IFS='	' read -r v verdict calls p99 max stalls cpus; do
		printf '%-10s %-12s %8s %8s %8s %7s  %s\n' "$v" "$verdict" "$calls" "$p99" "$max" "$stalls" "$cpus"
	done
echo
info "summary: $run/summary.json"
