#!/bin/sh
# summarize.sh RUNDIR: judge one run's variants by the verdict policy
# (tracing/verdict-policy.json) from the files the guests brought home and
# the analyzer wrote, write RUNDIR/summary.json and print the verdict
# table. Runs nothing in a guest. The judging is scripts/judge.jq's; this
# script finds the run's guests, its baseline and its allocator figures,
# and hands the judge their files.
#
# It fails closed: an input without which a verdict would be judged from
# nothing (no per-CPU analysis, no hammer.json in a
# hammer run, no isolated CPU, a self-test that did not pass) is refused
# in one line, the run's status says failed, and no summary.json is left.
# Environment: QC_VERDICT_POLICY=FILE (default
# tracing/verdict-policy.json),
# QC_JUDGED=FILE (every refusal the judge made, a line each, kept there
# even when the run is refused: the error is the first, and each guest's
# names its directory).
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/bench.sh"
. "$here/../common/cpulist.sh"
. "$here/lib/plugin.sh"
. "$here/lib/policy.sh"
. "$here/lib/runs.sh"
. "$here/lib/variants.sh"
. "$here/lib/inputs.sh"
need_cmd jq
run=${1:?usage: summarize.sh RUNDIR}
run=${run%/}
runtxt=$run/$QC_RUN_TXT
[ -f "$runtxt" ] || die "$run is not a quietcore run directory (no $QC_RUN_TXT)"
# Whatever stops the judging (a refusal, or a jq that crashes on a value
# no check foresaw) ends the same way: everything said on stderr waits in
# a file, and unless the script succeeds, its first error is the one
# line, no summary.json is left and the run's status says failed.
tmp=$(mktemp -d)
err=$tmp/stderr
exec 3>&2 2>"$err"
finish() {
	rc=$?
	exec 2>&3
	if [ $rc -eq 0 ]; then [ ! -s "$err" ] || cat "$err" >&2; rm -rf "$tmp"; exit 0; fi
	why=$(sed -n 's/^quietcore: error: //p' "$err" | head -n1)
	[ -n "$why" ] || why="summarize.sh stopped (exit $rc) on this run's inputs: $(grep . "$err" | head -n1); check them with scripts/check-run.sh $run"
	rm -rf "${tmp:?}" "${run:?}/$QC_SUMMARY" "${run:?}/$QC_SUMMARY.tmp"
	echo "failed: $why" > "$run/$QC_STATUS"
	printf 'quietcore: error: %s\n' "$why" >&2
	exit 1
}
trap finish EXIT
# Every input checked against its schema, and against the others, then
# the verdict policy (scripts/check-run.sh --policy), before any is read
# here; it prints what the policy's checked text says the judging is by:
# its baseline.
policy_file=$QC_POLICY
pol=$("$QC_ROOT/scripts/check-run.sh" --policy "$policy_file" "$run")
# From here a refusal is the run's outcome too (die() writes the status
# file), and a summary.json left from an earlier pass would disagree with
# the inputs now refused, so it goes: report.sh must not render it.
# shellcheck disable=SC2034 # read by die() in lib/log.sh
QC_STATUS_FILE=$run/$QC_STATUS
refuse() {
	rm -f "$run/$QC_SUMMARY" "$run/$QC_SUMMARY.tmp"
	die "$@"
}
rm -f "$run/$QC_SUMMARY.tmp"

baseline_rule=$pol

qc_kv_read "$runtxt" isolated; isolated=$QC_KV
[ -z "$isolated" ] || qc_cpulist_valid "$isolated" ||
	refuse "$run/run.txt: 'isolated: $isolated' is not a CPU list like 1-3"
# Runs from before the refill workload have no refill line: all oslat.
qc_kv_read "$runtxt" refill; refill=$QC_KV
if [ -n "$refill" ]; then
	qc_cpulist_valid "$refill" || refuse "$run/run.txt: 'refill: $refill' is not a CPU list like 2-3"
	[ -z "$(qc_cpulist_minus "$refill" "$isolated")" ] ||
		refuse "$run/run.txt: refill CPUs $refill are not all isolated ($isolated): fix the refill line"
fi
qc_kv_read "$runtxt" scenario; scenario=$QC_KV
# (what each scenario is, from its own "# qc-scenario:" line)
scenario_traits=$(qc_scenario_traits_json 2>"$tmp/traits.err") ||
	refuse "$(head -n 1 "$tmp/traits.err" | sed 's/^quietcore: error: //')"
qc_kv_read "$runtxt" variants; variants=$QC_KV
[ -n "$variants" ] || refuse "$run/run.txt names no variants (its 'variants:' line is empty or missing)"

# The guests this run actually has: every directory but plots/, named
# VARIANT[-FLAVOUR][-TAG] by qc_label (common/contract.sh). Those
# tagged bench or cost measured the allocator (timed here, counted by
# alloc-cost.sh); the others are judged, in run.txt's variant order, and
# a variant of run.txt with no judged guest at all is a failed one.
guests=
for d in "$run"/*/; do
	g=${d%/} g=${g##*/}
	[ -d "$run/$g" ] && [ "$g" != "$QC_PLOTS" ] || continue
	qc_label_variant "$g" ||
		refuse "$run/$g is not the directory of a variant in patches/series ($(qc_variants | tr '\n' ' ')): move it out of the run"
	guests="$guests $g"
	variant_map="${variant_map:-} $g=$QC_VO"
done
# variant_of GUEST: vo, the variant GUEST is a directory of (from the map
# made above: no process per lookup).
variant_of() {
	vo=
	for _p in ${variant_map:-}; do [ "${_p%%=*}" != "$1" ] || { vo=${_p#*=}; return 0; }; done
}
judged= bench_guests=
for v in $variants; do
	found=
	for g in $guests; do
		variant_of "$g"
		[ "$vo" = "$v" ] || continue
		! qc_is_cost "$g" || continue
		if qc_is_bench "$g"; then bench_guests="$bench_guests $g"; else judged="$judged $g" found=yes; fi
	done
	[ -n "$found" ] || judged="$judged $v"
done
for g in $guests; do
	! qc_is_cost "$g" || continue
	case " $judged $bench_guests " in *" $g "*) ;; *)
		if qc_is_bench "$g"; then bench_guests="$bench_guests $g"; else judged="$judged $g"; fi ;;
	esac
done
# cpus_json LIST: ["1","2","3"] (no process for a plain list).
cpus_json() {
	if [ -z "$1" ]; then echo '[]'
	elif qc_cpulist_words "$1"; then
		_cj=
		for _c in $CL_WORDS; do _cj="${_cj:+$_cj,}\"$_c\""; done
		echo "[$_cj]"
	else qc_cpulist_expand "$1" | awk '{ printf "%s\"%s\"", (NR > 1 ? "," : "["), $0 } END { print NR ? "]" : "[]" }'; fi
}
iso_json=$(cpus_json "$isolated")
refill_json=$(cpus_json "$refill")

# The baseline all comparisons are made against: the policy names it
# ("first variant of the run", or a variant), the run decides which; a
# variant patches/series marks "baseline" comes before the first one.
first=${variants%% *}
qc_registry_names
marked=$QC_REGISTRY_BASELINE
baseline=$baseline_rule
case $baseline in
"first variant of the run")
	baseline=$first
	case " $variants " in *" $marked "*)
		[ -z "$marked" ] || { baseline=$marked baseline_rule="marked baseline in patches/series"; } ;;
	esac ;;
*) case " $variants " in *" $baseline "*) ;; *)
	refuse "the verdict policy's baseline '$baseline' is not a variant of this run ($variants): set it to 'first variant of the run' or one of them" ;;
   esac ;;
esac


# The allocator's cost: pft faults/s per run, each variant against the
# baseline by Welch's t-test (bench/welch), as mmtests marks a difference
# significant.
alloc_bench() {
	[ -n "$bench_guests" ] || { echo '{}'; return 0; }
	b=$tmp/bench
	mkdir -p "$b"
	for g in $bench_guests; do
		f=$run/$g/$QC_PFT
		[ -s "$f" ] || continue
		variant_of "$g"
		jq -r .faults_per_sec "$f" > "$b/$vo"
	done
	[ -n "$(ls "$b")" ] || { echo '{}'; return 0; }
	welch=$(qc_welch "$tmp") || exit 1
	# Each variant's samples and its test against the baseline go to one
	# jq as named arguments, s_VARIANT and w_VARIANT (a jq start costs
	# more than its work here), in run.txt's order.
	set --
	names=
	for v in $variants; do
		[ -f "$b/$v" ] || continue
		stats='null'
		if [ -f "$b/$baseline" ] && [ "$v" != "$baseline" ]; then
			stats=$("$welch" --json "$b/$baseline" "$b/$v" 2>/dev/null || echo null)
		fi
		set -- "$@" --rawfile "s_$v" "$b/$v" --argjson "w_$v" "$stats"
		names="$names $v"
	done
	jq -n --arg names "$names" --arg base "$baseline" "$@" '
		reduce ($names | splits(" +") | select(. != "")) as $v ({};
			($ARGS.named["s_" + $v] | split("\n") | map(select(length > 0) | tonumber)) as $x
			| $ARGS.named["w_" + $v] as $w
			| ($x | add / length) as $m
			| .[$v] = {samples: $x, n: ($x | length), mean: $m,
			           sd: (if ($x | length) > 1 then
			                  (($x | map((. - $m) * (. - $m)) | add) / (($x | length) - 1) | sqrt)
			                else null end),
			           diff_pct_vs_baseline: (if $v == $base then 0 else $w.diff_pct end),
			           significant: $w.significant, t: $w.t, df: $w.df, p: $w.p})'
}

# The isolated CPUs that ran oslat: all but the refill ones.
oslat_cpus() {
	[ -n "$isolated" ] || return 0
	if [ -n "$refill" ]; then qc_cpulist_minus "$isolated" "$refill"
	else qc_cpulist_expand "$isolated" | paste -sd, -; fi
}
# The allocator's counted cost (scenario "cost" under the TCG plugin).
# (A file, not an argument: with its per-function tables it outgrows one.)
# It decides no verdict: counts it cannot take (an older plugin's, say)
# leave it out, with the reason for the report to show in its section,
# and the verdicts stand.
cost_missing=
cost_guests=no
for g in $guests; do ! qc_is_cost "$g" || cost_guests=yes; done
# (none: alloc-cost.sh would print null)
if [ "$cost_guests" = no ]; then echo null > "$tmp/cost.json"
else "$QC_ROOT/scripts/alloc-cost.sh" "$run" "$variants" "$baseline" >"$tmp/cost.json" 2>"$tmp/cost.err"; fi || {
	cost_missing=$(sed -n 's/^quietcore: error: //p' "$tmp/cost.err" | head -n1 | grep . ||
		echo "scripts/alloc-cost.sh failed: $(tail -n1 "$tmp/cost.err")")
	echo null > "$tmp/cost.json"
	warn "the counted benchmark is left out of the summary: $cost_missing"
}
bp=
for g in $judged; do [ -f "$run/$g/$QC_BOOT_PARAMS" ] && { bp=$run/$g/$QC_BOOT_PARAMS; break; }; done
# (what run.txt and that guest's boot-params.txt say of the run)
qc_kv_read "${bp:-/dev/null}" smp; smp=$QC_KV
qc_kv_read "${bp:-/dev/null}" accel; accel=$QC_KV
qc_kv_read "${bp:-/dev/null}" qemu_version; qemu_version=$QC_KV
qc_kv_read "${bp:-/dev/null}" kernel_tree; tree=${QC_KV%% + patches*}
qc_kv_read "$runtxt" id; run_id=$QC_KV
qc_kv_read "$runtxt" duration_s; duration=$QC_KV
# TIME_SCALE=auto's factor and its evidence (scripts/time-scale.sh)
scale=$run/$QC_TIME_SCALE
[ -f "$scale" ] || scale=/dev/null

# The judge (scripts/judge.jq): every judged guest's files, named
# g<I>_<NAME> in run.txt's variant order (a variant listed there without
# a directory is a failed run), and the run's facts, in one jq. It writes
# summary.json's text, or refuses: one line on stderr for each refusal,
# the run's first, each naming its guest's directory (QC_JUDGED=FILE keeps
# them all), and exits non-zero.
set --
i=0
for name in $judged; do
	d=$run/$name
	qc_status_read "$d" missing
	for spec in oslat_f:oslat.json refill_f:refill.json analysis_f:$QC_ANALYSIS.json \
	            quiet_f:$QC_ANALYSIS-$QC_WINDOW_QUIET.json hammer_f:$QC_HAMMER_JSON \
	            primed_f:pcp-window.json selftest_f:$QC_SELFTEST_JSON stc_f:$QC_SELFTEST_CHARGED.json \
	            audit_f:$QC_AUDIT_JSON stress_f:$QC_STRESS_PHASES; do
		f=$d/${spec#*:}
		[ -f "$f" ] || f=/dev/null
		set -- "$@" --rawfile "g${i}_${spec%%:*}" "$f"
	done
	set -- "$@" --arg "g${i}_status" "$QC_ST" --arg "g${i}_dir" "$d" \
		--arg "g${i}_reanalyze" "scripts/analyze.sh $d $isolated"
	i=$((i + 1))
done
# (the policy's name as summary.json records it: relative to the
# repository when it lies inside it)
judged_err=$tmp/judged.err
judge_rc=0
jq -n "$@" --argjson guests "$i" --arg names "$judged" \
	--arg run_dir "$run" --arg scenario "$scenario" --argjson scenario_traits "$scenario_traits" \
	--arg planter "$QC_PLANTER_FUNCTION" \
	--argjson isolated "$iso_json" --argjson refill_cpus "$refill_json" \
	--slurpfile policy_doc "$policy_file" --arg policy_file "${policy_file#"$QC_ROOT"/}" \
	--slurpfile scale "$scale" \
	--arg id "$run_id" --arg accel "$accel" --arg qemu "$qemu_version" --arg tree "$tree" \
	--arg duration "$duration" --arg isolated_list "$isolated" --arg refill_list "$refill" \
	--arg oslat "$(oslat_cpus)" \
	--arg housekeeping "$(if [ -n "$isolated" ]; then qc_housekeeping_of "$isolated" "${smp:-4}"; fi)" \
	--arg baseline "$baseline" --arg baseline_rule "$baseline_rule" \
	--argjson alloc "$(alloc_bench)" \
	--slurpfile cost "$tmp/cost.json" --arg cost_missing "$cost_missing" \
	-f "$QC_ROOT/scripts/judge.jq" > "$run/$QC_SUMMARY.tmp" 2> "$judged_err" || judge_rc=$?
[ -z "${QC_JUDGED:-}" ] || cp "$judged_err" "$QC_JUDGED"
if [ "$judge_rc" -ne 0 ]; then
	# (a refusal, its first line; else what stopped jq, as it said it)
	cat "$judged_err" >&2
	exit "$judge_rc"
fi
mv "$run/$QC_SUMMARY.tmp" "$run/$QC_SUMMARY"
echo
jq -r -L "$QC_ROOT/scripts" 'include "summary-table"; verdict_table' "$run/$QC_SUMMARY"
echo
info "summary: $run/$QC_SUMMARY"
