# The "Isolation audit" section (scenario "audit"), from summary.json's
# .audit (scripts/audit.sh per variant): triggers as rows, variants as
# columns. Included by model.jq.
include "format";

# A cause as the mechanism it names (qc-analyze's cause names).
def mechanism:
	if test("^workqueue:") then "work item \(sub("^workqueue:"; ""))()"
	elif test("^irq_vectors:[a-z_]+:") then capture("^irq_vectors:(?<v>[a-z_]+):(?<f>.*)$") | "IPI (\(.v)) running \(.f)()"
	elif . == "irq_vectors:reschedule" then "reschedule IPI (a wake-up)"
	elif test("^irq_vectors:") then "\(sub("^irq_vectors:"; "")) vector, callback not traced"
	elif test("^sched:migration/") then "the CPU stopper \(sub("^sched:"; "")) (stop_machine)"
	elif test("^sched:") then "task \(sub("^sched:"; "")) ran"
	elif test("^timer:tick_(sched_timer|nohz_handler)$") then "the tick, restarted"
	elif test("^timer:") then "hrtimer \(sub("^timer:"; ""))"
	elif test("^softirq:") then "\(sub("^softirq:"; "")) softirq"
	else . end;

# The biggest excess cause of one trigger record: [cause, count] or null.
def top_excess: (.excess_by_cause // {}) | to_entries | sort_by(-.value, .key) | .[0] // null;

# A record's evidence: each isolated CPU's own count, and how often its
# proof probe fired in the sub-window (the path's entries, on any CPU).
# When drain_all_pages() ran in it, also how many calls opened there and
# how many of them reached (freed pages of) each isolated CPU.
def audit_evidence:
	"; per CPU " + ([.cpus // {} | to_entries[] | "\(.key): \(.value.interruptions | thou)"] | join(", "))
	+ "; \(.probe)() entered \(.proof | thou)×"
	+ (if (.drains.calls // 0) == 0 then "" else
	   "; \(plural(.drains.calls; "drain_all_pages() call"; "drain_all_pages() calls")), reaching CPU "
	   + ([.cpus | to_entries[] | "\(.key) \(.value.exposure.drains // 0 | thou)×"] | join(", ")) end);

# The biggest cause of a record's own path: [cause, count] or null.
def top_own: (.own_by_cause // {}) | to_entries | sort_by(-.value, .key) | .[0] // null;

# A measured record's count: by cause (its own path, the rest) where the
# trace had the send side, else by time alone; the gaps' rate beside it.
def audit_count:
	if .own != null then
		"**\(.own | thou) own** of \(.interruptions | thou), \(.other | thou) from other origins (gaps: \(.expected | rnd(1)))"
		+ (top_own | if . == null then "" else ", top own: \(.key | code) \(.value | thou)" end)
	else
		"\(.interruptions | thou) (gaps: \(.expected | rnd(1)); no send side, so not by cause)"
		+ (top_excess | if . == null then ", no cause above the gaps" else ", top: \(.key | code) +\(.value | rnd(0) | thou)" end)
	end;

# One matrix cell.
def audit_cell:
	if .result == "MEASURED" then
		audit_count + audit_evidence
	elif .result == "NOT-TRIGGERED" then "**NOT-TRIGGERED** (no \("qcaudit:" + .name | code) event)"
	elif .result == "NOT-IMPLEMENTED" then "not implemented: \(.said)"
	elif .result == "FAILED" and .interruptions != null then
		"**FAILED** (\(.said | rtrimstr(" "))), its path ran: " + audit_count + audit_evidence
	elif .result == "FAILED" then "**FAILED**: \(.said)"
	else "not run" end;

# One line per row: what the trigger's own path sent, per variant (the
# causes above the gaps' rate where the trace had no send side).
def audit_line($vs; $a):
	. as $t
	| [$vs[] as $v | $a.variants[$v].triggers[] | select(.name == $t)
	   | "\($v): " + (if .interruptions == null then .result
	       elif .own != null then ((.own_by_cause // {}) | to_entries | sort_by(-.value, .key) | .[:3]
	             | if . == [] then "its path sent nothing"
	               else map("\(.key | mechanism) (\(.value | thou))") | join(", ") end)
	       else ((.excess_by_cause // {}) | to_entries | sort_by(-.value, .key) | .[:3]
	             | if . == [] then "nothing above the gaps' rate"
	               else map("\(.key | mechanism) (+\(.value | rnd(0) | thou))") | join(", ") end) end)]
	| "**\($t)**: " + join("; ");

def audit_section:
	if .audit == null then empty else
	.audit as $a | ($a.variants | keys_unsorted) as $vs
	| {h2: "Isolation audit"},
	  {p: "Each housekeeping operation (a trigger) fired from a housekeeping CPU in its own marked sub-window of one window, in a fixed order, with quiet gaps of at least 1 s between them, while the isolated CPUs ran the measured workloads (oslat on \(.run.oslat_cpus // "–"), the refill workload on \(.run.refill_cpus // "–")). Each cell: the interruptions of the isolated CPUs in that trigger's sub-window, summed over them and counted by the analyzer's rule, split by cause: how many the trigger's own path sent (their senders' kernel stacks, followed through the kworkers that ran work the trigger queued, hold the probed function or one of its list's #path functions) and how many came from other origins; beside them, as a cross-check, what the gaps' rate gives for a window that long. Then each isolated CPU's own count, and the evidence that the trigger ran: how often its kernel path (the proof probe) was entered in the sub-window, on any CPU. A trigger whose kernel path shows no event of its proof probe in its sub-window is **NOT-TRIGGERED**: nothing is claimed for it."},
	  {table: {head: (["trigger", "kernel path probed"] + $vs), align: ("ll" + ($vs | map("l") | join(""))),
		rows: [$a.triggers[] as $t
			| [($t | code), ($a.variants[$vs[0]].triggers[] | select(.name == $t) | .probe + "()" | code)]
			  + [$vs[] as $v | $a.variants[$v].triggers[] | select(.name == $t) | audit_cell]]}},
	  {p: ("Baseline (the gaps): " + ([$vs[] as $v | $a.variants[$v].baseline
		| "\($v) \(.interruptions | thou) interruptions in \(.duration_ns / 1e9 | rnd(1)) s of \(.gaps) gaps (\(.per_s | rnd(2))/s)"] | join("; ")) + ".")},
	  {p: "What a chain cannot show: effects that travel through state rather than through calls. Ticks kept by a tick dependency that a trigger set for every CPU (CPU hotplug's RCU dependency, set by the hotplug thread), or work that a later, unrelated sender does because a trigger changed state (vmpressure after a memcg drain, say), reach a CPU with no call chain back to the trigger: they count as other origins here, and only the gaps' cross-check can hint at them."},
	  {p: "What each trigger's own path sent, per trigger and variant (by cause):"},
	  {ul: [$a.triggers[] | audit_line($vs; $a)]},
	  ({plot: "audit", caption: "The same matrix as a heat map: interruptions of the isolated CPUs in each trigger's sub-window (colour: log scale); grey cells were not measured (NOT-TRIGGERED, not implemented, failed)."}
	   | select($plots | split(" ") | index("audit")))
	end;
