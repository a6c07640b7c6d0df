# One variant's summary from the files its guest brought home.
# Inputs ($name: null when the file is absent): $status, $oslat (oslat
# --json), $analysis (tracing/qc-analyze --json), $hammer (qc_hammer
# stats), $primed (pcp counts when the window opened), $selftest,
# $drain_causes (regexes), $isolated (the isolated CPUs, as strings).

# p99 of an oslat histogram {"<us>": count, ...}
def hist_p99:
  (to_entries | map({us: (.key | tonumber), n: .value}) | sort_by(.us)) as $b
  | ($b | map(.n) | add) as $total
  | reduce $b[] as $e ({acc: 0, p: null};
      if .p == null and (.acc + $e.n) >= ($total * 0.99) then .p = $e.us else . end
      | .acc += $e.n)
  | .p;

def is_drain_cause: . as $c | any($drain_causes[]; . as $p | $c | test($p));

($oslat.thread // {} | [.[] | {key: (.cpu | tostring),
   value: {oslat_max_us: .max, oslat_p99_us: (.histogram | hist_p99)}}] | from_entries) as $lat
| ($analysis.cpus // {}) as $ints
| $isolated as $cpus
| {
    status: $status,
    drain: (if $hammer == null then null else
      {calls: $hammer.calls, p50_us: $hammer.p50_us, p99_us: $hammer.p99_us,
       max_us: $hammer.max_us, stalls: $hammer.stalls} end),
    cpus: ([$cpus[] | {key: ., value: (
      {interruptions: $ints[.].interruptions,
       by_cause: $ints[.].by_cause,
       drain_interruptions: (($ints[.].by_cause // {}) | to_entries
                             | map(select(.key | is_drain_cause) | .value) | add // 0),
       oslat_max_us: $lat[.].oslat_max_us, oslat_p99_us: $lat[.].oslat_p99_us,
       pcp_primed_pages: ($primed // {})[.]})}] | from_entries),
    selftest: $selftest
  }
| .verdict = (
    if $status != "ok" then "FAILED-RUN"
    elif $analysis == null then "NO-TRACE"
    elif any(.cpus[]; (.pcp_primed_pages // 0) == 0) then "UNPRIMED"
    elif any(.cpus[]; .drain_interruptions > 0) then "FAIL"
    elif ($hammer.stalls // 0) > 0 then "STALLED"
    elif $hammer != null and ($hammer.calls // 0) < 100 then "TOO-FEW-DRAINS"
    else "PASS" end)
