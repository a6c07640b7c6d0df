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
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
set -eu
. "$(dirname "$0")/lib.sh"
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
jq -e '(.run.id | type == "string") and (.variants | type == "object" and length > 0)' \
	"$sum" >/dev/null 2>&1 || die "$sum is not a quietcore summary (needs .run.id and .variants)"
# Variant names become file names and gnuplot strings.
jq -e '.variants | keys | all(test("^[A-Za-z0-9_.-]+$"))' "$sum" >/dev/null ||
	die "$sum has a variant name that is not [A-Za-z0-9_.-]: not a quietcore summary"
# A summary from before the verdict policy has no rule to state and no
# exposure or charged counts to name as evidence: refuse it rather than
# render verdicts without their evidence.
jq -e '(.policy | type == "object")
	and (.policy.drain_causes | type == "array" and length > 0)
	and (.policy.min_exposure | type == "object") and (.policy.baseline | type == "string")
	and all(.variants[]; (.verdict | type == "string")
		and (if .verdict == "FAILED-RUN" or .verdict == "NO-TRACE" then true
		     else all(.cpus[]; has("exposure") and (.charged | type == "number")
		                       and (.workload | type == "string")) end))' \
	"$sum" >/dev/null 2>&1 ||
	die "$sum is an old-format summary (no verdict policy, or no per-CPU exposure and charged counts): $reanalyze"

tmp=$(mktemp -d)
qj() { jq -L "$lib" "$@"; }
plots_dir=$run/$QC_PLOTS
mkdir -p "$plots_dir"
rm -f "$plots_dir/interruptions.svg" "$plots_dir/oslat.svg" "$plots_dir/refill.svg" "$plots_dir/drain-cdf.svg" \
	"$plots_dir/alloc-cost.svg" "$plots_dir/audit.svg"
plots=

# plot NAME VARIANTS [ASSIGNMENTS [SCRIPT]]: plots/NAME.svg from
# report/SCRIPT.gp (default NAME.gp) and the data files in $tmp, for the
# variants that have data.
plot() {
	[ -n "$2" ] || return 0
	gp=${4:-$1}
	gnuplot -e "lib='$lib'; dir='$tmp'; out='$tmp/$1.svg'; variants='$2'; ${3:-}" \
		"$lib/$gp.gp" 2>"$tmp/$1.err" ||
		die "gnuplot failed on $gp.gp: $(grep -v '^ *$' "$tmp/$1.err" | tail -n1)"
	mv "$tmp/$1.svg" "$plots_dir/$1.svg"
	plots="$plots $1"
}

# (a) interruptions per isolated CPU: every variant whose trace was analysed.
cpus=$(qj -r 'include "plotdata"; [.variants[].cpus | keys_unsorted[]] | num_sort | join(" ")' "$sum")
with=
for v in $(jq -r '.variants | keys_unsorted[]' "$sum"); do
	jq -e --arg v "$v" 'any(.variants[$v].cpus[]; .interruptions != null)' "$sum" >/dev/null || continue
	qj -r --arg v "$v" --arg cpus "$cpus" 'include "plotdata"; int_dat($v; $cpus | split(" "))' \
		"$sum" > "$tmp/int-$v.dat"
	with="$with $v"
done
peak=$(jq '[.variants[].cpus[].interruptions // 0] | max' "$sum")
plot interruptions "${with# }" "cpus='$cpus'; peak=$peak; \
	title='Interruptions per isolated CPU in the $(jq -r .run.duration_s "$sum") s $(jq -r .run.scenario "$sum") window, by variant'"

# (b) latency histograms of each workload (oslat on the oslat CPUs,
# refill on the refill CPUs) and (c) the drain_all_pages() CDF, from each
# variant's .plot in summary.json.
latency_plot() {
	kind=$1 where=$2
	with='' last=0
	for v in $(jq -r '.variants | keys_unsorted[]' "$sum"); do
		jq -e --arg v "$v" --arg k "$kind" '.variants[$v].plot[$k].histogram | length > 0' \
			"$sum" >/dev/null 2>&1 || continue
		p=".variants[\"$v\"].plot.$kind"
		title="$v (max $(jq "$p.max_us / 100 | round / 10" "$sum") ms)"
		qj -r --arg t "$title" "include \"plotdata\"; $p | oslat_dat(\$t)" "$sum" > "$tmp/$kind-$v.dat"
		last=$(jq --argjson l "$last" "[$p.histogram[][0]] + [\$l] | max" "$sum")
		with="$with $v"
	done
	plot "$kind" "${with# }" "kind='$kind'; where='$where'; last=$last" oslat
}
latency_plot oslat "$(jq -r '.run.oslat_cpus // .run.isolated_cpus // "?"' "$sum")"
latency_plot refill "$(jq -r '.run.refill_cpus // "?"' "$sum")"

with=
for v in $(jq -r '.variants | keys_unsorted[]' "$sum"); do
	jq -e --arg v "$v" '.variants[$v].plot.drain.samples_us | length > 0' "$sum" >/dev/null 2>&1 || continue
	title=$(jq -r --arg v "$v" '.variants[$v].plot.drain | if (.samples_us | length) < .calls
		then "\($v) (\(.samples_us | length)/\(.calls) calls sampled)" else "\($v) (\(.calls) calls)" end' "$sum")
	qj -r --arg v "$v" --arg t "$title" 'include "plotdata"; .variants[$v].plot.drain | cdf_dat($t)' "$sum" \
		> "$tmp/drain-cdf-$v.dat"
	with="$with $v"
done
plot drain-cdf "${with# }"

# (d) the allocator's counted cost, from summary.json's alloc_cost.
with=
for v in $(jq -r '.alloc_cost // {} | keys_unsorted[]' "$sum"); do
	qj -r --arg v "$v" 'include "plotdata"; cost_dat($v)' "$sum" > "$tmp/alloc-cost-$v.dat"
	with="$with $v"
done
plot alloc-cost "${with# }"

# (e) the isolation audit's heat map (scenario audit): triggers x variants.
if jq -e '.audit != null' "$sum" >/dev/null; then
	qj -r 'include "plotdata"; audit_dat("measured")' "$sum" > "$tmp/audit-measured.dat"
	qj -r 'include "plotdata"; audit_dat("other")' "$sum" > "$tmp/audit-other.dat"
	# gnuplot cannot plot an empty file: a cell off the grid stands in.
	[ -s "$tmp/audit-measured.dat" ] || echo '-9 -9 1 ""' > "$tmp/audit-measured.dat"
	[ -s "$tmp/audit-other.dat" ] || echo '-9 -9 ""' > "$tmp/audit-other.dat"
	plot audit "$(jq -r '.audit.variants | keys_unsorted | join(" ")' "$sum")" \
		"triggers='$(jq -r '.audit.triggers | join(" ")' "$sum")'"
fi

# report.md and report.html, from the same blocks (report/model.jq).
status=$(cat "$run/$QC_STATUS" 2>/dev/null || echo unknown)
svgfile() { if [ -f "$plots_dir/$1.svg" ]; then echo "$plots_dir/$1.svg"; else echo /dev/null; fi; }
qj -r --arg plots "$plots" --arg run_status "$status" \
	-f "$lib/md.jq" "$sum" > "$tmp/report.md" || die "rendering report.md failed (see the jq error above)"
qj -r --arg plots "$plots" --arg run_status "$status" \
	--rawfile svg_interruptions "$(svgfile interruptions)" --rawfile svg_oslat "$(svgfile oslat)" \
	--rawfile svg_refill "$(svgfile refill)" --rawfile svg_drain_cdf "$(svgfile drain-cdf)" \
	--rawfile svg_alloc_cost "$(svgfile alloc-cost)" --rawfile svg_audit "$(svgfile audit)" \
	-f "$lib/html.jq" "$sum" > "$tmp/report.html" || die "rendering report.html failed (see the jq error above)"
mv "$tmp/report.md" "$run/$QC_REPORT_MD"
mv "$tmp/report.html" "$run/$QC_REPORT_HTML"
info "report: $run/$QC_REPORT_MD, $run/$QC_REPORT_HTML, plots in $plots_dir/"
# The answer table last, on stdout: what `make compare` ends with.
qj -r -f "$lib/text.jq" "$sum" || die "rendering the answer table failed (see the jq error above)"
