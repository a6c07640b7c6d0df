#!/bin/sh
# summarize.sh RUNDIR: judge one run's variants by the verdict policy
# (tracing/verdict-policy.json) from the files the guests brought home and
# the analyzer wrote, write RUNDIR/summary.json and print the verdict
# table. Runs nothing in a guest.
#
# It fails closed: an input without which a verdict would be judged from
# nothing (no drain-cause list, no per-CPU analysis, no hammer.json in a
# hammer run, no isolated CPU, a self-test that did not pass) is refused
# in one line, the run's status says failed, and no summary.json is left.
# Environment: QC_DRAIN_CAUSES=FILE (default: the policy's
# drain_causes_file, tracing/drain-causes.list), QC_VERDICT_POLICY=FILE
# (default tracing/verdict-policy.json),
# QC_JUDGED=FILE (a copy of every judged guest's judgement, kept there
# even when the run is refused: the error names the first guest refused,
# the file each one; see judge_guests).
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
# its baseline and its drain-cause list's name, a line each.
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

# --- the policy and the lists it names -------------------------------------
baseline_rule=${pol%%
*} causes_rel=${pol#*
}
causes_file=$(qc_drain_causes_file "$causes_rel") || exit 1

# Checked once, for the first variant that ran to the end (judge_guests
# asks): a run whose variants all failed is still summarized (as
# FAILED-RUN) without them.
run_inputs_checked=no
check_run_inputs() {
	[ "$run_inputs_checked" = no ] || return 0
	[ -f "$causes_file" ] ||
		refuse "the drain-cause list $causes_file is missing, so nothing could be charged to the drain by name: restore tracing/drain-causes.list (git checkout) or point QC_DRAIN_CAUSES at one"
	run_inputs_checked=yes
}
# ... and, once the policy is applied (judge_guests), the rest.
check_applied_policy() {
	[ "$run_inputs_checked" = yes ] || return 0
	case $applied in '{"patterns":0,'*)
		refuse "the drain-cause list $causes_file holds no pattern (only comments or blank lines), so nothing could be charged to the drain by name: restore tracing/drain-causes.list (git checkout) or point QC_DRAIN_CAUSES at one" ;;
	esac
	[ -n "$isolated" ] ||
		refuse "$run/run.txt has an empty 'isolated:' line, so no CPU would be judged: fix the line (e.g. 'isolated: 1-3') or re-run the comparison"
}

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


# judge_guests: $tmp/v-GUEST.json, {refuse, summary}, for each judged guest
# (a variant listed in run.txt without a directory is a failed run), all
# from one jq; judge_rc its exit status. When it stops at a guest (a value
# no check foresaw), the guests before it have their file, the others not.
judge_guests() {
	set --
	i=0
	for name in $judged; do
		d=$run/$name
		qc_status_read "$d" missing
		status=$QC_ST
		[ "$status" != ok ] || check_run_inputs
		for spec in oslat_f:oslat.json refill_f:refill.json analysis_f:$QC_ANALYSIS.json \
		            quiet_f:$QC_ANALYSIS-$QC_WINDOW_QUIET.json hammer_f:$QC_HAMMER_JSON \
		            primed_f:pcp-window.json selftest_f:$QC_SELFTEST_JSON stc_f:$QC_SELFTEST_CHARGED.json \
		            audit_f:$QC_AUDIT_JSON stress_f:$QC_STRESS_PHASES; do
			f=$d/${spec#*:}
			[ -f "$f" ] || f=/dev/null
			set -- "$@" --rawfile "g${i}_${spec%%:*}" "$f"
		done
		set -- "$@" --arg "g${i}_status" "$status" --arg "g${i}_dir" "$d" \
			--arg "g${i}_reanalyze" "scripts/analyze.sh $d $isolated"
		i=$((i + 1))
	done
	judge_rc=0
	# (the list is read only once a guest that ran to the end has
	# checked it is there; the names as summary.json records them:
	# relative to the repository when they lie inside it)
	_list=/dev/null
	[ "$run_inputs_checked" = no ] || _list=$causes_file
	jq -n "$@" --argjson guests "$i" --arg scenario "$scenario" --argjson scenario_traits "$scenario_traits" \
		--arg planter "$QC_PLANTER_FUNCTION" \
		--argjson isolated "$iso_json" --argjson refill_cpus "$refill_json" \
		--slurpfile policy_doc "$policy_file" --rawfile causes_list "$_list" \
		--arg policy_file "${policy_file#"$QC_ROOT"/}" --arg causes_file "${causes_file#"$QC_ROOT"/}" \
		-c -f "$QC_ROOT/scripts/summarize-variant.jq" > "$tmp/judged" || judge_rc=$?
	# (its first line, {"patterns":N,"policy":{...}}: the policy as applied)
	IFS= read -r applied < "$tmp/judged" || applied=
	# (and in $tmp/refusing, the guests whose judgement is a refusal: a
	# judgement is compact, {"refuse":null,... when there is none; the
	# shell's read takes a byte a system call, ~1.4 us each here, and a
	# judgement is kilobytes)
	awk -v names="$judged" -v dir="$tmp" 'BEGIN { split(names, g, " ") }
		NR > 1 { print > (dir "/v-" g[NR - 1] ".json")
		         if (index($0, "{\"refuse\":null,") != 1) refusing = refusing " " g[NR - 1] }
		END { print refusing > (dir "/refusing") }' "$tmp/judged"
}

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

judge_guests
# (QC_JUDGED: the judging's lines as they are, the policy as applied, then
# one {refuse, continuation_ns, summary} a guest, in the order judged;
# each refusal names its guest's directory)
[ -z "${QC_JUDGED:-}" ] || cp "$tmp/judged" "$QC_JUDGED"
# judging_stopped: the judging jq stopped (its error is on stderr): its
# exit status, or 1.
judging_stopped() { [ "$judge_rc" -ne 0 ] && exit "$judge_rc"; exit 1; }
# The policy as applied (judge_guests): its numbers and the list's
# patterns; summary.json adds the baseline this run resolved and the
# analyzer's continuation bound.
case $applied in '{"patterns":'*',"policy":{'*'}') ;; *) judging_stopped ;; esac
policy=${applied#*,\"policy\":}
policy=${policy%\}}
check_applied_policy
IFS= read -r refusing < "$tmp/refusing" || judging_stopped
for g in $judged; do
	# (jq stopped at this guest)
	[ -f "$tmp/v-$g.json" ] || judging_stopped
	# (a jq only for a refusal)
	case "$refusing " in *" $g "*) ;; *) continue ;; esac
	refuse "$(jq -r '.refuse // "summarize-variant.jq gave no verdict"' "$tmp/v-$g.json")"
done

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
# Variants in run.txt's order: each judged guest's v-GUEST.json. The
# audit's per-trigger counts (scripts/audit.sh) go under .audit, by
# variant, in the triggers' order. The policy as applied gets the
# analyzer's continuation bound, from the first analysis that has one.
# Then the verdict table (below), from that summary. All in one jq: the
# summary's lines down to its closing brace go to summary.json, the
# table's to the terminal.
set --
for g in $judged; do set -- "$@" "$tmp/v-$g.json"; done
# TIME_SCALE=auto's factor and its evidence (scripts/time-scale.sh)
scale=$run/$QC_TIME_SCALE
[ -f "$scale" ] || scale=/dev/null
jq -n \
	--slurpfile scale "$scale" \
	--arg id "$run_id" --arg accel "$accel" --arg qemu "$qemu_version" --arg tree "$tree" \
	--arg scenario "$scenario" --arg duration "$duration" \
	--arg isolated "$isolated" --arg refill "$refill" \
	--arg oslat "$(oslat_cpus)" \
	--arg housekeeping "$(if [ -n "$isolated" ]; then qc_housekeeping_of "$isolated" "${smp:-4}"; fi)" \
	--argjson policy "$policy" --arg baseline "$baseline" --arg baseline_rule "$baseline_rule" \
	--argjson alloc "$(alloc_bench)" \
	--slurpfile cost "$tmp/cost.json" --arg cost_missing "$cost_missing" \
	--arg names "$judged" -r -L "$QC_ROOT/scripts" \
	'include "summary-table";
	 def blank_null: if . == "" then null else . end;
	 # (no tonumber?: jq 1.6 try catches the errors raised after it, and
	 # would swallow a crash further down, and the summary with it)
	 def number_or_null: if test("^[-+]?[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?$") then tonumber else null end;
	 [inputs] as $judged
	 | ([$names | splits(" +") | select(. != "")] as $n | [$n, $judged] | transpose
	  | map({(.[0]): .[1].summary}) | add // {}) as $v
	 | {run: ({id: $id, accel: ($accel | blank_null // "unknown"), kernel_tree: ($tree | blank_null),
	        scenario: $scenario, duration_s: ($duration | number_or_null),
	        isolated_cpus: $isolated, refill_cpus: $refill, oslat_cpus: $oslat,
	        housekeeping_cpus: $housekeeping}
	     # (runs booted before boot.sh recorded it have none)
	     + (if $qemu == "" then {} else {qemu_version: $qemu} end)
	     + (if $scale == [] then {} else {time_scale: $scale[0]} end)),
	  policy: ($policy + {baseline: $baseline, baseline_rule: $baseline_rule}),
	  variants: {}, alloc_bench: (if $alloc == {} then null else $alloc end),
	  alloc_cost: $cost[0]}
	 + (if $cost_missing == "" then {} else {alloc_cost_missing: $cost_missing} end)
	 | .policy.continuation_ns = first($judged[].continuation_ns | select(. != null) // null)
	 | .variants = ($v | map_values(del(.audit)))
	 | .audit = ([$v[].audit | select(. != null)] as $a
	     | if $a == [] then null else
	         {triggers: [$a[0].triggers[].name],
	          variants: ($v | map_values(.audit) | with_entries(select(.value != null)))} end)
	 | ., "", verdict_table' \
	"$@" > "$tmp/summary-and-table"
awk -v summary="$run/$QC_SUMMARY.tmp" 'done { print; next } { print > summary } /^}$/ { done = 1 }' "$tmp/summary-and-table"
mv "$run/$QC_SUMMARY.tmp" "$run/$QC_SUMMARY"
echo
info "summary: $run/$QC_SUMMARY"
