#!/bin/sh
# initramfs.sh [--build DIR] [--extra FILE] OUT: write the guest initramfs.
#
# The shared part (busybox-static, oslat, trace-cmd and the
# libraries ldd finds for them, guest-init/, cpusets/, tracing/ and the
# guest helpers compiled from guest-init/*.c) is cached by the hash of its
# inputs and rebuilt only when one changes. The per-run part (the variant's
# modules from DIR/qc-module, an optional extra guest script as
# /qc/custom.sh) is a second newc archive appended to it: Linux unpacks
# concatenated archives in order.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/guest-cc.sh"

build= extra=
while [ $# -gt 1 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--extra) extra=$2; shift 2 ;;
	*) die "unknown option '$1' (usage: $0 [--build DIR] [--extra FILE] OUT)" ;;
	esac
done
[ $# -eq 1 ] || die "usage: $0 [--build DIR] [--extra FILE] OUT"
out=$1
need_cmd cpio gcc sha256sum ldd
for b in /bin/busybox /usr/bin/oslat /usr/bin/trace-cmd; do
	[ -x "$b" ] || die "$b is missing: run 'sudo make setup'"
done
tools="/usr/bin/oslat /usr/bin/trace-cmd"

# Guest-side files from the repository: scripts, lists and C helpers.
repo_files() {
	cd "$QC_ROOT" && { find guest-init cpusets tracing common -type f \
		\( -name '*.sh' -o -name '*.awk' -o -name '*.list' -o -name '*.c' -o -name '*.h' -o -name init \); echo bench/pft.c; } | sort
}
libs() { ldd $tools | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' | sort -u; }

inputs_id() {
	{
		sha256sum "$0" "$QC_ROOT"/scripts/lib/*.sh /bin/busybox $tools $(libs)
		cd "$QC_ROOT" && repo_files | xargs sha256sum
	} | sha256sum | cut -c1-16
}

base=$QC_CACHE/initramfs/base-$(inputs_id).cpio
if [ ! -f "$base" ]; then
	info "building the shared initramfs ($(basename "$base"))"
	stage=$QC_CACHE/initramfs/stage.$$
	rm -rf "$stage"
	mkdir -p "$stage"/bin "$stage"/sbin "$stage"/usr/bin "$stage"/qc/bin \
		"$stage"/proc "$stage"/sys "$stage"/dev "$stage"/tmp "$stage"/results
	cp /bin/busybox "$stage/bin/"
	for a in $(/bin/busybox --list); do
		[ -e "$stage/bin/$a" ] || ln -s busybox "$stage/bin/$a"
	done
	for t in $tools; do cp "$t" "$stage/usr/bin/"; done
	for l in $(libs); do
		mkdir -p "$stage$(dirname "$l")"
		cp -L "$l" "$stage$l"
	done
	(cd "$QC_ROOT" && repo_files | grep -v -e '\.[ch]$' -e '^bench/' | cpio -pdm --quiet "$stage/qc")
	cp "$QC_ROOT/guest-init/init" "$stage/init"
	chmod +x "$stage/init"
	# Guest programs (helpers and the allocator benchmark) are static so
	# they need nothing from the initramfs.
	for c in "$QC_ROOT"/guest-init/*.c "$QC_ROOT"/bench/pft.c; do
		[ -f "$c" ] || continue
		qc_guest_cc "$stage/qc/bin/$(basename "$c" .c)" "$c" ||
			die "guest program $c does not compile"
	done
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$base.tmp"
	mv "$base.tmp" "$base"
	rm -rf "$stage"
fi

# The per-run archive.
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
mkdir -p "$run/qc/modules"
if [ -n "$build" ] && [ -d "$build/qc-module" ]; then
	find "$build/qc-module" -name '*.ko' -exec cp {} "$run/qc/modules/" \;
fi
if [ -n "$extra" ]; then
	[ -f "$extra" ] || die "guest script '$extra' does not exist"
	cp "$extra" "$run/qc/custom.sh"
fi
{ cat "$base"; (cd "$run" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0); } > "$out"
