#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# End to end: boot the stock (spinlock) variant under QEMU with
# CPUs 1-3 isolated, run oslat there, and check from the guest's own
# report that the kernel isolated what was asked and oslat measured every
# isolated CPU. Results go to a scratch directory, not results/.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"

ktap_require qemu-system-x86_64 gcc make jq cpio
ktap_plan 9
ktap_build_boots
ktap_guest "spinlock guest booted and ran oslat for 10 s" -V spinlock --no-build -s oslat -d 10 -c 1-3
out=$GUEST
field() { jq -r "$1" "$out/guest.json" 2>/dev/null; }
ktap_check "guest reports isolated CPUs 1-3" test "$(field .isolated)" = 1-3
ktap_check "guest reports nohz_full CPUs 1-3" test "$(field .nohz_full)" = 1-3
ktap_check "guest booted with all 4 CPUs online" test "$(field .cpus_online)" = 0-3
cpus=$(jq -r '[.thread[].cpu] | sort | map(tostring) | join(",")' "$out/oslat.json" 2>/dev/null)
ktap_check "oslat.json has results for CPUs 1,2,3 (got '$cpus')" test "$cpus" = 1,2,3
ktap_check "every oslat CPU reports a max latency" \
	test "$(jq '[.thread[] | select(.max > 0)] | length' "$out/oslat.json" 2>/dev/null)" = 3
ktap_check "the run says it is complete and records its accelerator" \
	sh -c "grep -qx ok '$out/status' && grep -q '^accel: ' '$out/boot-params.txt'"
# A make run result is a run of its own: run.txt and the run's status, so
# that make report renders it.
run=${out%/*}
ktap_check "run.sh wrote the run's run.txt and status (ok)" \
	sh -c "grep -qx 'variants: spinlock' '$run/run.txt' && grep -qx ok '$run/status'"
ktap_check "make report renders the make run result" \
	sh -c "make -s -C '$root' report RUN='$run' >/dev/null 2>&1 && test -s '$run/report.md'"
ktap_finish
