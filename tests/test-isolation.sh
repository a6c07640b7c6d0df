#!/bin/sh
# qc-test: slow
# qc-test: boots wq rcu
# The isolation test end to end on the vanilla (wq) and patched (rcu)
# kernels: a 10 s hammer window each with oslat on CPU 1 and the refill
# workload on CPUs 2-3, then the quiet control window, judged only from
# the traces.
#   wq:   every drain that reached a CPU ran its drain work item there,
#         sent by the drain (>= exposure, on every isolated CPU): FAIL;
#   rcu:  nothing the drain sent reached an isolated CPU, although drains
#         reached every refill CPU at least 100 times;
#   decoy (--decoy 20, hammer/decoy.c): its IPIs and work items on every
#         isolated CPU are counted, named as its own, never charged, and no
#         interruption is left without a sender;
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
ktap_plan 14
ktap_build_boots
if "$root/scripts/compare.sh" --no-build --variants "wq rcu" --scenario hammer --duration 10 --bench-runs 2 --cost-runs 2 --decoy 20 >"$scratch/log" 2>&1; then
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
ktap_check "wq: each drain that reached a CPU ran a drain work item there, sent by the drain ($(q '[.variants.wq.cpus[] | "\(.charged_by_cause["workqueue:drain_local_pages_wq"])/\(.exposure.drains)"] | join(" ")'))" \
	test "$(q '[.variants.wq.cpus[] | .exposure.drains > 0 and (.charged_by_cause["workqueue:drain_local_pages_wq"] // 0) >= .exposure.drains] | all')" = true
ktap_check "wq and rcu: the refill CPUs were reached by at least 100 drains, the oslat CPU once" \
	test "$(q '[.variants[].cpus[] | if .workload == "refill" then .exposure.drains >= 100 else .exposure.drains == 1 end] | all')" = true
ktap_check "rcu: nothing the drain sent reached an isolated CPU ($(q '[.variants.rcu.cpus[].charged] | add') sent; verdict $(q .variants.rcu.verdict))" \
	test "$(q '[.variants.rcu.cpus[].charged] | add')" = 0
# The decoy (hammer/decoy.c, --decoy): a kthread with nothing to do with
# the drain interrupts every isolated CPU while drains are in flight.
ktap_check "the decoy's IPIs and work items were counted on every isolated CPU of both variants" \
	test "$(q '[.variants[].cpus[] | (.by_cause["workqueue:qc_decoy_work"] // 0) > 0 and (.by_cause["irq_vectors:call_function_single:qc_decoy_ipi"] // 0) > 0] | all')" = true
ktap_check "... none of them charged to the drain ($(q '[.variants[].cpus[].charged_by_cause // {} | keys[] | select(test("qc_decoy"))] | length') charged)" \
	test "$(q '[.variants[].cpus[].charged_by_cause // {} | keys[] | select(test("qc_decoy"))] | length')" = 0
# Every chain, from the analyses (summary.json keeps each CPU's top ones).
decoy_named() {
	for a in "${s%/*}"/wq/analysis.json "${s%/*}"/rcu/analysis.json; do
		jq '[.cpus[] | (.origins.chains | to_entries
			| map(select(.key | test("^(workqueue:qc_decoy_work|irq_vectors:call_function_single:qc_decoy_ipi) <- remote: qc_decoy on CPU [0-9]+: .*qc_decoy_fn")))
			| map(.value) | add // 0)
		== ((.by_cause["workqueue:qc_decoy_work"] // 0) + (.by_cause["irq_vectors:call_function_single:qc_decoy_ipi"] // 0))] | all' "$a" 2>/dev/null
	done | sort -u
}
# The interruptions without a sender, by variant, CPU and cause: named in
# the check's line, so that a failing run says which they were.
unknowns() {
	for v in wq rcu; do
		jq -r --arg v "$v" '.cpus | to_entries[] | .key as $c
			| .value.origins.unknown_by_cause // {} | to_entries[]
			| "\($v) cpu\($c) \(.key) x\(.value)"' "${s%/*}/$v/analysis.json" 2>/dev/null
	done | paste -sd, - | sed 's/,/, /g'
}
u=$(unknowns)
ktap_check "... each named as the decoy's (chains from qc_decoy_fn), none without a sender ($(q '[.variants[].unknown_total] | add') unknown${u:+: $u})" \
	test "$(decoy_named)/$(q '[.variants[].unknown_total] | add')" = true/0
ktap_check "rcu: the hammer completed at least 100 drains ($(q .variants.rcu.drain.calls))" \
	test "$(q '.variants.rcu.drain.calls >= 100')" = true
ktap_check "self-test, per variant and CPU: counted exactly what was planted" \
	test "$(q '[.variants[].selftest | .pass and .planted > 0 and ([.cpus[] | .planted == .counted] | all)] | all')" = true
ktap_check "self-test through the verdict rule: FAIL with exactly the planted count on each CPU" \
	test "$(q '[.variants[].selftest.verdict_check | .verdict == "FAIL" and .exact] | all')" = true
ktap_check "quiet control analysed for each variant: its interruptions and RCU forcing per CPU" \
	test "$(q '[.variants[].cpus[] | .control | (.interruptions | type == "number") and (.rcu_qs | type == "number")] | all')" = true
ktap_check "allocator benchmark: 2 samples each and rcu's t-test against wq" \
	test "$(q '(.alloc_bench.wq.n == 2) and (.alloc_bench.rcu.n == 2) and (.alloc_bench.rcu.significant | type == "boolean")')" = true
ktap_check "counted allocator cost: 2 runs at 1, 2 and 3 threads each, kernel instructions per fault, rcu's t-test against wq" \
	test "$(q '([.alloc_cost.wq, .alloc_cost.rcu | .threads | keys == ["1","2","3"] and ([.[] | .kernel_insns.n == 2 and .kernel_insns_nospin.mean > 0] | all)] | all) and (.alloc_cost.rcu.threads["1"].kernel_insns_nospin.vs_baseline.p | type == "number")')" = true
ktap_finish
