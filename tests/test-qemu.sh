#!/bin/sh
# scripts/lib/qemu.sh: the rig boots only a QEMU it was proven on. A fake
# qemu-system-x86_64 prints each version: 10.0.2 passes; 7.2.22 (bookworm's,
# which runs a stale int3) is refused in one line naming make setup, and
# passes only with QC_QEMU_UNPROVEN=1; a binary that names no QEMU version,
# or none at all, is refused; boot.sh refuses before it boots anything.
# Boots nothing.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ktap_plan 7

# fake VERSION-LINE: a qemu-system-x86_64 that prints VERSION-LINE.
fake() {
	printf '#!/bin/sh\necho "%s"\necho "Copyright (c) 2003-2025 Fabrice Bellard and the QEMU Project developers"\n' "$1" > "$scratch/qemu"
	chmod +x "$scratch/qemu"
}
# check [ENV...]: qc_check_qemu's output and status, in a shell of its own.
check() { env QC_QEMU="$scratch/qemu" "$@" sh -c ". '$root/scripts/lib/log.sh'; . '$root/scripts/lib/qemu.sh'; qc_check_qemu"; }

fake "QEMU emulator version 10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)"
ktap_check "QEMU 10.0.2, the proven one, passes and is named" test "$(check)" = 10.0.2

fake "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)"
expect_error "QEMU 7.2.22 is refused, naming make setup" \
	"QEMU 7.2.22 is not one the rig was proven on (10.0.2): run 'sudo make setup'" check
ktap_check "... and boots with QC_QEMU_UNPROVEN=1, to measure it" test "$(check QC_QEMU_UNPROVEN=1)" = 7.2.22

fake "not an emulator"
expect_error "a binary that names no QEMU version is refused" "names no version" check
expect_error "a QEMU that is not there is refused, naming make setup" \
	"is not installed: run 'sudo make setup'" env QC_QEMU="$scratch/none" sh -c ". '$root/scripts/lib/log.sh'; . '$root/scripts/lib/qemu.sh'; qc_check_qemu"

fake "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)"
: > "$scratch/bzImage"; : > "$scratch/initrd"
expect_error "boot.sh refuses it before booting" "QEMU 7.2.22 is not one the rig was proven on" \
	env QC_QEMU="$scratch/qemu" sh "$root/scripts/boot.sh" --kernel "$scratch/bzImage" --initrd "$scratch/initrd" \
	--out "$scratch/out" --isolated 1-3
ktap_check "... and writes no boot parameters" test ! -e "$scratch/out/boot-params.txt"
ktap_finish
