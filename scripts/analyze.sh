#!/bin/sh
# analyze.sh DIR ISOLATED: turn one variant's traces into numbers, on the
# host. trace.dat (the measurement window) gives analysis.json and the
# readable analysis.txt; trace-quiet.dat (the quiet control window of the
# same boot) gives analysis-quiet.json; trace-selftest.dat (the
# planted-noise window) is held to exactly what selftest-planted.txt says
# was planted on each CPU, giving selftest.json (with the causes planted),
# and analysed once more with the planter as the drain
# (selftest-charged.json: the verdict-level self-test summarize.sh
# checks). With audit.txt (scenario "audit"),
# scripts/audit.sh counts each trigger's sub-window into audit.json. A trace the analyzer cannot read is
# an error, never a verdict.
#
# It fails closed: every output of an earlier pass goes before this one
# starts, each file is written whole or not at all (a temporary renamed),
# and a refusal leaves none of the JSON files later steps read (only this
# pass's .txt and .err files, to show why), DIR/status says "failed: ..."
# and the exit is non-zero.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/policy.sh"
. "$here/lib/plugin.sh"
. "$here/../common/cpulist.sh"
. "$here/lib/runs.sh"
. "$here/lib/variants.sh"
. "$here/lib/inputs.sh"
dir=${1:?usage: analyze.sh DIR ISOLATED} iso=${2:?usage: analyze.sh DIR ISOLATED}
dir=${dir%/}
[ -d "$dir" ] || die "'$dir' is not a guest's result directory"
export QC_STATUS_FILE="${QC_STATUS_FILE:-$dir/$QC_STATUS}"
# What this step writes that later steps read, and what it writes for people.
outputs_json="$QC_ANALYSIS.json $QC_ANALYSIS-$QC_WINDOW_QUIET.json $QC_SELFTEST_JSON $QC_SELFTEST_ANALYSIS.json
	$QC_SELFTEST_CHARGED.json $QC_AUDIT_JSON $QC_RTHOG_SUMMARY.json"
outputs_txt="$QC_ANALYSIS.txt $QC_ANALYSIS-$QC_WINDOW_QUIET.txt $QC_SELFTEST_ANALYSIS.txt $QC_SELFTEST_CHARGED.txt
	$QC_RTHOG_SUMMARY.txt"
remove() { for _f in "$@"; do rm -f "$dir/$_f" "$dir/$_f.tmp"; done; }
# shellcheck disable=SC2086 # the lists are words
remove $outputs_json $outputs_txt "$QC_ANALYSIS.err" "$QC_ANALYSIS-$QC_WINDOW_QUIET.err" \
	"$QC_SELFTEST_CHARGED.err" selftest.err
# shellcheck disable=SC2086
trap 'rc=$?; [ $rc -eq 0 ] || { remove $outputs_json; for _f in $outputs_txt; do rm -f "$dir/$_f.tmp"; done; }' EXIT
need_cmd make pkg-config jq
make -s -C "$QC_ROOT/tracing" >/dev/null 2>"$dir/analyzer-build.log" ||
	die "the trace analyzer does not build: see $dir/analyzer-build.log (missing libtracecmd-dev? run 'sudo make setup')"
rm -f "$dir/analyzer-build.log"
qa=$QC_ROOT/tracing/qc-analyze
functions=$(qc_drain_functions) || exit 1

# profile_of WINDOW: the --kprobe-profile argument for that window's
# trace, when the guest wrote its snapshots (QC_KPROBE_PROFILE); none
# when it did not, and qc-analyze reports dropped hits as not measured.
profile_of() {
	_p=$dir/$(qc_window_file "$QC_KPROBE_PROFILE" "$1" txt)
	[ ! -f "$_p" ] || echo "--kprobe-profile=$_p"
}
# The qc-entry plugin's counts (run.sh --count-entries), with the guest's
# RCU forcing interval: every window's RCU forcing is then timed by the
# instructions of the stretch it hit (tracing/README.md, "Hardware time").
hwtime=
if [ -f "$dir/$QC_ENTRY_COUNTS" ]; then
	forcing=$(qc_rcu_forcing "$dir") && [ -n "$forcing" ] ||
		die "$dir has the plugin's entry counts but $QC_GUEST_JSON gives no RCU forcing interval (.rcu.hz, .rcu.jiffies_till_next_fqs): the forcing cannot be timed; re-run the variant"
	hwtime="--entry-counts=$dir/$QC_ENTRY_COUNTS --rcu-forcing=$forcing"
fi
# analyze_trace TRACE OUT [ARGS...]: OUT.json and OUT.txt, or die.
analyze_trace() {
	t=$1 o=$2
	shift 2
	# shellcheck disable=SC2086 # $hwtime is words
	"$qa" --cpus "$iso" --task "$tasks" --drain-functions "$functions" \
		--json "$dir/$o.json" $hwtime "$@" \
		"$dir/$t" > "$dir/$o.txt.tmp" 2>"$dir/$o.err" ||
		die "the analyzer refused $dir/$t: $(head -n1 "$dir/$o.err")"
	mv "$dir/$o.txt.tmp" "$dir/$o.txt"
	rm -f "$dir/$o.err"
}
trace=$(qc_window_file trace "" dat)
quiet=$(qc_window_file trace "$QC_WINDOW_QUIET" dat)
selftest=$(qc_window_file trace "$QC_WINDOW_SELFTEST" dat)
# The measured tasks' comms, as the run's scenario declares them (its
# "# qc-scenario:" line, tasks=): what runs on the isolated CPUs by design.
# Needed only where there is a trace: a scenario that traces nothing
# (oslat, bench) leaves nothing to analyze.
tasks=
if [ -f "$dir/$trace" ] || [ -f "$dir/$quiet" ] || [ -f "$dir/$selftest" ]; then
	qc_kv_read "$dir/../$QC_RUN_TXT" scenario
	[ -n "$QC_KV" ] || die "$dir/../$QC_RUN_TXT names no scenario, so the measured tasks are unknown: analyze a guest directory inside its run directory"
	qc_check_scenario "$QC_KV"
	tasks=$(qc_scenario_tasks "$QC_KV") || exit 1
	[ -n "$tasks" ] || die "$dir has a trace, but its scenario '$QC_KV' declares no measured tasks (tasks= on its '# qc-scenario:' line)"
fi
# The hammer's own count of its calls (hammer.json), which the window's
# calls by its thread must match: the kernel counts too, so a dropped
# drain_all probe hit refuses the trace instead of passing as one call fewer.
hammer=
if [ -f "$dir/$QC_HAMMER_JSON" ]; then
	hammer=$(jq -r 'if (.calls | type) == "number" and (.cpu | type) == "number"
		then "--hammer-calls=\(.calls)@\(.cpu)" else "" end' "$dir/$QC_HAMMER_JSON") ||
		die "$dir/$QC_HAMMER_JSON is not JSON: re-run the variant"
	[ -n "$hammer" ] || die "$dir/$QC_HAMMER_JSON has no calls and cpu: re-run the variant"
fi
# shellcheck disable=SC2046,SC2086 # profile_of and $hammer give one word or none
[ ! -f "$dir/$trace" ] || analyze_trace "$trace" "$QC_ANALYSIS" $(profile_of "") $hammer
if [ -f "$dir/$quiet" ]; then
	# shellcheck disable=SC2046
	analyze_trace "$quiet" "$QC_ANALYSIS-$QC_WINDOW_QUIET" $(profile_of "$QC_WINDOW_QUIET")
fi
# The audit scenario's window: each trigger's sub-window and the gaps.
[ ! -f "$dir/$QC_AUDIT_TXT" ] || "$QC_ROOT/scripts/audit.sh" "$dir" "$iso" >&2
# The rthog scenario: how long each drain waited, and on what.
[ ! -f "$dir/$QC_RTHOG_JSON" ] || "$QC_ROOT/scripts/rthog.sh" "$dir" "$iso" >&2

# Each planted kind (hammer/plant.c) has one cause the analyzer must name.
planted_cause() {
	case $1 in
	work) echo workqueue:qc_planted_work ;;
	dwork) echo workqueue:qc_planted_dwork ;;
	ipi) echo irq_vectors:call_function_single:qc_planted_ipi ;;
	iwork) echo irq_vectors:call_function_single:qc_planted_iw_ipi ;;
	clone) echo irq_vectors:call_function_single:qc_planted_clone_ipi ;;
	bare) echo irq_vectors:reschedule ;;
	*) die "unknown planted kind '$1' in $dir/$QC_PLANTED" ;;
	esac
}

if [ -f "$dir/$selftest" ]; then
	[ -f "$dir/$QC_PLANTED" ] || die "$dir has a self-test trace but no $QC_PLANTED"
	set --
	# (the causes the planter's own sends must be counted under: every
	# planted kind's but the irq_work's and the bare vector's)
	planted_causes=
	while read -r kind cpu k; do
		# (a bare vector has no sender and no count of its own: below)
		[ "$kind" != bare ] || continue
		cause=$(planted_cause "$kind") || exit 1
		set -- "$@" --expect "$cpu:$cause=$k"
		# (an irq_work's IPI is never the planter's: below)
		[ "$kind" = iwork ] || planted_causes="$planted_causes $cause"
	done < "$dir/$QC_PLANTED"
	rc=0
	# shellcheck disable=SC2046 # profile_of gives one word or none
	"$qa" --cpus "$iso" --task "$tasks" --json "$dir/$QC_SELFTEST_ANALYSIS.json" "$@" $(profile_of "$QC_WINDOW_SELFTEST") \
		"$dir/$selftest" > "$dir/$QC_SELFTEST_ANALYSIS.txt.tmp" 2>"$dir/selftest.err" || rc=$?
	[ $rc -le 1 ] || die "the analyzer refused $dir/$selftest: $(head -n1 "$dir/selftest.err")"
	mv "$dir/$QC_SELFTEST_ANALYSIS.txt.tmp" "$dir/$QC_SELFTEST_ANALYSIS.txt"
	rm -f "$dir/selftest.err"
	# Per CPU: planted and counted, over every planted kind. Bare
	# reschedule vectors (no sender) apart: each must be counted without
	# a sender, as unknown, and no other reschedule vector may be
	# (senderless: planted, unknown; a missing send side decides nothing).
	# Where the planter's probe says when each went (origins.bare: sent,
	# merged), a bare vector that shared its vector entry with a real
	# reschedule IPI pending at the same time is merged, not missing: every
	# planted one sent, planted = unknown + merged (an unknown vector that
	# was no bare one's would break it), and at least one unknown.
	cpus='{}'
	while read -r kind cpu k; do
		if [ "$kind" = bare ]; then
			cpus=$(echo "$cpus" | jq --arg c "$cpu" --argjson p "$k" --slurpfile a "$dir/$QC_SELFTEST_ANALYSIS.json" '
				($a[0].cpus[$c].origins) as $o
				| (if $o == null or ($o.bare.sent // 0) == 0 then null else $o.bare end) as $b
				| .[$c].senderless = {planted: ((.[$c].senderless.planted // 0) + $p),
					unknown: (if $o == null then null else $o.unknown_by_cause["irq_vectors:reschedule"] // 0 end),
					sent: $b.sent, merged: $b.merged}')
			continue
		fi
		cause=$(planted_cause "$kind")
		# An IPI sent from the planter's irq_work, in its CPU's hardirq:
		# who queued an irq_work cannot be traced (tracing/README.md,
		# "Deferred work"), so each must be counted and unknown, its
		# sender named, never nobody's ("irq_work" per CPU).
		if [ "$kind" = iwork ]; then
			cpus=$(echo "$cpus" | jq --arg c "$cpu" --arg k "$cause" --argjson p "$k" \
				--slurpfile a "$dir/$QC_SELFTEST_ANALYSIS.json" '
				($a[0].cpus[$c]) as $r
				| .[$c].irq_work = {planted: $p, counted: ($r.by_cause[$k] // 0),
					unknown: (if $r.origins == null then null else $r.origins.unknown_by_cause[$k] // 0 end)}')
			continue
		fi
		cpus=$(echo "$cpus" | jq --arg c "$cpu" --arg k "$cause" --argjson p "$k" \
			--slurpfile a "$dir/$QC_SELFTEST_ANALYSIS.json" '
			.[$c].planted += $p | .[$c].counted += ($a[0].cpus[$c].by_cause[$k] // 0)')
	done < "$dir/$QC_PLANTED"
	# The same trace with the planter as the drain (its function,
	# hammer/plant.c): the verdict rule must charge exactly what was
	# planted, under the planted causes.
	functions=$QC_PLANTER_FUNCTION
	# shellcheck disable=SC2046
	analyze_trace "$selftest" "$QC_SELFTEST_CHARGED" $(profile_of "$QC_WINDOW_SELFTEST")
	# Deferral followed: each planted delayed work item ran on its CPU,
	# queued there (6.1) or onto it (6.12) from its timer's expiry in a
	# softirq, and its origin must still be the planter, through the
	# timer's arming (tracing/README.md, "Deferred work"): "deferred" per
	# CPU, planted and charged to the planter by origin.
	# Names by symbol: each IPI planted by a work function named as a
	# compiler's clone of the planter's (qc_plant_write.part.0), whose
	# kworker's stack holds no other frame of the planter's, must be the
	# planter's too, its clone matched by base name: "clone" per CPU.
	# ("KEY CPU K CAUSE" a line, the cause planted_cause's)
	cpus=$(while read -r kind cpu k; do
			case $kind in dwork) key=deferred ;; clone) key=clone ;; *) continue ;; esac
			echo "$key $cpu $k $(planted_cause "$kind")"
		done < "$dir/$QC_PLANTED" |
		jq -Rn --argjson cpus "$cpus" --slurpfile c "$dir/$QC_SELFTEST_CHARGED.json" '
		reduce (inputs | split(" ") | select(length == 4)) as [$key, $cpu, $k, $cause] ($cpus;
			.[$cpu][$key] = {planted: ($k | tonumber),
				drain: ($c[0].cpus[$cpu].origins.drain_by_cause[$cause] // 0)})')
	# (the links' rules: scripts/selftest.jq)
	echo "$cpus" | jq -L "$QC_ROOT/scripts" --argjson ok "$([ $rc -eq 0 ] && echo true || echo false)" \
		--arg causes "$planted_causes" \
		'include "selftest";
		{planted: ([.[].planted] | add), counted: ([.[].counted] | add),
		 pass: ($ok and all(.[]; selftest_cpu_ok)),
		 causes: ([$causes | splits(" +") | select(. != "")] | unique), cpus: .}' \
		> "$dir/$QC_SELFTEST_JSON.tmp"
	mv "$dir/$QC_SELFTEST_JSON.tmp" "$dir/$QC_SELFTEST_JSON"
	jq -e .pass "$dir/$QC_SELFTEST_JSON" >/dev/null || die "self-test failed: $(jq -r -L "$QC_ROOT/scripts" 'include "selftest";
		[.cpus | to_entries[] | .key as $k | .value
		| (select(counted_ok | not) | "CPU \($k) planted \(.planted), counted \(.counted)"),
		  (select(senderless_ok | not) | .senderless
		   | "CPU \($k) planted \(.planted) sender-less reschedule vectors, \(.unknown // "none (no send side)") counted without a sender"
		     + (if .merged != null then ", \(.merged) merged with a real one, \(.sent) sent by the planter'"'"'s count" else "" end)),
		  (select(deferred_ok | not) | .deferred
		   | "CPU \($k) planted \(.planted) delayed work items, \(.drain) traced back to the planter (deferral through the timer not followed)"),
		  (select(clone_ok | not) | .clone
		   | "CPU \($k) planted \(.planted) IPIs from a function named as a compiler clone of the planter, \(.drain) traced back to the planter (clones not matched by base name)"),
		  (select(irq_work_ok | not) | .irq_work
		   | "CPU \($k) planted \(.planted) IPIs sent from an irq_work, counted \(.counted), \(.unknown // "none (no send side)") unknown (each must be: no event shows who queued an irq_work)")]
		| join("; ")' "$dir/$QC_SELFTEST_JSON") (see $dir/$QC_SELFTEST_ANALYSIS.txt and $dir/$QC_SELFTEST_CHARGED.txt)"
fi
