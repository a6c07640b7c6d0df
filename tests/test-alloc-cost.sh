#!/bin/sh
# scripts/alloc-cost.sh (summary.json's alloc_cost) on made-up plugin
# windows and pft runs: each vCPU's windows matched in order to the runs
# that used that CPU, figures per fault with and without the spin-wait
# functions, Welch against the baseline; and its refusals (a run with no
# window, a window with no run, a measured run in an incomplete window, an
# empty file), and the report section that renders them. Boots nothing.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ktap_require jq make gcc
ktap_plan 10

# win VCPU N COMPLETE KINSNS SPIN: one window line; SPIN instructions of it
# in queued_spin_lock_slowpath (listed in spin-wait.list), the rest in
# rmqueue_bulk; 10 loads and 20 stores in the kernel, 3 user instructions.
win() {
	printf '{"vcpu":%s,"window":%s,"complete":%s,"kernel":{"insns":%s,"loads":10,"stores":20},"user":{"insns":3,"loads":0,"stores":0},"functions":{"rmqueue_bulk":[%s,10,20],"queued_spin_lock_slowpath":[%s,0,0]}}\n' \
		"$1" "$2" "$3" "$4" $(($4 - $5)) "$5"
}
# pft THREADS CPUS WARMUP: one pft line of 10 faults per thread.
pft() { printf '{"run":1,"threads":%s,"cpus":[%s],"faults":%s,"warmup":%s}\n' "$1" "$2" $((10 * $1)) "$3"; }
# variant NAME K1 K2 K3: a <NAME>-cost directory: a warm-up on CPU 1, then
# three measured 1-thread runs of K1, K2, K3 kernel instructions (5 spun
# each), then a 2-thread run on CPUs 1-2 (warm-up) in windows 5 and 1.
variant() {
	d=$scratch/run/$1-cost
	mkdir -p "$d"
	echo ok > "$d/status"
	{ win 1 1 false 999 0; win 1 2 true "$2" 5; win 1 3 true "$3" 5; win 1 4 true "$4" 5
	  win 1 5 true 50 0; win 2 1 true 50 0; } > "$d/alloc-cost.jsonl"
	{ pft 1 1 true; pft 1 1 false; pft 1 1 false; pft 1 1 false; pft 2 1,2 true; } > "$d/pft-cost.jsonl"
}
variant wq 1005 1015 1025
variant rcu 1105 1115 1125
out=$("$root/scripts/alloc-cost.sh" "$scratch/run" "wq rcu" wq 2>"$scratch/err")
q() { printf '%s\n' "$out" | jq -c "$1" 2>/dev/null; }
ktap_check "three measured runs each, the warm-ups left out" \
	test "$(q '[.wq.samples, .rcu.samples | length]')" = '[3,3]'
# wq: (1005 - 5) / 10 = 100, 101, 102 without spin-wait; 100.5 ... with it.
ktap_check "per fault: kernel instructions with and without spin-wait, loads, stores, user" \
	test "$(q '.wq.samples[0] | [.kernel.insns, .kernel_insns_nospin, .spin_insns, .kernel.loads, .kernel.stores, .user_insns]')" = '[100.5,100,0.5,1,2,0.3]'
# mean 101, sd 1, CV 0.990...%; rcu 111: +9.90 % vs wq.
ktap_check "mean, sd, CV, and rcu against wq by Welch (+9.90 %, significant)" \
	test "$(q '[.wq.threads["1"].kernel_insns_nospin | .mean, .sd, (.cv_pct * 1000 | round)] + [.rcu.threads["1"].kernel_insns_nospin.vs_baseline | (.diff_pct * 100 | round), .significant]')" = '[101,1,990,990,true]'
ktap_check "per-function instructions per fault, by thread count" \
	test "$(q '.wq.functions["1"].rmqueue_bulk')" = 101

# The report renders them: the fixture run's summary with this alloc_cost.
rep=$scratch/report
cp -r "$root/tests/fixtures/run" "$rep"
printf '%s\n' "$out" | jq --slurpfile s "$rep/summary.json" '$s[0] + {alloc_cost: .}' > "$rep/summary.json.new" &&
	mv "$rep/summary.json.new" "$rep/summary.json"
"$root/scripts/report.sh" "$rep" >/dev/null 2>&1
md=$rep/report.md
ktap_check "report: the Instruction cost section, rcu +9.9 % vs wq without spin-wait, and its plot" \
	sh -c "grep -q '^## Instruction cost (TCG plugin)' '$md' && grep -q '^| rcu | 1 | 3 | 111.5 ± 1 | .* | 111 ± 1 | .* | +9.9 % (p .*significant' '$md' && grep -q '<svg' '$rep/plots/alloc-cost.svg'"
ktap_check "report: the per-function table names rmqueue_bulk, +10 per fault for rcu" \
	grep -q '^| `rmqueue_bulk` | 101 | +10 |' "$md"

refused() { expect_one_error "$1" quietcore "$2" "$root/scripts/alloc-cost.sh" "$scratch/run" "wq rcu" wq; }
cp "$scratch/run/rcu-cost/alloc-cost.jsonl" "$scratch/good"
win 3 1 true 50 0 >> "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: a window no pft run accounts for" "do not match"
grep -v '"vcpu":2' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: a pft run with no window on one of its CPUs" "closed no window"
sed 's/"window":2,"complete":true/"window":2,"complete":false/' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: a measured run in a window opened before everything was instrumented" "warm-up"
cp "$scratch/good" "$scratch/run/rcu-cost/alloc-cost.jsonl"
: > "$scratch/run/rcu-cost/pft-cost.jsonl"
refused "refused: an empty pft record" "missing or empty"
ktap_finish
