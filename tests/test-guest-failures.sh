#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# A guest that hangs, panics or whose scenario fails ends the run with one
# clear line, a non-zero exit and a status file that says so: never a
# result that looks whole. Uses the stock build and guest scripts that
# misbehave on purpose.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"
run() { "$root/scripts/run.sh" -V spinlock --no-build -d 1 "$@"; }

ktap_require qemu-system-x86_64 gcc make jq cpio
ktap_plan 6
ktap_build_boots
echo 'sleep 600' > "$scratch/hang.sh"
expect_error "a hung guest is stopped at the timeout and named" "guest hung: no exit within 20 s" \
	run --guest-script "$scratch/hang.sh" --timeout 20
ktap_check "the hung run's status says failed" sh -c "status_of() { cat '$QC_RESULTS'/*/spinlock/status; }; status_of | grep -q '^failed: guest hung'"
rm -rf "$QC_RESULTS"

echo 'echo c > /proc/sysrq-trigger' > "$scratch/panic.sh"
expect_error "a panicking guest is reported with the panic line" "guest died before finishing: .*Kernel panic" \
	run --guest-script "$scratch/panic.sh" --timeout 60
ktap_check "the panicked run's status says failed" sh -c "grep -q '^failed: guest died' '$QC_RESULTS'/*/spinlock/status"
rm -rf "$QC_RESULTS"

printf 'echo about to fail\nexit 7\n' > "$scratch/fail.sh"
expect_error "a failing guest scenario is reported with its exit code" "guest scenario failed with exit 7" \
	run --guest-script "$scratch/fail.sh"
ktap_check "the failed scenario's log came home" sh -c "grep -q 'about to fail' '$QC_RESULTS'/*/spinlock/scenario.log"
ktap_finish
