#!/bin/sh
# compare.sh: the main job. Build what is missing, run one scenario on each
# variant in one run (same machine, same accelerator, back to back), then
# summarize and print the comparison. One results/<run-id>/ per call.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/../common/cpulist.sh"
. "$here/lib/inputs.sh"
. "$here/lib/plugin.sh"
. "$here/lib/runs.sh"
. "$here/lib/variants.sh"

# (the defaults read in this shell: the registry is then read once a call)
qc_series_marked default
variants=$QC_MARKED scenario=hammer duration=20 isolated=1-3 debug= bench_runs= refill=auto rate=
cost_runs= build=yes decoy= kernel_args= hwtime=--count-entries time_scale=
while [ $# -gt 0 ]; do
	case $1 in
	--variants) variants=$2; shift ;;
	--scenario) scenario=$2; shift ;;
	--duration) duration=$2; shift ;;
	--isolated) isolated=$2; shift ;;
	--refill) refill=$2; shift ;;
	--rate) rate=$2; shift ;;
	--debug) debug=--debug ;;
	--bench-runs) bench_runs=$2; shift ;;
	--cost-runs) cost_runs=$2; shift ;;
	--no-build) build=no ;;
	--no-hardware-time) hwtime= ;;
	--time-scale) time_scale=$2; shift ;;
	--decoy) decoy=$2; shift ;;
	--kernel-arg) qc_check_kernel_arg "$2"; kernel_args="$kernel_args --kernel-arg $2"; shift ;;
	-h|--help) echo "usage: $0 [--variants LIST (default: those patches/series marks default, $(qc_default_variants))] [--scenario NAME] [--duration S] [--isolated LIST] [--refill LIST|auto|none] [--rate N] [--debug] [--bench-runs N (0: no allocator benchmark; default 5, audit 0)] [--cost-runs N (0: no counted benchmark under the TCG plugin; default 5, audit 0)] [--decoy N (the hammer window also runs hammer/decoy.c, N rounds)] [--kernel-arg ARG (one more kernel parameter for the scenario's guests, e.g. rcutree.kthread_prio=20; repeatable)] [--no-build (use the builds there are)] [--no-hardware-time (no qc-entry plugin in the scenario's guests: RCU forcing left untimed)] [--time-scale auto (measure the guests' slowdown against hardware in a first boot, then boot the scenario's guests with RCU's forcing intervals scaled by it: scripts/time-scale.sh)]"; exit 0 ;;
	*) die "unknown option '$1' (see $0 --help)" ;;
	esac
	shift
done
# Every input, checked once, before anything is built or written; compare
# boots guests of run.sh's default size for the scenario.
qc_guest_of "$scenario"
qc_check_inputs "$variants" "$scenario" "$duration" "$isolated" "$QC_GUEST_SMP" "$rate" "$refill"
refill_cpus=$QC_REFILL_CPUS
[ "$scenario" != rthog ] || qc_check_rthog "$refill_cpus" ""
[ "$build" = no ] || qc_check_tree $variants

# (the variants counted in the shell, as wc -w counts the words)
n=0
for v in $variants; do n=$((n + 1)); done
: "${bench_runs:=$QC_GUEST_BENCH_RUNS}" "${cost_runs:=$QC_GUEST_BENCH_RUNS}"
case $bench_runs in ''|*[!0-9]*) die "--bench-runs '$bench_runs' is not a number" ;; esac
[ "$bench_runs" -eq 0 ] || [ "$bench_runs" -ge 2 ] || die "--bench-runs needs at least 2 runs for a t-test (or 0 to skip)"
case $cost_runs in ''|*[!0-9]*) die "--cost-runs '$cost_runs' is not a number" ;; esac
case $decoy in ''|[1-9]|[1-9][0-9]|[1-9][0-9][0-9]) ;; *) die "--decoy '$decoy' is not a number of rounds from 1 to 999" ;; esac
[ -z "$decoy" ] || [ "$scenario" = hammer ] || die "--decoy runs in the hammer scenario only, not '$scenario'"
[ "$cost_runs" -eq 0 ] || [ "$cost_runs" -ge 2 ] || die "--cost-runs needs at least 2 runs for a t-test (or 0 to skip)"
case $time_scale in ''|auto) ;; *) die "--time-scale '$time_scale': only 'auto' (the factor measured in a first boot)" ;; esac
total=$((2 * n + 2))
[ "$build" = yes ] || total=$((total - n))
[ "$bench_runs" -eq 0 ] || total=$((total + n))
[ "$cost_runs" -eq 0 ] || total=$((total + n))
[ -z "$time_scale" ] || total=$((total + 1))
i=0
for v in $variants; do
	[ "$build" = yes ] || break
	i=$((i + 1))
	step "$i" "$total" "build $v"
	"$QC_ROOT/scripts/build.sh" $debug "$v" >/dev/null
done

# Every function name the analyzer matches in stacks is in each build (or
# declared absent on it): a name a build renamed would otherwise stop
# counting silently (tracing/README.md, "A sender's own frames").
for v in $variants; do
	"$QC_ROOT/scripts/check-names.sh" "$v" "${debug:+debug}" "$scenario" >/dev/null
done

run_id=$(qc_new_run)
run=$QC_RESULTS/$run_id
qc_status_begin "$run/$QC_STATUS"
qc_run_txt "$run" "$variants" "$scenario" "$duration" "$isolated" "$refill_cpus"

# TIME_SCALE=auto: the first variant's guest measures the slowdown, and
# the scenario's guests get RCU's forcing intervals scaled by it
# (time-scale.json in the run, for the summary and the report).
if [ -n "$time_scale" ]; then
	set -- $variants
	i=$((i + 1))
	step "$i" "$total" "measure the guests' slowdown against hardware (a 10 s hammer boot of $1 under qc-entry)"
	for arg in $("$QC_ROOT/scripts/time-scale.sh" "$1" "$run/$QC_TIME_SCALE"); do
		kernel_args="$kernel_args --kernel-arg $arg"
	done
	info "time scale: x$(jq .factor "$run/$QC_TIME_SCALE") ($(jq -r '.guest_ns_per_insn | "\(.median) guest ns an instruction, \(.stretches) kernel stretches"' "$run/$QC_TIME_SCALE")):$kernel_args"
fi

# run_in_run NAME RUN.SH-ARGS...: one guest of this run; a failure is
# remembered under NAME and the rest still run. Each guest keeps its own
# status file, not the run's.
failed=
run_in_run() {
	name=$1
	shift
	# shellcheck disable=SC2086
	(unset QC_STATUS_FILE; "$QC_ROOT/scripts/run.sh" --no-build --run-id "$run_id" $debug "$@" >/dev/null) ||
		failed="$failed $name"
}
for v in $variants; do
	i=$((i + 1))
	step "$i" "$total" "run $v ($scenario, ${duration} s window)"
	run_in_run "$v" -V "$v" -s "$scenario" -d "$duration" -c "$isolated" --refill "${refill_cpus:-none}" \
		${rate:+--rate "$rate"} ${decoy:+--param "decoy=$decoy"} $kernel_args $hwtime
done
if [ "$bench_runs" -gt 0 ]; then
	for v in $variants; do
		i=$((i + 1))
		step "$i" "$total" "allocator benchmark on $v ($bench_runs pft runs)"
		run_in_run "$(qc_label "$v" "" "$QC_TAG_BENCH")" -V "$v" -s bench --tag "$QC_TAG_BENCH" --param "bench_runs=$bench_runs"
	done
fi
# The same benchmark counted instead of timed: pft under the qc-cost TCG
# plugin (scenario "cost", bench/plugin/), into <variant>-cost/.
if [ "$cost_runs" -gt 0 ]; then
	for v in $variants; do
		i=$((i + 1))
		step "$i" "$total" "counted allocator cost on $v (TCG plugin, 1-3 threads x $cost_runs pft runs)"
		run_in_run "$(qc_label "$v" "" "$QC_TAG_COST")" -V "$v" -s cost --tag "$QC_TAG_COST" --count-cost \
			--param "cost_runs=$cost_runs"
	done
fi
# The run's status is settled before the summary and report read it.
if [ -n "$failed" ]; then
	echo "failed: variant(s)$failed failed" > "$QC_STATUS_FILE"
else
	echo "ok" > "$QC_STATUS_FILE"
fi
i=$((i + 1))
step "$i" "$total" "summarize"
"$QC_ROOT/scripts/summarize.sh" "$run"
# The results line before the report, so that the report's answer table
# is the job's last output.
[ -n "$failed" ] || info "results: $run"
step "$total" "$total" "report"
"$QC_ROOT/scripts/report.sh" "$run"
[ -z "$failed" ] ||
	die "run $run_id is incomplete: variant(s)$failed failed (see their status and console.log files)"
