# judge.jq: the judge. A run's summary (summary.json's text) from the
# files its guests brought home and the analyzer wrote, by the verdict
# policy, or its refusal. Called by scripts/summarize.sh once per run.
# Inputs, the run's: $run_dir (for messages), $scenario, $scenario_traits
# (every scenario's traits, as its "# qc-scenario:" line declares them:
# scripts/lib/inputs.sh qc_scenario_traits_json), $isolated and
# $refill_cpus (CPU numbers as strings), $policy_doc
# (tracing/verdict-policy.json, slurped) and its path to record,
# $policy_file, $planter (the self-test's planting function, the drain of
# selftest-charged.json), and what summary.json's .run records:
# $id, $accel, $qemu, $tree, $duration, $isolated_list, $refill_list,
# $oslat, $housekeeping (as run.txt and the first guest's boot-params.txt
# say them), $scale (time-scale.json, slurped), $baseline and
# $baseline_rule (summarize.sh resolved them), $alloc (the timed
# benchmark), $cost (alloc-cost.sh's, slurped) and $cost_missing (why it
# is left out, or ""). The guests: $guests (how many) and $names (their
# directories, in run.txt's variant order); each guest's, named
# g<I>_<NAME> (I from 0, in that order): $status (the variant's status
# file), $dir (the variant directory, for messages), $reanalyze (the
# command that re-runs the analyzer on it); each input file's text, ""
# when absent: $oslat_f, $refill_f, $analysis_f, $quiet_f
# (analysis-quiet.json), $hammer_f, $primed_f (pcp-window.json),
# $selftest_f, $stc_f (selftest-charged.json), $audit_f (audit.json: the
# audit scenario's per-trigger counts), $stress_f (the stress scenario's
# phases, QC_STRESS_PHASES: text, one phase's outcome a line).
# Output: the summary, or nothing and on stderr each refusal, one line
# "quietcore: error: ..." saying what is wrong and what to do, the run's
# own first, then each refused guest's in order, naming its directory;
# then jq exits 5. A refusal is not a verdict: summarize.sh writes
# nothing.

# A file's text as JSON: null when absent (""), "invalid" unless it is one
# JSON object (a cut or partial file is not an absent one). (Not through
# map_values: jq 1.6 mishandles try inside an update.)
def parse: if . == "" then null
	else (try fromjson catch "invalid") | if type == "object" then . else "invalid" end end;
def one: if . == "invalid" then null else . end;
def obj: if type == "object" then . else {} end;
def num: type == "number";
def cpulist: join(",");

# p99 of a 1 µs histogram {"<us>": count, ...} (oslat's and refill's)
def hist_p99:
  (to_entries | map({us: (.key | tonumber), n: .value}) | sort_by(.us)) as $b
  | ($b | map(.n) | add) as $total
  | if ($total // 0) == 0 then null else
      reduce $b[] as $e ({acc: 0, p: null};
        if .p == null and (.acc + $e.n) >= ($total * 0.99) then .p = $e.us else . end
        | .acc += $e.n)
      | .p end;

# The scenarios (guest-init/scenarios/) that trace a window, that plant a
# self-test after it, that run the drain hammer in it, and whose isolated
# CPUs drains must reach: as each declares on its "# qc-scenario:" line.
def scenarios_with($trait): [$scenario_traits | to_entries[] | select(.value | index($trait)) | .key];
def traced_scenarios: scenarios_with("traced");
def selftest_scenarios: scenarios_with("selftest");
def hammer_scenarios: scenarios_with("hammer");
def in($set): . as $x | any($set[]; . == $x);

# judge($policy): one guest's {refuse, summary}, from its inputs (above)
# as an object, by the policy as applied.
def judge($policy):
  .oslat_f as $oslat_f | .refill_f as $refill_f | .analysis_f as $analysis_f | .quiet_f as $quiet_f
| .hammer_f as $hammer_f | .primed_f as $primed_f | .selftest_f as $selftest_f | .stc_f as $stc_f
| .audit_f as $audit_f | .stress_f as $stress_f | .status as $status | .dir as $dir | .reanalyze as $reanalyze
|
{"oslat.json": $oslat_f, "refill.json": $refill_f, "analysis.json": $analysis_f,
 "analysis-quiet.json": $quiet_f, "hammer.json": $hammer_f, "pcp-window.json": $primed_f,
 "selftest.json": $selftest_f, "selftest-charged.json": $stc_f, "audit.json": $audit_f}
| to_entries | map({key, value: (.value | parse)}) | from_entries as $in
| [$in | to_entries[] | select(.value == "invalid") | .key] as $invalid
| ($in["oslat.json"] | one) as $oslat
| ($in["refill.json"] | one) as $refill
| ($in["analysis.json"] | one) as $analysis
| ($in["analysis-quiet.json"] | one) as $quiet
| ($in["hammer.json"] | one) as $hammer
| ($in["pcp-window.json"] | one | obj) as $primed
| ($in["selftest.json"] | one) as $selftest
| ($in["selftest-charged.json"] | one) as $stc

| def workload($c): if any($refill_cpus[]; . == $c) then "refill" else "oslat" end;

  # Latency per CPU from whichever file has that CPU: oslat.json covers the
  # oslat CPUs, refill.json (oslat's JSON shape) the refill CPUs.
  def lat_of($file; $tool):
    ($file | obj | .thread | obj) | [.[] | objects | select(.cpu != null)
      | {key: (.cpu | tostring),
         value: {tool: $tool, max_us: .max, p99_us: (.histogram | obj | hist_p99), refills: .refills}}]
    | from_entries;
  (lat_of($oslat; "oslat") as $o | lat_of($refill; "refill") as $r
   | {oslat: $o, refill: $r}) as $lat
  | def latency($c): if workload($c) == "refill" then $lat.refill[$c] // $lat.oslat[$c]
                     else $lat.oslat[$c] // $lat.refill[$c] end;

  def entry($a; $c): $a | obj | .cpus | obj | .[$c];
  # The chains an interruption was counted under, most frequent first (at
  # most 12: the report's evidence, not the whole analysis).
  def top_chains: (. // {}) | to_entries | sort_by(-.value, .key) | .[:12] | from_entries;
  # One isolated CPU's evidence: analysis $a (the window), $q (the quiet
  # control, null when absent). charged: the interruptions the drain sent
  # (origins.drain); handoff: those of them that were a sleeping lock's
  # hand-off (origins.drain_handoff); indirect and shared: RCU's forcing for a grace period
  # a drain made RCU need, or only waited on (request_untraced: one whose
  # request the trace does not hold); unknown: remote-type ones with
  # no sender.
  def cpu_record($a; $q; $c):
    (entry($a; $c) | obj) as $x | entry($q; $c) as $y | (latency($c) // {}) as $l
    | ($x.origins | obj) as $o | ($y.origins | obj) as $yo
    | {workload: workload($c),
       interruptions: $x.interruptions, by_cause: $x.by_cause,
       exposure: $x.exposure,
       charged: $o.drain, charged_by_cause: $o.drain_by_cause,
       handoff: $o.drain_handoff, handoff_by_cause: $o.drain_handoff_by_cause,
       indirect: $o.rcu_qs_by_grace_period.drain_requested,
       # of those, the ones whose kernel stretch was too short on hardware
       # for RCU to force it (tracing/README.md, "Hardware time")
       indirect_emulator_timed: ($x.rcu_qs_timing | obj | .indirect | obj | .emulator_timed),
       shared: $o.rcu_qs_by_grace_period.drain_waited,
       request_untraced: $o.rcu_qs_by_grace_period.request_untraced,
       rcu_qs_timing: $x.rcu_qs_timing, mode: $x.mode,
       unknown: $o.classes.unknown, unknown_by_cause: $o.unknown_by_cause,
       origins: {classes: $o.classes, chains: ($o.chains | top_chains)},
       control: (if $y == null then null else
         {interruptions: $y.interruptions, charged: $yo.drain, unknown: $yo.classes.unknown,
          rcu_qs: $yo.classes.rcu_qs, classes: $yo.classes,
          by_cause: $y.by_cause, chains: ($yo.chains | top_chains),
          rcu_qs_timing: $y.rcu_qs_timing} end),
       liveness: $x.liveness,
       latency_tool: $l.tool, latency_max_us: $l.max_us, latency_p99_us: $l.p99_us,
       refills: $l.refills,
       pcp_primed_pages: $primed[$c]};
  def cpus_of($a; $q): [$isolated[] as $c | {key: $c, value: cpu_record($a; $q; $c)}] | from_entries;
  # RCU's QS interruptions of the isolated CPUs in the hammer window
  # against the quiet control of the same boot: is the window's count more
  # than the control's rate predicts? The two counts are Poisson; given
  # their sum, the window's share is binomial with p its share of the
  # time, and p_excess is the chance of a share at least this large by
  # rate alone (one-sided). null without a control.
  def binom_tail($n; $k; $p):
    if $k <= 0 then 1 elif $p >= 1 then 1 elif $p <= 0 then 0 else
      [range($k; $n + 1) as $i
       | (($n + 1 | lgamma) - ($i + 1 | lgamma) - ($n - $i + 1 | lgamma)
          + $i * ($p | log) + ($n - $i) * (1 - $p | log)) | exp] | add end;
  def rcu_forcing($cpus; $a; $q):
    ($a.window.duration_ns // null) as $wh | ($q.window.duration_ns // null) as $wq
    | if $q == null or ($wh | num | not) or ($wq | num | not) or $wh <= 0 or $wq <= 0 then null else
      ([$cpus[].origins.classes.rcu_qs | numbers] | add // 0) as $n
      | ([$cpus[].control.rcu_qs | numbers] | add // 0) as $m
      | ($wh / ($wh + $wq)) as $p
      | {window: $n, control: $m, window_s: ($wh / 1e9), control_s: ($wq / 1e9),
         expected: (if $m == 0 then 0 else $m * $wh / $wq end),
         emulator_timed: ([$cpus[].rcu_qs_timing.emulator_timed | numbers] | add),
         control_emulator_timed: ([$cpus[].control.rcu_qs_timing.emulator_timed | numbers] | add),
         p_excess: binom_tail($n + $m; $n; $p),
         # the grace periods that started in each, and how many a drain
         # made RCU need (tracing/README.md, "Whose grace period")
         grace_periods: $a.grace_periods, control_grace_periods: $q.grace_periods}
      | .significant = (.p_excess < 0.05) end;

  # The verdict rule: tracing/verdict-policy.json's ladder, its verdicts
  # in order, each decided by the condition its "when" names; the first
  # that holds is the verdict. Here is only what each condition means,
  # from the evidence: $cpus (cpus_of), $run ({ok, traced, audit}: the
  # run's facts; the verdict-level self-test judges a trace as traced and
  # not an audit). A condition is null when it does not hold, else the
  # CPUs it holds on ([] for one of the whole run). Time alone charges
  # nothing.
  def conditions($cpus; $run):
    [$cpus | to_entries[] | {cpu: .key} + .value] as $e
    | def on(f): [$e[] | select(f) | .cpu] | if . == [] then null else . end;
      def run_wide(f): if f then [] else null end;
    {run_failed: run_wide($run.ok | not),
     no_trace: run_wide($run.traced | not),
     audit_scenario: run_wide($run.audit),
     # the drain sent it, and it was no lock hand-off
     drain_sent: on((.charged // 0) - (.handoff // 0) > 0),
     # a remote-type interruption without a sender (possibly the drain's)
     no_sender: on((.unknown // 0) > 0),
     # a probe dropped hits the trace cannot place off the isolated CPUs:
     # a send or a drain there may be missing from the trace
     probe_missed: run_wide(($run.unplaced_misses // 0) > 0),
     # RCU forcing for a drain's grace period that hardware could see too:
     # an emulator-timed one (its stretch too short on hardware) is not
     # RCU forcing in a trace without RCU's request path: whose grace
     # period it was cannot be told, so neither INDIRECT nor PASS
     rcu_requests_untraced: (if $run.rcu_requests_traced then null
       else on((.request_untraced // 0) > 0) end),
     rcu_forced_for_drain: on((.indirect // 0) - (.indirect_emulator_timed // 0) > 0),
     lock_handoff: on((.handoff // 0) > 0),
     unprimed: on((.pcp_primed_pages // 0) == 0),
     unexposed: (if $scenario | in($policy.exposure_scenarios) then
       on(.exposure == null or (.exposure.drains // 0) < $policy.min_exposure[.workload]) else null end),
     stalled: run_wide(($hammer.stalls // 0) > 0),
     too_few_drains: run_wide($hammer != null and ($hammer.calls // 0) < $policy.min_drain_calls),
     always: []};
  def verdict_of($cpus; $run):
    conditions($cpus; $run) as $c
    | first($policy.verdicts[] | . as $v | $c[$v.when] | select(. != null)
            | {verdict: $v.name, when: $v.when, cpus: .});
  # What is wrong with the ladder (null: nothing): a condition verdict_of
  # does not know, or no verdict last that always holds.
  def ladder_error:
    (conditions({}; {}) | keys) as $known
    | [$policy.verdicts[] | select(.when as $w | $known | index([$w]) | not)] as $bad
    | if $bad != [] then
        "\($policy.file): verdict \($bad[0].name) is decided by \"\($bad[0].when)\", not a condition of scripts/judge.jq (\($known | join(", "))): fix its \"when\""
      elif ($policy.verdicts | last | .when) != "always" then
        "\($policy.file): the ladder's last verdict must be the one that always holds (\"when\": \"always\"): fix the order of its verdicts"
      else null end;
  # The interruptions without a sender, each named: [{cpu, cause, count}].
  def no_sender($cpus):
    [$cpus | to_entries[] | .key as $c | .value.unknown_by_cause // {} | to_entries[]
     | select(.value > 0) | {cpu: $c, cause: .key, count: .value}];

  # The isolated CPUs $a has no entry for, or none with its origins: an
  # analysis of other CPUs, or a partial one. (What each entry holds is
  # its schema's to check, docs/schemas/analysis.json, before the judge
  # reads it.)
  def lacking($a): [$isolated[] | select(entry($a; .) | type != "object" or (.origins | type) != "object")];
  def list_text: if (. // []) == [] then "none" else join(" ") end;
  # Why an analysis cannot be judged (null: it can). $name: its file;
  # $functions: the drain's functions it must have been charged by.
  def no_origins($a; $name):
    if ($a.origin_probes | obj | .complete) == true then null else
      "\($dir)/\($name) has no origins: its trace lacks the send-side probes (\($a.origin_probes.missing // "an analysis from before them")), so no interruption can be traced to its sender and the rule by cause cannot decide (it never falls back to timing): re-run the variant" end;
  def wrong_functions($a; $name; $functions):
    if ($a.policy.drain_functions // []) == $functions then null else
      "\($dir)/\($name) was charged with the drain's functions [\($a.policy.drain_functions | list_text)], not [\($functions | list_text)]: re-run \($reanalyze)" end;
  def bad_analysis($a; $name; $functions):
    lacking($a) as $l
    | if no_origins($a; $name) != null then no_origins($a; $name)
      elif $l != [] then
        "\($dir)/\($name) has no per-CPU entry with its origins for isolated CPU \($l | cpulist) (an analysis of other CPUs, or a partial one): re-run \($reanalyze)"
      elif wrong_functions($a; $name; $functions) != null then wrong_functions($a; $name; $functions)
      else null end;
  def dead_cpus($a): [$isolated[] | select(entry($a; .).liveness as $v
    | ($v.before // 0) == 0 or ($v.after // 0) == 0)];

  # The verdict-level self-test: the self-test trace analysed with the
  # planter as the drain must FAIL, each planted work item and IPI charged
  # (their side effects, the planter's wake-ups and ticks, may be too).
  # The planted causes are selftest.json's (analyze.sh's planted_cause of
  # each kind that must be the planter's).
  ($selftest | obj | .cpus | obj) as $planted
  | ($selftest | obj | .causes // []) as $planted_causes
  | def planted_charged: [(.charged_by_cause // {}) | to_entries[]
      | select(.key as $k | $planted_causes | index([$k])) | .value] | add // 0;
    (if $stc == null then null else
      cpus_of($stc; null) as $sc | verdict_of($sc; {ok: true, traced: true, audit: false}).verdict as $sv
      | {verdict: $sv,
         exact: ($sv == "FAIL" and all($isolated[]; ($sc[.] | planted_charged) == $planted[.].planted)),
         cpus: ([$isolated[] | {key: ., value: {planted: $planted[.].planted, charged: ($sc[.] | planted_charged),
                 charged_all: $sc[.].charged}}] | from_entries)}
     end) as $vcheck

  # Inputs that would let a verdict be judged from nothing, in the order
  # they are checked; the first one found is the refusal.
  | def refusal:
      ($scenario | in(traced_scenarios)) as $traced
      | ($scenario | in(selftest_scenarios) or $selftest != null or $stc != null) as $needs_selftest
      | if $invalid != [] then
          "\($dir)/\($invalid[0]) is not one JSON object (a cut or partial file): re-run \($reanalyze), or the variant"
        elif $analysis == null and $traced then
          "\($dir)/analysis.json is missing (the \($scenario) scenario traces a window and its verdict comes from the trace): run \($reanalyze)"
        elif $analysis != null and bad_analysis($analysis; "analysis.json"; $policy.drain_functions) != null then
          bad_analysis($analysis; "analysis.json"; $policy.drain_functions)
        elif $analysis != null and dead_cpus($analysis) != [] then
          "\($dir)/analysis.json shows no event on CPU \(dead_cpus($analysis) | cpulist) before or after the window (liveness), so that CPU was not watched throughout: re-run \($reanalyze) with the current analyzer, or re-run the variant"
        elif $scenario == "audit" and ($in["audit.json"] | one | obj | .triggers | type) != "array" then
          "\($dir)/audit.json is missing (the audit scenario's per-trigger counts): run scripts/audit.sh \($dir) \($isolated | cpulist)"
        elif $hammer == null and ($scenario | in(hammer_scenarios)) then
          "\($dir)/hammer.json is missing (the \($scenario) scenario runs the drain hammer): without it the drain calls and stalls are unknown; re-run the variant"
        elif $quiet != null and bad_analysis($quiet; "analysis-quiet.json"; $policy.drain_functions) != null then
          bad_analysis($quiet; "analysis-quiet.json"; $policy.drain_functions)
        elif $needs_selftest and $selftest == null then
          "\($dir)/selftest.json is missing (the \($scenario) scenario plants a self-test and only it shows the analyzer counts what happened): run \($reanalyze) on the variant's trace-selftest.dat, or re-run the variant"
        elif $selftest != null and ([$isolated[] | select(($planted[.].planted // 0) == 0)] | length) > 0 then
          "\($dir)/selftest.json planted nothing on isolated CPU \([$isolated[] | select(($planted[.].planted // 0) == 0)] | cpulist): the self-test must cover every isolated CPU; re-run the variant with the current guest"
        elif $selftest != null and ($selftest.pass != true
              or any($isolated[]; $planted[.].planted != $planted[.].counted)) then
          "\($dir)/selftest.json: the self-test did not pass (\([$isolated[] | "CPU \(.) planted \($planted[.].planted), counted \($planted[.].counted)"] | join("; "))): the analyzer's counts cannot be trusted; see \($dir)/selftest-analysis.txt"
        elif $selftest != null and $stc == null then
          "\($dir)/selftest-charged.json is missing (the verdict-level self-test: the planter as the drain must give FAIL): run \($reanalyze)"
        elif $stc != null and no_origins($stc; "selftest-charged.json") != null then
          no_origins($stc; "selftest-charged.json")
        elif $stc != null and wrong_functions($stc; "selftest-charged.json"; [$planter]) != null then
          wrong_functions($stc; "selftest-charged.json"; [$planter])
        elif $stc != null and lacking($stc) != [] then
          "\($dir)/selftest-charged.json has no per-CPU entry with its origins for isolated CPU \(lacking($stc) | cpulist): re-run \($reanalyze)"
        elif $vcheck != null and ($vcheck.exact | not) then
          "\($dir)/selftest-charged.json: with the planter as the drain the verdict rule gave \($vcheck.verdict), charging \([$isolated[] | "CPU \(.) \($vcheck.cpus[.].charged) of \($vcheck.cpus[.].planted) planted"] | join(", ")); it must give FAIL with exactly the planted count on each CPU: see \($dir)/selftest-charged.txt"
        else null end;

  # What the report's plots draw, so that it reads nothing but
  # summary.json: a workload's 1 µs histogram summed over its CPUs
  # ([[µs, count], ...]) and its maximum, and the drain latency samples.
  def latency_plot($f):
      ($f | obj | .thread | obj | [.[] | objects]) as $t
      | if $t == [] then null else
          {max_us: ([$t[].max | numbers] | max),
           histogram: ([$t[].histogram | obj | to_entries[]] | group_by(.key | tonumber)
                       | map([(.[0].key | tonumber), (map(.value) | add)]))} end;

  ($status == "ok") as $ok
  | cpus_of($analysis; $quiet) as $cpus
  | (ladder_error // (if $ok then refusal else null end)) as $refuse
  # (the audit is judged per trigger, audit.json, not by the drain rule)
  | verdict_of($cpus; {ok: $ok, traced: ($analysis != null), audit: ($scenario == "audit"),
                     unplaced_misses: $analysis.probe_misses.unplaced,
                     rcu_requests_traced: ($analysis.grace_periods.requests_traced // false)}) as $v
  | {refuse: $refuse,
     # The continuation bound the analyzer counted with (the same analyzer
     # for every variant of one run; summarize.sh records the first).
     continuation_ns: ($analysis | obj | .policy | obj | .continuation_ns),
     summary: {
       status: $status,
       verdict: $v.verdict,
       # the condition that decided it (verdict-policy.json's "when")
       verdict_when: $v.when,
       verdict_cpus: $v.cpus,
       window_s: (if ($analysis.window.duration_ns | num) then $analysis.window.duration_ns / 1e9 else null end),
       drain: (if $hammer == null then null else
         {calls: $hammer.calls, p50_us: $hammer.p50_us, p99_us: $hammer.p99_us,
          max_us: $hammer.max_us, stalls: $hammer.stalls} end),
       drains: $analysis.drains,
       interruptions_total: ([$cpus[].interruptions | numbers] | add),
       charged_total: ([$cpus[].charged | numbers] | add),
       handoff_total: ([$cpus[].handoff | numbers] | add),
       indirect_total: ([$cpus[].indirect | numbers] | add),
       indirect_emulator_timed_total: ([$cpus[].indirect_emulator_timed | numbers] | add),
       hardware_time: ($analysis.hardware_time // {measured: false}),
       shared_total: ([$cpus[].shared | numbers] | add),
       unknown_total: ([$cpus[].unknown | numbers] | add),
       no_sender: no_sender($cpus),
       # dropped probe hits in the window (kprobe_profile): measured, or
       # said not to be (an analysis from before the guest recorded them)
       probe_misses: ($analysis.probe_misses // {measured: false, missed: null}),
       control: (if $quiet == null then null else
         {window_s: (if ($quiet.window.duration_ns | num) then $quiet.window.duration_ns / 1e9 else null end),
          interruptions: ([$cpus[].control.interruptions | numbers] | add),
          charged: ([$cpus[].control.charged | numbers] | add),
          rcu_qs: ([$cpus[].control.rcu_qs | numbers] | add),
          unknown: ([$cpus[].control.unknown | numbers] | add)} end),
       rcu_forcing: rcu_forcing($cpus; $analysis; $quiet),
       refill: (if $refill == null then null else {refill_ms: $refill.refill_ms, pages: $refill.pages} end),
       plot: {oslat: latency_plot($oslat), refill: latency_plot($refill),
              # (over 1,000 samples, 1,000 order statistics from the
              # first to the last: the CDF looks the same, and a 300 s
              # stress run's 26,000 calls do not make a 500 KB summary)
              drain: (if ($hammer.samples_us | type) == "array" and ($hammer.samples_us | length) > 0
                      then {calls: $hammer.calls,
                            samples_us: ($hammer.samples_us | length as $n
                              | if $n <= 1000 then . else sort as $s
                                | [range(0; 1000) | $s[(. * ($n - 1) / 999 | floor)]] end)}
                      else null end)},
       selftest: (if $selftest == null then null else
         {planted: $selftest.planted, counted: $selftest.counted, pass: $selftest.pass,
          cpus: $selftest.cpus, verdict_check: $vcheck} end),
       cpus: $cpus,
       audit: ($in["audit.json"] | one),
       # The stress scenario's phases, as its guest wrote them: what the
       # debug kernel went through while run.sh found no splat in its
       # console (a splat fails the run: FAILED-RUN).
       stress: (if $stress_f == "" then null
                else {phases: ($stress_f | split("\n") | map(select(length > 0)))} end)}};

# The run: the policy as applied, every guest judged, then the summary,
# or the refusals.
# (the scenarios that demand exposure, from their declarations, where the
# policy file once listed them: after min_exposure)
($policy_doc[0] | to_entries
   | map(., (select(.key == "min_exposure") | {key: "exposure_scenarios", value: scenarios_with("exposure")}))
   | from_entries) as $doc
| ({file: $policy_file} + $doc | del(.about)) as $policy
| [$names | splits(" +") | select(. != "")] as $n
| [$ARGS.named as $a
   | range(0; $guests) as $i
   | $a | with_entries(select(.key | startswith("g\($i)_")) | .key |= ltrimstr("g\($i)_"))
   | judge($policy)] as $judged
# The run's own inputs are checked once a variant ran to the end: a run
# whose variants all failed is still summarized (as FAILED-RUN).
| any($judged[]; .summary.status == "ok") as $ran
| [(if $ran and $isolated == [] then
      "\($run_dir)/run.txt has an empty 'isolated:' line, so no CPU would be judged: fix the line (e.g. 'isolated: 1-3') or re-run the comparison"
    else empty end),
   ($judged[].refuse | strings)] as $refusals
| if $refusals != [] then $refusals | map("quietcore: error: \(.)\n") | add | halt_error(1) else . end
| def blank_null: if . == "" then null else . end;
  # (no tonumber?: jq 1.6 try catches the errors raised after it, and
  # would swallow a crash further down, and the summary with it)
  def number_or_null: if test("^[-+]?[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?$") then tonumber else null end;
  ([$n, $judged] | transpose | map({(.[0]): .[1].summary}) | add // {}) as $v
| {run: ({id: $id, accel: ($accel | blank_null // "unknown"), kernel_tree: ($tree | blank_null),
        scenario: $scenario, duration_s: ($duration | number_or_null),
        isolated_cpus: $isolated_list, refill_cpus: $refill_list, oslat_cpus: $oslat,
        housekeeping_cpus: $housekeeping}
     # (runs booted before boot.sh recorded it have none)
     + (if $qemu == "" then {} else {qemu_version: $qemu} end)
     + (if $scale == [] then {} else {time_scale: $scale[0]} end)),
  policy: ($policy + {baseline: $baseline, baseline_rule: $baseline_rule}),
  variants: {}, alloc_bench: (if $alloc == {} then null else $alloc end),
  alloc_cost: $cost[0]}
+ (if $cost_missing == "" then {} else {alloc_cost_missing: $cost_missing} end)
# (the analyzer's continuation bound, the first analysis's that has one)
| .policy.continuation_ns = first($judged[].continuation_ns | select(. != null) // null)
| .variants = ($v | map_values(del(.audit)))
# (the audit's per-trigger counts, by variant, in the triggers' order)
| .audit = ([$v[].audit | select(. != null)] as $a
    | if $a == [] then null else
        {triggers: [$a[0].triggers[].name],
         variants: ($v | map_values(.audit) | with_entries(select(.value != null)))} end)
