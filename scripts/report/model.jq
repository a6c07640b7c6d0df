# The report as a list of blocks, so that md.jq and html.jq say the same
# thing: {h1}, {h2}, {p}, {ul: [...]}, {table: {head, align, rows}},
# {plot: NAME, caption}. Text may carry `code` and **bold**, nothing else.
# Input: summary.json, and nothing else: the rule and its thresholds come
# from its .policy (what summarize.sh applied), never from tracing/. Only
# runs judged by cause (policy.rule "origins") are rendered: report.sh
# leaves the reports of runs judged by the retired rule by time frozen. $plots: the SVGs rendered ("interruptions oslat ...");
# $run_status: the run's status file.
# Every claim names its evidence: how many drains reached the CPU beside
# every interruption count, which window, which control.

include "format";
include "audit";

def cpulist: if length > 1 then (.[:-1] | join(", ")) + " and " + .[-1] elif length == 1 then .[0] else "none" end;
def cpus_of: .cpus | keys_unsorted | map(tonumber) | sort | map(tostring);

# [{cpu, cause, n, charged}] over the isolated CPUs of one variant.
def causes: [.cpus | to_entries[] | .key as $cpu | .value as $x
	| ($x.by_cause // {}) | to_entries[]
	| {cpu: $cpu, cause: .key, n: .value, charged: (($x.charged_by_cause // {})[.key] // 0)}];
# "`a` 3, `b` 1" for the $k biggest causes, "+N more" for the rest.
def top($k): sort_by(-.n, .cause)
	| (.[:$k] | map("\(.cause | code) \(.n | thou)") | join(", "))
	+ (if length > $k then ", +\(length - $k) more" else "" end);
def sum_by_cause: group_by(.cause) | map({cause: .[0].cause, n: (map(.n) | add), charged: (map(.charged) | add)});

# --- one variant's evidence ------------------------------------------------
# "the hammer window (10.4 s, 402 drain_all_pages() calls, 402 of them reaching an isolated CPU)"
def window($root): "the \($root.run.scenario // "measurement") window (\(.window_s | secs) s"
	+ (if .drain == null then "" else ", \(plural(.drain.calls; "drain_all_pages() call"; "drain_all_pages() calls"))" end)
	+ (if .drains.reached == null then "" else ", \(.drains.reached | thou) of them reaching an isolated CPU" end) + ")";
def reached: if .exposure == null then "exposure not measured (no probes)"
	else "\(plural(.exposure.drains; "drain"; "drains")) reached it" end;
def primed: cpus_of as $c | [.cpus[$c[]].pcp_primed_pages | dash] | join("/");
def verdict_cpus: .verdict_cpus // [];


# --- the verdict in one sentence, by cause; the evidence it rests on ----
# follows it as a list (evidence_items).
# "CPU 2 (refill): 398 drains reached it, 796 of 799 interruptions sent by the drain, 0 indirect, 0 without a sender"
def cpu_evidence($c):
	"CPU \($c) (\(.workload)): \(reached), "
	+ (if .interruptions == 0 then "not interrupted"
	   else ("\(.charged | thou) of \(plural(.interruptions; "interruption"; "interruptions")) sent " +
		"by the drain, ")
	     + ("\(.indirect | thou) forced by RCU for its grace periods (\(.shared | thou) shared), " +
		"\(.unknown | thou) without a sender") end);
def control_text: if .control == null then "no quiet control was recorded for this variant"
	else ("the quiet control (\(.control.window_s | secs) s, same boot and workloads, no drains) " +
		"had \(plural(.control.interruptions; "interruption"; "interruptions")), " +
		"\(.control.rcu_qs | thou) of them RCU forcing a quiescent state, " +
		"\(.control.unknown | thou) without a sender") end;
# The chains summed over the variant's isolated CPUs, most frequent first.
def chains: [.cpus[] | .origins.chains // {} | to_entries[]] | group_by(.key)
	| map({chain: .[0].key, n: (map(.value) | add)}) | sort_by(-.n, .chain);
def is_drain_chain($p): . as $c | any(($p.drain_functions // [])[]; . as $f | $c | test("[ <:]\($f)( |$)"));
def top_chains($k; sel): map(select(.chain | sel)) | .[:$k] | map("\(.chain | code) ×\(.n | thou)") | join("; ");
def headline($root):
	. as $v
	| if .verdict == "PASS" then ("no interruption of CPU \(cpus_of | cpulist) was sent by the drain or forced by RCU for " +
		"a grace period it requested, and every one has a sender" +
		(if (.indirect_emulator_timed_total // 0) > 0 then
			" (RCU forced \(plural(.indirect_emulator_timed_total; "stretch"; "stretches")) for the drain's grace " +
			"periods that hardware would have run through before the forcing interval: emulator-timed)"
		 else "" end))
	elif .verdict == "FAIL" then
		("\(plural(.charged_total - (.handoff_total // 0); "interruption"; "interruptions")) sent by the drain to " +
			"CPU \(verdict_cpus | cpulist)" +
			(if (.handoff_total // 0) > 0 then ", and \(.handoff_total | thou) lock hand-offs" else "" end))
	elif .verdict == "CONTENDED" then
		("the drain reached into no isolated CPU, but \(plural(.handoff_total; "interruption"; "interruptions")) " +
			"of CPU \(verdict_cpus | cpulist) were its lock hand-offs: a task there had blocked on a " +
			"sleeping lock the drain held (on PREEMPT_RT, zone->lock or a pcp->lock) and the drain's " +
			"unlock woke it" +
			(if (.indirect_total // 0) > 0 then "; \(.indirect_total | thou) more were RCU forcing for its grace periods" else "" end))
	elif .verdict == "INDIRECT" then
		((if (.handoff_total // 0) > 0 then "nothing the drain sent reached an isolated CPU but " +
			"\(plural(.handoff_total; "lock hand-off"; "lock hand-offs")), and " else
			"nothing the drain sent reached an isolated CPU, but " end) +
			"\(plural(.indirect_total - (.indirect_emulator_timed_total // 0); "interruption"; "interruptions")) of CPU " +
			"\(verdict_cpus | cpulist) were RCU forcing a quiescent state for a grace period " +
			"a drain made RCU need (\(.shared_total | thou) more for grace periods a drain only " +
			"waited on, not charged" +
			(if (.indirect_emulator_timed_total // 0) > 0 then
				"; \(.indirect_emulator_timed_total | thou) more emulator-timed, not charged" else "" end) +
			(if (.hardware_time.measured // false) then "" else "; not timed against hardware" end) + ")")
	elif .verdict == "INCONCLUSIVE" and .verdict_when == "rcu_requests_untraced" then
		("RCU forced a quiescent state out of CPU \(verdict_cpus | cpulist), but the trace was made " +
			"before RCU's request path was probed: whose grace period it was cannot be told (re-run the variant)")
	elif .verdict == "INCONCLUSIVE" and (.unknown_total // 0) == 0 then
		("\(plural(.probe_misses.unplaced; "probe hit"; "probe hits")) dropped in the window could " +
			"have been an isolated CPU's (\([.probe_misses.placed[] | select(.unplaced) | "\(.probe | code) \(.missed)"] | join(", "))): " +
			"a send or a drain there may be missing from the trace, so the drain cannot be ruled out")
	elif .verdict == "INCONCLUSIVE" then
		("\(plural(.unknown_total; "interruption"; "interruptions")) of CPU " +
			"\(verdict_cpus | cpulist) came with no sender in the trace " +
			"(\([.no_sender[] | "CPU \(.cpu) \(.cause | code) \(.count)"] | join(", "))), " +
			"so the drain cannot be ruled out")
	elif .verdict == "UNEXPOSED" then
		("no interruption charged, but too few drains reached CPU " +
			"\([verdict_cpus[] as $c | "\($c) (\($v.cpus[$c].workload): \($v.cpus[$c].exposure.drains // "not measured"))"] | cpulist) " +
			"for the window to test the drain there (the policy needs ≥ " +
			"\($root.policy.min_exposure.refill) on a refill CPU, ≥ " +
			"\($root.policy.min_exposure.oslat) on an oslat CPU)")
	elif .verdict == "UNPRIMED" then
		("no interruption charged, but CPU \(verdict_cpus | cpulist) had an empty pcplist " +
			"when the window opened (pages primed: \(primed)); a non-forced drain skips an " +
			"empty list, so this run proves nothing")
	elif .verdict == "STALLED" then
		("no interruption charged, but \(.drain.stalls) drain_all_pages() call(s) stalled " +
			"(max \(.drain.max_us | us) µs): the drain waited for an isolated CPU that never " +
			"yielded")
	elif .verdict == "TOO-FEW-DRAINS" then
		("no interruption charged, but the hammer completed only \(.drain.calls // 0) " +
			"drain_all_pages() calls (the policy needs ≥ \($root.policy.min_drain_calls))")
	elif .verdict == "AUDIT" then ("the audit scenario is judged per trigger, not by the drain rule: see the Isolation " +
		"audit section")
	elif .verdict == "NO-TRACE" and .stress != null then
		("the `stress` scenario traces no window (no interruption was counted): it is the debug " +
			"kernel's correctness run, \(.drain.calls // 0) drain_all_pages() calls (the longest " +
			"\(.drain.max_us | us) µs) with no splat in its console (scripts/splats.sh, which lets " +
			"through only the known reports it names; a splat fails the run). Its phases: " +
			"\(.stress.phases | join("; "))")
	elif .verdict == "NO-TRACE" then "the `\($root.run.scenario)` scenario traces no window: no interruption was counted"
	elif .verdict == "FAILED-RUN" then "the variant's run did not finish: status \(.status | code)"
	# (a verdict with no words of its own here: the policy's sentence for it)
	else first($root.policy.verdicts[] | select(.name == $v.verdict) | .sentence) // "see the tables below" end;
# The evidence a verdict rests on, one item each: the chains that decided
# it, the window, each isolated CPU, the quiet control, the cross-check.
# The window's RCU QS interruptions against the quiet control's rate, and
# how many of them hardware would not have seen (tracing/README.md,
# "Hardware time").
def rcu_forcing_text:
	(.rcu_forcing // null) as $f | (.hardware_time // {}) as $h
	| (if $f == null then "no quiet control to compare with"
	   else "\($f.window) in the window (\($f.window_s * 10 | round / 10) s), \($f.control) in the quiet control " +
		"(\($f.control_s * 10 | round / 10) s), which predicts \($f.expected * 10 | round / 10): " +
		(if $f.significant then "an excess the control's rate does not explain" else "no excess over it" end) +
		" (p = \($f.p_excess * 1000 | round / 1000), one-sided)" +
		($f.grace_periods // null | if . == null then "" elif .requests_traced then
			"; \(.started | thou) grace periods started in the window, \(.drain_requested | thou) of them " +
			"first needed by a drain's request" else "; whose request started each grace period was not traced" end) +
		($f.control_grace_periods // null | if . == null then "" else
			", \(.started | thou) in the quiet control" end) end)
	+ "; " +
	(if $h.measured == true then
		"timed by the instructions of the stretch each forced reschedule hit (qc-entry, " +
		"\($h.ns_per_insn) ns an instruction, a force needs \($h.span_ns / 1e6) ms: jiffies_till_next_fqs " +
		"\($h.jiffies_till_next_fqs) at HZ \($h.hz)): \(.indirect_emulator_timed_total // 0) of the " +
		"\(.indirect_total // 0) for a drain's grace period emulator-timed" +
		(if $f != null then ", \($f.emulator_timed // 0) of the window's \($f.window), \($f.control_emulator_timed // 0) of the control's \($f.control)" else "" end)
	 else "not timed against hardware (no qc-entry counts: run with --count-entries)" end);
def evidence_items_of($root):
	(if .verdict == "FAIL" or .verdict == "CONTENDED" then "chains: \(chains | top_chains(3; is_drain_chain($root.policy)))"
	 elif .verdict == "INDIRECT" then "chains: \(chains | top_chains(2; test("<- rcu_qs")))"
	 else empty end),
	"window: \(window($root))",
	"dropped probe hits: \(.probe_misses // {} | if .measured == true then
		(if (.missed // 0) == 0 then "none"
		 else "\(.missed) (\([.placed[] | if .unplaced then "\(.probe) \(.missed) unplaced: its recorded hits \(.recorded_isolated) on isolated CPUs, \(.recorded_other) on others"
			else "\(.probe) \(.missed), its \(.recorded_other) recorded hits all on housekeeping CPUs" end] | join("; ")))" end)
		+ " of \(.hits | thou) hits on \(.probes) probes (kprobe_profile at the window's start and end)"
		else "not measured (the guest recorded no kprobe_profile snapshots)" end)",
	(. as $v | cpus_of[] as $c | $v.cpus[$c] | cpu_evidence($c)),
	"control: \(control_text)",
	"RCU forcing: \(rcu_forcing_text)";

# Verdicts not judged from a window of this run have no window evidence.
def evidence_items($root):
	if .verdict == "AUDIT" or .verdict == "NO-TRACE" or .verdict == "FAILED-RUN" then empty
	else evidence_items_of($root) end;

# --- sections ------------------------------------------------------------
def refill_params: [.variants[].refill | select(. != null)][0];
def rule_text:
	.policy as $p
	| ("The rule (\($p.file // "the verdict policy" | code), as scripts/summarize.sh applied it " +
		"to this run; summary.json records it) goes by cause, not by time. Every interruption of " +
		"an isolated CPU is traced back to whoever sent it, from the send side the guest " +
		"recorded (tracing/README.md, \"Origins\": who sent each IPI, queued each work item, set " +
		"each tick dependency, with its kernel stack). It is **sent by the drain** when a " +
		"sender's stack holds one of the drain's functions " +
		"(\($p.drain_functions | map(code) | join(", "))) or the sender was inside its own " +
		"drain_all_pages() call; of those, a **lock hand-off** is the drain's release of a " +
		"sleeping lock waking a task on the isolated CPU that had blocked on it (on PREEMPT_RT, " +
		"zone->lock or a pcp->lock: the task contended for the lock itself, the drain did not " +
		"reach into its CPU); RCU forcing a quiescent state out of the CPU is **indirect** " +
		"when a drain made RCU need the grace period: a callback queued inside a drain call " +
		"(synchronize_rcu() queues one) went with the request that first recorded the need for it " +
		"in RCU's rcu_node, read from rcu_start_this_gp(); **shared** when a drain only waited on it, " +
		"someone else's request having recorded it first (reported, not charged). In order: ")
	+ ([$p.verdicts[] | "**\(.name)**: \(.sentence)"] | join("; "))
	+ (". PASS also needs every isolated CPU primed, in the " +
		"\($p.exposure_scenarios | map(code) | join(", ")) scenario ≥ \($p.min_exposure.refill) " +
		"drains reaching each refill CPU and ≥ \($p.min_exposure.oslat) each oslat CPU, no " +
		"stalled call and ≥ \($p.min_drain_calls) drain calls. Coincidence in time with a drain " +
		"charges nothing. A trace " +
		"without the send side, or any missing input, is refused: no verdict is written at all.");
def exposure_text:
	refill_params as $r
	| ("Exposure: a drain reached a CPU when it found pages on that CPU's pcplists and freed " +
		"them, as the kernel's own probes in the trace show (\"drains reached\" and \"pages " +
		"freed\" below). A CPU whose task never frees pages (oslat) can be drained only once: " +
		"its exposure is 1 by construction; the refill CPUs' exposure is what tests every drain")
	+ (if $r == null then "." else (" (the refill workload faults in and frees \($r.pages) pages every \($r.refill_ms) ms on " +
		"its own CPU, so every drain finds pages there).") end);
def control_para:
	("The control: each variant's window is followed, in the same boot, by a quiet window of " +
		"the same length with the same workloads and no drains. Its interruptions are traced to " +
		"their senders the same way; what RCU forces there is the grace-period traffic the " +
		"system makes without any drain, beside the indirect count of the window.")
	+ (if all(.variants[]; .control == null) then " This run has no quiet control." else "" end);
def selftest_text:
	. as $root
	| [.variants | to_entries[] | select(.value.selftest != null) | .key as $v | .value.selftest as $s
	 | "\($v) \($s.counted)/\($s.planted) (" + ([$s.cpus | to_entries[] | "CPU \(.key) \(.value.counted)/\(.value.planted)"] | join(", "))
	   + ("), " +
		"the planter judged as the drain: " +
		"\($s.verdict_check.verdict // "not checked")")
	   + (if $s.verdict_check.verdict == "FAIL" and $s.verdict_check.exact then " with exactly the planted count charged on each CPU, as it must"
	      else ", **not** FAIL with the planted counts: the verdicts cannot be trusted" end)
	   # the delayed work items traced back through their timer, the
	   # reschedule vectors sent past every send probe counted without a sender
	   + ([$s.cpus[] | .deferred // empty] as $d | if $d == [] then ""
	      else "; delayed work items found the planter's through their timer's arming: \([$d[].drain] | add)/\([$d[].planted] | add)" end)
	   + ([$s.cpus[] | .clone // empty] as $d | if $d == [] then ""
	      else "; IPIs sent by a function named as a compiler clone of the planter's found the planter's by base name: \([$d[].drain] | add)/\([$d[].planted] | add)" end)
	   + ([$s.cpus[] | .irq_work // empty] as $d | if $d == [] then ""
	      else "; IPIs sent from an irq_work (whose queueing no event shows) counted as unknown, their sender named: \([$d[].unknown // 0] | add)/\([$d[].planted] | add)" end)
	   + ([$s.cpus[] | .senderless // empty] as $b | if $b == [] then ""
	      else "; reschedule vectors sent past every send probe, counted without a sender: \([$b[].unknown // 0] | add)/\([$b[].planted] | add)" end)] as $l
	| if $l == [] then "Analyzer self-test: not run in this run."
	  else ("Analyzer self-test, judged per variant and per CPU, never summed across variants " +
		"(interruptions planted on every isolated CPU in a window of their own, then counted " +
		"from its trace; counted/planted): ") + ($l | join("; ")) + "." end;

# --- the answer first: one row per variant, the number that decided it ----
def deciding($root):
	(.verdict_cpus // []) as $vc | . as $v
	| if .verdict == "FAIL" then "\(.charged_total - (.handoff_total // 0) | thou) sent by the drain"
	elif .verdict == "CONTENDED" then "\(.handoff_total | thou) lock hand-offs by the drain"
	elif .verdict == "INDIRECT" then "\(.indirect_total - (.indirect_emulator_timed_total // 0) | thou) forced for its grace periods" +
		(if .hardware_time.measured == true then " (\(.indirect_emulator_timed_total // 0 | thou) emulator-timed)" else " (not timed)" end)
	elif .verdict == "INCONCLUSIVE" then "\(.unknown_total | thou) without a sender"
	elif .verdict == "PASS" then "0 sent, 0 indirect, 0 unknown" +
		(if (.indirect_emulator_timed_total // 0) > 0 then " (\(.indirect_emulator_timed_total | thou) emulator-timed)" else "" end)
	elif .verdict == "UNEXPOSED" then
		[$vc[] as $c | $v.cpus[$c] | "CPU \($c): \(.exposure.drains // 0 | thou) < \($root.policy.min_exposure[.workload] // "?")"]
		| join(", ") | "drains reached " + .
	elif .verdict == "UNPRIMED" then "CPU \($vc | cpulist): no pages primed"
	elif .verdict == "STALLED" then plural(.drain.stalls // 0; "stalled call"; "stalled calls")
	elif .verdict == "TOO-FEW-DRAINS" then "\(.drain.calls // 0 | thou) calls < \($root.policy.min_drain_calls)"
	elif .verdict == "AUDIT" then "per trigger: the audit below"
	elif .verdict == "NO-TRACE" then "no trace"
	elif .verdict == "FAILED-RUN" then "the run did not finish"
	# (a verdict with no words of its own here: the CPUs it holds on)
	elif $vc != [] then "CPU \($vc | cpulist)"
	else "–" end;
# The answer table: one row per variant.
def answer_table:
	. as $root
	| {head: ["variant", "verdict", "decided by", "exposure", "quiet control"],
	   align: "lllrr",
	   rows: [.variants | to_entries[] | .key as $k | .value
		| [$k, "**\(.verdict)**", deciding($root),
		   (if .drains.reached == null then "–"
		    elif .drain.calls == null then "\(.drains.reached | thou) reached"
		    else "\(.drains.reached | thou) of \(plural(.drain.calls; "call"; "calls"))" end),
		   (if .control == null then "–"
		    else "\(.control.interruptions | thou) (\(.control.rcu_qs | thou) RCU QS)" end)]]};
def answer:
	. as $root
	| {h2: "Answer"},
	  {table: answer_table},
	  {p: ("Decided by: the number the rule decided on (the rule is stated below). Exposure: the "
		+ "drain_all_pages() calls that reached an isolated CPU, of all calls. Quiet control: "
		+ "the interruptions of the same boot's quiet window, without drains (those "
		+ "RCU forced a quiescent state for).")};

# The evidence each verdict rests on: a sentence, then a short list.
def evidence:
	. as $root
	| {h2: "Evidence"},
	  (.variants | to_entries[] | .key as $k | .value
	   | {p: "**\($k): \(.verdict)** — \(headline($root))."},
	     ([evidence_items($root)] | if . == [] then empty else {ul: .} end));
def rule_section:
	{h2: "The rule"}, {p: rule_text}, {p: exposure_text}, {p: control_para}, {p: selftest_text};

def accel_text:
	if .run.accel == "tcg" then ("QEMU TCG (software emulation, no hardware virtualisation). Every guest instruction is " +
		"translated and emulated, and the guest's vCPUs are host threads sharing a 2-core host, " +
		"so absolute latencies (oslat, refill, drain_all_pages(), faults/s) are emulation " +
		"artefacts: tens of milliseconds of oslat maximum are QEMU and the host scheduler, not " +
		"the kernel. Event counts (interruptions, their causes, drains that reached a CPU, drain " +
		"calls) are the kernel's own behaviour and are not. Compare variants only within one " +
		"run, never with another run or machine.")
	elif .run.accel == "kvm" then ("KVM (hardware virtualisation): latencies include host scheduling of the vCPU threads; " +
		"compare variants within one run.")
	else ("\(.run.accel | dash): unknown accelerator; treat absolute latencies with suspicion and " +
		"compare variants within one run.") end;

# TIME_SCALE=auto (scripts/time-scale.sh): the factor and its evidence.
def time_scale_text:
	(.run.time_scale // null) as $t
	| if $t == null then "none: RCU's forcing intervals as the kernel sets them, in guest jiffies (make compare TIME_SCALE=auto scales them)"
	  else "**x\($t.factor)** (TIME_SCALE=auto): the guests ran \($t.guest_ns_per_insn.median) ns of guest time an instruction " +
		"(median of \($t.guest_ns_per_insn.stretches) kernel stretches of 20,000 instructions or more on the isolated CPUs, p10 \($t.guest_ns_per_insn.p10), " +
		"p90 \($t.guest_ns_per_insn.p90); a \($t.measured_on.duration_s) s \($t.measured_on.scenario) boot of " +
		"\($t.measured_on.variant) under qc-entry) against the stated \($t.stated_ns_per_insn) ns, so every guest was booted with " +
		"jiffies_till_first_fqs \($t.base.jiffies_till_first_fqs) -> \($t.scaled.jiffies_till_first_fqs), " +
		"jiffies_till_next_fqs \($t.base.jiffies_till_next_fqs) -> \($t.scaled.jiffies_till_next_fqs), " +
		"jiffies_till_sched_qs \($t.base.jiffies_to_sched_qs) -> \($t.scaled.jiffies_till_sched_qs)" +
		(if $t.capped then " (the forcing intervals capped at HZ: less than the full factor)" else "" end) +
		"; longer grace periods slow the drains that wait for them: compare the drain counts" end;

def facts:
	{h2: "Run"},
	{ul: [
		"run id: \(.run.id | code), status: \($run_status | code)",
		"accelerator: **\(.run.accel | dash)**\(if .run.qemu_version then " (QEMU \(.run.qemu_version))" else "" end) — \(accel_text)",
		"time scale: \(time_scale_text)",
		("kernel tree: \(.run.kernel_tree | dash) (each variant: that tree plus its " +
			"series in patches/<variant>/, none for spinlock)"),
		"scenario: \(.run.scenario | dash | code), " + (if .run.scenario == "audit"
			then ("one window holding every trigger's sub-window and the gaps (its length " +
				"is the triggers', not the duration)")
			else "measurement window: \(.run.duration_s | dash) s" end),
		("isolated CPUs: \(.run.isolated_cpus | dash) (oslat on " +
			"\(.run.oslat_cpus | if . == "" or . == null then "none" else . end), the refill " +
			"workload on " +
			"\(.run.refill_cpus | if . == "" or . == null then "none" else . end)); " +
			"housekeeping CPUs: \(.run.housekeeping_cpus | dash)"),
		"variants: " + ([.variants | to_entries[] | "\(.key) (\(.value.status))"] | join(", "))
			+ "; baseline for comparisons: \(.policy.baseline | code)"]};

def total_of($f): [.cpus[] | .[$f]] | if any(. == null) then "–" else add | thou end;
def per_variant:
	{h2: "Per variant"},
	{table: {head: ["variant", "verdict", "drain_all_pages() calls", "reached an isolated CPU",
		"p50 (µs)", "p99 (µs)", "max (µs)", "stalls", "interruptions (isolated CPUs)",
		"sent by the drain", "indirect (shared)", "without a sender"],
		align: "llrrrrrrrrrr",
		rows: [.variants | to_entries[] | .key as $v | .value
			| [$v, "**\(.verdict)**", (.drain.calls | dash), (.drains.reached | thou), (.drain.p50_us | us), (.drain.p99_us | us),
			   (.drain.max_us | us), (.drain.stalls | dash), total_of("interruptions"), total_of("charged"),
			   "\(total_of("indirect")) (\(total_of("shared")))", total_of("unknown")]]}},
	{p: ("drain_all_pages() calls and latency: measured on the housekeeping CPU by qc_hammer, per " +
		"call; a stall is a call that took longer than its stall threshold. Reached: calls that " +
		"freed pages from at least one isolated CPU's pcplists (the trace's probes). Sent by the " +
		"drain, indirect, shared and without a sender: the rule by cause, above.")};

# Who sent what: each variant's most frequent chains on its isolated CPUs.
def origins_section:
	. as $root
	| {h2: "Origins: who sent each interruption"},
	  {p: ("Each interruption of an isolated CPU, traced back to its sender (tracing/README.md, " +
		"\"Origins\"): cause <- class: sending task on its CPU: its kernel stack from the probed " +
		"function down. Classes: remote (another CPU sent it), rcu_qs (RCU forcing a quiescent " +
		"state), inherited (caused by the interruption before it on that CPU, whose senders it " +
		"takes), self (the workload's own), device, unknown (no sender). Summed over the " +
		"isolated CPUs; at most 8 per variant.")},
	  (.variants | to_entries[] | .key as $v | .value | chains as $c
	   | if $c == [] then {p: "\($v): no interruption."} else
	     {table: {head: ["\($v): chain", "interruptions", "the drain's"], align: "lrl",
		rows: [$c[:8][] | [(.chain | code), (.n | thou), (if .chain | is_drain_chain($root.policy) then "**yes**" else "no" end)]]}} end);

def per_cpu_table:
	. as $root
	| {h2: "Per isolated CPU"},
	{table: {head: ["variant", "CPU", "workload", "pcp pages primed", "drains reached", "pages freed", "interruptions",
			"by cause (rule)", "quiet control (RCU QS / all)",
			"top causes", "latency max (µs)", "latency p99 (µs)"],
		align: "lrlrrrrrrlrr",
		rows: [.variants | to_entries[] | .key as $v | .value | cpus_of as $c | causes as $k | .cpus as $cpus
			| $c[] as $cpu | $cpus[$cpu]
			| [$v, $cpu, (.workload | dash), (.pcp_primed_pages | thou),
			   (.exposure.drains | thou), (.exposure.pages | thou),
			   (if .interruptions == null then "no trace" else .interruptions | thou end),
			   (if .charged == null then "–" else ("\(.charged | thou) sent, \(.indirect | thou) indirect, " +
				"\(.unknown | thou) unknown") end),
			   (if .control == null then "–" else "\(.control.rcu_qs | thou) / \(.control.interruptions | thou)" end),
			   ($k | map(select(.cpu == $cpu)) | if . == [] then "–" else top(3) end),
			   (.latency_max_us | us), (.latency_p99_us | us)]]}},
	{p: (("pcp pages primed: pages in the CPU's pcplists when the window opened. Drains reached " +
		"and pages freed: the drain_all_pages() calls of the window that freed pages from this " +
		"CPU's lists, and how many (\"–\": no probes in the trace). ")
		+ ("By cause: the interruptions the drain sent, those RCU forced for a grace period a drain " +
		"requested (indirect), and those without a sender (unknown). Quiet control: its " +
		"interruptions RCU forced, of all its interruptions. ")
		+ ("Latency: oslat's on an oslat CPU, the refill " +
		"workload's (its refill phases left out) on a refill CPU, p99 from their 1 µs histograms."))};

def by_cause:
	. as $root | (.variants | keys_unsorted) as $vs
	| [.variants[] | causes[]] | sum_by_cause
	| map(.cause) as $all
	| {h2: "Interruptions by cause"},
	  (if $all == [] then {p: "No isolated CPU was interrupted in any variant."} else empty end),
	  {table: {head: (["cause"] + $vs), align: ("l" + ($vs | map("r") | join(""))),
		rows: ([$all | sort[] as $c
			| [($c | code)]
			  + [$vs[] as $v | $root.variants[$v] | causes | map(select(.cause == $c)) | sum_by_cause
			     | if . == [] then "0" else .[0] | "\(.n | thou)" + (if .charged > 0 then " (\(.charged | thou) charged)" else "" end) end]]
		  + [["**total**"] + [$vs[] as $v | $root.variants[$v] | total_of("interruptions")]]
		  + [["**charged**"] + [$vs[] as $v | $root.variants[$v] | total_of("charged")]])}},
	  {p: ("Summed over the isolated CPUs, inside the window; \"(N charged)\": how many of them the " +
		"drain sent (the rule by cause, above). Causes are named as the analyzer names them (work " +
		"function, IRQ vector and its callback, timer function, task).")};

def plots:
	($plots | split(" ") | map(select(. != "")) - ["alloc-cost"]) as $have
	| {h2: "Plots"},
	  (if $have == [] then {p: "No plot: no variant brought back an analysis, a latency histogram or drain samples."} else empty end),
	  ({plot: "interruptions", caption: ("Interruptions per isolated CPU in the window, one bar per variant, the number of drains " +
		"that reached the CPU under each bar; the hatched part was charged to the drain (what " +
		"decides the verdict).")},
	   {plot: "oslat", caption: ("oslat latency histograms on the oslat CPUs (\(.run.oslat_cpus | dash)), summed (log y). " +
		"Under TCG compare the shapes between variants, not the values; the legend gives each " +
		"variant's maximum.")},
	   {plot: "refill", caption: ("The refill workload's latency histograms on the refill CPUs " +
		"(\(.run.refill_cpus | dash)), summed, its own refill phases left out (log y); the " +
		"legend gives each variant's maximum.")},
	   {plot: "drain-cdf", caption: ("CDF of drain_all_pages() latency per call on the housekeeping CPU (log x); the legend " +
		"says how many calls the samples cover.")}
	  | select(.plot as $p | $have | index($p)));

def alloc:
	.policy.baseline as $base
	| (.policy.baseline_rule // "the policy's baseline"
	   | if . == "first variant of the run" then "the run's first variant, as the policy says"
	     elif . == "marked baseline in patches/series" then "patches/series marks it"
	     else "the policy names it" end) as $why
	| {h2: "Allocator cost (page-fault benchmark)"},
	if .alloc_bench == null then {p: "Not measured in this run (the run did not include the allocator benchmark)."}
	else (.alloc_bench | ([$base] + (keys_unsorted - [$base])) as $order | . as $ab
		| {table: {head: ["variant", "runs", "mean (faults/s)", "sd", "sd %", "vs \($base)", "significant", "t", "df", "p"],
			align: "lrrrrrlrrr",
			rows: [$order[] as $v | $ab[$v] | select(. != null)
				| [$v, (.n | dash), (.mean | thou), (.sd | thou),
				   (if .mean and .sd then (.sd / .mean * 100 | rnd(1) | tostring) else "–" end),
				   (if $v == $base then "baseline" else .diff_pct_vs_baseline | pct end),
				   (if .significant == true then "**yes**" elif .significant == false then "no" else "–" end),
				   (.t | if . == null then "–" else rnd(2) | tostring end),
				   (.df | if . == null then "–" else rnd(1) | tostring end),
				   (.p | if . == null then "–" elif . < 0.0001 then "<0.0001" else rnd(4) | tostring end)]]}}),
		{p: ("pft (bench/): pinned threads fault in, touch and unmap anonymous memory; the " +
			"figure is faults per second over the whole run, several runs per variant. \"vs " +
			"\($base)\" is the difference of the means to the baseline (\($base | code): " +
			"\($why)); significant is Welch's t-test, two-sided, α = 0.05, as mmtests' " +
			"compare-kernels marks a difference (\"–\": the baseline itself, or no variance " +
			"to test).")},
		{p: ("How TCG distorts this: QEMU emulates every instruction and every page-table " +
			"walk in software, so faults/s is set by the emulator's speed (tens to hundreds " +
			"of times below native) and by how the host schedules the vCPU threads on 2 " +
			"cores shared with other work. The absolute rate means nothing outside this run; " +
			"a difference between variants counts only when the t-test calls it significant, " +
			"and even then it reflects extra instructions on the fault path more than cache " +
			"misses or lock contention, which TCG models poorly (no caches; vCPUs take turns " +
			"when the host has fewer free cores than the guest has CPUs). Only hardware (KVM " +
			"or bare metal) can tell whether a lock's cache-line bouncing costs more.")}
	end;

# The allocator's counted cost (summary.json's alloc_cost, from the qc-cost
# TCG plugin): per variant and thread count, and the kernel functions
# whose instructions per fault differ most from the baseline's.
def cost:
	.policy.baseline as $base
	# (QEMU 9 and later count a rep string instruction once: findings)
	| ((.run.qemu_version // "") | test("^(9|[1-9][0-9]+)\\.")) as $rep_once
	| .alloc_bench as $timed
	| {h2: "Instruction cost (TCG plugin)"},
	if .alloc_cost_missing then {p: ("Missing: the run measured it, but its counts could not be read " +
		"(\(.alloc_cost_missing)). The verdicts above do not depend on it.")}
	elif .alloc_cost == null then {p: ("Not measured in this run (the run did not include the counted benchmark: `make compare` " +
		"runs it unless --cost-runs 0).")}
	else (.alloc_cost as $ac | (([$base] | map(select(. as $v | $ac | has($v)))) + ($ac | keys_unsorted - [$base])) as $order
		| def ms: if . == null then "–" else "\(.mean | rnd(1)) ± \(.sd // 0 | rnd(1))" end;
		  def cv: if . == null or .cv_pct == null then "–" else "\(.cv_pct | rnd(3)) %" end;
		  def vs($v): if $v == $base then "baseline" elif . == null then "–"
			elif .compared == false then "\(.diff_pct | pct) (not compared: a CV above \(.cv_floor_pct) %)"
			else ("\(.diff_pct | pct) (p " +
				"\(.p | if . == null then "–" elif . < 0.0001 then "<0.0001" else rnd(4) | tostring end)" +
				"\(if .significant == true then ", **significant**" else "" end))") end;
		  {table: {head: ["variant", "threads", "runs", "kernel insns/fault", "CV", "without spin-wait", "CV",
			"vs \($base) (without spin-wait)", "spin-wait insns/fault", "loads/fault", "stores/fault"],
			align: "lrrrrrrlrrr",
			rows: [$order[] as $v | $ac[$v].threads | to_entries | sort_by(.key | tonumber)[] | .key as $t | .value
				| [$v, $t, (.kernel_insns.n | dash), (.kernel_insns | ms), (.kernel_insns | cv),
				   (.kernel_insns_nospin | ms), (.kernel_insns_nospin | cv),
				   (.kernel_insns_nospin.vs_baseline | vs($v)), (.spin_insns.mean | rnd(1) | tostring),
				   (.kernel_loads_nospin | ms), (.kernel_stores_nospin | ms)]]}},
		{p: ("Counted by the qc-cost TCG plugin (bench/plugin/), not timed: every " +
			"instruction, load and store each pft thread's CPU executed in the kernel " +
			"between pft's markers (its timed loop of map, touch, unmap), divided by the " +
			"run's faults; mean ± sd over the runs. pft's threads run on the isolated CPUs " +
			"(1, 1-2, 1-3), its main thread on the housekeeping CPU, whose work is not " +
			"counted. Spin-wait: instructions in the functions of " +
			"bench/plugin/spin-wait.list (a contended lock's slow path, waiting for another " +
			"CPU's IPI answer, idling): they depend on how the host schedules QEMU's vCPU " +
			"threads, not on the code, and are left out of the columns that say so; loads " +
			"and stores are given without them. \"vs \($base)\" is Welch's t-test of the " +
			"runs, two-sided, α = 0.05; a difference under 10 times the precision floor " +
			"(scripts/lib/bench.sh's QC_COST_CV_FLOOR, a CV in percent) is compared only where " +
			"both variants' CV is within it: below it one boot's runs call differences " +
			"significant that the next boot reverses.")},
		{p: ("pft's own threads: the same count for the pft thread's own task alone (the " +
			"plugin tells it apart at each context switch, __switch_to_asm), without what " +
			"its CPU ran while the thread was blocked on its mm's lock (the switches into " +
			"and out of idle, the idle loop, other tasks) and without spin-wait: the fault " +
			"path itself, the count the host's scheduling of the vCPU threads sways least. " +
			"Without interrupts: the same without what the thread's CPU ran inside " +
			"interrupts (the tick, IPIs, irq_work: from an asm_sysvec_* entry to its iretq), " +
			"whose number follows the wall clock, which TCG stretches, not the faults; " +
			"given beside it per fault.")},
		{table: {head: ["variant", "threads", "pft's own threads: kernel insns/fault without spin-wait", "CV",
			"vs \($base)", "left out (other tasks, idle, switches)/fault",
			"without interrupts too", "CV", "vs \($base)", "interrupts/fault"],
			align: "lrrrlrrrlr",
			rows: [$order[] as $v | $ac[$v].threads | to_entries | sort_by(.key | tonumber)[] | .key as $t | .value
				| [$v, $t, (.task_insns_nospin | ms), (.task_insns_nospin | cv), (.task_insns_nospin.vs_baseline | vs($v)),
				   (if .task_insns == null then "–" else (.kernel_insns.mean - .task_insns.mean) | rnd(1) | tostring end),
				   (.task_insns_nospin_noirq | ms), (.task_insns_nospin_noirq | cv),
				   (.task_insns_nospin_noirq.vs_baseline | vs($v)),
				   (if .task_irq_insns == null then "–" else .task_irq_insns.mean | rnd(1) | tostring end)]]}},
		{p: ("What counting leaves out: cache misses, memory latency and a lock's cache-line " +
			"bouncing between CPUs, which only hardware shows; TCG models no cache, so every " +
			"instruction costs the same here. What it counts that hardware counters would " +
			"not: " + (if $rep_once then "" else "a `rep` string instruction once per iteration (clearing a page, " +
			"`clear_page_erms`, is 4,096 stores), and " end) + "a faulting instruction once when it " +
			"faults and again when it completes." + (if $rep_once then " QEMU \(.run.qemu_version) counts a `rep` " +
			"string instruction once, whatever its length, as hardware counters do (clearing a page, " +
			"`clear_page_erms`, is 1 instruction and 4,096 stores; QEMU 7.2 counted each iteration: " +
			"docs/findings.md, \"A rep string instruction counts once on QEMU 10\"), so counts " +
			"compare only within one QEMU version." else "" end) + " The timed figures (faults/s, the section " +
			"above) are kept beside these, labelled as timing: " +
			"\($order | map(. as $v | "\($v) \(if $v == $base then "baseline"
				else ($timed[$v].diff_pct_vs_baseline | pct)
				+ " (p \($timed[$v].p | if . == null then "–" else rnd(3) | tostring end))" end)")
			| join(", ")) " +
			"by timing.")},
		{plot: "alloc-cost", caption: ("Kernel instructions per page fault without spin-waiting, by pft thread count, " +
			"per variant (±1 sd over the runs); counted under TCG by the qc-cost plugin.")},
		(($ac[$base].functions["1"] // {}) as $b
		 | ([$order[] | select(. != $base)]) as $others
		 | [($b | keys) + ([$others[] | $ac[.].functions["1"] // {} | keys[]]) | unique[]
		    | . as $f | {f: $f, base: ($b[$f] // 0),
		                 d: [$others[] | ($ac[.].functions["1"][$f] // 0) - ($b[$f] // 0)]}
		    | .max = (.d | map(fabs) | max // 0)]
		 | sort_by(-.max) | map(select(.max >= 0.5))[:20] as $rows
		 | if $rows == [] or $others == [] then empty else
		   {p: ("The kernel functions whose instructions per fault differ most from \($base)'s, " +
			"one pft thread (no contention), mean over the runs: where each variant's " +
			"pcplist protection costs or saves instructions.")},
		   {table: {head: (["function", $base] + ($others | map(. + " (Δ vs \($base))"))), align: ("l" + ("r" * (1 + ($others | length)))),
			rows: [$rows[] | [(.f | code), (.base | rnd(1) | tostring)]
				+ [.d[] | rnd(1) | if . == 0 then "0" elif . > 0 then "+\(.)" else tostring end]]}}
		   end),
		(if [$order[] | $ac[.].drain // empty] == [] then empty else
		 def m0: if . == null then "–" else "\(.mean | rnd(0)) ± \(.sd // 0 | rnd(0))" end;
		 {p: ("The drain's own cost: the instructions the housekeeping CPU executed during " +
			"each drain_all_pages() call of qc_hammer (markers=1: each call is one plugin " +
			"window on CPU 0), for the calls that reached at least one CPU with pages " +
			"(isolated CPUs 1-3 refilling every 20 ms); mean ± sd over the calls. Whole " +
			"call: everything CPU 0 executed from the call's start to its return. The " +
			"drainer's own task: the hammer's kthread alone (interrupts taken while it ran " +
			"included), told apart by the plugin at each context switch (__switch_to_asm); " +
			"the rest is what CPU 0 ran while the call slept. CPUs reached: the drainer's " +
			"own entries of the variant's per-CPU function (bench/plugin/drain-reach.list) " +
			"per CPU.")},
		 {table: {head: ["variant", "per-CPU function", "calls", "reached", "CPUs reached", "insns/call, whole call",
			"without spin-wait", "the drainer's own task", "its own without spin-wait", "context switches/call",
			"loads/call", "stores/call", "wall time/call (µs, qc_hammer)"],
			align: "llrrrrrrrrrrr",
			rows: [$order[] as $v | $ac[$v].drain // empty | .stats as $s
				| [$v, (.function | code), (.calls | tostring), (.reached_calls | tostring),
				   ($s.cpus_reached | if . == null then "–" else "\(.mean | rnd(2))" end),
				   ($s.kernel_insns | m0), ($s.kernel_insns_nospin | m0),
				   ($s.task_insns | m0), ($s.task_insns_nospin | m0),
				   ($s.switches | if . == null then "–" else "\(.mean | rnd(1))" end),
				   ($s.kernel_loads | m0), ($s.kernel_stores | m0), ($s.wall_us | m0)]]}},
		 {p: ("The plugin counts executed instructions, not wall time: rcu's synchronize_rcu() " +
			"grace-period wait and wq's flush_work() wait cost no instruction of the caller " +
			"while it sleeps, so they are not in these figures; the wall time beside them is " +
			"qc_hammer's own per-call measurement of the same calls (its stats file), taken " +
			"under the plugin, which slows the guest several times. What CPU 0 runs while a " +
			"call sleeps is in the whole call but not in the drainer's own task: idle entry, " +
			"the RCU grace-period kthread, CPU 0's own drain work item (wq), CPU 0's other " +
			"tasks. Where the pages are freed differs: wq frees them on each reached CPU " +
			"(its work item; not counted here, except CPU 0's, which runs in a kworker), rcu " +
			"and spinlock free them in the drainer's own task. The functions table below " +
			"says where the drainer's own instructions went.")},
		 ([$order[] as $v | $ac[$v].drain // empty | .task_functions // {} | to_entries[] | .key] | unique) as $fns
		 | ([$fns[] as $f | {f: $f, v: [$order[] as $v | $ac[$v].drain.task_functions[$f] // 0]}] | sort_by(-(.v | max)) | .[:15]) as $rows
		 | if $rows == [] then empty else
		   {table: {head: (["function (the drainer's own task)"] + [$order[] | "\(.) insns/call"]), align: ("l" + ("r" * ($order | length))),
			rows: [$rows[] | [(.f | code)] + [.v[] | rnd(0) | tostring]]}}
		   end
		 end))
	end;

def blocks:
	[{h1: "quietcore report — run \(.run.id)"},
	   {p: ("Does anything interrupt an isolated (nohz_full) CPU while the housekeeping CPU drains " +
		"the page allocator's per-CPU lists? Rendered by scripts/report.sh from this run's " +
		"summary.json alone; nothing was re-run.")},
	   answer, evidence, rule_section, audit_section, facts, per_variant, origins_section, per_cpu_table, by_cause, plots, alloc, cost];
