#!/bin/sh
# analyze.sh DIR ISOLATED: turn one variant's traces into numbers, on the
# host. trace.dat (the measurement window) gives analysis.json and the
# readable analysis.txt; trace-selftest.dat (the planted-noise window) is
# held to exactly what selftest-planted.txt says was planted, giving
# selftest.json. A trace the analyzer cannot read is an error, never a
# verdict.
set -eu
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: analyze.sh DIR ISOLATED} iso=${2:?usage: analyze.sh DIR ISOLATED}
need_cmd make pkg-config jq
make -s -C "$QC_ROOT/tracing" >/dev/null 2>"$dir/analyzer-build.log" ||
	die "the trace analyzer does not build: see $dir/analyzer-build.log (missing libtracecmd-dev? run 'sudo make setup')"
rm -f "$dir/analyzer-build.log"
qa=$QC_ROOT/tracing/qc-analyze

if [ -f "$dir/trace.dat" ]; then
	"$qa" --cpus "$iso" --task oslat --json "$dir/analysis.json" "$dir/trace.dat" \
		> "$dir/analysis.txt" 2>"$dir/analysis.err" ||
		die "the analyzer refused $dir/trace.dat: $(head -n1 "$dir/analysis.err")"
fi

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
	planted=0
	while read -r kind cpu k; do
		cause=$(planted_cause "$kind") || exit 1
		set -- "$@" --expect "$cpu:$cause=$k"
		planted=$((planted + k))
	done < "$dir/selftest-planted.txt"
	rc=0
	"$qa" --cpus "$iso" --task oslat --json "$dir/selftest-analysis.json" "$@" \
		"$dir/trace-selftest.dat" > "$dir/selftest-analysis.txt" 2>"$dir/selftest.err" || rc=$?
	[ $rc -le 1 ] || die "the analyzer refused $dir/trace-selftest.dat: $(head -n1 "$dir/selftest.err")"
	counted=0
	while read -r kind cpu k; do
		cause=$(planted_cause "$kind")
		n=$(jq --arg c "$cpu" --arg k "$cause" '.cpus[$c].by_cause[$k] // 0' "$dir/selftest-analysis.json")
		counted=$((counted + n))
	done < "$dir/selftest-planted.txt"
	jq -n --argjson p "$planted" --argjson c "$counted" --argjson ok "$([ $rc -eq 0 ] && echo true || echo false)" \
		'{planted: $p, counted: $c, pass: $ok}' > "$dir/selftest.json"
	[ $rc -eq 0 ] || die "self-test failed: planted $planted interruptions, the analyzer counted $counted (see $dir/selftest-analysis.txt)"
fi
