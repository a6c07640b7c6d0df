# drain-runs.jq: one variant's drain_all_pages() calls, each a qc-cost
# window of the hammer's CPU (qc_hammer markers=1), matched to the hammer's
# own per-call wall times.
#
#   jq -n --slurpfile w alloc-cost.jsonl --slurpfile hammer drain-hammer.json \
#         --arg fn FUNCTION --arg per 1|zones --argjson zones N \
#         --argjson spin '["name",...]' -f drain-runs.jq
#
# The module's windows, in the order the plugin numbered them, are the
# hammer's calls in call order (stats' samples_us): their numbers must
# agree. CPUs a call reached: its entries of FUNCTION (drain-reach.list)
# divided by the entries per CPU ("zones": once per zone). Output:
#   {function, entries_per_cpu, calls, samples: [{call, cpus_reached,
#    kernel: {insns, loads, stores}, spin_insns, kernel_insns_nospin,
#    wall_us}], functions: {name: insns}}
# with samples and functions for complete windows of calls that reached
# at least one CPU. Anything that does not match is an error naming what.
($w | map(select(.opener == "module")) | sort_by(.window)) as $calls
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
  else . end
| [range($calls | length) as $i | $calls[$i]
   | (.entries[$fn] // error("drain window \(.window) has no entry count of \($fn): the plugin was not given entry=\($fn)")) as $e
   | if $e % $k != 0 then error("drain window \(.window): \($e) entries of \($fn) is not a multiple of \($k) per CPU") else . end
   | ([$spin[] as $s | .functions[$s][0] // 0] | add // 0) as $spun
   | {call: ($i + 1), complete, cpus_reached: ($e / $k), kernel, spin_insns: $spun,
      kernel_insns_nospin: (.kernel.insns - $spun), wall_us: $h.samples_us[$i],
      functions: (.functions | map_values(.[0]))}] as $all
| ($all | map(select(.complete and .cpus_reached > 0))) as $used
| {function: $fn, entries_per_cpu: $k, calls: ($all | length),
   samples: ($used | map(del(.complete, .functions))),
   functions: (($used | length) as $n | if $n == 0 then {} else
       reduce ($used[] | .functions | to_entries[]) as $e ({}; .[$e.key] += $e.value / $n) end)}
