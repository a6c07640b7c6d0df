#!/bin/sh
# check-run.sh [--policy FILE] RUNDIR: every input summarize.sh judges a
# run from, checked before it reads any, so that no verdict is judged from
# a value that is not what it claims to be. summarize.sh calls it first; it
# decides no verdict itself. In this order:
#   - run.txt against its schema (docs/schemas/run-txt.json);
#   - run.txt against what each judged guest was told (its
#     boot-params.txt): the isolated CPUs, the refill CPUs and the
#     scenario, and every CPU list bounded by each guest's vCPU count
#     before any list is expanded;
#   - each judged guest that ran to the end: every JSON file the verdict
#     reads against its schema (docs/schemas/), each analysis naming its
#     own directory's trace, and the self-test's
#     selftest.json agreeing with its analysis and with what was planted;
#   - with --policy, the verdict policy FILE (tracing/verdict-policy.json):
#     there, and one JSON object with what a verdict is judged by. Then,
#     on success, it prints the policy's baseline: summarize.sh judges by
#     it (and starts no jq of its own to read it).
# Silent on success (but for the policy's baseline); otherwise one
# "quietcore: error:" line naming the file, the problem and the fix, and
# exit 1. Writes nothing.
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/../common/cpulist.sh"
. "$here/lib/inputs.sh"
. "$here/lib/plugin.sh"
. "$here/lib/runs.sh"
. "$here/lib/variants.sh"
policy=
if [ "${1:-}" = --policy ]; then policy=${2:?usage: check-run.sh [--policy FILE] RUNDIR}; shift 2; fi
run=${1:?usage: check-run.sh [--policy FILE] RUNDIR}
run=${run%/}
runtxt=$run/$QC_RUN_TXT

[ -f "$runtxt" ] || die "$run is not a quietcore run directory (no $QC_RUN_TXT)"
# (Few processes: summarize.sh runs this on every pass, the tests often.)
# run.txt's lines, the first of each key, as qc_kv reads them.
{ read -r isolated; read -r refill; read -r scenario; } <<-EOF
$(awk '{ k = $0; sub(/:.*/, "", k); v = $0; sub(/^[^:]*: */, "", v); sub(/[[:space:]]+$/, "", v) }
       !(k in seen) { seen[k] = 1; val[k] = v }
       END { print val["isolated"]; print val["refill"]; print val["scenario"] }' "$runtxt")
EOF
qc_check_scenario "$scenario"
# Housekeeping CPU 0 is never isolated (a range that holds 0 starts at 0).
case ",$isolated," in *,0,*|*,0-*)
	die "$runtxt: 'isolated: $isolated' includes housekeeping CPU 0: fix the line to what the guests isolated" ;;
esac

# same A B: two CPU lists name the same CPUs (both already bounded).
same() { [ "$1" = "$2" ] || [ "$(qc_cpulist_expand "$1" | paste -sd, -)" = "$(qc_cpulist_expand "$2" | paste -sd, -)" ]; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# What each guest was told, one awk for them all: "GUEST SMP ISOLATED
# REFILL SCENARIO" (its vCPUs and qc.* parameters; "-" for none).
# (the files as awk's arguments, gathered in the shell: no process)
set --
for d in "$run"/*/; do
	[ -f "$d$QC_BOOT_PARAMS" ] && [ "$d" != "$run/$QC_PLOTS/" ] && set -- "$@" "$d$QC_BOOT_PARAMS"
done
: > "$tmp/told"
[ $# -eq 0 ] || awk '
	FNR == 1 { if (f != "") out(); f = FILENAME; smp = ""; seen = 0; delete p }
	/^smp:/ && smp == "" { smp = $2 }
	/^kernel_cmdline:/ && !seen { seen = 1; for (i = 2; i <= NF; i++) { n = index($i, "="); if (n) p[substr($i, 1, n - 1)] = substr($i, n + 1) } }
	function d(x) { return x == "" ? "-" : x }
	function out(  g) { g = f; sub(/\/[^\/]*$/, "", g); sub(/.*\//, "", g)
		print g, d(smp), d(p["qc.isolated"]), d(p["qc.refill"]), d(p["qc.scenario"]) }
	END { if (f != "") out() }' "$@" > "$tmp/told"
judged=
while read -r g smp t_iso t_refill t_scen; do
	bp=$run/$g/$QC_BOOT_PARAMS
	{ qc_is_count "$smp" && [ ${#smp} -le 4 ]; } ||
		die "$bp: 'smp: $smp' is not a vCPU count: the guest's boot-params.txt is damaged; re-run the variant"
	# Bounded first: nothing below expands a list that is not.
	[ -z "$isolated" ] || qc_cpulist_below "$isolated" "$smp" ||
		die "$runtxt: 'isolated: $isolated' is not a list of CPUs 1-$((smp - 1)) of the $smp-vCPU guest $g (CPU 0 keeps house): fix the line to what the guest isolated ($t_iso)"
	[ -z "$refill" ] || qc_cpulist_below "$refill" "$smp" ||
		die "$runtxt: 'refill: $refill' names a CPU the $smp-vCPU guest $g does not have: fix the line to what the guest ran ($t_refill)"
	# The allocator benchmark's guests boot run.sh's own isolation, not
	# the run's: only the judged guests must agree with run.txt.
	! qc_is_bench "$g" && ! qc_is_cost "$g" || continue
	judged="$judged $g"
	[ "$t_iso" != - ] && qc_cpulist_below "$t_iso" "$smp" && same "$isolated" "$t_iso" ||
		die "$runtxt says 'isolated: $isolated' but guest $g isolated '$t_iso' ($bp): fix run.txt to match its guests"
	[ "$t_scen" = "$scenario" ] ||
		die "$runtxt says 'scenario: $scenario' but guest $g ran '$t_scen' ($bp): fix run.txt to match its guests"
	# Guests from before the refill workload were told nothing: all oslat.
	case $t_refill in -|none) t_refill= ;; esac
	[ "$t_refill" = "$refill" ] || { [ -n "$t_refill" ] && [ -n "$refill" ] && qc_cpulist_below "$t_refill" "$smp" && same "$refill" "$t_refill"; } ||
		die "$runtxt says 'refill: $refill' but guest $g ran the refill workload on '${t_refill:-none}' ($bp): fix run.txt to match its guests"
done < "$tmp/told"

# The files the verdict reads: run.txt, and those of each judged guest
# that ran to the end: "KIND FILE" lines (KIND: the schema,
# docs/schemas/KIND.json).
# (the window files' names, named once: one subshell for the three)
{ read -r pcp_json; read -r oslat_json; read -r refill_json; } <<-EOF
$(qc_window_file pcp-window "" json; qc_window_file oslat "" json; qc_window_file refill "" json)
EOF
# (kept in $files, counted in nfiles, for checks() to walk: the shell's
# read takes a byte a system call, ~1.4 us each here; $tmp/files is for
# jq's --rawfile list and the rare fallbacks)
nl='
'
files='' nfiles=0
verdict_file() { files="$files$1 $2$nl" nfiles=$((nfiles + 1)); }
verdict_file run-txt "$runtxt"
for g in $judged; do
	qc_status_read "$run/$g"
	[ "$QC_ST" = ok ] || continue
	for spec in analysis:$QC_ANALYSIS.json analysis:$QC_ANALYSIS-$QC_WINDOW_QUIET.json \
	            analysis:$QC_SELFTEST_ANALYSIS.json analysis:$QC_SELFTEST_CHARGED.json \
	            selftest:$QC_SELFTEST_JSON hammer:$QC_HAMMER_JSON \
	            pcp-window:$pcp_json oslat:$oslat_json oslat:$refill_json; do
		[ ! -e "$run/$g/${spec#*:}" ] || verdict_file "${spec%%:*}" "$run/$g/${spec#*:}"
	done
done
printf '%s' "$files" > "$tmp/files"
# fix KIND FILE: what to do about a bad FILE (check-run.jq says the same).
fix() {
	case $1 in
	run-txt) echo "fix that line (scripts/lib/runs.sh qc_run_txt writes run.txt)" ;;
	analysis|selftest) echo "re-run scripts/analyze.sh ${2%/*} $isolated" ;;
	*) echo "the guest wrote it: re-run the variant" ;;
	esac
}
# one_by_one WHY: each file alone, by the validator, in their order, which
# names the first that does not hold (when the one jq below stopped
# short of a verdict, WHY).
one_by_one() {
	while read -r kind f; do "$QC_ROOT/scripts/validate.sh" "$kind" "$f" "$(fix "$kind" "$f")"; done < "$tmp/files"
	die "the checks of $run's files stopped: $1"
}
# selftest-planted.txt of each judged guest as {"GUEST": {"CPU": planted}}
# ("KIND CPU K" lines; null when a line is not one), one awk for them all;
# bare reschedule vectors (counted without a sender, not by cause) and
# IPIs from an irq_work (counted as unknown) apart, under "bare:CPU" and
# "iwork:CPU".
set --
for g in $judged; do [ ! -f "$run/$g/$QC_PLANTED" ] || set -- "$@" "$run/$g/$QC_PLANTED"; done
planted='{}'
[ $# -eq 0 ] || planted=$(awk '
	function out(  s, c, sep) { g = f; sub(/\/[^\/]*$/, "", g); sub(/.*\//, "", g)
		if (bad) s = "null"; else { s = "{"; for (c in n) { s = s sep "\"" c "\": " n[c]; sep = ", " } s = s "}" }
		printf "%s\"%s\": %s", gsep, g, s; gsep = ", " }
	FNR == 1 { if (f != "") out(); f = FILENAME; bad = 0; delete n }
	NF == 0 { next }
	NF != 3 || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ { bad = 1 }
	{ n[($1 == "bare" || $1 == "iwork" ? $1 ":" : "") $2] += $3 }
	BEGIN { printf "{" }
	END { if (f != "") out(); print "}" }' "$@")

# Every file in one jq (a run is judged often, and each jq costs a
# start): each file is its own --slurpfile, which jq parses alone, and its
# own input (with a newline after it), read as the parser's events (for
# duplicate keys). run.txt's lines as the JSON text validate.sh reads.
awk -f "$QC_ROOT/scripts/run-txt.awk" "$runtxt" > "$tmp/run-txt.json"
echo > "$tmp/newline"
# checks N: check-run.jq on the first N files of the list (fewer than all:
# each file alone, no cross-check).
checks() {
	given=$1 n=0 rest=$files
	set --
	while [ "$n" -lt "$given" ] && [ -n "$rest" ]; do
		f=${rest%%"$nl"*} rest=${rest#*"$nl"}
		kind=${f%% *} f=${f#* }
		[ "$kind" != run-txt ] || f=$tmp/run-txt.json
		set -- "$@" --slurpfile "f$n" "$f" "$f" "$tmp/newline"
		n=$((n + 1))
	done
	# The policy's text, when asked for and there (its absence is refused
	# after the jq, which checks it after the run's files); null for one
	# that cannot be read, which is no policy either, as for jq reading it
	# itself (an empty text would be blanks, which hold).
	if [ -n "$policy" ] && [ -f "$policy" ]; then
		if [ -r "$policy" ]; then set -- "$@" --rawfile policy "$policy"; else set -- "$@" --argjson policy null; fi
		set -- "$@" --arg policy_file "$policy"
	fi
	jq -n -r --stream -L "$QC_ROOT/scripts" --slurpfile run_txt "$QC_ROOT/docs/schemas/run-txt.json" \
		--slurpfile analysis "$QC_ROOT/docs/schemas/analysis.json" --slurpfile selftest "$QC_ROOT/docs/schemas/selftest.json" \
		--slurpfile hammer "$QC_ROOT/docs/schemas/hammer.json" --slurpfile pcp_window "$QC_ROOT/docs/schemas/pcp-window.json" \
		--slurpfile oslat "$QC_ROOT/docs/schemas/oslat.json" --argjson planted "$planted" --arg iso "$isolated" \
		--rawfile list "$tmp/files" --argjson given "$n" -f "$QC_ROOT/scripts/check-run.jq" "$@" < /dev/null 2>&1
}
# alone K WHY: file K (from 0) of the list, alone, by the validator, which
# names what is wrong with it (when the one jq could not read it, WHY).
alone() {
	n=0
	while read -r kind f; do
		[ "$n" -ne "$1" ] || "$QC_ROOT/scripts/validate.sh" "$kind" "$f" "$(fix "$kind" "$f")"
		n=$((n + 1))
	done < "$tmp/files"
	one_by_one "$2"
}
# (jq names itself as it was called: "jq: Bad JSON ...")
why=$(checks "$nfiles") || case $why in
*": Bad JSON in --slurpfile f"*)
	# A file jq cannot parse, the first: the files before it, then it.
	k=${why#*": Bad JSON in --slurpfile f"} unread=$(printf '%s\n' "$why" | head -n1)
	k=${k%% *}
	why=$(checks "$k") || one_by_one "$(printf '%s\n' "$why" | head -n1)"
	[ -n "$why" ] || alone "$k" "$unread" ;;
*) one_by_one "$(printf '%s\n' "$why" | head -n1)" ;;
esac
[ "$why" != "duplicate key" ] || one_by_one "a file holds a key twice"
# (a policy that holds: "policy holds", then what summarize.sh judges by)
[ -z "$why" ] || [ "${why%%"$nl"*}" = "policy holds" ] || die "$why"
if [ -n "$policy" ]; then
	[ -f "$policy" ] ||
		die "the verdict policy $policy is missing: restore it (git checkout tracing/verdict-policy.json)"
	judged_by=${why#"policy holds"}
	printf '%s\n' "${judged_by#"$nl"}"
fi
