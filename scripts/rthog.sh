#!/bin/sh
# rthog.sh DIR ISOLATED: what the drain did in one rthog guest (scenario rthog,
# guest-init/scenarios/rthog.sh), into DIR/rthog-summary.json, and the
# same in words into DIR/rthog-summary.txt (printed too):
#   - the drain's per-call latencies (hammer.json): calls, p50, p99, max,
#     the calls at or over the stall threshold (half the hog's spin) and
#     the slowest ten: how long a drain waited for the hog;
#   - the hog (rthog.json) and what RCU boosting could do (rthog-env.txt:
#     rcutree.kthread_prio against the hog's priority);
#   - from the trace instance (lockwatch.txt, scripts/rthog-lockwatch.awk):
#     each time the drainer (qc_hammer/N) blocked on an RT lock, whose
#     lock it was (the pcp->lock of an ISOLATED CPU, of a housekeeping
#     CPU, or another lock) and for how long; and where each wake-up of the
#     hog preempted refill.
# It refuses (one line, non-zero exit, no summary) what cannot decide: a
# missing or cut input, a trace instance that lost events or holds none,
# a drainer contention still open when the trace stopped.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/../common/cpulist.sh"
dir=${1:?usage: rthog.sh DIR ISOLATED} iso=${2:?usage: rthog.sh DIR ISOLATED}
dir=${dir%/}
qc_cpulist_valid "$iso" || die "isolated CPU list '$iso' is not a CPU list like 1-3"
out=$dir/$QC_RTHOG_SUMMARY
rm -f "$out.json" "$out.txt"
trap 'rm -f "$out.records.tmp" "$out.json.tmp2"' EXIT
need_cmd jq awk
for f in "$QC_HAMMER_JSON" "$QC_RTHOG_JSON" "$QC_RTHOG_ENV" "$QC_LOCKWATCH"; do
	[ -s "$dir/$f" ] || die "$dir/$f is missing or empty: the rthog scenario writes it; re-run the variant"
done
# What the hammer's stats and the hog's output must hold.
hammer_fields='(.calls | type) == "number" and (.samples_us | type) == "array" and (.stall_threshold_ms | type) == "number"'
hog_fields='([.prio, .period_ms, .spin_ms, .wakeups] | map(type == "number") | all)'
# One jq passes both files when each is one object with its fields (a jq a
# check cost a second on a slow host); the checks one by one say which
# failed, and what, only when it does not.
if ! jq -n -e --slurpfile h "$dir/$QC_HAMMER_JSON" --slurpfile g "$dir/$QC_RTHOG_JSON" "
	def one(f): length == 1 and (.[0] | type == \"object\" and f);
	(\$h | one($hammer_fields)) and (\$g | one($hog_fields))" > /dev/null 2>&1; then
	for f in "$QC_HAMMER_JSON" "$QC_RTHOG_JSON"; do
		jq -e 'type == "object"' "$dir/$f" > /dev/null 2>&1 || die "$dir/$f is not one JSON object (a cut file?): re-run the variant"
	done
	jq -e "$hammer_fields" "$dir/$QC_HAMMER_JSON" > /dev/null ||
		die "$dir/$QC_HAMMER_JSON lacks calls, samples_us or stall_threshold_ms: not the hammer's stats"
	jq -e "$hog_fields" "$dir/$QC_RTHOG_JSON" > /dev/null ||
		die "$dir/$QC_RTHOG_JSON lacks prio, period_ms, spin_ms or wakeups: not rthog's output"
fi
kprio=$(sed -n 's/^kthread_prio=//p' "$dir/$QC_RTHOG_ENV")
case $kprio in ''|*[!0-9]*) die "$dir/$QC_RTHOG_ENV has no numeric kthread_prio= line ('$kprio'): cannot say what RCU boosting could do" ;; esac

# The records, read as JSON by the summary's jq (records): the drainer's
# contentions, the pcp map, the preemptions.
awk -f "$QC_ROOT/scripts/rthog-lockwatch.awk" "$dir/$QC_LOCKWATCH" > "$out.records.tmp"
# What they must hold, read by one awk (a grep, a sed and an awk over the
# records were three processes and three subshells): "LOST EVENTS OPEN",
# the lost-events records, the events, the drainer's contentions left open.
read -r lost events open <<EOF
$(awk -F'\t' '$1 == "lost" { lost++ } $1 == "events" { events = $2 }
	$1 == "unfinished" && $3 ~ /^qc_hammer\// { open++ }
	END { print lost + 0, (events == "" ? 0 : events), open + 0 }' "$out.records.tmp")
EOF
[ "$lost" -eq 0 ] || die "$dir/$QC_LOCKWATCH lost events ($(sed -n 's/^lost\t//p' "$out.records.tmp" | head -n1 | cut -c1-80)): its contention counts would be short; re-run the variant"
[ "$events" -gt 0 ] || die "$dir/$QC_LOCKWATCH holds no event: the trace instance recorded nothing, so it cannot say whether the drainer blocked"
[ "$open" -eq 0 ] || die "$dir/$QC_LOCKWATCH: the drainer's contention on $(awk -F'\t' '$1 == "unfinished" && $3 ~ /^qc_hammer\// { print $4; exit }' "$out.records.tmp") has no end before the trace stopped: its duration is unknown; re-run with a longer window grace"
records_jq='def records:
	split("\n") | map(select(. != "") | split("\t")) as $r
	| ($r | map(select(.[0] == "pcp") | {key: .[1], value: (.[2] | tonumber)}) | from_entries) as $pcp
	| {pcp: $pcp,
	   contention: [$r[] | select(.[0] == "contention")
		| {pid: (.[1] | tonumber), comm: .[2], lock: .[3],
		   draining: (if .[4] == "-" then null else (.[4] | tonumber) end),
		   begin_s: (.[5] | tonumber), us: (.[6] | tonumber)}],
	   preempt: [$r[] | select(.[0] == "preempt")
		| {cpu: (.[1] | tonumber), time_s: (.[2] | tonumber), frames: (.[3] // "" | split(",") | map(select(. != "")))}],
	   resume: [$r[] | select(.[0] == "resume") | {cpu: (.[1] | tonumber), time_s: (.[2] | tonumber), prio: (.[3] | tonumber)}],
	   drain: [$r[] | select(.[0] == "drain") | {begin_s: (.[2] | tonumber), end_s: (.[3] | tonumber)}]};'

jq -n --slurpfile h "$dir/$QC_HAMMER_JSON" --slurpfile g "$dir/$QC_RTHOG_JSON" --rawfile w "$out.records.tmp" \
	--argjson kprio "$kprio" --argjson iso "[$(qc_cpulist_expand "$iso" | paste -sd, -)]" --rawfile env "$dir/$QC_RTHOG_ENV" "$records_jq"'
	$h[0] as $h | $g[0] as $g | ($w | records) as $w
	| def ms: round / 1000;
	  # Functions that only run inside a pcp section (allocation from and
	  # freeing to a pcplist, or emptying one); a stack that holds one
	  # was preempted in or at the edge of one.
	  def pcp_path: any(.[]; test("^(rmqueue_pcplist|__rmqueue_pcplist|rmqueue_bulk|free_unref_folios|free_unref_page|free_unref_page_commit|free_frozen_page_commit|free_pcppages_bulk|decay_pcp_high|drain_pages_zone|drain_zone_pages)$"));
	  # Where refill was: the first frame left once the tracing and
	  # scheduler frames, the interrupt entries (asm_*) and their exit
	  # paths are gone: the function an interrupt interrupted, or the RT
	  # lock slow path refill had blocked in; none left: user mode (an
	  # interrupt on the way back to it included).
	  def site: map(select(startswith("state:") or test("^(trace_event_raw_event_sched_switch|__traceiter_sched_switch|__schedule|schedule|schedule_rtlock|preempt_schedule.*|irqentry_exit.*|asm_.*)$") | not))
		| .[0] // "user mode";
	  def state: map(select(startswith("state:")) | ltrimstr("state:")) | .[0] // null;
	  # Each spin: from the hog preempting refill to refill running again
	  # on that CPU (held_ms; its priority then, under 100 when boosted),
	  # and the drain call in flight when refill came back, if any: a
	  # drain that waited for refill ends soon after.
	  ($w.preempt | map(. as $p
	    | ([$w.resume[] | select(.cpu == $p.cpu and .time_s > $p.time_s)] | min_by(.time_s)) as $r
	    | ($p.frames | site) as $site
	    | {cpu: $p.cpu, time_s: $p.time_s, state: ($p.frames | state), site: $site, pcp_path: ($p.frames | pcp_path),
	       held_ms: (if $r == null then null else (($r.time_s - $p.time_s) * 1e6 | round / 1000) end),
	       resumed_prio: $r.prio,
	       drain: (if $r == null then null else
	         ([$w.drain[] | select(.begin_s < $r.time_s and .end_s >= $r.time_s)] | max_by(.end_s - .begin_s)
	          | if . == null then null else
	              {ms: ((.end_s - .begin_s) * 1e6 | round / 1000), ended_after_resume_ms: ((.end_s - $r.time_s) * 1e6 | round / 1000)} end) end)})) as $spins
	  | ($h.samples_us | sort) as $s
	  | ($s | length) as $n
	  | def pct($p): if $n == 0 then null else $s[([((($n * $p / 100) | ceil) - 1), 0] | max)] end;
	  ($w.contention | map(select(.comm | test("^qc_hammer/")))) as $mine
	  | ($mine | map(. + {pcp_cpu: $w.pcp[.lock]})) as $mine
	  | ($mine | map(select(.pcp_cpu as $c | $c != null and any($iso[]; . == $c)))) as $on_pcp
	  | ($mine | map(select(.pcp_cpu as $c | $c != null and all($iso[]; . != $c)))) as $on_hk_pcp
	  | ($mine | map(select(.pcp_cpu == null))) as $other
	  | def durations: {count: length, max_us: (map(.us) | max), total_us: (map(.us) | add // 0 | . * 1000 | round / 1000),
	                    us: (map(.us) | sort | reverse)};
	  {hog: {cpu: $g.cpu, prio: $g.prio, period_ms: $g.period_ms, spin_ms: $g.spin_ms,
	         wakeups: $g.wakeups, missed: $g.missed, late_max_ms: $g.late_max_ms},
	   rcu_boost: {kthread_prio: $kprio, above_hog: ($kprio > $g.prio),
	               rt_priority: ($env | split("\n") | map(select(startswith("rt_priority ")) | ltrimstr("rt_priority ") | split("="))
	                             # (no tonumber?: jq 1.6 swallows an error raised after it, output and all)
                             | map({key: .[0], value: (.[1] | if test("^-?[0-9]+$") then tonumber else . end)}) | from_entries)},
	   drain: {calls: $h.calls, skipped: $h.skipped, samples: $n, stall_threshold_ms: $h.stall_threshold_ms,
	           stalls: $h.stalls, p50_ms: (pct(50) | if . == null then null else ms end),
	           p99_ms: (pct(99) | if . == null then null else ms end),
	           max_ms: ($h.max_us | ms),
	           over_100ms: ($s | map(select(. >= 100000)) | length),
	           at_threshold: ($s | map(select(. >= $h.stall_threshold_ms * 1000)) | length),
	           slowest_ms: ($s | reverse | .[:10] | map(ms))},
	   spins: {count: ($spins | length),
	           held_ms_min: ($spins | map(.held_ms | numbers) | min), held_ms_max: ($spins | map(.held_ms | numbers) | max),
	           boosted: ($spins | map(select((.resumed_prio // 120) < 100)) | length),
	           in_kernel: ($spins | map(select(.site != "user mode")) | length),
	           drain_at_threshold: ($spins | map(select((.drain.ms // 0) >= $h.stall_threshold_ms)) | length),
	           list: $spins},
	   trace_drains: {calls: ($w.drain | length),
	                  at_threshold: ($w.drain | map(select((.end_s - .begin_s) * 1000 >= $h.stall_threshold_ms)) | length)},
	   preemptions: {count: ($w.preempt | length),
	                 in_kernel: ($w.preempt | map(select(.frames | site != "user mode")) | length),
	                 blocked: ($w.preempt | map(select(.frames | state | . != null and test("^[RW]") | not)) | length),
	                 pcp_path: ($w.preempt | map(select(.frames | pcp_path)) | length),
	                 sites: ($w.preempt | map(.frames | site) | group_by(.) | map({key: .[0], value: length})
	                         | sort_by(-.value) | from_entries)},
	   drainer_contention: {isolated_pcp_lock: ($on_pcp | durations
	                          + {by_cpu: ($on_pcp | group_by(.pcp_cpu) | map({key: (.[0].pcp_cpu | tostring), value: durations}) | from_entries)}),
	                        housekeeping_pcp_lock: ($on_hk_pcp | durations),
	                        other_locks: ($other | durations)},
	   others_contention: ($w.contention | map(select(.comm | test("^qc_hammer/") | not)) | length),
	   # The other direction: refill (on an isolated CPU) blocked on an RT
	   # lock, e.g. zone->lock while the drainer frees into the zone.
	   refill_contention: ($w.contention | map(select(.comm == "refill")) | durations | del(.us)),
	   pcp_pointers: ($w.pcp | length)}' > "$out.json.tmp2"
mv "$out.json.tmp2" "$out.json"

jq -r '
	def n: if . == null then "-" else tostring end;
	"hog: SCHED_FIFO \(.hog.prio) on CPU \(.hog.cpu), \(.hog.spin_ms) ms every \(.hog.period_ms) ms, \(.hog.wakeups) wake-ups",
	"RCU boost: rcutree.kthread_prio=\(.rcu_boost.kthread_prio), \(if .rcu_boost.above_hog then "above" else "not above" end) the hog",
	"drain: \(.drain.calls) calls, p50 \(.drain.p50_ms | n) ms, p99 \(.drain.p99_ms | n) ms, max \(.drain.max_ms | n) ms; \(.drain.at_threshold) at or over \(.drain.stall_threshold_ms) ms, \(.drain.over_100ms) over 100 ms; slowest: \(.drain.slowest_ms | map(tostring) | join(" ")) ms",
	"hog took refill'"'"'s CPU \(.preemptions.count) times: \(.preemptions.blocked) after refill blocked, \(.preemptions.in_kernel) in the kernel, \(.preemptions.pcp_path) with a pcp function in its stack; sites: \(.preemptions.sites | to_entries | map("\(.key) \(.value)") | join(", "))",
	"spins: \(.spins.count), refill held off its CPU \(.spins.held_ms_min | n)-\(.spins.held_ms_max | n) ms, \(.spins.boosted) times back at a real-time (boosted) priority; \(.spins.drain_at_threshold) spins ended a drain of \(.drain.stall_threshold_ms) ms or more (of \(.trace_drains.at_threshold) such drains in the trace, \(.trace_drains.calls) calls there)",
	(.spins.list[] | select(.site != "user mode" or (.drain.ms // 0) >= 100) | "  spin at \(.time_s) s on CPU \(.cpu): held \(.held_ms | n) ms, back at prio \(.resumed_prio | n), \(if (.state // "R") | test("^R") then "preempted" else "blocked (\(.state))" end) in \(.site)\(if .pcp_path then " (pcp path)" else "" end); drain in flight then: \(if .drain == null then "none" else "\(.drain.ms) ms, ended \(.drain.ended_after_resume_ms) ms after" end)"),
	"drainer blocked on an isolated CPU'"'"'s pcp->lock \(.drainer_contention.isolated_pcp_lock.count) times (max \(.drainer_contention.isolated_pcp_lock.max_us | n) us, total \(.drainer_contention.isolated_pcp_lock.total_us) us; \(.drainer_contention.isolated_pcp_lock.by_cpu | to_entries | map("CPU \(.key): \(.value.count)") | join(", ") | if . == "" then "none" else . end)), on a housekeeping CPU'"'"'s pcp->lock \(.drainer_contention.housekeeping_pcp_lock.count) times, on other RT locks \(.drainer_contention.other_locks.count) times (max \(.drainer_contention.other_locks.max_us | n) us); \(.pcp_pointers) pcp pointers known",
	"refill blocked on RT locks \(.refill_contention.count) times (max \(.refill_contention.max_us | n) us)"
' "$out.json" > "$out.txt"
cat "$out.txt"
