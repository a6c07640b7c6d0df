#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# The guest kernel module (hammer/) on its own: a spinlock guest runs
# tests/guest/module-smoke.sh, which loads qc_hammer, times a hammer run at
# 100/s (450-500 calls in 5 s), refuses a second run while one runs, plants
# work items and IPIs and finds exactly those in a trace, refuses malformed
# plant requests, stops a run early, runs at 1000/s and with a stall
# threshold, and unloads during a run. One boot of about a minute (TCG).
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"

ktap_require qemu-system-x86_64 gcc make jq cpio
ktap_plan 4
ktap_build_boots
ktap_guest "a spinlock guest ran the module's smoke test" \
	-V spinlock --no-build --guest-script "$root/tests/guest/module-smoke.sh"
log=$GUEST/smoke.log
ktap_check "it wrote smoke.log" test -s "$log"
fails=$(grep 'smoke: FAIL' "$log" 2>/dev/null)
ktap_check "none of its checks failed${fails:+: $(echo $fails)}" test -s "$log" -a -z "$fails"
ktap_check "it ran to its end ('smoke: 0 failures')" test "$(tail -n 1 "$log" 2>/dev/null)" = "smoke: 0 failures"
ktap_finish
