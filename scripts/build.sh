#!/bin/sh
# build.sh [--debug] [--config-only] VARIANT: build VARIANT's guest kernel
# out of tree (--config-only: stop once the config is checked, seconds).
#
# tinyconfig + the variant's config fragments (patches/series: guest.config
# ...; + configs/debug.config with --debug), every requested option (a
# later fragment's word winning) checked after olddefconfig, then bzImage
# and the project's guest module. make and ccache rebuild only what changed.
# Prints the build directory on success.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/plugin.sh"
. "$here/lib/variants.sh"

flavour= config_only=no
while [ $# -gt 0 ]; do
	case $1 in
	--debug) flavour=debug; shift ;;
	--config-only) config_only=yes; shift ;;
	-h|--help) echo "usage: $0 [--debug] [--config-only] VARIANT"; exit 0 ;;
	-*) die "unknown option '$1' (usage: $0 [--debug] [--config-only] VARIANT)" ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || die "usage: $0 [--debug] [--config-only] VARIANT"
variant=$1
qc_check_variant "$variant"
qc_check_tree "$variant"
need_cmd gcc make flex bison bc ccache git flock
# make's jobs: only the build runs make -j (paths.sh no longer asks nproc
# in every script).
QC_JOBS=${QC_JOBS:-$(nproc 2>/dev/null || echo 2)}
label=$variant${flavour:+ ($flavour)}

# One build at a time per cache: two runs that share it (two checkouts, or
# compare beside a test) must not run make in one build directory, or
# re-patch a tree the other is compiling.
mkdir -p "$QC_CACHE"
exec 9>"$QC_CACHE/.build.lock"
flock -n 9 || { info "waiting for another build in $QC_CACHE to finish"; flock 9; }

step 1 4 "kernel tree for $label"
tree=$("$QC_ROOT/scripts/tree.sh" "$variant")
out=$(qc_build_dir "$variant" "$flavour")
mkdir -p "$out"

fragments=$(qc_variant_configs "$variant" "$flavour" | tr '\n' ' ')

kmake() {
	make -C "$tree" ARCH="$QC_ARCH" O="$1" CC="ccache gcc" \
		KBUILD_BUILD_USER=quietcore KBUILD_BUILD_HOST=quietcore \
		KBUILD_BUILD_TIMESTAMP="$(stat -c %y "$tree/Makefile")" "$@"
}

step 2 4 "config: tinyconfig + $(for f in $fragments; do basename "$f"; done | tr '\n' ' ')"
# Generate in a scratch directory and copy only on change, so an unchanged
# config does not touch the build directory's timestamps.
cfg=$out/.qc-config
mkdir -p "$cfg"
# tinyconfig depends on nothing but the tree and the toolchain Kconfig
# probes (compiler, linker, the tools it looks for), and costs two Kconfig
# passes of ~80 compiler probes each (~15 CPU-s): it is kept, with what
# it was made from, and made again only when that changes.
tiny_key=$(printf '%s\n' "$tree" "$(cat "$tree/.qc-pristine" "$tree/.qc-stack" 2>/dev/null)" \
	"$(gcc --version 2>&1 | head -n1)" "$(ld --version 2>&1 | head -n1)" \
	"$(command -v pahole rustc bindgen clang 2>/dev/null)" "LLVM=${LLVM:-} CROSS_COMPILE=${CROSS_COMPILE:-}")
if [ -f "$cfg/tiny.config" ] && [ "$(cat "$cfg/tiny.key" 2>/dev/null)" = "$tiny_key" ]; then
	cp "$cfg/tiny.config" "$cfg/.config"
	echo "tinyconfig: kept from an earlier build ($cfg/tiny.key)" >"$cfg/log"
else
	rm -f "$cfg/tiny.config" "$cfg/tiny.key"
	make -s -C "$tree" ARCH="$QC_ARCH" O="$cfg" tinyconfig >"$cfg/log" 2>&1 ||
		die "tinyconfig failed for $label: see $cfg/log"
	cp "$cfg/.config" "$cfg/tiny.config"
	printf '%s\n' "$tiny_key" > "$cfg/tiny.key"
fi
# shellcheck disable=SC2086
"$tree/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" $fragments >>"$cfg/log" 2>&1 ||
	die "merging config fragments failed for $label: see $cfg/log"
make -s -C "$tree" ARCH="$QC_ARCH" O="$cfg" olddefconfig >>"$cfg/log" 2>&1 ||
	die "olddefconfig failed for $label: see $cfg/log"
# shellcheck disable=SC2086
lost=$(qc_config_requested $fragments | while read -r line; do
	case $line in
	"# CONFIG_"*) sym=${line#\# }; sym=${sym%% *}; ! grep -q "^$sym=" "$cfg/.config" || echo "$sym" ;;
	*) grep -qx "$line" "$cfg/.config" || echo "${line%%=*}" ;;
	esac
done | tr '\n' ' ')
[ -z "$lost" ] || die "Kconfig dropped requested options for $label: ${lost}(check their dependencies in configs/)"
cmp -s "$cfg/.config" "$out/.config" || cp "$cfg/.config" "$out/.config"
if [ "$config_only" = yes ]; then
	info "config of $label checked: every requested option survived olddefconfig ($out/.config)"
	exit 0
fi

# One progress line per 250 objects keeps a cold build's log readable.
count_objects() {
	n=0
	while IFS= read -r line; do
		case $line in "  CC "*)
			n=$((n + 1))
			[ $((n % 250)) -ne 0 ] || info "$n objects compiled"
		esac
	done
}

step 3 4 "compiling $label in $out ($QC_JOBS jobs, ccache)"
export CCACHE_DIR="${CCACHE_DIR:-$QC_CACHE/ccache}"
ccache -M 8G >/dev/null 2>&1 || true
start=$(date +%s)
if ! kmake "$out" -j"$QC_JOBS" bzImage modules 2>&1 | tee "$out/build.log" |
	count_objects >&2 ||
	! [ -f "$out/arch/x86/boot/bzImage" ] || grep -q 'Error [0-9]' "$out/build.log"; then
	grep -E 'error|Error' "$out/build.log" | head -5 >&2
	die "kernel build failed for $label: see $out/build.log"
fi
info "kernel built in $(( $(date +%s) - start )) s: $out/arch/x86/boot/bzImage"

step 4 4 "guest module for $label"
# hammer/ holds the module's sources; it is built in the build directory
# so that variants never share objects.
if [ -f "$QC_ROOT/hammer/Kbuild" ]; then
	mod=$out/qc-module
	mkdir -p "$mod"
	for f in "$QC_ROOT"/hammer/Kbuild "$QC_ROOT"/hammer/*.c "$QC_ROOT"/hammer/*.h; do
		if [ -f "$f" ] && ! cmp -s "$f" "$mod/$(basename "$f")"; then cp "$f" "$mod/"; fi
	done
	kmake "$out" M="$mod" modules >"$out/module.log" 2>&1 ||
		{ tail -5 "$out/module.log" >&2; die "guest module build failed for $label: see $out/module.log"; }
fi
echo "$out"
