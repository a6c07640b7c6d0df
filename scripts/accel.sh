#!/bin/sh
# accel.sh KERNEL INITRD: print the accelerator guests use here, "kvm" or
# "tcg". /dev/kvm existing is not enough on these machines (KVM guests hang
# before the kernel prints anything), so KVM is used only after a probe
# guest really booted under it. The answer is cached per machine;
# QC_ACCEL=tcg|kvm overrides it.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"

if [ -n "${QC_ACCEL:-}" ]; then
	case $QC_ACCEL in tcg|kvm) echo "$QC_ACCEL"; exit 0 ;; esac
	die "QC_ACCEL='$QC_ACCEL' is not an accelerator: use tcg or kvm"
fi
cache=$QC_CACHE/accel.$(hostname)
[ -f "$cache" ] && { cat "$cache"; exit 0; }
answer=tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	info "probing whether KVM really runs a guest here (once, up to 30 s)"
	probe=$(mktemp -d)
	if "$QC_ROOT/scripts/boot.sh" --kernel "$1" --initrd "$2" --out "$probe" \
		--isolated 1 --smp 2 --mem 512 --accel kvm --timeout 30 \
		--append "qc.scenario=probe" >/dev/null 2>&1; then
		answer=kvm
	fi
	rm -rf "$probe"
fi
info "accelerator: $answer"
mkdir -p "$QC_CACHE"
echo "$answer" > "$cache"
echo "$answer"
