#!/bin/sh
# reanalyze.sh RUNDIR: `make report RUN=RUNDIR REANALYZE=1`. Analyses,
# judges and reports a copy of a run with the current analyzer and
# policy, in a new directory beside it (RUNDIR-reanalyzed-<UTC time>),
# and prints its path; RUNDIR itself is never written. The copy has the
# run's own files (run.txt, what its guests brought home) and none of the
# outputs of an earlier pass; each step fails closed as it does in a
# fresh run, so a refusal leaves the copy with its status saying why.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/runs.sh"
run=${1:?usage: reanalyze.sh RUNDIR}
run=${run%/}
[ -f "$run/$QC_RUN_TXT" ] || die "$run is not a quietcore run directory (no $QC_RUN_TXT): give a results/<run-id>/ directory"
new=$run-reanalyzed-$(date -u +%Y%m%d-%H%M%S)
mkdir "$new" || die "cannot make $new: is a re-analysis of $run running already?"
cp -r "$run"/. "$new"/
# The outputs of analyze.sh, summarize.sh and report.sh go: only what the
# run measured stays.
rm -rf "${new:?}/$QC_SUMMARY" "${new:?}/$QC_REPORT_MD" "${new:?}/$QC_REPORT_HTML" "${new:?}/$QC_PLOTS"
for d in "$new"/*/; do
	rm -f "$d$QC_ANALYSIS".* "$d$QC_ANALYSIS-$QC_WINDOW_QUIET".* "$d$QC_SELFTEST_JSON" \
		"$d$QC_SELFTEST_ANALYSIS".* "$d$QC_SELFTEST_CHARGED".* "$d$QC_AUDIT_JSON"
done
# A kept run's plugin counts are compressed (make keep): the copy reads
# them whole again, as its run wrote them.
for z in "$new"/*/"$QC_COST_FILE".gz "$new"/*/"$QC_ENTRY_COUNTS".gz "$new"/*/"$QC_TEXT_POKES".gz; do
	[ -f "$z" ] || continue
	gzip -dc "$z" > "${z%.gz}" && rm "$z" || die "cannot decompress $z: is the kept run whole? (git checkout $run)"
done
isolated=$(qc_kv "$new/$QC_RUN_TXT" isolated)
# Each guest that ran to the end and traced a window, as run.sh does;
# the run's status as compare.sh settles it, from its guests'.
qc_status_begin "$new/$QC_STATUS"
failed=
for d in "$new"/*/; do
	g=${d%/}
	g=${g##*/}
	qc_status_read "$d" missing
	[ "$QC_ST" = ok ] || { [ "$QC_ST" = missing ] || failed="$failed $g"; continue; }
	[ -f "$d$(qc_window_file trace "" dat)" ] || continue
	info "analyse $g"
	(QC_STATUS_FILE=$d$QC_STATUS "$QC_ROOT/scripts/analyze.sh" "${d%/}" "$isolated") || failed="$failed $g"
done
if [ -n "$failed" ]; then echo "failed: variant(s)$failed failed" > "$QC_STATUS_FILE"; else echo ok > "$QC_STATUS_FILE"; fi
"$QC_ROOT/scripts/summarize.sh" "$new"
"$QC_ROOT/scripts/report.sh" "$new"
info "re-analysed: $new (the run $run is unchanged)"
echo "$new"
