# Data files for the gnuplot scripts, one per plot and variant, as text.

# CPU names sorted as numbers ("10" after "9").
def num_sort: map(tonumber) | unique | map(tostring);

# int-<variant>.dat from summary.json: slot cpu total charged label label_y
# drains: the interruptions, the part charged to the drain, and how many
# drains reached the CPU (the label under the bar: the evidence beside the
# count). A CPU without a trace gets '?' (gnuplot: missing) and "no trace".
def int_dat($v; $cpus):
  .variants[$v].cpus as $c
  | $cpus | to_entries[]
  | ($c[.value] // {}) as $x
  | ($x.exposure.drains | if . == null then "\"–\"" else "\"\(.) dr\"" end) as $d
  | if $x.interruptions == null
    then "\(.key) \(.value) ? ? \"no trace\" 0 \($d)"
    else "\(.key) \(.value) \($x.interruptions) \($x.charged // 0) \"\($x.interruptions)\" \($x.interruptions) \($d)"
    end;

# oslat-<variant>.dat and refill-<variant>.dat from a variant's
# .plot.oslat / .plot.refill in summary.json: bucket (us) and count,
# summed over the workload's CPUs.
def oslat_dat($title):
  "\"bucket\" \"\($title)\"", (.histogram[] | "\(.[0]) \(.[1])");

# drain-cdf-<variant>.dat from a variant's .plot.drain: sorted latency and
# the fraction of calls at or below it. Over 1,000 samples, 1,000 order
# statistics drawn evenly from the first to the last (the maximum): the
# curve looks the same, and a 300 s stress run's 26,000 calls no longer
# make a 600 KB SVG, twice (plots/ and report.html).
def cdf_dat($title):
  (.samples_us | sort) as $s | ($s | length) as $n
  | "\"latency_us\" \"\($title)\"",
    (if $n <= 1000 then range(0; $n) else range(0; 1000) | (. * ($n - 1) / 999 | floor) end
     | "\($s[.]) \((. + 1) / $n)");

# alloc-cost-<variant>.dat from summary.json's alloc_cost: threads, mean and
# sd of kernel instructions per fault without spin-waiting.
def cost_dat($v):
  "\"threads\" \"\($v)\"",
  (.alloc_cost[$v].threads | to_entries | sort_by(.key | tonumber)[]
   | "\(.key) \(.value.kernel_insns_nospin.mean) \(.value.kernel_insns_nospin.sd // 0)");

# audit-measured.dat and audit-other.dat from summary.json's .audit: one
# line per cell, column (variant) and row (trigger) from 0.
def audit_dat($which):
  .audit as $a | ($a.variants | keys_unsorted) as $vs
  | $a.triggers | to_entries[] | .key as $row | .value as $t
  | $vs | to_entries[] | .key as $col
  | $a.variants[.value].triggers[] | select(.name == $t)
  | if .result == "MEASURED" then select($which == "measured") | "\($col) \($row) \(.interruptions) \"\(.interruptions)\""
    else select($which == "other") | "\($col) \($row) \"\(.result)\"" end;

# Every plot's data in one pass (report.sh splits it into files): for each
# file a line "@@ NAME" and then its lines; last "@@ vars", shell
# assignments of what the gnuplot scripts are told (which variants each
# plot has, the CPUs, the highest bar, the last latency bucket, ...).
# Variant names are [A-Za-z0-9_.-] (report.sh checks), safe in words.
def all_data:
  . as $s
  | ([.variants[].cpus | keys_unsorted[]] | num_sort) as $cpus
  | [.variants | keys_unsorted[] as $v | select(any($s.variants[$v].cpus[]; .interruptions != null)) | $v] as $int
  | def latency($k):
      [.variants | keys_unsorted[] as $v | select(try ($s.variants[$v].plot[$k].histogram | length > 0) catch false) | $v];
    latency("oslat") as $oslat | latency("refill") as $refill
  | def last($vs; $k): [$vs[] as $v | $s.variants[$v].plot[$k].histogram[][0]] + [0] | max;
    def lat_title($v; $k): $s.variants[$v].plot[$k]
      | "\($v) (max \(try (.max_us / 100 | round / 10) catch "") ms)";
  [.variants | keys_unsorted[] as $v | select(try ($s.variants[$v].plot.drain.samples_us | length > 0) catch false) | $v] as $cdf
  | (.alloc_cost // {} | keys_unsorted) as $cost
  | ($int[] as $v | "@@ int-\($v).dat", int_dat($v; $cpus)),
    ($oslat[] as $v | "@@ oslat-\($v).dat", (.variants[$v].plot.oslat | oslat_dat(lat_title($v; "oslat")))),
    ($refill[] as $v | "@@ refill-\($v).dat", (.variants[$v].plot.refill | oslat_dat(lat_title($v; "refill")))),
    ($cdf[] as $v | "@@ drain-cdf-\($v).dat",
      (.variants[$v].plot.drain
       | cdf_dat(if (.samples_us | length) < .calls
                 then "\($v) (\(.samples_us | length)/\(.calls) calls sampled)" else "\($v) (\(.calls) calls)" end))),
    ($cost[] as $v | "@@ alloc-cost-\($v).dat", cost_dat($v)),
    (if .audit == null then empty else
      "@@ audit-measured.dat", audit_dat("measured"), "@@ audit-other.dat", audit_dat("other") end),
    "@@ vars",
    "cpus=\($cpus | join(" ") | @sh)",
    "peak=\([.variants[].cpus[].interruptions // 0] | max | tostring | @sh)",
    "int_title=\("Interruptions per isolated CPU in the \(.run.duration_s) s \(.run.scenario) window, by variant" | @sh)",
    "int_with=\($int | join(" ") | @sh)",
    "oslat_with=\($oslat | join(" ") | @sh) oslat_last=\(last($oslat; "oslat"))",
    "oslat_where=\(.run.oslat_cpus // .run.isolated_cpus // "?" | tostring | @sh)",
    "refill_with=\($refill | join(" ") | @sh) refill_last=\(last($refill; "refill"))",
    "refill_where=\(.run.refill_cpus // "?" | tostring | @sh)",
    "cdf_with=\($cdf | join(" ") | @sh)",
    "cost_with=\($cost | join(" ") | @sh)",
    "audit=\(if .audit == null then "no" else "yes" end)",
    "audit_variants=\(.audit.variants // {} | keys_unsorted | join(" ") | @sh)",
    "audit_triggers=\(.audit.triggers // [] | join(" ") | @sh)";
