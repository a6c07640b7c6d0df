#!/bin/sh
# stress.sh [--duration S] [--variants "wq rcu spinlock"] [--no-build]: the correctness
# stress of the kernel series. Each variant's debug build (lockdep,
# PROVE_RCU, DEBUG_VM, DEBUG_LIST...) runs the "stress" scenario for S
# seconds (default 300); run.sh fails a variant on any splat in its
# console. Logs land in results/<run-id>/<variant>-debug/.
set -eu
. "$(dirname "$0")/lib.sh"
duration=300 variants="wq rcu spinlock" build=yes
while [ $# -gt 0 ]; do
	case $1 in
	--duration) duration=$2; shift ;;
	--variants) variants=$2; shift ;;
	--no-build) build=no ;;
	-h|--help) echo "usage: $0 [--duration S] [--variants LIST] [--no-build]"; exit 0 ;;
	*) die "unknown option '$1' (see $0 --help)" ;;
	esac
	shift
done
for v in $variants; do check_variant "$v"; done
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
qc_run_txt "$QC_RESULTS/$run_id" "$variants" stress "$duration" 1-3
failed=
for v in $variants; do
	step "$((n + 1))" "$((n + 1))" "stress $v (debug) for $duration s"
	"$QC_ROOT/scripts/run.sh" --no-build --debug --run-id "$run_id" -V "$v" -s stress \
		-d "$duration" --timeout $((duration * 2 + 300)) >/dev/null || failed="$failed $v"
done
if [ -n "$failed" ]; then
	echo "failed:$failed" > "$QC_RESULTS/$run_id/status"
	die "stress failed for$failed: see results/$run_id/<variant>-debug/"
fi
echo ok > "$QC_RESULTS/$run_id/status"
info "no splat in any variant; logs in $QC_RESULTS/$run_id"
