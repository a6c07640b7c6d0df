# qemu.sh: which QEMU boots the guests, and whether the rig was proven on
# it. QEMU 7.2 (Debian bookworm) runs a stale int3 after the guest patches
# kernel text (docs/findings.md, "Under TCG"); `make setup` installs QEMU
# from bookworm-backports instead (scripts/setup.sh).
# Needs log.sh.
# shellcheck shell=sh

# The QEMU versions the rig's measurements were proven on: one place.
QC_QEMU_PROVEN="10.0.2"
# The Debian packages that bring it, from QC_QEMU_SUITE (setup.sh pins them).
QC_QEMU_SUITE=bookworm-backports
QC_QEMU_PACKAGES="qemu-system-x86 qemu-system-common qemu-system-data seabios"

# The emulator: QC_QEMU names another binary (the side-by-side measurement of
# two QEMU versions on one machine), else the one on PATH.
QC_QEMU=${QC_QEMU:-qemu-system-x86_64}

# qc_qemu_version: "MAJOR.MINOR.MICRO" of QC_QEMU, from its --version line.
qc_qemu_version() {
	"$QC_QEMU" --version 2>/dev/null |
		sed -n '1s/^QEMU emulator version \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1/p'
}

# qc_check_qemu: refuse a QEMU the rig was not proven on, unless
# QC_QEMU_UNPROVEN=1 says the run is a measurement of that QEMU itself.
# Prints the version.
qc_check_qemu() {
	command -v "$QC_QEMU" >/dev/null 2>&1 ||
		die "'$QC_QEMU' is not installed: run 'sudo make setup' once on this machine"
	_qv=$(qc_qemu_version)
	[ -n "$_qv" ] || die "'$QC_QEMU --version' names no version: is QC_QEMU a QEMU binary?"
	case " $QC_QEMU_PROVEN " in *" $_qv "*) echo "$_qv"; return 0 ;; esac
	[ "${QC_QEMU_UNPROVEN:-}" = 1 ] ||
		die "QEMU $_qv is not one the rig was proven on ($QC_QEMU_PROVEN): run 'sudo make setup' to install it from $QC_QEMU_SUITE (QC_QEMU_UNPROVEN=1 boots it anyway, to measure that QEMU)"
	echo "$_qv"
}
