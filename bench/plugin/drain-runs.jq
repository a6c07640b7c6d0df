# drain-runs.jq: drain_runs, one variant's drain_all_pages() calls, each a qc-cost
# window of the hammer's CPU (qc_hammer markers=1), matched to the hammer's
# own per-call wall times.
#
#   jq -n --slurpfile w alloc-cost.jsonl --slurpfile hammer drain-hammer.json \
#         --arg fn FUNCTION --arg per 1|zones --argjson zones N \
#         --rawfile spin_list spin-wait.list -L bench/plugin \
#         'include "drain-runs"; drain_runs($w; $hammer; $fn; $per; $zones; $spin_list)'
#
# (scripts/lib/plugin.sh's qc_plugin_runs calls it.)
#
# The module's windows, in the order the plugin numbered them, are the
# hammer's calls in call order (stats' samples_us): their numbers must
# agree. Each window has the drainer's own task apart (the plugin's
# "opener_task": the hammer's kthread, not what CPU 0 ran while the call
# slept). CPUs a call reached: the drainer's entries of FUNCTION
# (drain-reach.list) divided by the entries per CPU ("zones": once per
# zone). Output:
#   {function, entries_per_cpu, calls, samples: [{call, cpus_reached,
#    kernel: {insns, loads, stores}, spin_insns, kernel_insns_nospin,
#    task: {insns, loads, stores}, task_insns_nospin, switches,
#    wall_us}], functions: {name: insns}, task_functions: {name: insns}}
# with samples and functions for complete windows of calls that reached
# at least one CPU. Anything that does not match is an error naming what.
include "spin";
def drain_runs($w; $hammer; $fn; $per; $zones; $spin_list):
($spin_list | spin_names) as $spin
| ($w | map(select(.opener == "module")) | sort_by(.window)) as $calls
| ($hammer[0]) as $h
| (if $per == "zones" then $zones elif $per == "1" then 1
   else error("drain-reach.list: entries per CPU '\($per)' is neither 1 nor zones") end) as $k
| if ($calls | length) == 0 then
    error("no drain window: the hammer's markers never reached the plugin (qc_hammer loaded without markers=1, or an old module: rebuild it)")
  elif ($h.calls // 0) == 0 then
    error("the hammer made no drain_all_pages() call (drain-hammer.json has calls 0)")
  elif ($calls | length) != $h.calls or ($h.samples_us | length) != $h.calls then
    error("\($calls | length) drain windows but the hammer made \($h.calls) calls with \($h.samples_us | length) samples: they must match one to one")
  elif ($calls | map(.vcpu) | unique | length) != 1 then
    error("drain windows on vCPUs \($calls | map(.vcpu) | unique): the hammer runs on one CPU")
  elif any($calls[]; .opener_task == null) then
    error("drain windows without the drainer's own task (opener_task): the plugin found no __switch_to_asm in System.map, or is an old build")
  else . end
| [range($calls | length) as $i | $calls[$i]
   | (.opener_task.entries[$fn] // error("drain window \(.window) has no entry count of \($fn): the plugin was not given entry=\($fn)")) as $e
   | if $e % $k != 0 then error("drain window \(.window): \($e) entries of \($fn) by the drainer is not a multiple of \($k) per CPU") else . end
   | spun(.functions; 0; $spin) as $spun
   | spun(.opener_task.functions; 0; $spin) as $task_spun
   | {call: ($i + 1), complete, cpus_reached: ($e / $k), kernel, spin_insns: $spun,
      kernel_insns_nospin: (.kernel.insns - $spun),
      task: .opener_task.kernel, task_insns_nospin: (.opener_task.kernel.insns - $task_spun),
      switches: .opener_task.switches, wall_us: $h.samples_us[$i],
      functions: (.functions | map_values(.[0])), task_functions: (.opener_task.functions | map_values(.[0]))}] as $all
| ($all | map(select(.complete and .cpus_reached > 0))) as $used
# (group_by, not a reduce that updates one object key by key: with some
# 60 calls of several hundred functions each, that took seconds.)
| def mean_of($f): ($used | length) as $n | if $n == 0 then {} else
       [$used[] | .[$f] | to_entries[]] | group_by(.key)
       | map({key: .[0].key, value: (map(.value / $n) | add)}) | from_entries end;
{function: $fn, entries_per_cpu: $k, calls: ($all | length),
 samples: ($used | map(del(.complete, .functions, .task_functions))),
 functions: mean_of("functions"), task_functions: mean_of("task_functions")};
