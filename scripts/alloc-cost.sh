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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The figures per fault that get statistics, and how a run's object holds each.
metrics='{"kernel_insns": ".kernel.insns", "kernel_insns_nospin": ".kernel_insns_nospin",
	  "kernel_loads": ".kernel.loads", "kernel_stores": ".kernel.stores",
	  "kernel_loads_nospin": ".kernel_loads_nospin", "kernel_stores_nospin": ".kernel_stores_nospin",
	  "task_insns": ".task_insns", "task_insns_nospin": ".task_insns_nospin",
	  "task_irq_insns": ".task_irq_insns", "task_insns_nospin_noirq": ".task_insns_nospin_noirq",
	  "spin_insns": ".spin_insns", "user_insns": ".user_insns"}'

# refuse WHAT: die naming WHAT and jq's first error line, without jq's
# prefix (sed's q).
refuse() { die "$1: $(sed -e 's/^jq: error[^:]*: //' -e q "$tmp/err")"; }

# The variants measured, each once, in run order; $tmp/V.cost: V's runs,
# then its drain (qc_plugin_runs), a line each.
measured=
for v in $variants; do
	d=$run/$(qc_label "$v" "" "$QC_TAG_COST")
	[ -d "$d" ] || continue
	qc_status_read "$d"
	[ "$QC_ST" = ok ] || continue
	for f in "$QC_COST_FILE" "$QC_PFT_COST"; do
		[ -s "$d/$f" ] || die "$d/$f is missing or empty: the counted benchmark of $v did not record (rerun make compare)"
	done
	# Its runs (pft's) and its drain (the hammer's, markers=1) by one jq,
	# the runs' line first: a refusal is the first of them that does not
	# match, as when each had a jq of its own. jq exits 5 on cost-runs.jq's
	# error, before the runs' line, or drain-runs.jq's, after it; anything
	# else (no hammer file, no reach rule, a file jq cannot read) is told
	# apart by running them one by one.
	rc=1
	if [ -s "$d/$QC_DRAIN_HAMMER" ]; then
		rc=0
		qc_plugin_runs "$d" "$v" "cost drain" > "$tmp/$v.cost" 2> "$tmp/err" || rc=$?
	fi
	if [ "$rc" = 5 ]; then
		[ -s "$tmp/$v.cost" ] || refuse "$v's counted benchmark"
		refuse "$v's counted drain"
	elif [ "$rc" != 0 ]; then
		qc_plugin_runs "$d" "$v" cost > "$tmp/$v.cost" 2> "$tmp/err" || refuse "$v's counted benchmark"
		[ -s "$d/$QC_DRAIN_HAMMER" ] || die "$d/$QC_DRAIN_HAMMER is missing or empty: the counted drain of $v did not record (rerun make compare)"
		qc_plugin_runs "$d" "$v" drain >> "$tmp/$v.cost" 2> "$tmp/err" || refuse "$v's counted drain"
	fi
	case " $measured " in *" $v "*) ;; *) measured="$measured $v" ;; esac
done
[ -n "$measured" ] || { echo null; exit 0; }

welch=$(qc_welch "$tmp") || exit 1
# Each variant's runs and drain, [RUNS, DRAIN], as its --slurpfile "cost:V",
# and its directory as --arg "dir:V", for the two jq below.
set --
for v in $measured; do
	set -- "$@" --slurpfile "cost:$v" "$tmp/$v.cost" --arg "dir:$v" "$(qc_label "$v" "" "$QC_TAG_COST")"
done
# Every figure's samples, one file per variant, thread count and metric
# ($tmp/s/V.THREADS.METRIC, one sample a line), written by one jq: a jq and
# a welch per figure made this step take half a minute.
mkdir -p "$tmp/s"
jq -n -r --arg measured "$measured" --argjson metrics "$metrics" "$@" '$measured | split(" ")[] | select(. != "") as $v
	| $ARGS.named["cost:" + $v][0][] as $r | $metrics | to_entries[]
	| (.value | ltrimstr(".") | split(".")) as $p | ($r | getpath($p)) as $x | select($x != null)
	| "\($v).\($r.threads).\(.key) \($x)"' |
	awk -v dir="$tmp/s" '{ print $2 > (dir "/" $1) }'
# Welch's test of every figure of V against the baseline's, or null: a
# line each, {"v": V, "t": THREADS, "m": METRIC, "w": welch --json}.
for v in $measured; do
	for f in "$tmp/s/$v".*; do
		key=${f#"$tmp/s/$v".}
		w=null
		if [ "$v" != "$baseline" ] && [ -f "$tmp/s/$baseline.$key" ]; then
			w=$("$welch" --json "$tmp/s/$baseline.$key" "$f" 2>/dev/null) || w=null
		fi
		printf '{"v":"%s","t":"%s","m":"%s","w":%s}\n' "$v" "${key%%.*}" "${key#*.}" "$w"
	done
done > "$tmp/tests"

# In run order: one object, a key per variant, by one jq. A difference from
# the baseline under 10 times QC_COST_CV_FLOOR is compared only when both
# CVs are within it: below that precision, Welch's test over one boot's
# runs calls differences significant that the next boot reverses
# (lib/bench.sh).
jq -n --arg measured "$measured" --slurpfile welch "$tmp/tests" --argjson metrics "$metrics" \
	--arg baseline "$baseline" --argjson floor "$QC_COST_CV_FLOOR" "$@" '
	def stats: length as $n | (add / $n) as $m
		| {n: $n, mean: $m,
		   sd: (if $n > 1 then (map((. - $m) * (. - $m)) | add / ($n - 1) | sqrt) else null end)}
		| .cv_pct = (if .sd == null or .mean == 0 then null else 100 * .sd / .mean end);
	(reduce $welch[] as $x ({}; .[$x.v][$x.t][$x.m] = ($x.w | if . == null then null else {diff_pct, t, df, p, significant} end))) as $welch
	| $ARGS.named as $in
	| reduce ($measured | split(" ")[] | select(. != "")) as $v ({}; . + (
		$in["cost:" + $v] as [$r, $drain] | $in["dir:" + $v] as $dir
		| ($welch[$v] // {}) as $tests
		| {($v): {
			dir: $dir,
			samples: ($r | map(del(.functions))),
			threads: ($r | group_by(.threads) | map(. as $g | ($g[0].threads | tostring) as $t
				| {key: $t, value: ($metrics | to_entries | map(.key as $m | .value as $p
					| [$g[] | getpath($p | ltrimstr(".") | split("."))] as $x
					# (a figure an older plugin does not give: no statistics)
					| select($x | all(. != null))
					| {key: $m, value: (($x | stats) + {vs_baseline: $tests[$t][$m]})}) | from_entries)}) | from_entries),
			functions: ($r | group_by(.threads) | map(. as $g | length as $n
				| {key: ($g[0].threads | tostring),
				   value: (reduce ($g[] | .functions | to_entries[]) as $e ({}; .[$e.key] += $e.value / $n)
				           | with_entries(select(.value >= 0.01)))}) | from_entries),
			drain: ($drain | .samples as $s | . + {
				reached_calls: ($s | length),
				stats: (if ($s | length) == 0 then null else
					{kernel_insns: ([$s[].kernel.insns] | stats), kernel_insns_nospin: ([$s[].kernel_insns_nospin] | stats),
					 kernel_loads: ([$s[].kernel.loads] | stats), kernel_stores: ([$s[].kernel.stores] | stats),
					 task_insns: ([$s[].task.insns] | stats), task_insns_nospin: ([$s[].task_insns_nospin] | stats),
					 switches: ([$s[].switches] | stats),
					 cpus_reached: ([$s[].cpus_reached] | stats), wall_us: ([$s[].wall_us] | stats)} end),
				functions: (.functions | with_entries(select(.value >= 1))),
				task_functions: (.task_functions | with_entries(select(.value >= 1)))})}}))
	| (.[$baseline].threads // {}) as $base
	| map_values(.threads |= with_entries(.key as $t | .value |= with_entries(.key as $m
		| if .value.vs_baseline == null then . else
			[.value.cv_pct, $base[$t][$m].cv_pct] as $cv
			| .value.vs_baseline += (if any($cv[]; . == null or . > $floor)
				   and ((.value.vs_baseline.diff_pct // 0) | fabs) < 10 * $floor
				then {compared: false, significant: false, cv_floor_pct: $floor}
				else {compared: true, cv_floor_pct: $floor} end) end)))'
