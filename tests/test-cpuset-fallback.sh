#!/bin/sh
# The cpuset fallback for kernels that refuse a partition over CPUs
# isolcpus=domain isolated at boot (6.12): isolate.sh keeps a member
# cpuset only when the boot isolated every one of them (boot_isolated_all,
# cpusets/tasks.sh), and verify.sh accepts a member cpuset on that
# condition alone. On a fake cgroup root and CPU directory; boots nothing.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_CGROOT="$scratch/cg" QC_SYSCPU="$scratch/cpu"
mkdir -p "$QC_CGROOT/isolated" "$QC_SYSCPU"
QC_CPUSETS=$root/cpusets
. "$QC_CPUSETS/tasks.sh"

ktap_plan 8
# booted ISOLATED: the boot's isolated CPUs, as /sys/devices/system/cpu/isolated says
booted() { printf '%s\n' "$1" > "$QC_SYSCPU/isolated"; }
qc_cpulist_mask 1-3; m13=$CL_MASK
qc_cpulist_mask 2; m2=$CL_MASK
booted 1-3
ktap_check "boot_isolated_all: CPUs 1-3 after a boot that isolated 1-3" boot_isolated_all "$m13"
ktap_check "... and CPU 2 alone" boot_isolated_all "$m2"
# fails COMMAND...: COMMAND fails (run in this shell, not in a shell of
# its own a check).
fails() { ! "$@"; }
booted 1-2
ktap_check "... not CPUs 1-3 after a boot that isolated 1-2" fails boot_isolated_all "$m13"
booted ''
ktap_check "... nor after a boot that isolated nothing" fails boot_isolated_all "$m2"
rm "$QC_SYSCPU/isolated"
ktap_check "... nor where the kernel does not say" fails boot_isolated_all "$m2"

# verify.sh's partition line (its other checks read this host's tasks and
# IRQs and are not looked at here)
echo member > "$QC_CGROOT/isolated/cpuset.cpus.partition"
echo 1-3 > "$QC_CGROOT/isolated/cpuset.cpus.effective"
booted 1-3
# verify_says LINE-REGEX: a line of verify.sh's answer for CPUs 1-3 matches
# (its pipeline in this shell, not in a sh of its own a check).
verify_says() { sh "$root/cpusets/verify.sh" 0 1-3 | grep -q "$1"; }
ktap_check "verify.sh: a member cpuset over CPUs the boot isolated is accepted (info)" \
	verify_says '^info cpu 1-3: .* is a member cpuset'
echo 0-3 > "$QC_CGROOT/cpuset.cpus.effective"
ktap_check "verify.sh: ... and the root cgroup keeps those CPUs then (no partition took them)" \
	verify_says '^info cpu 1-3: cgroup .* keeps them'
booted 1-2
ktap_check "verify.sh: ... and fails where the boot did not isolate them all" \
	verify_says '^FAIL cpu 1-3: .* is no partition and the boot did not isolate all of 1-3'
ktap_finish
