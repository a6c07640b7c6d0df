#!/bin/sh
# alloc-cost.sh RUNDIR 'VARIANTS' BASELINE: the allocator's counted cost
# (scenario "cost" under the qc-cost TCG plugin, RUNDIR/<variant>-cost/) as
# summary.json's alloc_cost: per variant the raw per-run samples, per
# thread count the mean, sd and coefficient of variation of each figure per
# fault, Welch's t-test against BASELINE, and the mean instructions per
# fault of every kernel function, and .drain: the instructions of each
# drain_all_pages() call that reached a CPU (drain-runs.jq). Prints null when no variant has such a
# directory; refuses (one line, non-zero) one whose files do not match.
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/bench.sh"
. "$here/lib/plugin.sh"
. "$here/lib/runs.sh"
need_cmd jq make
run=${1:?usage: alloc-cost.sh RUNDIR VARIANTS BASELINE}
variants=${2:?usage: alloc-cost.sh RUNDIR VARIANTS BASELINE}
baseline=${3:?usage: alloc-cost.sh RUNDIR VARIANTS BASELINE}
plugin=$QC_ROOT/bench/plugin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

spin=$(qc_spin_wait)
# The list as read once: qc_drain_runs would read it again (a jq) for
# every variant.
qc_spin_wait() { printf '%s\n' "$spin"; }
# The figures per fault that get statistics, and how a run's object holds each.
metrics='{"kernel_insns": ".kernel.insns", "kernel_insns_nospin": ".kernel_insns_nospin",
	  "kernel_loads": ".kernel.loads", "kernel_stores": ".kernel.stores",
	  "kernel_loads_nospin": ".kernel_loads_nospin", "kernel_stores_nospin": ".kernel_stores_nospin",
	  "task_insns": ".task_insns", "task_insns_nospin": ".task_insns_nospin",
	  "spin_insns": ".spin_insns", "user_insns": ".user_insns"}'

any=no
for v in $variants; do
	d=$run/$(qc_label "$v" "" "$QC_TAG_COST")
	[ -d "$d" ] || continue
	qc_status_read "$d"
	[ "$QC_ST" = ok ] || continue
	for f in "$QC_COST_FILE" "$QC_PFT_COST"; do
		[ -s "$d/$f" ] || die "$d/$f is missing or empty: the counted benchmark of $v did not record (rerun make compare)"
	done
	jq -n --slurpfile w "$d/$QC_COST_FILE" --slurpfile pft "$d/$QC_PFT_COST" \
		--argjson spin "$spin" -L "$plugin" -f "$plugin/cost-runs.jq" > "$tmp/$v.runs" 2> "$tmp/err" ||
		die "$v's counted benchmark: $(sed 's/^jq: error[^:]*: //' "$tmp/err" | head -n1)"
	# The drain's own cost (scenario cost's hammer with markers=1).
	[ -s "$d/$QC_DRAIN_HAMMER" ] || die "$d/$QC_DRAIN_HAMMER is missing or empty: the counted drain of $v did not record (rerun make compare)"
	qc_drain_runs "$d" "$v" > "$tmp/$v.drain" 2> "$tmp/err" ||
		die "$v's counted drain: $(sed 's/^jq: error[^:]*: //' "$tmp/err" | head -n1)"
	any=yes
done
[ "$any" = yes ] || { echo null; exit 0; }

welch=$(qc_welch "$tmp") || exit 1
# Every figure's samples, one file per variant, thread count and metric
# ($tmp/s/V.THREADS.METRIC, one sample a line), written by one jq a variant:
# a jq and a welch per figure made this step take half a minute.
mkdir -p "$tmp/s"
for v in $variants; do
	[ -f "$tmp/$v.runs" ] || continue
	jq -r --argjson metrics "$metrics" '.[] as $r | $metrics | to_entries[]
		| (.value | ltrimstr(".") | split(".")) as $p | "\($r.threads).\(.key) \($r | getpath($p))"' "$tmp/$v.runs" |
		awk -v dir="$tmp/s/$v" '{ print $2 > (dir "." $1) }'
done
# tests_of V: {THREADS: {METRIC: Welch's test of V against the baseline, or
# null}} for every figure V has samples of.
tests_of() {
	for f in "$tmp/s/$1".*; do
		key=${f#"$tmp/s/$1".}
		w=null
		if [ "$1" != "$baseline" ] && [ -f "$tmp/s/$baseline.$key" ]; then
			w=$("$welch" --json "$tmp/s/$baseline.$key" "$f" 2>/dev/null) || w=null
		fi
		printf '{"t":"%s","m":"%s","w":%s}\n' "${key%%.*}" "${key#*.}" "$w"
	done | jq -sc 'reduce .[] as $x ({}; .[$x.t][$x.m] = ($x.w | if . == null then null else {diff_pct, t, df, p, significant} end))'
}

for v in $variants; do
	[ -f "$tmp/$v.runs" ] || continue
	tests=$(tests_of "$v")
	jq -n --arg v "$v" --slurpfile runs "$tmp/$v.runs" --slurpfile drain "$tmp/$v.drain" \
		--argjson tests "$tests" --argjson metrics "$metrics" --arg dir "$(qc_label "$v" "" "$QC_TAG_COST")" '
		def stats: length as $n | (add / $n) as $m
			| {n: $n, mean: $m,
			   sd: (if $n > 1 then (map((. - $m) * (. - $m)) | add / ($n - 1) | sqrt) else null end)}
			| .cv_pct = (if .sd == null or .mean == 0 then null else 100 * .sd / .mean end);
		$runs[0] as $r
		| {($v): {
			dir: $dir,
			samples: ($r | map(del(.functions))),
			threads: ($r | group_by(.threads) | map(. as $g | ($g[0].threads | tostring) as $t
				| {key: $t, value: ($metrics | to_entries | map(.key as $m | .value as $p
					| {key: $m, value: (([$g[] | getpath($p | ltrimstr(".") | split("."))] | stats)
					    + {vs_baseline: $tests[$t][$m]})}) | from_entries)}) | from_entries),
			functions: ($r | group_by(.threads) | map(. as $g | length as $n
				| {key: ($g[0].threads | tostring),
				   value: (reduce ($g[] | .functions | to_entries[]) as $e ({}; .[$e.key] += $e.value / $n)
				           | with_entries(select(.value >= 0.01)))}) | from_entries),
			drain: ($drain[0] | .samples as $s | . + {
				reached_calls: ($s | length),
				stats: (if ($s | length) == 0 then null else
					{kernel_insns: ([$s[].kernel.insns] | stats), kernel_insns_nospin: ([$s[].kernel_insns_nospin] | stats),
					 kernel_loads: ([$s[].kernel.loads] | stats), kernel_stores: ([$s[].kernel.stores] | stats),
					 task_insns: ([$s[].task.insns] | stats), task_insns_nospin: ([$s[].task_insns_nospin] | stats),
					 switches: ([$s[].switches] | stats),
					 cpus_reached: ([$s[].cpus_reached] | stats), wall_us: ([$s[].wall_us] | stats)} end),
				functions: (.functions | with_entries(select(.value >= 1))),
				task_functions: (.task_functions | with_entries(select(.value >= 1)))})}}' > "$tmp/$v.cost"
done
# In run order: one object, a key per variant.
for v in $variants; do [ ! -f "$tmp/$v.cost" ] || cat "$tmp/$v.cost"; done | jq -s add
