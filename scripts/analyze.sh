#!/bin/sh
# analyze.sh DIR ISOLATED: turn one variant's traces into numbers, on the
# host. trace.dat (the measurement window) gives analysis.json and the
# readable analysis.txt; trace-quiet.dat (the quiet control window of the
# same boot) gives analysis-quiet.json, charged by the hammer window's
# drain calls overlaid on it (its "charged" is coincidence);
# trace-selftest.dat (the planted-noise window) is held to exactly what
# selftest-planted.txt says was planted on each CPU, giving selftest.json,
# and analysed once more with the planted causes as drain causes
# (selftest-charged.json: the verdict-level self-test summarize.sh
# checks). With audit.txt (scenario "audit"), scripts/audit.sh counts each
# trigger's sub-window into audit.json. A trace the analyzer cannot read is
# an error, never a verdict.
set -eu
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: analyze.sh DIR ISOLATED} iso=${2:?usage: analyze.sh DIR ISOLATED}
need_cmd make pkg-config jq
make -s -C "$QC_ROOT/tracing" >/dev/null 2>"$dir/analyzer-build.log" ||
	die "the trace analyzer does not build: see $dir/analyzer-build.log (missing libtracecmd-dev? run 'sudo make setup')"
rm -f "$dir/analyzer-build.log"
qa=$QC_ROOT/tracing/qc-analyze
# The measured tasks' comms: oslat, and the refill workload.
tasks=oslat,refill
causes=${QC_DRAIN_CAUSES:-$QC_ROOT/tracing/drain-causes.list}

# analyze_trace TRACE OUT [ARGS...]: OUT.json and OUT.txt, or die.
analyze_trace() {
	t=$1 o=$2
	shift 2
	"$qa" --cpus "$iso" --task "$tasks" --drain-causes "$causes" --json "$dir/$o.json" "$@" \
		"$dir/$t" > "$dir/$o.txt" 2>"$dir/$o.err" ||
		die "the analyzer refused $dir/$t: $(head -n1 "$dir/$o.err")"
	rm -f "$dir/$o.err"
}
[ ! -f "$dir/trace.dat" ] || analyze_trace trace.dat analysis
if [ -f "$dir/trace-quiet.dat" ]; then
	[ -f "$dir/trace.dat" ] || die "$dir has a quiet control trace but no hammer trace to overlay"
	analyze_trace trace-quiet.dat analysis-quiet --calls-from "$dir/trace.dat"
fi
# The audit scenario's window: each trigger's sub-window and the gaps.
[ ! -f "$dir/audit.txt" ] || "$QC_ROOT/scripts/audit.sh" "$dir" "$iso" >&2

# Each planted kind (hammer/plant.c) has one cause the analyzer must name.
planted_cause() {
	case $1 in
	work) echo workqueue:qc_planted_work ;;
	ipi) echo irq_vectors:call_function_single:qc_planted_ipi ;;
	*) die "unknown planted kind '$1' in $dir/selftest-planted.txt" ;;
	esac
}

if [ -f "$dir/trace-selftest.dat" ]; then
	[ -f "$dir/selftest-planted.txt" ] || die "$dir has a self-test trace but no selftest-planted.txt"
	set --
	: > "$dir/selftest-causes.list"
	while read -r kind cpu k; do
		cause=$(planted_cause "$kind") || exit 1
		set -- "$@" --expect "$cpu:$cause=$k"
		echo "^$cause\$" >> "$dir/selftest-causes.list"
	done < "$dir/selftest-planted.txt"
	sort -u -o "$dir/selftest-causes.list" "$dir/selftest-causes.list"
	rc=0
	"$qa" --cpus "$iso" --task "$tasks" --json "$dir/selftest-analysis.json" "$@" \
		"$dir/trace-selftest.dat" > "$dir/selftest-analysis.txt" 2>"$dir/selftest.err" || rc=$?
	[ $rc -le 1 ] || die "the analyzer refused $dir/trace-selftest.dat: $(head -n1 "$dir/selftest.err")"
	# Per CPU: planted and counted, over every planted kind.
	cpus='{}'
	while read -r kind cpu k; do
		cause=$(planted_cause "$kind")
		cpus=$(echo "$cpus" | jq --arg c "$cpu" --arg k "$cause" --argjson p "$k" \
			--slurpfile a "$dir/selftest-analysis.json" '
			.[$c].planted += $p | .[$c].counted += ($a[0].cpus[$c].by_cause[$k] // 0)')
	done < "$dir/selftest-planted.txt"
	echo "$cpus" | jq --argjson ok "$([ $rc -eq 0 ] && echo true || echo false)" \
		'{planted: ([.[].planted] | add), counted: ([.[].counted] | add), pass: $ok, cpus: .}' \
		> "$dir/selftest.json"
	[ $rc -eq 0 ] || die "self-test failed: $(jq -r '[.cpus | to_entries[] | select(.value.planted != .value.counted) | "CPU \(.key) planted \(.value.planted), counted \(.value.counted)"] | join("; ")' "$dir/selftest.json") (see $dir/selftest-analysis.txt)"
	# The same trace with the planted causes as the drain causes.
	QC_DRAIN_CAUSES=$dir/selftest-causes.list
	causes=$QC_DRAIN_CAUSES
	analyze_trace trace-selftest.dat selftest-charged
fi
