#!/bin/sh
# vcpus.sh SOCKET [VMLINUX] [SAMPLES]: where each vCPU of a running guest
# is, read SAMPLES times (default 3), a second apart, through QEMU's
# gdbstub on the unix SOCKET (boot.sh's -gdb). One line per sample and
# vCPU: "SAMPLE CPU PC WHERE", WHERE being symbol+offset from VMLINUX, or
# "?" (user space, or no symbols). gdb stops the guest only for the moment
# it reads the registers.
#
# boot.sh runs it on a guest about to reach its limit: a CPU that loops
# with interrupts off (a lock, or QEMU 7.2 TCG running a kernel text
# patch's int3 the kernel has already removed: docs/findings.md, "Under TCG")
# runs none of the guest's own dumps, but its program counter says where.
set -u
sock=${1:?usage: vcpus.sh SOCKET [VMLINUX] [SAMPLES]}
vmlinux=${2:-}
samples=${3:-3}
[ -f "$vmlinux" ] || vmlinux=
command -v gdb >/dev/null 2>&1 || { echo "vcpus.sh: no gdb (make setup installs it)" >&2; exit 1; }
i=1
while [ "$i" -le "$samples" ]; do
	# shellcheck disable=SC2016 # $pc is gdb's
	timeout 20 gdb -nx -batch ${vmlinux:+"$vmlinux"} -ex "target remote $sock" \
		-ex 'thread apply all x/i $pc' -ex detach 2>/dev/null |
		awk -v s="$i" '
		/^Thread [0-9]+ \(Thread [0-9.]+ \(CPU#[0-9]+/ { c = $0; sub(/.*CPU#/, "", c); sub(/[^0-9].*/, "", c) }
		/^=> 0x/ && c != "" {
			w = "?"
			if (match($0, /<[^>]+>/)) w = substr($0, RSTART + 1, RLENGTH - 2)
			pc = $2; sub(/:$/, "", pc)
			print s, c, pc, w; c = ""
		}' | sort -k2,2n
	i=$((i + 1))
	[ "$i" -gt "$samples" ] || sleep 1
done
