#!/bin/sh
# stress.sh [--duration S] [--variants LIST] [--rate N] [--no-build]: the correctness
# stress of the kernel series. Each variant's debug build (lockdep,
# PROVE_RCU, DEBUG_VM, DEBUG_LIST...) runs the "stress" scenario for S
# seconds (default 300), the variants patches/series marks "default" unless
# --variants names others; run.sh fails a variant on any splat in its
# console. Logs land in results/<run-id>/<variant>-debug/, with the run's
# summary and report.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/../common/cpulist.sh"
. "$here/lib/inputs.sh"
. "$here/lib/plugin.sh"
. "$here/lib/runs.sh"
. "$here/lib/variants.sh"
duration=300 variants=$(qc_default_variants) rate= isolated=1-3 build=yes
while [ $# -gt 0 ]; do
	case $1 in
	--duration) duration=$2; shift ;;
	--variants) variants=$2; shift ;;
	--rate) rate=$2; shift ;;
	--no-build) build=no ;;
	-h|--help) echo "usage: $0 [--duration S] [--variants LIST (default: $(qc_default_variants))] [--rate N] [--no-build]"; exit 0 ;;
	*) die "unknown option '$1' (see $0 --help)" ;;
	esac
	shift
done
# Every input, checked once, before anything is built or written.
qc_check_inputs "$variants" stress "$duration" "$isolated" "$QC_SMP" "$rate" none
[ "$build" = no ] || qc_check_tree $variants
n=$(echo $variants | wc -w) i=0
for v in $variants; do
	i=$((i + 1))
	if [ "$build" = yes ]; then
		step "$i" "$((n + 1))" "debug build of $v"
		"$QC_ROOT/scripts/build.sh" --debug "$v" >/dev/null
	else
		# run.sh --no-build refuses a variant that was never built
		step "$i" "$((n + 1))" "debug build of $v: the existing one (--no-build)"
	fi
done
run_id=$(qc_new_run)
run=$QC_RESULTS/$run_id
qc_status_begin "$run/$QC_STATUS"
qc_run_txt "$run" "$variants" stress "$duration" "$isolated"
failed=
for v in $variants; do
	step "$((n + 1))" "$((n + 1))" "stress $v (debug) for $duration s"
	(unset QC_STATUS_FILE; "$QC_ROOT/scripts/run.sh" --no-build --debug --run-id "$run_id" -V "$v" -s stress \
		-d "$duration" -c "$isolated" ${rate:+--rate "$rate"} --timeout $((duration * 2 + 300)) >/dev/null) ||
		failed="$failed $v"
done
[ -z "$failed" ] ||
	die "stress failed for$failed: see $run/<variant>-$QC_FLAVOUR_DEBUG/"
echo ok > "$QC_STATUS_FILE"
# A summary and a report like every run's (NO-TRACE: the stress traces no
# window; the report names the drains and the phases each debug kernel
# went through), so that a stress run can be kept (make keep).
"$QC_ROOT/scripts/summarize.sh" "$run" >/dev/null
"$QC_ROOT/scripts/report.sh" "$run" >/dev/null
info "no splat in any variant; logs and report in $QC_RESULTS/$run_id"
