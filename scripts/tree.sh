#!/bin/sh
# tree.sh VARIANT: make sure the pristine linux-source-6.1 tree is unpacked in
# the cache and VARIANT's patched copy exists, up to date with patches/.
#
# The pristine tree is never written to. A variant tree is a hard-linked copy
# of its base (git apply replaces a file rather than writing through the
# link), rebuilt only when the patch stack changes, and only moved into place
# once every patch applied: a half-patched tree is never left behind.
set -eu
. "$(dirname "$0")/lib.sh"

usage() { echo "usage: $0 VARIANT   (variants: $(qc_variants | tr '\n' ' '))"; }
[ $# -eq 1 ] || { usage >&2; exit 2; }
case $1 in -h|--help) usage; exit 0 ;; esac
variant=$1
check_variant "$variant"

ensure_pristine() {
	[ -f "$QC_TARBALL" ] ||
		die "kernel source $QC_TARBALL is missing: run 'sudo make setup' (installs linux-source-6.1)"
	want=$(stat -c '%s %Y' "$QC_TARBALL")
	if [ -f "$QC_PRISTINE/.qc-pristine" ] && [ "$(cat "$QC_PRISTINE/.qc-pristine")" = "$want" ]; then
		return
	fi
	info "unpacking $QC_TARBALL into $QC_CACHE (once)"
	mkdir -p "$QC_CACHE"
	tmp=$QC_CACHE/.unpack.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	tar -xf "$QC_TARBALL" -C "$tmp" || { rm -rf "$tmp"; die "could not unpack $QC_TARBALL"; }
	rm -rf "$QC_PRISTINE"
	mv "$tmp/linux-source-6.1" "$QC_PRISTINE" && rmdir "$tmp"
	echo "$want" > "$QC_PRISTINE/.qc-pristine"
}

# Identity of a variant's patch stack: every patch of it and of its bases.
stack_id() {
	v=$1
	while [ "$v" != "-" ]; do
		qc_variant_patches "$v" | while read -r p; do sha256sum "$p" | cut -d' ' -f1; done
		v=$(qc_variant_base "$v")
	done | sha256sum | cut -d' ' -f1
}

# Prints the path of the variant's tree.
ensure_tree() {
	v=$1
	base=$(qc_variant_base "$v")
	if [ "$base" = "-" ]; then
		base_dir=$QC_PRISTINE
	else
		base_dir=$(ensure_tree "$base") || exit 1
	fi
	if [ -z "$(qc_variant_patches "$v")" ] && [ "$base" = "-" ]; then
		echo "$base_dir"   # the stock tree is the pristine tree itself
		return
	fi
	dir=$(qc_tree_dir "$v")
	id=$(stack_id "$v")
	if [ -f "$dir/.qc-stack" ] && [ "$(cat "$dir/.qc-stack")" = "$id" ]; then
		echo "$dir"
		return
	fi
	info "preparing the $v tree (patches/$v on $base)"
	mkdir -p "$QC_CACHE/trees"
	new=$dir.new.$$
	rm -rf "$new"
	cp -al "$base_dir" "$new"
	rm -f "$new/.qc-stack" "$new/.qc-pristine"
	for p in $(qc_variant_patches "$v"); do
		if ! out=$(cd "$new" && git apply --whitespace=nowarn "$p" 2>&1); then
			rm -rf "$new"
			hunk=$(printf '%s\n' "$out" | grep -m1 'patch failed:' | sed 's/.*patch failed: //')
			die "patch ${p#"$QC_ROOT"/} does not apply to the $base tree${hunk:+ (failing hunk at $hunk)}: rebase it onto linux-source-6.1 $(stat -c %y "$QC_TARBALL" | cut -d' ' -f1)"
		fi
	done
	echo "$id" > "$new/.qc-stack"
	rm -rf "$dir"
	mv "$new" "$dir"
	echo "$dir"
}

ensure_pristine
ensure_tree "$variant"
