# cost-runs.jq: cost_runs, one variant's qc-cost windows matched to pft's
# runs (scripts/lib/plugin.sh's qc_plugin_runs calls it):
#
#   jq -n --slurpfile w alloc-cost.jsonl --slurpfile pft pft-cost.jsonl \
#         --rawfile spin_list spin-wait.list -L bench/plugin \
#         'include "cost-runs"; cost_runs($w; $pft; $spin_list)'
#
# Only pft's windows (opener user; qc_hammer's are drain-runs.jq's).
# Each pft run opened one window on each CPU in its "cpus", in run order, so
# vCPU c's windows, in the order the plugin numbered them, belong to the
# runs that used CPU c, in order. Every window must be used by exactly one
# run, and a measured run's windows must be complete (instrumented from
# their open). Output: one object per measured run, counts per fault:
#   {threads, faults, kernel: {insns, loads, stores}, spin_insns,
#    kernel_insns_nospin, kernel_loads_nospin, kernel_stores_nospin,
#    task_insns, task_insns_nospin, task_irq_insns, task_insns_nospin_noirq,
#    user_insns, functions: {name: insns}}
# ("spin": the functions of bench/plugin/spin-wait.list, passed as its text,
# and their compiler clones (spin.jq);
# task: pft's own threads, the plugin's opener_task, without what their
# CPUs ran while a thread was blocked: the idle loop, other tasks, the
# switches to and from them; task_irq: what it ran inside interrupts
# (opener_task.irq: asm_sysvec_*, asm_common_interrupt to their iretq: the
# tick, IPIs, irq_work), whose number follows the wall clock, not the
# faults; task_insns_nospin_noirq: pft's own without spin-wait and without
# them. Null from a plugin that does not count interrupts apart.)
# Anything that does not match is an error naming what.
include "spin";
def per(n): . / n;
def cost_runs($w; $pft; $spin_list):
($spin_list | spin_names) as $spin
| ($w | map(select(.opener != "module")) | group_by(.vcpu) | map({key: (.[0].vcpu | tostring), value: sort_by(.window)})
    | from_entries) as $by_cpu
| if ($pft | length) == 0 then error("pft recorded no runs (pft-cost.jsonl is empty)") else . end
| reduce $pft[] as $run ({used: {}, runs: []};
    . as $s
    | ($run.cpus | map(tostring)) as $cpus
    | [$cpus[] as $c | $by_cpu[$c][$s.used[$c] // 0]
       // error("pft run \($run.run) (\($run.threads) thread(s)) ran on CPU \($c) but the plugin closed no window there for it: were the markers executed?")] as $ws
    | if ($run.warmup | not) and ($ws | any(.opener_task == null)) then
        error("pft run \($run.run) (\($run.threads) thread(s)) has a window without pft's own task (opener_task): the plugin found no __switch_to_asm in System.map, or is an old build")
      elif ($run.warmup | not) and ($ws | all(.complete) | not) then
        error("a measured pft run (\($run.threads) thread(s), run \($run.run)) has a window that opened before the plugin instrumented everything: the scenario needs its warm-up run first")
      else . end
    | reduce $cpus[] as $c (.; .used[$c] = ((.used[$c] // 0) + 1))
    | if $run.warmup then . else
        .runs += [($ws | map(.functions) | reduce (.[] | to_entries[]) as $e ({};
              .[$e.key] = [range(3) as $i | (.[$e.key][$i] // 0) + $e.value[$i]])) as $fn
          | [range(3) as $i | spun($fn; $i; $spin)] as $spun
          | ($ws | map(.opener_task.kernel.insns) | add) as $task
          | ([$ws[] | spun(.opener_task.functions; 0; $spin)] | add // 0) as $task_spun
          | (if $ws | all(.opener_task.irq != null) then
               ($ws | map(.opener_task.irq.insns) | add) as $irq
               | {all: $irq, nospin: ($irq - ([$ws[] | spun(.opener_task.irq_functions; 0; $spin)] | add // 0))}
             else null end) as $irq
          | [($ws | map(.kernel.insns) | add), ($ws | map(.kernel.loads) | add),
             ($ws | map(.kernel.stores) | add)] as $k
          | {threads: $run.threads, faults: $run.faults,
             kernel: {insns: ($k[0] | per($run.faults)), loads: ($k[1] | per($run.faults)),
                      stores: ($k[2] | per($run.faults))},
             spin_insns: ($spun[0] | per($run.faults)),
             kernel_insns_nospin: (($k[0] - $spun[0]) | per($run.faults)),
             kernel_loads_nospin: (($k[1] - $spun[1]) | per($run.faults)),
             kernel_stores_nospin: (($k[2] - $spun[2]) | per($run.faults)),
             task_insns: ($task | per($run.faults)),
             task_insns_nospin: (($task - $task_spun) | per($run.faults)),
             task_irq_insns: (if $irq == null then null else $irq.all | per($run.faults) end),
             task_insns_nospin_noirq: (if $irq == null then null else ($task - $task_spun - $irq.nospin) | per($run.faults) end),
             user_insns: ($ws | map(.user.insns) | add | per($run.faults)),
             functions: ($fn | map_values(.[0] | per($run.faults)))}]
      end)
| . as $s
| [$by_cpu | to_entries[] | select((.value | length) != ($s.used[.key] // 0))
   | "CPU \(.key): \(.value | length) windows, \($s.used[.key] // 0) pft runs"] as $extra
| if $extra != [] then error("windows and pft runs do not match (\($extra | join(", "))): something else executed the markers")
  else $s.runs end;
