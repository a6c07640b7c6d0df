#!/bin/sh
# report.sh RUNDIR: render a run's report from its summary.json alone;
# runs nothing in a guest and reads no other file of the run. Every claim
# comes from summary.json, the rule too (its .policy, what summarize.sh
# applied), and so do the plots' data (each variant's .plot): nothing is
# read from tracing/, so an old run says the rules it was judged by. Writes RUNDIR/report.md, RUNDIR/report.html
# (self-contained: CSS and SVGs inline, no links, opens offline) and
# RUNDIR/plots/*.svg; an audit run's summary.json .audit adds the
# "Isolation audit" section and its heat map. Needs only jq and gnuplot.
# The pieces, in scripts/report/: model.jq decides what the report says,
# md.jq and html.jq how it looks, text.jq the answer table it prints last; plotdata.jq writes the plots' data and
# the *.gp scripts (over common.gp) draw them.
#
# It changes nothing of a run but its own outputs (report.md, report.html,
# plots/*.svg), each written whole (a temporary renamed): never its
# summary.json or its status, so that `make report` on a committed run
# is read-only but for the report itself. A refusal says the fix; inside
# a run in progress (compare.sh, QC_STATUS_FILE set) it also removes the
# report an earlier pass left, and the run's status says failed.
# shellcheck disable=SC2016,SC2154 # jq programs are single-quoted on purpose; $tmp/vars sets the plots' variables
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
lib=$QC_ROOT/scripts/report

case ${1:-} in
-h|--help)
	echo "usage: $0 RUNDIR    (a results/<run-id>/ directory with summary.json)"
	exit 0 ;;
'') die "no run directory given: usage: report.sh RUNDIR (e.g. results/<run-id>)" ;;
esac
[ $# -eq 1 ] || die "one run directory only, got $#: usage: report.sh RUNDIR"
run=${1%/}
sum=$run/$QC_SUMMARY
[ -d "$run" ] || die "'$run' is not a directory: give a results/<run-id>/ directory"
reanalyze="make report RUN=$run REANALYZE=1 re-analyses and re-judges a copy into a new run directory"
# A refusal inside a run in progress removes the report an earlier pass
# left; on its own (make report) it leaves the run as it was.
tmp=
# shellcheck disable=SC2154 # rc is the trap's own
trap 'rc=$?; [ -z "$tmp" ] || rm -rf "$tmp"
	[ $rc -eq 0 ] || [ -z "${QC_STATUS_FILE:-}" ] || rm -f "$run/$QC_REPORT_MD" "$run/$QC_REPORT_HTML"' EXIT
[ -f "$sum" ] || die "'$run' has no summary.json (never judged, or its judging was refused: see its status): $reanalyze"
need_cmd jq gnuplot
tmp=$(mktemp -d)
qj() { jq -L "$lib" "$@"; }
# sections FILE: FILE's "@@ NAME" sections, each into the file $tmp/NAME.
sections() { awk -v dir="$tmp" '/^@@ [^ ]+$/ { f = dir "/" $2; printf "" > f; next } { print > f }' "$1"; }
# Its shape, then every plot's data (plotdata.jq all_data), in one jq (each
# jq costs a start), split into $tmp/shape, the data files and $tmp/vars
# (what the plots are told). The shape: a quietcore summary; variant
# names that can become file names and gnuplot strings; judged by cause
# (policy.rule "origins") on the current basis, not by the retired rule by
# time nor before the evidence chain and hardware time gave each variant
# its no_sender, probe_misses and hardware_time: such runs keep the report
# they were committed with ("frozen", "older"); and not from before the
# verdict policy, which has no rule to state and no exposure or charged
# counts to name as evidence: refused rather than rendered without its
# evidence. Slurped, so that a file of anything but one JSON
# value (or none that parses) is no summary; a jq error in the shape
# leaves no $tmp/shape, one in the data is shown only for a good shape.
# The shape is made whole ([shape]) before the data: jq 1.6's try would
# otherwise catch an error of all_data, and the data would end short.
if qj -r -s 'include "plotdata";
	def shape: if ((.run.id | type == "string") and (.variants | type == "object" and length > 0)) | not
	then "not a summary"
	elif .variants | keys | all(test("^[A-Za-z0-9_.-]+$")) | not then "bad name"
	elif (.policy | type == "object") and (.policy.rule // "") != "origins" then "frozen"
	elif (.policy | type == "object")
		and any(.variants[]; has("no_sender") and has("probe_misses") and has("hardware_time") | not) then "older"
	elif try ((.policy | type == "object")
		and (.policy.min_exposure | type == "object") and (.policy.baseline | type == "string")
		and all(.variants[]; (.verdict | type == "string")
			and (if .verdict == "FAILED-RUN" or .verdict == "NO-TRACE" then true
			     else all(.cpus[]; has("exposure") and (.charged | type == "number")
			                       and (.workload | type == "string")) end))) catch false
	then "ok" else "old" end;
	if length != 1 then "@@ shape", "not a summary"
	else .[0] | [shape][0] as $s | "@@ shape", $s, (if $s == "ok" then all_data else empty end) end' \
	"$sum" > "$tmp/data" 2>"$tmp/data.err"; then data=ok; else data=failed; fi
sections "$tmp/data"
shape=
[ ! -f "$tmp/shape" ] || read -r shape < "$tmp/shape" || :
case $shape in
ok) ;;
"bad name") die "$sum has a variant name that is not [A-Za-z0-9_.-]: not a quietcore summary" ;;
frozen|older)
	# (its committed report is what it said then, and stays)
	if [ "$shape" = frozen ]; then basis="by the retired rule by time"
	else basis="on an older basis (no no_sender, probe_misses or hardware_time per variant)"; fi
	[ -f "$run/$QC_REPORT_MD" ] && [ -f "$run/$QC_REPORT_HTML" ] ||
		die "$sum was judged $basis and has no report to keep: re-judge it ($reanalyze)"
	info "$run was judged $basis: its report.md and report.html are frozen as committed"
	exit 0 ;;
old) die "$sum is an old-format summary (no verdict policy, or no per-CPU exposure and charged counts): $reanalyze" ;;
*) die "$sum is not a quietcore summary (needs .run.id and .variants)" ;;
esac
plots_dir=$run/$QC_PLOTS
# An earlier pass's plots go; mkdir and rm run only where they have
# something to do (each is a process; a fresh run has no plots, a re-render
# its directory).
[ -d "$plots_dir" ] || mkdir -p "$plots_dir"
set --
for p in interruptions oslat refill drain-cdf alloc-cost audit; do
	[ ! -e "$plots_dir/$p.svg" ] && [ ! -L "$plots_dir/$p.svg" ] || set -- "$@" "$plots_dir/$p.svg"
done
[ $# -eq 0 ] || rm -f "$@"
plots=
# The plots' data, made with the shape above: its jq error, if any, once
# an earlier pass's plots are gone.
[ "$data" = ok ] || { cat "$tmp/data.err" >&2; die "preparing the plots' data failed (see the jq error above)"; }
# shellcheck disable=SC1091 # written just above
. "$tmp/vars"

# plot NAME VARIANTS [ASSIGNMENTS [SCRIPT]]: plots/NAME.svg from
# report/SCRIPT.gp (default NAME.gp) and the data files in $tmp, for the
# variants that have data. Queued here, each plot in a fresh session
# (reset session: no setting, variable or function of the one before),
# and drawn by one gnuplot below: its start costs more than a plot.
: > "$tmp/plots.gp"
plot() {
	[ -n "$2" ] || return 0
	printf "reset session\nprint '@@ %s'\nlib='%s'; dir='%s'; out='%s'; variants='%s'; %s\nload '%s'\nset output\n" \
		"${4:-$1}" "$lib" "$tmp" "$tmp/$1.svg" "$2" "${3:-}" "$lib/${4:-$1}.gp" >> "$tmp/plots.gp"
	plots="$plots $1"
}

# (a) interruptions per isolated CPU: every variant whose trace was analysed.
plot interruptions "$int_with" "cpus='$cpus'; peak=$peak; title='$int_title'"
# (b) latency histograms of each workload (oslat on the oslat CPUs,
# refill on the refill CPUs) and (c) the drain_all_pages() CDF, from each
# variant's .plot in summary.json.
plot oslat "$oslat_with" "kind='oslat'; where='$oslat_where'; last=$oslat_last" oslat
plot refill "$refill_with" "kind='refill'; where='$refill_where'; last=$refill_last" oslat
plot drain-cdf "$cdf_with"
# (d) the allocator's counted cost, from summary.json's alloc_cost.
plot alloc-cost "$cost_with"
# (e) the isolation audit's heat map (scenario audit): triggers x variants.
if [ "$audit" = yes ]; then
	# gnuplot cannot plot an empty file: a cell off the grid stands in.
	[ -s "$tmp/audit-measured.dat" ] || echo '-9 -9 1 ""' > "$tmp/audit-measured.dat"
	[ -s "$tmp/audit-other.dat" ] || echo '-9 -9 ""' > "$tmp/audit-other.dat"
	plot audit "$audit_variants" "triggers='$audit_triggers'"
fi
if [ -n "$plots" ]; then
	# (the plot gnuplot stopped on: the last one it announced)
	gnuplot "$tmp/plots.gp" 2>"$tmp/plots.err" ||
		die "gnuplot failed on $(sed -n 's/^@@ //p' "$tmp/plots.err" | tail -n1).gp: $(grep -v -e '^ *$' -e '^@@ ' "$tmp/plots.err" | tail -n1)"
	# One mv for them all: gnuplot wrote each under its own name.
	set --
	for p in $plots; do set -- "$@" "$tmp/$p.svg"; done
	mv "$@" "$plots_dir/"
fi

# report.md, report.html and the answer table, from the same blocks
# (report/model.jq), in one jq: the blocks, the costly part, are made once
# (and compiled faster with report/jq16.jq's keep_builtins, which outputs
# nothing).
# Split as above; a section is whole when the next one has begun, and
# report.md and report.html are written before the answer table is
# printed, as they were when each was its own jq.
status=$(cat "$run/$QC_STATUS" 2>/dev/null || echo unknown)
# Each plot's SVG (/dev/null for one not drawn), without a subshell each.
set --
for p in interruptions oslat refill drain-cdf:drain_cdf alloc-cost:alloc_cost audit; do
	f=$plots_dir/${p%:*}.svg
	[ -f "$f" ] || f=/dev/null
	set -- "$@" --rawfile "svg_${p#*:}" "$f"
done
# The sections are named as the run's files are, so that one mv moves both.
if qj -r --arg plots "$plots" --arg run_status "$status" "$@" --arg md "$QC_REPORT_MD" --arg html "$QC_REPORT_HTML" \
	'include "model"; include "md"; include "html"; include "text"; include "jq16";
	keep_builtins, (blocks as $b | "@@ \($md)", report_md($b), "@@ \($html)", report_html($b), "@@ text", answer_text)' \
	"$sum" > "$tmp/render"; then rendered=yes; else rendered=no; fi
sections "$tmp/render"
[ -f "$tmp/$QC_REPORT_HTML" ] || die "rendering report.md failed (see the jq error above)"
[ -f "$tmp/text" ] || die "rendering report.html failed (see the jq error above)"
mv "$tmp/$QC_REPORT_MD" "$tmp/$QC_REPORT_HTML" "$run/"
info "report: $run/$QC_REPORT_MD, $run/$QC_REPORT_HTML, plots in $plots_dir/"
# The answer table last, on stdout: what `make compare` ends with.
[ "$rendered" = yes ] || die "rendering the answer table failed (see the jq error above)"
while IFS= read -r line; do printf '%s\n' "$line"; done < "$tmp/text"
