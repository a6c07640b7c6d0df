#!/bin/sh
# audit.sh DIR ISOLATED: the isolation audit of one variant, on the host.
# From DIR/trace.dat (scenario "audit": one window holding each trigger's
# marked sub-window "qc: audit <name> start" .. "end", quiet gaps between)
# and DIR/audit.txt (what each trigger said it did), write DIR/audit.json:
#
#   {"triggers": [{"name", "probe", "path", "status", "said", "result",
#                  "window": {start_ns, end_ns, duration_ns}, "proof",
#                  "interruptions", "own", "own_by_cause", "other",
#                  "expected", "by_cause", "excess_by_cause",
#                  "drains": {calls, reached, probes},
#                  "cpus": {"1": {"interruptions", "by_cause",
#                                 "exposure": {drains, pages}}, ...}}, ...],
#    "baseline": {"duration_ns", "interruptions", "per_s", "by_cause",
#                 "cpus": {...}, "gaps": N}}
#
# Each sub-window and each gap is counted by qc-analyze's rule
# (--window S:E). "own" is how many of a sub-window's interruptions its
# trigger's own path sent: their senders' path, followed through kworkers,
# holds one of the trigger's functions ("path": the probed function and
# the list's "#path NAME FUNCTION..." line, for a function a tail call or
# a callback thread hides; tracing/README.md, "The causal audit"); "other"
# the rest, whoever sent them; both null without the send side.
# result: NOT-IMPLEMENTED (the guest could not run the trigger), FAILED (it ran and failed), NOT-TRIGGERED (no proof event, i.e.
# its kernel path was not entered in its sub-window: never a count),
# MEASURED. "expected" is what the gaps' rate gives for the sub-window's
# length; "excess_by_cause" the causes above their gap rate. "drains" and
# each CPU's "exposure" are the analyzer's: the drain_all_pages() calls
# that opened in the sub-window (any trigger's path may call it: memory
# offline and contiguous allocation do) and how many of them freed pages
# of that CPU, the evidence that a drain reached it.
# The triggers and their probe functions come from the audit list the guest
# fired them from (DIR/audit-triggers.list, its copy of the variant's
# tracing/probes/<audit>.list).
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
dir=${1:?usage: audit.sh DIR ISOLATED} iso=${2:?usage: audit.sh DIR ISOLATED}
need_cmd jq
qa=$QC_ROOT/tracing/qc-analyze
list=$dir/$QC_AUDIT_LIST
[ -x "$qa" ] || die "$qa is not built: run make -C tracing"
trace=$dir/$(qc_window_file trace "" dat) analysis=$dir/$QC_ANALYSIS.json
[ -f "$trace" ] || die "$dir has no $(basename "$trace"): the audit's window was not traced"
[ -f "$dir/$QC_AUDIT_TXT" ] || die "$dir has no $QC_AUDIT_TXT: the guest did not run the audit's triggers"
[ -f "$list" ] || die "$dir has no $QC_AUDIT_LIST: the guest did not say which audit list it fired"
[ -f "$analysis" ] || die "$dir has no $QC_ANALYSIS.json: run scripts/analyze.sh $dir $iso first"
tasks=oslat,refill
work=$dir/audit
rm -rf "$work"
mkdir -p "$work"

triggers=$(sed -n 's|^p:qcaudit/\([a-z_]*\) \([^ ]*\).*|\1:\2|p' "$list")
[ -n "$triggers" ] || die "$list names no trigger (lines 'p:qcaudit/<name> <function>')"
# The "#path" lines are the host's reading of the stacks, not what the
# guest fired: they come from this checkout's list of the name the guest
# was given (qc.audit), so that an older run is read with them too; from
# the guest's copy when that name is not known here.
audit_name=$(tr ' ' '\n' < "$dir/$QC_BOOT_PARAMS" 2>/dev/null | sed -n 's/^qc\.audit=//p' | head -n1)
paths=$QC_ROOT/tracing/probes/$audit_name.list
[ -n "$audit_name" ] && [ -f "$paths" ] || paths=$list
nl='
'
for name in $(sed -n 's|^#path \([^ ]*\).*|\1|p' "$paths"); do
	case "$nl$triggers" in *"$nl$name:"*) ;; *) die "$paths has a '#path $name' line but no trigger $name" ;; esac
done
n=$(echo "$triggers" | wc -l)
# plan: the window's markers ("START END"), then a line a trigger, "NAME
# FUNCTION START END PATH": the markers of its sub-window ("-" for one the
# analysis lacks: the guest did not run it) and its path, the probed
# function and its "#path NAME ..." line's, comma-separated. One jq for
# them all: a jq a marker cost more than the rest of the audit.
plan=$(jq -r --arg triggers "$triggers" --rawfile paths "$paths" '
	# the ns of the first marker of each text
	(reduce (.markers[] | select((.text | type) == "string")) as $m ({};
		if has($m.text) then . else .[$m.text] = $m.ns end)) as $at
	| def at($t): $at[$t] // "-";
	def path($t; $fn): [$fn, ($paths | split("\n")[] | select(startswith("#path \($t) "))
		| ltrimstr("#path \($t) ") | splits("[ \t]+"))] | map(select(. != "")) | join(",");
	"\(at("qc: window start")) \(at("qc: window end"))",
	($triggers | split("\n")[] | split(":") | .[0] as $t | (.[1:] | join(":")) as $fn
	 | "\($t) \($fn) \(at("qc: audit \($t) start")) \(at("qc: audit \($t) end")) \(path($t; $fn))")' "$analysis")
read -r prev wend <<EOF
$plan
EOF
[ "$prev" != - ] && [ "$wend" != - ] || die "$analysis has no window markers: re-run scripts/analyze.sh $dir $iso"
# Each trigger counted in its sub-window, each gap before it too, and the
# gap after the last: $work/NAME.json, the rule's count from START to END
# and, with a trigger's FUNCTIONS, the interruptions whose senders' path
# holds one of them. Listed first, counted then by one run of the
# analyzer (--windows: the trace opened once, where an open was most of
# each count's time): windows, "NAME START END AT" a line in the order
# they are counted, AT the trigger whose "audit i/n" line they come
# under; spans, the analyzer's list of them. Each trigger's analysis
# (none when the guest did not run it) is kept for the record below as
# jq's --rawfile "a:NAME".
i=0 gaps='' windows='' spans=''
# window NAME START END FUNCTIONS: one more to count, under trigger $i
window() {
	windows="$windows$1 $2 $3 $i$nl" spans="$spans$2:$3 $4 $work/$1.json$nl"
}
set --
while read -r t fn s e path; do
	i=$((i + 1))
	f=/dev/null
	if [ "$s" != - ] && [ "$e" != - ]; then
		window "$t" "$s" "$e" "$path"
		f=$work/$t.json
		[ "$s" -le "$prev" ] || { window "gap-$i" "$prev" "$s" -; gaps="$gaps gap-$i"; }
		prev=$e
	fi
	set -- "$@" --rawfile "a:$t" "$f"
done <<EOF
${plan#*"$nl"}
EOF
[ "$wend" -le "$prev" ] || { window gap-end "$prev" "$wend" -; gaps="$gaps gap-end"; }
# progress N: the "audit i/n: NAME" lines of the first N triggers
progress() {
	i=0
	while [ "$i" -lt "$1" ] && read -r t _; do
		i=$((i + 1))
		info "audit $i/$n: $t"
	done <<EOF
${plan#*"$nl"}
EOF
}
# The analyzer stops at the first window it refuses, which has no JSON:
# the progress stops at its trigger, with the analyzer's reason.
if [ -n "$spans" ] && ! printf '%s' "$spans" |
	"$qa" --cpus "$iso" --task "$tasks" --quiet --windows - "$trace" 2>"$work/windows.err"; then
	while read -r w s e at; do [ -f "$work/$w.json" ] || break; done <<EOF
$windows
EOF
	progress "$at"
	mv "$work/windows.err" "$work/$w.err"
	die "the analyzer refused $trace for $w ($s..$e): $(head -n1 "$work/$w.err")"
fi
rm -f "$work/windows.err"
progress "$n"
[ -n "$gaps" ] || die "$trace has no quiet gap between the audit's sub-windows: no baseline to compare with"

# The baseline: every gap summed, per CPU and per cause.
for g in $gaps; do cat "$work/$g.json"; done | jq -s '
	def sumc(f): reduce (.[] | f | to_entries[]) as $e ({}; .[$e.key] += $e.value);
	(map(.window.duration_ns) | add) as $ns
	| (map(.cpus | keys[]) | unique) as $cpus
	| {duration_ns: $ns, gaps: length,
	   interruptions: (map(.total) | add),
	   per_s: ((map(.total) | add) / ($ns / 1e9)),
	   by_cause: sumc(.cpus[].by_cause),
	   cpus: (. as $all | [$cpus[] as $c | {key: $c, value:
	     {interruptions: ([$all[].cpus[$c].interruptions] | add),
	      by_cause: ($all | sumc(.cpus[$c].by_cause))}}] | from_entries)}' > "$work/baseline.json"

# One record per trigger, in the list's order, by one jq: each trigger's
# analysis (above), and its line of audit.txt, "NAME STATUS WHAT IT SAID"
# (the first whose first field is NAME; what it said: its words from the
# third on, split at single spaces, or all of a line with no space).
jq -n --arg plan "${plan#*"$nl"}" --rawfile txt "$dir/$QC_AUDIT_TXT" --slurpfile b "$work/baseline.json" "$@" '
	def sumc(f): reduce (.[] | f | to_entries[]) as $e ({}; .[$e.key] += $e.value);
	def fields: [splits("[ \t]+")] | map(select(. != ""));
	($txt | split("\n")) as $txt
	| [$plan | split("\n")[] | split(" ") | .[0] as $name | .[1] as $probe | .[4] as $path
	   | ([$txt[] | select(fields[0] == $name)][0] // "") as $line
	   | ($line | fields[1] // "" | if . == "" then "missing" else . end) as $status
	   | ($line | split(" ") | if length == 1 then .[0] else .[2:] | join(" ") end) as $said
	   | $ARGS.named["a:" + $name] as $a
	   | ($a | if . == "" then null else fromjson end) as $a | $b[0] as $b
	   | {name: $name, probe: $probe, path: ($path | split(",")), status: $status, said: $said}
	   + if $a == null then
	       {result: (if $status == "not-implemented" then "NOT-IMPLEMENTED"
	                 elif $status == "missing" then "NOT-RUN" else "FAILED" end)}
	     else
	       ($a.window.duration_ns / 1e9) as $s
	       | ($a.proof["qcaudit:" + $name] // 0) as $proof
	       | {window: $a.window, proof: $proof,
	          result: (if $status == "not-implemented" then "NOT-IMPLEMENTED"
	                   elif $proof == 0 then "NOT-TRIGGERED"
	                   elif $status != "ran" then "FAILED" else "MEASURED" end)}
	       + if $proof == 0 then {} else
	           ([$a.cpus[].by_cause | to_entries[]] | reduce .[] as $e ({}; .[$e.key] += $e.value)) as $bc
	           | ([$a.cpus[].origins] | if any(. == null) then null else . end) as $o
	           | {interruptions: $a.total,
	              own: (if $o == null then null else [$o[].path] | add end),
	              own_by_cause: (if $o == null then null else $o | sumc(.path_by_cause) end),
	              other: (if $o == null then null else $a.total - ([$o[].path] | add) end),
	              expected: ($b.per_s * $s),
	              by_cause: $bc,
	              excess_by_cause: ([$bc | to_entries[]
	                | {key, value: (.value - (($b.by_cause[.key] // 0) / ($b.duration_ns / 1e9) * $s))}
	                | select(.value >= 1)] | sort_by(-.value) | from_entries),
	              drains: $a.drains,
	              cpus: ($a.cpus | map_values({interruptions, by_cause, exposure}))}
	         end
	     end]
	| {triggers: ., baseline: $b[0]}' > "$dir/$QC_AUDIT_JSON.tmp"
mv "$dir/$QC_AUDIT_JSON.tmp" "$dir/$QC_AUDIT_JSON"
info "audit: $(jq -r '[.triggers[] | "\(.name)=\(.result)\(if .interruptions then ":\(.interruptions)\(if .own != null then " (own \(.own))" else "" end)" else "" end)"] | join(" ")' "$dir/$QC_AUDIT_JSON")"
