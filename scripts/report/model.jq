# The report as a list of blocks, so that md.jq and html.jq say the same
# thing: {h1}, {h2}, {p}, {ul: [...]}, {table: {head, align, rows}},
# {plot: NAME, caption}. Text may carry `code` and **bold**, nothing else.
# Input: summary.json. $plots: the SVGs rendered ("interruptions oslat ...");
# $drain_causes: the regexes of tracing/drain-causes.list; $run_status: the
# run's status file.

def dash: if . == null then "–" else tostring end;
def rnd($d): (. * pow(10; $d) | round) / pow(10; $d);
# Latencies in µs: enough digits to read, no false precision.
def us: if . == null then "–" elif . >= 100 then (round | tostring)
	elif . >= 10 then (rnd(1) | tostring) else (rnd(2) | tostring) end;
# 412160 -> "412,160"
def grp: if length > 3 then (.[:-3] | grp) + "," + .[-3:] else . end;
def thou: if . == null then "–" else round | tostring
	| if startswith("-") then "-" + (.[1:] | grp) else grp end end;
def pct: if . == null then "–" else (if . > 0 then "+" else "" end) + (rnd(2) | tostring) + " %" end;
def code: "`" + . + "`";
def is_drain: . as $c | any($drain_causes[]; . as $p | $c | test($p));
def cpus_of: .cpus | keys_unsorted | map(tonumber) | sort | map(tostring);
def cpulist: if length > 1 then (.[:-1] | join(", ")) + " and " + .[-1] else .[0] end;

# [{cpu, cause, n}] over the isolated CPUs of one variant.
def causes: [.cpus | to_entries[] | .key as $cpu
	| (.value.by_cause // {}) | to_entries[] | {cpu: $cpu, cause: .key, n: .value}];
# "`a` 3, `b` 1" for the $k biggest causes, "+N more" for the rest.
def top($k): sort_by(-.n, .cause)
	| (.[:$k] | map("\(.cause | code) \(.n)") | join(", "))
	+ (if length > $k then ", +\(length - $k) more" else "" end);
def sum_by_cause: group_by(.cause) | map({cause: .[0].cause, n: (map(.n) | add)});

# --- the verdict line of one variant, with its evidence ------------------
def drain_evidence:
	causes | map(select(.cause | is_drain)) | group_by(.cause)
	| map(sort_by(.cpu | tonumber) as $g
		| "\($g[0].cause | code) interrupted CPU \($g[0].cpu) \(if $g[0].n == 1 then "once" else "\($g[0].n) times" end)"
		+ ($g[1:] | map(", CPU \(.cpu) \(.n)") | join("")))
	| join("; ");
def other_evidence:
	(causes | map(select(.cause | is_drain | not)) | sum_by_cause) as $o
	| if $o == [] then "no other interruption"
	  else "other causes (shown, not deciding the verdict; some can be side effects of a drain, e.g. waking a kworker kicks the nohz_full tick): \($o | map(.n) | add) in all — \($o | top(3))" end;
def calls: if .drain == null then "" else " across \(.drain.calls) drain_all_pages() calls" end;
def primed: cpus_of as $c | [.cpus[$c[]].pcp_primed_pages | dash] | join("/");

def drain_or_none: drain_evidence | if . == "" then "no drain-caused interruption" else . end;
def unprimed: cpus_of as $c | .cpus as $x | [$c[] | select(($x[.].pcp_primed_pages // 0) == 0)];

def evidence:
	if .verdict == "PASS" then
		"no drain-caused interruption on CPU \(cpus_of | cpulist) (pcp pages primed: \(primed))\(calls); \(other_evidence)"
	elif .verdict == "FAIL" then "\(drain_evidence)\(calls); \(other_evidence)"
	elif .verdict == "UNPRIMED" then
		"CPU \(unprimed | cpulist) had an empty pcplist when the window opened (pages primed: \(primed)); a non-forced drain skips an empty list, so this variant's run proves nothing; \(drain_or_none)\(calls); \(other_evidence)"
	elif .verdict == "NO-TRACE" then "no trace analysis (analysis.json) for this variant: interruptions were not counted"
	elif .verdict == "FAILED-RUN" then "the variant's run did not finish: status \(.status | code)"
	elif .verdict == "STALLED" then
		"no drain-caused interruption inside the window, but \(.drain.stalls) drain_all_pages() call(s) stalled (max \(.drain.max_us) µs): the drain waited for an isolated CPU that never yielded; \(drain_or_none)\(calls); \(other_evidence)"
	elif .verdict == "TOO-FEW-DRAINS" then
		"only \(.drain.calls // 0) drain_all_pages() calls (fewer than 100), too few to show anything; \(drain_or_none); \(other_evidence)"
	else "see the tables below" end;

# --- sections ------------------------------------------------------------
def verdicts:
	{h2: "Verdict"},
	{ul: [.variants | to_entries[] | "**\(.key): \(.value.verdict)** — \(.value | evidence)"]},
	{p: "The rule: a variant PASSes only when every isolated CPU had pages in its pcplist when the window opened (primed) and no isolated CPU shows an interruption caused by the drain, that is a cause matching \($drain_causes | map(code) | join(" or ")) (tracing/drain-causes.list). Interruptions with other causes are counted and shown, never hidden, but do not decide the verdict. Other verdicts: FAIL (a drain-caused interruption), UNPRIMED (an empty pcplist: a non-forced drain skips it), STALLED (no drain-caused interruption, but a drain_all_pages() call stalled past its threshold waiting for an isolated CPU), TOO-FEW-DRAINS (under 100 drain_all_pages() calls), NO-TRACE (no trace analysed), FAILED-RUN (the run did not finish)."},
	{p: (if .selftest == null then "Analyzer self-test: not run in this run."
		else "Analyzer self-test (interruptions planted in a separate window, then counted from its trace): planted \(.selftest.planted), counted \(.selftest.counted) — \(if .selftest.planted == .selftest.counted then "**pass**" else "**MISMATCH**: the counts below cannot be trusted" end) (" + ([.variants | to_entries[] | select(.value.selftest != null) | "\(.key) \(.value.selftest.counted)/\(.value.selftest.planted)"] | join(", ")) + ")." end)};

def accel_text:
	if .run.accel == "tcg" then "QEMU TCG (software emulation, no hardware virtualisation). Every guest instruction is translated and emulated, and the guest's vCPUs are host threads sharing a 2-core host, so absolute latencies (oslat, drain_all_pages(), faults/s) are emulation artefacts: tens of milliseconds of oslat maximum are QEMU and the host scheduler, not the kernel. Event counts (interruptions, their causes, drain calls) are the kernel's own behaviour and are not. Compare variants only within one run, never with another run or machine."
	elif .run.accel == "kvm" then "KVM (hardware virtualisation): latencies include host scheduling of the vCPU threads; compare variants within one run."
	else "\(.run.accel | dash): unknown accelerator; treat absolute latencies with suspicion and compare variants within one run." end;

def facts:
	{h2: "Run"},
	{ul: [
		"run id: \(.run.id | code), status: \($run_status | code)",
		"accelerator: **\(.run.accel | dash)** — \(accel_text)",
		"kernel tree: \(.run.kernel_tree | dash) (each variant: that tree plus its series in patches/<variant>/, none for spinlock)",
		"scenario: \(.run.scenario | dash | code), measurement window: \(.run.duration_s | dash) s",
		"isolated CPUs: \(.run.isolated_cpus | dash); housekeeping CPUs: \(.run.housekeeping_cpus | dash)",
		"variants: " + ([.variants | to_entries[] | "\(.key) (\(.value.status))"] | join(", "))]};

def per_variant:
	{h2: "Per variant"},
	{table: {head: ["variant", "verdict", "drain_all_pages() calls", "p50 (µs)", "p99 (µs)", "max (µs)", "stalls", "interruptions (isolated CPUs)", "drain-caused"],
		align: "llrrrrrrr",
		rows: [.variants | to_entries[] | .key as $v | .value | [.cpus[]] as $c
			| [$v, "**\(.verdict)**", (.drain.calls | dash), (.drain.p50_us | us), (.drain.p99_us | us),
			   (.drain.max_us | us), (.drain.stalls | dash),
			   ([.cpus[].interruptions] | if any(. == null) then "–" else add | tostring end),
			   ([.cpus[] | select(.interruptions != null) | .drain_interruptions // 0]
			    | if length < ($c | length) then "–" else add | tostring end)]]}},
	{p: "drain_all_pages() latency is measured on the housekeeping CPU by qc_hammer, per call; a stall is a call that took longer than its stall threshold."},
	{h2: "Per isolated CPU"},
	{table: {head: ["variant", "CPU", "pcp pages primed", "interruptions", "drain-caused", "top causes", "oslat max (µs)", "oslat p99 (µs)"],
		align: "lrrrrlrr",
		rows: [.variants | to_entries[] | .key as $v | .value | cpus_of as $c | causes as $k | .cpus as $cpus
			| $c[] as $cpu | $cpus[$cpu]
			| [$v, $cpu, (.pcp_primed_pages | dash),
			   (if .interruptions == null then "no trace" else .interruptions | tostring end),
			   (if .interruptions == null then "–" else .drain_interruptions | dash end),
			   ($k | map(select(.cpu == $cpu)) | if . == [] then "–" else top(3) end),
			   (.oslat_max_us | us), (.oslat_p99_us | us)]]}},
	{p: "pcp pages primed: pages in the CPU's pcplist when the measurement window opened (a drain only interrupts a CPU whose list is not empty). oslat p99 is taken from oslat's 1 µs histogram."};

def by_cause:
	. as $root | (.variants | keys_unsorted) as $vs
	| [.variants[] | causes[]] | sum_by_cause
	| map(.cause) as $all
	| {h2: "Interruptions by cause"},
	  (if $all == [] then {p: "No isolated CPU was interrupted in any variant."} else empty end),
	  {table: {head: (["cause", "drain-caused"] + $vs), align: ("ll" + ($vs | map("r") | join(""))),
		rows: ([$all | sort_by((is_drain | not), .)[] as $c
			| [($c | code), (if $c | is_drain then "**yes**" else "no" end)]
			  + [$vs[] as $v | $root.variants[$v] | causes | map(select(.cause == $c) | .n) | add // 0 | tostring]]
		  + [["**total**", ""] + [$vs[] as $v | $root.variants[$v]
			| [.cpus[].interruptions] | if any(. == null) then "no trace" else add | tostring end]])}},
	  {p: "Summed over the isolated CPUs, inside the measurement window. Causes are named as the analyzer names them (work function, IRQ vector and its callback, timer function, task)."};

def plots:
	($plots | split(" ") | map(select(. != ""))) as $have
	| {h2: "Plots"},
	  (if $have == [] then {p: "No plot: no variant brought back an analysis, an oslat histogram or drain samples."} else empty end),
	  ({plot: "interruptions", caption: "Interruptions per isolated CPU, one bar per variant; the hatched part was caused by the drain."},
	   {plot: "oslat", caption: "oslat latency histograms summed over the isolated CPUs (log y). Under TCG compare the shapes between variants, not the values; the legend gives each variant's maximum."},
	   {plot: "drain-cdf", caption: "CDF of drain_all_pages() latency per call on the housekeeping CPU (log x); the legend says how many calls the samples cover."}
	  | select(.plot as $p | $have | index($p)));

def alloc:
	{h2: "Allocator cost (page-fault benchmark)"},
	if .alloc_bench == null then {p: "Not measured in this run (the run did not include the allocator benchmark)."}
	else (.alloc_bench | (["wq"] + (keys_unsorted - ["wq"])) as $order | . as $ab
		| {table: {head: ["variant", "runs", "mean (faults/s)", "sd", "sd %", "vs wq", "significant", "t", "df", "p"],
			align: "lrrrrrlrrr",
			rows: [$order[] as $v | $ab[$v] | select(. != null)
				| [$v, (.n | dash), (.mean | thou), (.sd | thou),
				   (if .mean and .sd then (.sd / .mean * 100 | rnd(1) | tostring) else "–" end),
				   (if $v == "wq" then "baseline" else .diff_pct_vs_wq | pct end),
				   (if .significant == true then "**yes**" elif .significant == false then "no" else "–" end),
				   (.t | if . == null then "–" else rnd(2) | tostring end),
				   (.df | if . == null then "–" else rnd(1) | tostring end),
				   (.p | if . == null then "–" elif . < 0.0001 then "<0.0001" else rnd(4) | tostring end)]]}}),
		{p: "pft (bench/): pinned threads fault in, touch and unmap anonymous memory; the figure is faults per second over the whole run, several runs per variant. \"vs wq\" is the difference of the means to the wq baseline; significant is Welch's t-test, two-sided, α = 0.05, as mmtests' compare-kernels marks a difference (\"–\": the baseline itself, or no variance to test)."},
		{p: "How TCG distorts this: QEMU emulates every instruction and every page-table walk in software, so faults/s is set by the emulator's speed (tens to hundreds of times below native) and by how the host schedules the vCPU threads on 2 cores shared with other work. The absolute rate means nothing outside this run; a difference between variants counts only when the t-test calls it significant, and even then it reflects extra instructions on the fault path more than cache misses or lock contention, which TCG models poorly (no caches; vCPUs take turns when the host has fewer free cores than the guest has CPUs). Only hardware (KVM or bare metal) can tell whether a lock's cache-line bouncing costs more."}
	end;

def blocks:
	[{h1: "quietcore report — run \(.run.id)"},
	   {p: "Does anything interrupt an isolated (nohz_full) CPU while the housekeeping CPU drains the page allocator's per-CPU lists? Rendered by scripts/report.sh from this run's summary.json and per-variant files; nothing was re-run."},
	   verdicts, facts, per_variant, by_cause, plots, alloc];
