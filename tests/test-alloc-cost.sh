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
ktap_plan 26

# win VCPU N COMPLETE KINSNS SPIN: one window line; SPIN instructions of it
# in queued_spin_lock_slowpath (listed in spin-wait.list), the rest in
# rmqueue_bulk; 10 loads and 20 stores in the kernel, 3 user instructions.
# pft's own task (opener_task): 5 instructions fewer (what its CPU ran while
# the thread was blocked), 1 of them spin-wait; 3 of its instructions inside
# interrupts, 1 of them spin-wait.
win() {
	printf '{"vcpu":%s,"window":%s,"complete":%s,"kernel":{"insns":%s,"loads":10,"stores":20},"user":{"insns":3,"loads":0,"stores":0},"functions":{"rmqueue_bulk":[%s,10,20],"queued_spin_lock_slowpath":[%s,0,0]},"opener_task":{"kernel":{"insns":%s,"loads":10,"stores":20},"switches":2,"functions":{"rmqueue_bulk":[%s,10,20],"queued_spin_lock_slowpath":[%s,0,0]},"irq":{"insns":3,"loads":0,"stores":0},"irq_functions":{"rmqueue_bulk":[2,0,0],"queued_spin_lock_slowpath":[1,0,0]}}}\n' \
		"$1" "$2" "$3" "$4" $(($4 - $5)) "$5" $(($4 - 5)) $(($4 - $5 - 4)) $(($5 > 0 ? $5 - 1 : 0))
}
# drain N ENTRIES KINSNS: drain window N on vCPU 0, opened by the module;
# 100 of KINSNS spun. The drainer's own task (opener_task): ENTRIES of the
# variant's per-CPU function and KINSNS - 200 instructions, 100 of them
# spun, in two switches, in a compiler clone of the listed function
# (spin.jq counts it as the function it was cloned from); another task on CPU 0 entered the function once
# more, which the reach rule must not count.
drain() {
	printf '{"vcpu":0,"window":%s,"complete":true,"opener":"module","kernel":{"insns":%s,"loads":7,"stores":9},"user":{"insns":0,"loads":0,"stores":0},"entries":{"%s":%s},"functions":{"free_pcppages_bulk":[%s,7,9],"queued_spin_lock_slowpath":[100,0,0]},"opener_task":{"kernel":{"insns":%s,"loads":5,"stores":6},"switches":2,"entries":{"%s":%s},"functions":{"free_pcppages_bulk":[%s,5,6],"queued_spin_lock_slowpath.constprop.0":[100,0,0]}}}\n' \
		"$1" "$3" "$fn" $(($2 + 1)) $(($3 - 100)) $(($3 - 200)) "$fn" "$2" $(($3 - 300))
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
	# Three drain calls: 3 CPUs reached, none, 2 (rcu: 3 entries per CPU,
	# one per zone, as bench/plugin/drain-reach.list says).
	fn=$(awk -v v="$1" '$1 == v { print $2 }' "$root/bench/plugin/drain-reach.list")
	k=1
	[ "$1" != rcu ] || k=3
	echo 3 > "$d/drain-zones.txt"
	{ drain 1 $((3 * k)) 500; drain 2 0 350; drain 3 $((2 * k)) 300; } >> "$d/alloc-cost.jsonl"
	echo '{"state":"done","calls":3,"samples_us":[10.0,99.0,30.0]}' > "$d/drain-hammer.json"
}
variant wq 1005 1015 1025
variant rcu 1105 1115 1125
out=$("$root/scripts/alloc-cost.sh" "$scratch/run" "wq rcu" wq 2>"$scratch/err")
# The figures the checks below compare, compact JSON as jq -c prints them,
# as shell variables v_NAME (ktap_jq_vals), and, from the same jq (each jq
# a start), v_summary: the fixture run's summary with this alloc_cost, for
# the report below.
printf '%s\n' "$out" > "$scratch/cost.json"
rep=$scratch/report
cp -r "$root/tests/fixtures/run" "$rep"
ktap_jq_vals "$scratch/cost.json" "" '
	{v_summary: ($s[0] + {alloc_cost: .} | tojson),
	 v_samples: ([.wq.samples, .rcu.samples | length] | tojson),
	 v_per_fault: (.wq.samples[0] | [.kernel.insns, .kernel_insns_nospin, .spin_insns, .kernel.loads, .kernel.stores, .user_insns] | tojson),
	 v_welch: ([.wq.threads["1"].kernel_insns_nospin | .mean, .sd, (.cv_pct * 1000 | round)] + [.rcu.threads["1"].kernel_insns_nospin.vs_baseline | (.diff_pct * 100 | round), .significant] | tojson),
	 v_task: (.wq.samples[0] | [.task_insns, .task_insns_nospin] | tojson),
	 v_task_irq: ([(.wq.samples[0] | .task_irq_insns, .task_insns_nospin_noirq), (.wq.threads["1"].task_insns_nospin_noirq.mean * 10 | round),
		(.rcu.threads["1"].task_insns_nospin_noirq.vs_baseline | (.diff_pct * 100 | round), .significant)] | tojson),
	 v_task_welch: ([(.wq.threads["1"].task_insns_nospin.mean * 10 | round), (.rcu.threads["1"].task_insns_nospin.vs_baseline | (.diff_pct * 100 | round), .significant)] | tojson),
	 v_drain_samples: ([.wq, .rcu | .drain.samples | map([.call, .cpus_reached, .kernel.insns, .kernel_insns_nospin, .wall_us])] | tojson),
	 v_drain_stats: (.rcu.drain | [.calls, .reached_calls, .stats.kernel_insns.mean, .stats.cpus_reached.mean, .stats.wall_us.mean, .functions.free_pcppages_bulk] | tojson),
	 v_drain_task: (.rcu.drain | [(.samples | map([.call, .task.insns, .task_insns_nospin, .switches])), .stats.task_insns.mean, .stats.switches.mean, .task_functions.free_pcppages_bulk] | tojson),
	 v_functions: (.wq.functions["1"].rmqueue_bulk | tojson)}' --slurpfile s "$rep/summary.json"
ktap_check "three measured runs each, the warm-ups left out" \
	test "$v_samples" = '[3,3]'
# wq: (1005 - 5) / 10 = 100, 101, 102 without spin-wait; 100.5 ... with it.
ktap_check "per fault: kernel instructions with and without spin-wait, loads, stores, user" \
	test "$v_per_fault" = '[100.5,100,0.5,1,2,0.3]'
# mean 101, sd 1, CV 0.990...%; rcu 111: +9.90 % vs wq.
ktap_check "mean, sd, CV, and rcu against wq by Welch (+9.90 %, significant)" \
	test "$v_welch" = '[101,1,990,990,true]'
# pft's own task: (1005 - 5) / 10 = 100 in the task, less 0.4 spun = 99.6; mean 100.6, rcu +9.94 %.
ktap_check "per fault in pft's own task, with and without spin-wait" \
	test "$v_task" = '[100,99.6]'
ktap_check "pft's own task: mean and rcu against wq by Welch" \
	test "$v_task_welch" = '[1006,994,true]'
# In interrupts 3 / 10 = 0.3 a fault; without them, (1000 - 4 - (3 - 1)) / 10
# = 99.4; mean 100.4, rcu +9.96 %.
ktap_check "pft's own task without interrupts: per fault, mean, rcu against wq" \
	test "$v_task_irq" = '[0.3,99.4,1004,996,true]'
ktap_check "drain: the calls that reached a CPU, their CPUs by the per-CPU rule (rcu per zone), instructions, wall time" \
	test "$v_drain_samples" = '[[[1,3,500,400,10],[3,2,300,200,30]],[[1,3,500,400,10],[3,2,300,200,30]]]'
ktap_check "drain: mean per call, CPUs reached, wall time, per-function instructions per call" \
	test "$v_drain_stats" = '[3,2,400,2.5,20,300]'
ktap_check "drain: the drainer's own task apart, per call and per function (the other task's entry not counted as a CPU)" \
	test "$v_drain_task" = '[[[1,300,200,2],[3,100,0,2]],200,2,100]'
ktap_check "per-function instructions per fault, by thread count" \
	test "$v_functions" = 101

# The report renders them: the fixture run's summary with this alloc_cost.
printf '%s\n' "$v_summary" > "$rep/summary.json"
"$root/scripts/report.sh" "$rep" >/dev/null 2>&1
md=$rep/report.md
ktap_check "report: the Instruction cost section, rcu +9.9 % vs wq without spin-wait, and its plot" \
	sh -c "grep -q '^## Instruction cost (TCG plugin)' '$md' && grep -q '^| rcu | 1 | 3 | 111.5 ± 1 | .* | 111 ± 1 | .* | +9.9 % (p .*significant' '$md' && grep -q '<svg' '$rep/plots/alloc-cost.svg'"
ktap_check "report: the per-function table names rmqueue_bulk, +10 per fault for rcu" \
	grep -q '^| `rmqueue_bulk` | 101 | +10 |' "$md"
ktap_check "report: pft's own threads, rcu 110.6 per fault, +9.94 % vs wq, 0.5 left out per fault" \
	grep -q "^| rcu | 1 | 110.6 ± 1 | 0.904 % | +9.94 % (p .*significant.*) | 0.5 |" "$md"

html_rows "$rep/report.html" > "$scratch/rows.md"
ktap_check "report: the drain table, rcu's per-CPU function, 2 of 3 calls, 400 insns per call, wall time 20 µs" \
	grep -q '^| rcu | `drain_detached_pcplists` | 3 | 2 | 2.5 | 400 ± 141 | 300 ± 141 | 200 ± 141 | 100 ± 141 | 2 | 7 ± 0 | 9 ± 0 | 20 ± 14 |' "$scratch/rows.md"

# refused DESCRIPTION PATTERN [VARIANTS]: alloc-cost.sh refuses, in one
# line. (rcu alone by default: each refusal is of rcu's files, and wq's,
# good, need not be read again for each; the first is made after wq's,
# as a comparison reads them, so that a good variant before a bad one is
# still seen to print nothing.)
refused() { expect_one_error "$1" quietcore "$2" "$root/scripts/alloc-cost.sh" "$scratch/run" "${3:-rcu}" wq; }
cp "$scratch/run/rcu-cost/alloc-cost.jsonl" "$scratch/good"
win 3 1 true 50 0 >> "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: a window no pft run accounts for" "do not match" "wq rcu"
# (opener_task is the last key of each line win() and drain() write: a sed
# takes it off the lines it picks, as jq's del would, without a jq start.)
# (a plugin that does not count interrupts apart: no such figure, the others as before)
sed 's/,"irq":{[^}]*},"irq_functions":{[^}]*}//' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
ktap_check "windows without interrupt counts (an older plugin): no figure without interrupts, pft's own task still given" \
	sh -c '"$1" "$2" rcu wq 2>/dev/null | jq -e ".rcu.threads[\"1\"] | has(\"task_insns_nospin_noirq\") == false and .task_insns_nospin.mean > 100" > /dev/null' \
	- "$root/scripts/alloc-cost.sh" "$scratch/run"
sed '/"opener":"module"/!s/,"opener_task":.*}$/}/' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: pft windows without pft's own task (no __switch_to_asm, an old plugin)" "without pft's own task"
grep -v '"opener":"module"' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: no drain window (the hammer without markers)" "no drain window"
grep -v '"window":3,"complete":true,"opener":"module"' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: drain windows and the hammer's calls do not match one to one" "must match one to one"
sed 's/"drain_detached_pcplists":6/"drain_detached_pcplists":5/' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: entries that are not a whole number of CPUs" "not a multiple"
sed '/"opener":"module"/s/,"opener_task":.*}$/}/' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: drain windows without the drainer's own task (no __switch_to_asm, an old plugin)" "without the drainer's own task"
cp "$scratch/good" "$scratch/run/rcu-cost/alloc-cost.jsonl"
cp "$scratch/run/rcu-cost/drain-hammer.json" "$scratch/hammer"
echo '{"state":"done","calls":0,"samples_us":[]}' > "$scratch/run/rcu-cost/drain-hammer.json"
refused "refused: markers without calls (the hammer made none)" "made no drain"
cp "$scratch/hammer" "$scratch/run/rcu-cost/drain-hammer.json"
grep -v '"vcpu":2' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: a pft run with no window on one of its CPUs" "closed no window"
sed 's/"window":2,"complete":true/"window":2,"complete":false/' "$scratch/good" > "$scratch/run/rcu-cost/alloc-cost.jsonl"
refused "refused: a measured run in a window opened before everything was instrumented" "warm-up"
cp "$scratch/good" "$scratch/run/rcu-cost/alloc-cost.jsonl"
: > "$scratch/run/rcu-cost/pft-cost.jsonl"
refused "refused: an empty pft record" "missing or empty"

# The precision floor (QC_COST_CV_FLOOR, lib/bench.sh): spinlock 0.2 %
# above wq, both with a CV near 1 %, is not compared, while rcu's +9.9 %
# at the same CV is (above).
variant spinlock 1007 1017 1027
mkdir -p "$scratch/near"
mv "$scratch/run/spinlock-cost" "$scratch/near/"
cp -r "$scratch/run/wq-cost" "$scratch/near/"
ktap_check "a difference under 10 times the CV floor between variants whose CV is above it is not compared" \
	sh -c '"$1" "$2" "wq spinlock" wq 2>/dev/null | jq -e ".spinlock.threads[\"1\"].kernel_insns_nospin.vs_baseline
		| .compared == false and .significant == false and .diff_pct > 0.1 and .diff_pct < 0.3" > /dev/null' \
	- "$root/scripts/alloc-cost.sh" "$scratch/near"
ktap_finish
