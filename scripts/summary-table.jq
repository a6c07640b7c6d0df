# summary-table.jq: verdict_table, the lines summarize.sh leaves on the
# terminal, from the run's summary (its input). Per CPU: interruptions the
# drain sent / drains that reached it, its workload, RCU's forcing for the
# drain's grace periods (indirect) and the interruptions without a sender
# (unknown); one CPU a line, 100 columns. Then the rule, the self-test and
# the audit's matrix: per trigger and variant, the isolated CPUs'
# interruptions in its sub-window, what the gaps' rate gives, the top
# cause.

# ["a", "b", ...] as lines of at most $w columns, ", " between items.
def wrap($w): reduce .[] as $x ([];
	if . != [] and (.[-1] | length) + 2 + ($x | length) <= $w then .[-1] += ", " + $x else . + [$x] end) | .[];
def l($w): tostring | . + (if length < $w then " " * ($w - length) else "" end);
def r($w): tostring | (if length < $w then " " * ($w - length) else "" end) + .;

def verdict_table:
	"\("variant" | l(10)) \("verdict" | l(14)) \("drains" | r(7)) \("p99_us" | r(8)) \("max_us" | r(8)) \("stalls" | r(6))  CPU drain-sent/reached, ind, unk",
	(.variants | to_entries[] | .key as $v | .value
	| [.cpus | to_entries[] | .value as $c
	   | "cpu\(.key) \($c.charged // "-")/\($c.exposure.drains // "-") \($c.workload),"
	     + " ind \($c.indirect // "-"), unk \($c.unknown // "-")"] as $cpus
	| ($cpus | if . == [] then ["-"] else . end) as $cpus
	| "\($v | l(10)) \(.verdict | l(14)) \(.drain.calls // "-" | r(7))"
	  + " \(.drain.p99_us // "-" | if type == "number" then round else . end | r(8))"
	  + " \(.drain.max_us // "-" | if type == "number" then round else . end | r(8))"
	  + " \(.drain.stalls // "-" | r(6))  \($cpus[0])",
	  ($cpus[1:][] | " " * 60 + .)),
	(.policy as $p
	| "rule (\($p.file)): each interruption traced to its sender (one whose stack",
	  "      holds a drain_function is the drain's); the first verdict whose condition holds:",
	  ([$p.verdicts[] | "\(.name) \(.when)"] | wrap(88) | "      " + .),
	  "      PASS also needs >= \($p.min_exposure.refill) drains reaching each refill CPU, >= \($p.min_exposure.oslat) each oslat CPU,",
	  "      >= \($p.min_drain_calls) drain calls. Time alone charges nothing.",
	  "self-test, per variant (counted/planted; the planter as the drain gives FAIL exactly):",
	  ([.variants | to_entries[] | select(.value.selftest != null) | .value.selftest as $s
	    | "\(.key) \($s.counted)/\($s.planted) \($s.verdict_check.verdict // "-")"
	      + (if $s.verdict_check.exact then " exact" else " NOT exact" end)]
	   | "  " + (if . == [] then "none in this run" else join(", ") end)),
	  # the bare reschedule vectors (hammer/plant.c), counted without a sender
	  ([.variants | to_entries[] | select(.value.selftest != null)
	    | [.value.selftest.cpus[]?.senderless // empty] as $b | select($b != [])
	    | "\(.key) \([$b[].unknown // 0] | add)/\([$b[].planted] | add)"]
	   | if . == [] then empty
	     else "  sender-less vectors counted unknown/planted: " + join(", ") end),
	  # the planted links: through a timer, by a clone's name, from an irq_work
	  ([.variants | to_entries[] | select(.value.selftest != null) | .key as $v
	    | [.value.selftest.cpus[]?] as $c
	    | def sum($k; $f): [$c[] | .[$k] // empty | .[$f] // 0] | add;
	      select(any($c[]; .deferred != null or .clone != null or .irq_work != null))
	    | "\($v) " + ([(select(any($c[]; .deferred != null)) | "timer \(sum("deferred"; "drain"))/\(sum("deferred"; "planted"))"),
	                   (select(any($c[]; .clone != null)) | "clone name \(sum("clone"; "drain"))/\(sum("clone"; "planted"))"),
	                   (select(any($c[]; .irq_work != null)) | "irq_work unknown \(sum("irq_work"; "unknown"))/\(sum("irq_work"; "planted"))")]
	                  | join(" "))]
	   | if . == [] then empty
	     else "  deferred and renamed senders found/planted: " + join(", ") end)),
	(.audit // empty | . as $a | ($a.variants | keys_unsorted) as $vs
	| "", "isolation audit (own path/all interruptions on the isolated CPUs in the sub-window/the gaps' rate for it, top cause above the gaps):",
	  ($a.triggers[] as $t | "  \($t): " + ([$vs[] as $v | $a.variants[$v].triggers[] | select(.name == $t)
	    | "\($v) " + (if .interruptions == null then .result
	        else "\(.own // "-")/\(.interruptions)/\(.expected * 10 | round / 10)"
	          + ((.excess_by_cause // {}) | to_entries | max_by(.value) // null
	             | if . == null then "" else " \(.key)" end)
	          + (if .result != "MEASURED" then " (\(.result))" else "" end) end)] | join(", "))));
