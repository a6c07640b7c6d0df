#!/bin/sh
# test-audit.sh: KTAP tests of the isolation audit without a guest:
# scripts/audit.sh on a real audit trace (tests/fixtures/traces/audit-wq.dat,
# captured by capture-audit.sh there: three marked sub-windows, the third
# a trigger whose kernel path never ran), each sub-window's count checked
# against trace-cmd's own report of the same trace; the guest trigger
# helper's bad input; audit.sh's refusals. Boots nothing.
cd "$(dirname "$0")/.." || exit 2
. tests/ktap.sh

QC_ROOT=$(pwd)
. scripts/lib/paths.sh

FX=tests/fixtures/traces
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ktap_plan 35

check() {
	if [ "$2" = "$3" ]; then ktap_ok "$1"; else ktap_not_ok "$1"; ktap_diag "got:  $2" "want: $3"; fi
}

# --- the guest helper's bad input: one line, exit 2 ------------------------
# Built as the initramfs builds it (scripts/lib/guest-cc.sh qc_guest_cc),
# its compile-and-link as ccache can cache it (tests/ccache-cc.sh).
(. scripts/lib/guest-cc.sh && . tests/ccache-cc.sh &&
 QC_GUEST_CC="ccache_cc gcc" && qc_guest_cc "$tmp/trigger" guest-init/trigger.c) 2>"$tmp/cc.err" ||
	ktap_diag "guest-init/trigger.c does not build: $(cat "$tmp/cc.err")"
# trigger_error DESCRIPTION TEXT ARGS...: exit 2 and one "trigger: error:"
# line that holds TEXT (ktap_one_error_line: matched by the shell, where
# two processes a call were most of this part's cost).
trigger_error() {
	desc=$1 pattern=$2
	shift 2
	out=$("$tmp/trigger" "$@" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && ktap_one_error_line "$out" trigger "$pattern"; then
		ktap_ok "$desc"
	else
		ktap_not_ok "$desc"; ktap_diag "exit $rc: $out"
	fi
}
trigger_error "trigger: no operation" "usage: trigger tlb"
trigger_error "trigger: an unknown operation" "usage:" shootdown 1
trigger_error "trigger tlb: a CPU that is not a number" "CPU 'x' is not a whole number" tlb x 10 /sys/fs/cgroup/isolated/cgroup.procs
trigger_error "trigger tlb: 0 ms" "MS '0' is not a whole number" tlb 0 0 /sys/fs/cgroup/isolated/cgroup.procs
trigger_error "trigger tlb: no cgroup.procs file" "is not a writable cgroup.procs file" tlb 0 10 "$tmp/none/cgroup.procs"
trigger_error "trigger tlb: a missing argument" "usage:" tlb 1 10
trigger_error "trigger membarrier: a negative count" "N '-1' is not a whole number" membarrier -1
trigger_error "trigger lru: a count with a unit" "N '20x' is not a whole number" lru 20x 0 1
trigger_error "trigger lru: writing and sealing on one CPU" "WRITE_CPU and SEAL_CPU are the same CPU 0" lru 20 0 0
trigger_error "trigger flushbufs: a device that does not exist" "cannot open block device '$tmp/none'" flushbufs "$tmp/none"
trigger_error "trigger flushbufs: a regular file" "is not a block device" flushbufs guest-init/trigger.c
trigger_error "trigger migrate: the same node twice" "FROM and TO are the same node 0" migrate 1 0 0
trigger_error "trigger migrate: a node past the mask" "TO '64' is not a whole number in 0..63" migrate 1 0 64
trigger_error "trigger migrate: no such process" "no process 4194304" migrate 4194304 0 1

# --- audit.sh on the fixture ------------------------------------------------
make -s -C tracing >/dev/null 2>&1 || ktap_diag "tracing/qc-analyze does not build"
d=$tmp/wq
mkdir -p "$d"
cp "$FX/audit-wq.dat" "$d/trace.dat"
cp "$FX/audit-wq.txt" "$d/audit.txt"
# the list the guest fired, as the audit scenario keeps it (the contract)
cp tracing/probes/audit.list "$d/$(. common/contract.sh && echo "$QC_AUDIT_LIST")"
tracing/qc-analyze --cpus 1-3 --task oslat --json "$d/analysis.json" --quiet "$d/trace.dat" 2>"$tmp/qa.err" ||
	ktap_diag "qc-analyze refused the fixture: $(cat "$tmp/qa.err")"
sh scripts/audit.sh "$d" 1-3 >"$tmp/audit.out" 2>&1 ||
	ktap_diag "audit.sh failed: $(tail -n 3 "$tmp/audit.out")"
a=$d/audit.json
# The figures of audit.json the checks below compare, as shell variables
# v_NAME, each what jq -r printed of it, a line an output (ktap_jq_vals).
# shellcheck disable=SC2016 # a jq program, single-quoted on purpose
ktap_jq_vals "$a" v_ '
	def rec($t): .triggers[] | select(.name == $t);
	def lines(f): [f | if type == "string" then . else tojson end] | join("\n");
	# the work items a trigger is charged with, "TRIGGER FUNCTION N", sorted
	def works($t): lines([rec($t) | .by_cause // {} | to_entries[]
		| select(.key | startswith("workqueue:")) | "\($t) \(.key | sub("^workqueue:"; "")) \(.value)"] | sort[]);
	{names: lines([.triggers[].name] | join(" ")),
	 res_vmstat_refresh: lines(rec("vmstat_refresh") | .result),
	 res_pcp_drain: lines(rec("pcp_drain") | .result),
	 res_bh_lru: lines(rec("bh_lru") | .result),
	 res_compaction: lines(rec("compaction") | .result),
	 bh_lru_count: lines(rec("bh_lru") | .interruptions),
	 works_vmstat_refresh: works("vmstat_refresh"),
	 works_pcp_drain: works("pcp_drain"),
	 vmstat_reach: lines([rec("vmstat_refresh") | .cpus[] | .by_cause["workqueue:refresh_vm_stats"]] | join(" ")),
	 crossed: lines([(rec("vmstat_refresh") | .by_cause["workqueue:drain_local_pages_wq"] // 0),
	                 (rec("pcp_drain") | .by_cause["workqueue:refresh_vm_stats"] // 0)] | join(" ")),
	 gaps: lines(.baseline.gaps),
	 pcp_sum: lines(rec("pcp_drain") | (.interruptions == ([.cpus[].interruptions] | add))),
	 pcp_calls: lines(rec("pcp_drain") | .drains.calls),
	 vmstat_count: lines(rec("vmstat_refresh") | .interruptions),
	 own: lines([.triggers[] | select(.result == "MEASURED") | .own] | unique | join(",")),
	 pcp_cell: lines(rec("pcp_drain")
		| "per CPU " + ([.cpus | to_entries[] | "\(.key): \(.value.interruptions)"] | join(", "))
		+ "; drain_all_pages() entered \(.proof)×; \(.drains.calls) drain_all_pages() calls, reaching CPU "
		+ ([.cpus | to_entries[] | "\(.key) \(.value.exposure.drains)×"] | join(", ")))}'

# Every trigger of audit.list has a record, in the list's order; those the
# fixture did not fire have no markers, so no count.
check "audit.json has one record per trigger of audit.list, in its order" \
	"$v_names" \
	"$(sed -n 's|^p:qcaudit/\([a-z_]*\) .*|\1|p' tracing/probes/audit.list | paste -sd' ' -)"
check "vmstat_refresh is MEASURED (its probe fired in its sub-window)" "$v_res_vmstat_refresh" MEASURED
check "pcp_drain is MEASURED" "$v_res_pcp_drain" MEASURED
check "bh_lru is NOT-TRIGGERED: invalidate_bh_lrus() never ran, so no count is claimed" \
	"$v_res_bh_lru $v_bh_lru_count" "NOT-TRIGGERED null"
check "a trigger the guest did not run is NOT-RUN, never counted" "$v_res_compaction" NOT-RUN

# Each sub-window is charged with exactly the work items trace-cmd's report
# shows starting on the isolated CPUs between that sub-window's markers,
# and with none of the other's. (One report, all CPUs, read by both checks
# of it here: the awk keeps CPUs 1-3 itself. A trace-cmd report was a
# quarter of a second of CPU: it is kept in the cache, ktap_tracecmd_kept.)
ktap_tracecmd_kept report "$FX/audit-wq.dat" -t
report=$KTAP_KEPT/stdout
awk '
	/qc: audit [a-z_]+ start/ { for (i = 1; i <= NF; i++) if ($i == "audit") w = $(i + 1); next }
	/qc: audit [a-z_]+ end/ { w = ""; next }
	w != "" && /workqueue_execute_start/ {
		cpu = $2; gsub(/[][]/, "", cpu); cpu += 0
		if (cpu >= 1 && cpu <= 3) { fn = $NF; n[w " " fn]++ }
	}
	END { for (k in n) print k, n[k] }' "$report" | LC_ALL=C sort > "$tmp/report-works"
# (An empty report would make both sides empty: each must name the
# trigger's own work function.)
check "vmstat_refresh's work items are those trace-cmd shows in its sub-window" \
	"$v_works_vmstat_refresh" "$(grep '^vmstat_refresh ' "$tmp/report-works" | grep -w refresh_vm_stats >/dev/null &&
		grep '^vmstat_refresh ' "$tmp/report-works")"
check "pcp_drain's work items are those trace-cmd shows in its sub-window" \
	"$v_works_pcp_drain" "$(grep '^pcp_drain ' "$tmp/report-works" | grep -w drain_local_pages_wq >/dev/null &&
		grep '^pcp_drain ' "$tmp/report-works")"
check "vmstat_refresh reached every isolated CPU: one refresh_vm_stats each" \
	"$v_vmstat_reach" "1 1 1"
check "no drain work item is charged to vmstat_refresh, no vmstat refresh to pcp_drain" \
	"$v_crossed" "0 0"
check "the baseline is the gaps: four of them, none inside a sub-window" \
	"$v_gaps" 4
check "a sub-window's count is its CPUs' counts summed" \
	"$v_pcp_sum" true
# The drain calls the record names are those trace-cmd shows entering
# drain_all_pages() (probe qc:drain_all) between pcp_drain's markers.
check "pcp_drain's drain calls are the qc:drain_all events trace-cmd shows in its sub-window" \
	"$v_pcp_calls" \
	"$(awk '/qc: audit pcp_drain start/ { w = 1 } /qc: audit pcp_drain end/ { w = 0 }
		w && / drain_all: / { n++ } END { print n + 0 }' "$report")"

# --- the report: the fixture's audit.json under .audit of a summary ----------
r=$tmp/run
cp -r tests/fixtures/run "$r"
jq --slurpfile a "$a" '.run.scenario = "audit"
	| .audit = {triggers: [$a[0].triggers[].name], variants: {wq: $a[0]}}' \
	tests/fixtures/run/summary.json > "$r/summary.json"
sh scripts/report.sh "$r" >"$tmp/report.out" 2>&1 || ktap_diag "report.sh failed: $(tail -n 3 "$tmp/report.out")"
html_rows "$r/report.html" > "$tmp/rows.md"
row() { grep "^| \`$1\` |" "$tmp/rows.md"; }
ktap_check "the report has an Isolation audit section" grep -q '^## Isolation audit$' "$r/report.md"
ktap_check "its bh_lru row says NOT-TRIGGERED, with no count" \
	sh -c "row() { grep '^| \`bh_lru\` |' '$tmp/rows.md'; }; row | grep -q 'NOT-TRIGGERED' && ! row | grep -q 'gaps:'"
# (the fixture predates the send side: its cells count by time, and say so)
check "its vmstat_refresh row has the sub-window's count beside the gaps' rate, not by cause" \
	"$(row vmstat_refresh | grep -o '| [0-9]* (gaps: [0-9.]*; no send side' | head -n1)" \
	"| $v_vmstat_count (gaps: 0; no send side"
check "without the send side a record has no own count (null), never 0" \
	"$v_own" ""
check "its pcp_drain cell names each CPU's count, the path's entries and the drains that reached each CPU" \
	"$(row pcp_drain | grep -o 'per CPU [^|]*' | sed 's/ *$//')" \
	"$v_pcp_cell"
ktap_check "the heat map is an SVG in plots/ and inline in the HTML" \
	sh -c "grep -q '<svg' '$r/plots/audit.svg' && grep -q 'Isolation audit: interruptions' '$r/report.html'"

# --- audit.sh's refusals ----------------------------------------------------
mkdir -p "$tmp/empty"
expect_error "audit.sh refuses a directory without trace.dat" "has no trace.dat" sh scripts/audit.sh "$tmp/empty" 1-3
cp "$d/trace.dat" "$tmp/empty/"
expect_error "audit.sh refuses a directory without audit.txt" "has no audit.txt" sh scripts/audit.sh "$tmp/empty" 1-3
cp "$d/audit.txt" "$tmp/empty/"
expect_error "audit.sh refuses a directory without the trigger list the guest fired" "has no audit-triggers.list" sh scripts/audit.sh "$tmp/empty" 1-3
ktap_finish
