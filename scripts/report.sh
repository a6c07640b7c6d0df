#!/bin/sh
# report.sh RUNDIR: render a run's report from the files the run already
# holds (summary.json, and each variant's oslat.json, refill.json and
# hammer.json for the plots); runs nothing in a guest. Every claim comes
# from summary.json, the rule too (its .policy, what summarize.sh applied):
# nothing is read from tracing/, so an old run says the rules it was
# judged by. Writes RUNDIR/report.md, RUNDIR/report.html
# (self-contained: CSS and SVGs inline, no links, opens offline) and
# RUNDIR/plots/*.svg; an audit run's summary.json .audit adds the
# "Isolation audit" section and its heat map. Needs only jq and gnuplot.
# The pieces, in scripts/report/: model.jq decides what the report says,
# md.jq and html.jq how it looks; plotdata.jq writes the plots' data and
# the *.gp scripts (over common.gp) draw them.
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
sum=$run/summary.json
[ -d "$run" ] || die "'$run' is not a directory: give a results/<run-id>/ directory"
[ -f "$sum" ] || die "'$run' has no summary.json: run scripts/summarize.sh $run first"
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
	die "$sum is an old-format summary (no verdict policy, or no per-CPU exposure and charged counts): re-run scripts/summarize.sh $run on it"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
qj() { jq -L "$lib" "$@"; }
mkdir -p "$run/plots"
rm -f "$run/plots/interruptions.svg" "$run/plots/oslat.svg" "$run/plots/refill.svg" "$run/plots/drain-cdf.svg" \
	"$run/plots/alloc-cost.svg" "$run/plots/audit.svg"
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
	mv "$tmp/$1.svg" "$run/plots/$1.svg"
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

# (b) latency histograms of each workload (oslat.json on the oslat CPUs,
# refill.json on the refill CPUs) and (c) the drain_all_pages() CDF, from
# the variant files.
latency_plot() {
	kind=$1 where=$2
	with='' last=0
	for v in $(jq -r '.variants | keys_unsorted[]' "$sum"); do
		f=$run/$v/$kind.json
		jq -e '.thread | length > 0' "$f" >/dev/null 2>&1 || continue
		title="$v (max $(jq '[.thread[].max] | max / 100 | round / 10' "$f") ms)"
		qj -r --arg t "$title" 'include "plotdata"; oslat_dat($t)' "$f" > "$tmp/$kind-$v.dat"
		last=$(jq --argjson l "$last" '[.thread[].histogram | keys[] | tonumber] + [$l] | max' "$f")
		with="$with $v"
	done
	plot "$kind" "${with# }" "kind='$kind'; where='$where'; last=$last" oslat
}
latency_plot oslat "$(jq -r '.run.oslat_cpus // .run.isolated_cpus // "?"' "$sum")"
latency_plot refill "$(jq -r '.run.refill_cpus // "?"' "$sum")"

with=
for v in $(jq -r '.variants | keys_unsorted[]' "$sum"); do
	f=$run/$v/hammer.json
	jq -e '.samples_us | length > 0' "$f" >/dev/null 2>&1 || continue
	title=$(jq -r --arg v "$v" 'if (.samples_us | length) < .calls
		then "\($v) (\(.samples_us | length)/\(.calls) calls sampled)" else "\($v) (\(.calls) calls)" end' "$f")
	qj -r --arg t "$title" 'include "plotdata"; cdf_dat($t)' "$f" > "$tmp/drain-cdf-$v.dat"
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
status=$(cat "$run/status" 2>/dev/null || echo unknown)
svgfile() { if [ -f "$run/plots/$1.svg" ]; then echo "$run/plots/$1.svg"; else echo /dev/null; fi; }
qj -r --arg plots "$plots" --arg run_status "$status" \
	-f "$lib/md.jq" "$sum" > "$tmp/report.md" || die "rendering report.md failed (see the jq error above)"
qj -r --arg plots "$plots" --arg run_status "$status" \
	--rawfile svg_interruptions "$(svgfile interruptions)" --rawfile svg_oslat "$(svgfile oslat)" \
	--rawfile svg_refill "$(svgfile refill)" --rawfile svg_drain_cdf "$(svgfile drain-cdf)" \
	--rawfile svg_alloc_cost "$(svgfile alloc-cost)" --rawfile svg_audit "$(svgfile audit)" \
	-f "$lib/html.jq" "$sum" > "$tmp/report.html" || die "rendering report.html failed (see the jq error above)"
mv "$tmp/report.md" "$run/report.md"
mv "$tmp/report.html" "$run/report.html"
info "report: $run/report.md, $run/report.html, plots in $run/plots/"
