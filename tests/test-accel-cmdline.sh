#!/bin/sh
# The QEMU command line each accelerator gets (boot.sh --dry-run), since
# KVM cannot be measured on these machines: on KVM the guest runs on the
# host's CPU, its clock is hardware's, so no TCG plugin and no TCG options;
# on TCG, multi-threaded TCG and the plugin when asked for. A plugin or an
# accelerator name that cannot work is refused in one line. Boots nothing,
# and writes nothing.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ktap_require qemu-system-x86_64
ktap_plan 8
: > "$scratch/bzImage"
: > "$scratch/initrd"
# cmdline ACCEL [BOOT.SH-ARGS...]: the command line, one argument a line
cmdline() {
	_acc=$1
	shift
	"$root/scripts/boot.sh" --kernel "$scratch/bzImage" --initrd "$scratch/initrd" --out "$scratch/out" \
		--isolated 1-3 --accel "$_acc" --dry-run "$@"
}
# has LINES ARG: ARG is one of LINES
has() { printf '%s\n' "$1" | grep -qxF -- "$2"; }
kvm=$(cmdline kvm) || ktap_bail_out "boot.sh --accel kvm --dry-run failed"
tcg=$(cmdline tcg --plugin "$scratch/qc-entry.so,out=x") || ktap_bail_out "boot.sh --accel tcg --dry-run failed"
ktap_check "kvm: -accel kvm" has "$kvm" kvm
ktap_check "kvm: no TCG option and no plugin" sh -c '! printf "%s\n" "$1" | grep -q -e tcg -e "^-plugin$"' - "$kvm"
ktap_check "tcg: multi-threaded TCG" has "$tcg" "tcg,thread=multi"
ktap_check "tcg: the plugin with its arguments" has "$tcg" "$scratch/qc-entry.so,out=x"
ktap_check "both: the isolation on the kernel command line" sh -c 'printf "%s\n" "$1" | grep -q "nohz_full=1-3 isolcpus=nohz,domain,managed_irq,1-3"' - "$kvm"
expect_error "kvm with a TCG plugin: refused" "a TCG plugin needs --accel tcg" cmdline kvm --plugin "$scratch/x.so"
expect_error "an unknown accelerator: refused" "'hvf' is not an accelerator" cmdline hvf
ktap_check "a dry run writes nothing: no --out directory, no results disk" test ! -e "$scratch/out"
ktap_finish
