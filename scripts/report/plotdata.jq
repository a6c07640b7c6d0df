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
# the fraction of calls at or below it.
def cdf_dat($title):
  (.samples_us | sort) as $s | ($s | length) as $n
  | "\"latency_us\" \"\($title)\"",
    ($s | to_entries[] | "\(.value) \((.key + 1) / $n)");

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
