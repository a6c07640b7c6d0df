#!/bin/sh
# qc-test: slow
# The isolation test end to end on the vanilla (wq) and patched (rcu)
# kernels: a 10 s hammer window each, judged only from the traces.
#   wq:  every primed isolated CPU ran drain_local_pages_wq at least once;
#   rcu: no isolated CPU was interrupted by a drain, while the hammer
#        completed at least 100 drain_all_pages() calls;
#   both: the planted-noise self-test counted exactly what was planted,
#         and the allocator benchmark ran and was compared to wq.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"

ktap_plan 8
if "$root/scripts/compare.sh" --variants "wq rcu" --scenario hammer --duration 10 --bench-runs 2 >"$scratch/log" 2>&1; then
	ktap_ok "hammer scenario ran on wq and rcu"
else
	ktap_not_ok "hammer scenario ran on wq and rcu"
	ktap_diag "$(tail -n 20 "$scratch/log")"
fi
s=$(ls -d "$QC_RESULTS"/*/summary.json 2>/dev/null | head -n1)
q() { jq -r "$1" "${s:-/nonexistent}" 2>/dev/null; }
ktap_diag "$(sed -n '/^variant /,/^$/p' "$scratch/log")"

ktap_check "wq: every isolated CPU was primed when the window opened" \
	test "$(q '[.variants.wq.cpus[] | select((.pcp_primed_pages // 0) > 0)] | length')" = 3
ktap_check "wq: every isolated CPU ran drain_local_pages_wq in the window" \
	test "$(q '[.variants.wq.cpus[] | select((.by_cause["workqueue:drain_local_pages_wq"] // 0) > 0)] | length')" = 3
ktap_check "rcu: zero drain-caused interruptions on every isolated CPU" \
	test "$(q '[.variants.rcu.cpus[] | .drain_interruptions] | add')" = 0
ktap_check "rcu: the hammer completed at least 100 drains ($(q .variants.rcu.drain.calls))" \
	test "$(q '.variants.rcu.drain.calls >= 100')" = true
ktap_check "rcu: verdict PASS ($(q .variants.rcu.verdict))" test "$(q .variants.rcu.verdict)" = PASS
ktap_check "self-test: counted exactly what was planted ($(q .selftest.counted)/$(q .selftest.planted))" \
	test "$(q '.selftest.planted > 0 and .selftest.planted == .selftest.counted')" = true
ktap_check "allocator benchmark: 2 samples each and rcu's t-test against wq" \
	test "$(q '(.alloc_bench.wq.n == 2) and (.alloc_bench.rcu.n == 2) and (.alloc_bench.rcu.significant | type == "boolean")')" = true
ktap_finish
