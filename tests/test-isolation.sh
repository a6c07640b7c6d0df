#!/bin/sh
# qc-test: slow
# qc-test: boots wq rcu
# The isolation test end to end on the vanilla (wq) and patched (rcu)
# kernels: a 10 s hammer window each with oslat on CPU 1 and the refill
# workload on CPUs 2-3, then the quiet control window, judged only from
# the traces.
#   wq:   every drain that reached a CPU ran its drain work item there
#         (named charges >= exposure, on every isolated CPU): FAIL;
#   rcu:  no drain work item or drain IPI on any isolated CPU, although
#         drains reached every refill CPU at least 100 times;
#   both: the oslat CPU was reached once, the self-test counted what was
#         planted on every CPU (and the verdict rule called it FAIL), the
#         control window was analysed, the allocator benchmark ran, timed
#         and counted (2 runs at each of 1-3 threads under the TCG plugin).
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"

ktap_require qemu-system-x86_64 gcc make jq cpio trace-cmd
ktap_plan 11
ktap_build_boots
if "$root/scripts/compare.sh" --no-build --variants "wq rcu" --scenario hammer --duration 10 --bench-runs 2 --cost-runs 2 >"$scratch/log" 2>&1; then
	ktap_ok "hammer scenario ran on wq and rcu"
else
	ktap_not_ok "hammer scenario ran on wq and rcu"
	ktap_diag "$(tail -n 20 "$scratch/log")"
fi
s=$(ls -d "$QC_RESULTS"/*/summary.json 2>/dev/null | head -n1)
q() { jq -r "$1" "${s:-/nonexistent}" 2>/dev/null; }
ktap_diag "$(sed -n '/^variant /,/^$/p' "$scratch/log")"

ktap_check "wq: FAIL ($(q .variants.wq.verdict))" test "$(q .variants.wq.verdict)" = FAIL
# A drain work item can also find the list emptied by the refill workload
# since drain_all_pages() looked: it interrupts the CPU without freeing a
# page (named, not exposure). So: at least one work item per reach.
ktap_check "wq: each drain that reached a CPU ran a drain work item there ($(q '[.variants.wq.cpus[] | "\(.charged_by_rule.named)/\(.exposure.drains)"] | join(" ")'))" \
	test "$(q '[.variants.wq.cpus[] | .exposure.drains > 0 and .charged_by_rule.named >= .exposure.drains] | all')" = true
ktap_check "wq and rcu: the refill CPUs were reached by at least 100 drains, the oslat CPU once" \
	test "$(q '[.variants[].cpus[] | if .workload == "refill" then .exposure.drains >= 100 else .exposure.drains == 1 end] | all')" = true
ktap_check "rcu: no drain work item or drain IPI on any isolated CPU ($(q '[.variants.rcu.cpus[].charged_by_rule.named] | add') named)" \
	test "$(q '[.variants.rcu.cpus[].charged_by_rule.named] | add')" = 0
ktap_check "rcu: the hammer completed at least 100 drains ($(q .variants.rcu.drain.calls))" \
	test "$(q '.variants.rcu.drain.calls >= 100')" = true
ktap_check "self-test, per variant and CPU: counted exactly what was planted" \
	test "$(q '[.variants[].selftest | .pass and .planted > 0 and ([.cpus[] | .planted == .counted] | all)] | all')" = true
ktap_check "self-test through the verdict rule: FAIL with exactly the planted count on each CPU" \
	test "$(q '[.variants[].selftest.verdict_check | .verdict == "FAIL" and .exact] | all')" = true
ktap_check "quiet control analysed for each variant, with the hammer window's calls overlaid" \
	test "$(q '[.variants[].cpus[] | .control.coincidences | type == "number"] | all')" = true
ktap_check "allocator benchmark: 2 samples each and rcu's t-test against wq" \
	test "$(q '(.alloc_bench.wq.n == 2) and (.alloc_bench.rcu.n == 2) and (.alloc_bench.rcu.significant | type == "boolean")')" = true
ktap_check "counted allocator cost: 2 runs at 1, 2 and 3 threads each, kernel instructions per fault, rcu's t-test against wq" \
	test "$(q '([.alloc_cost.wq, .alloc_cost.rcu | .threads | keys == ["1","2","3"] and ([.[] | .kernel_insns.n == 2 and .kernel_insns_nospin.mean > 0] | all)] | all) and (.alloc_cost.rcu.threads["1"].kernel_insns_nospin.vs_baseline.p | type == "number")')" = true
ktap_finish
