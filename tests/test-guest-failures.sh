#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# A guest that hangs, panics or whose scenario fails ends the run with one
# clear line, a non-zero exit and a status file that says so: never a
# result that looks whole. Uses the stock build and guest scripts that
# misbehave on purpose, and a guest that finishes only after its own
# watchdog dumped backtraces (guest-init/init) is refused too.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"
run() { "$root/scripts/run.sh" -V spinlock --no-build -d 1 "$@"; }

ktap_require qemu-system-x86_64 gcc make jq cpio
ktap_plan 10
ktap_build_boots
echo 'sleep 600' > "$scratch/hang.sh"
expect_error "a hung guest is stopped at the timeout and named, with its last progress line" \
	"guest hung: no exit within 20 s (last progress: CPUs online: 0-3; vCPUs at: 0 [^ ]*, 1 " \
	run --guest-script "$scratch/hang.sh" --timeout 20
ktap_check "the hung run's status says failed" sh -c "status_of() { cat '$QC_RESULTS'/*/spinlock/status; }; status_of | grep -q '^failed: guest hung'"
# boot.sh, a third of a short limit before it: every vCPU, three times, in
# the kernel's own text (the guest idles in 'sleep 600').
vcpus_named() {
	set -- "$QC_RESULTS"/*/spinlock/vcpus.txt
	[ "$(wc -l < "$1")" -eq 12 ] && [ "$(grep -cE '^[1-3] [0-3] 0x[0-9a-f]+ [a-z_][a-z0-9_.]*\+[0-9]+$' "$1")" -eq 12 ]
}
ktap_check "before the limit boot.sh read where each vCPU was: 3 samples of 4, named from vmlinux" vcpus_named
# guest-init/init: at half of a short limit the guest says where it is.
ktap_check "before the limit the guest dumped its blocked tasks and CPU backtraces" sh -c \
	"c=\$(cat '$QC_RESULTS'/*/spinlock/console.log) && echo \"\$c\" | grep -q 'quietcore: no exit after 10 s of the host.s 20' &&
	 echo \"\$c\" | grep -q 'Show Blocked State' && echo \"\$c\" | grep -q 'NMI backtrace for cpu 0'"
rm -rf "$QC_RESULTS"

# One that finishes after that dump (at 15 s of 30) measured NMIs too.
# shellcheck disable=SC2016 # run by the guest
echo 'while [ "$(cut -d. -f1 /proc/uptime)" -lt 17 ]; do sleep 1; done' > "$scratch/late.sh"
expect_error "a guest that finishes after its watchdog's dump is refused" \
	"finished only after its watchdog's dump at 15 s of the 30 s limit" \
	run --guest-script "$scratch/late.sh" --timeout 30
ktap_check "the late run's status says failed" sh -c "grep -q '^failed: the spinlock guest finished only after' '$QC_RESULTS'/*/spinlock/status"
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
