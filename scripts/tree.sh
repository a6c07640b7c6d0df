#!/bin/sh
# tree.sh VARIANT: make sure the pristine tree VARIANT is built from
# (patches/series: linux-source-6.1, ...) is unpacked in the cache, each
# tree in a directory of its own, and VARIANT's patched copy exists, up to
# date with patches/.
#
# A pristine tree is never written to. A variant tree is a hard-linked copy
# of its base (git apply replaces a file rather than writing through the
# link), rebuilt only when the patch stack changes, and only moved into place
# once every patch applied: a half-patched tree is never left behind.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/plugin.sh"
. "$here/lib/variants.sh"

usage() { echo "usage: $0 VARIANT   (variants: $(qc_variant_words))"; }
[ $# -eq 1 ] || { usage >&2; exit 2; }
case $1 in -h|--help) usage; exit 0 ;; esac
variant=$1
qc_check_variant "$variant"
qc_check_tree "$variant"
qc_variant_word "$variant" 3
tree=$QC_VW
tarball=$(qc_tree_tarball "$tree")
pristine=$(qc_pristine_dir "$tree")

# The tarball holds one directory named after the package; a new upload of
# the package (a new size or time) unpacks afresh.
ensure_pristine() {
	want=$(stat -c '%s %Y' "$tarball")
	if [ -f "$pristine/.qc-pristine" ] && [ "$(cat "$pristine/.qc-pristine")" = "$want" ]; then
		return
	fi
	info "unpacking $tarball into $QC_CACHE (once)"
	mkdir -p "$QC_CACHE"
	tmp=$QC_CACHE/.unpack.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	tar -xf "$tarball" -C "$tmp" || { rm -rf "$tmp"; die "could not unpack $tarball"; }
	[ -d "$tmp/$tree" ] || { rm -rf "$tmp"; die "$tarball holds no directory $tree/: is it the $tree package's source?"; }
	rm -rf "$pristine"
	mv "$tmp/$tree" "$pristine" && rm -rf "$tmp"
	echo "$want" > "$pristine/.qc-pristine"
}

# Identity of a variant's patch stack: every patch of it and of its bases.
stack_id() {
	v=$1
	while [ "$v" != "-" ]; do
		qc_variant_patches "$v" | while read -r p; do sha256sum "$p" | cut -d' ' -f1; done
		v=$(qc_variant_base "$v")
	done | sha256sum | cut -d' ' -f1
}

# patch_failed PATCH GIT-OUTPUT: PATCH does not apply on $base; the failing
# hunk from git apply's output.
patch_failed() {
	hunk=$(printf '%s\n' "$2" | grep -m1 'patch failed:' | sed 's/.*patch failed: //')
	on=$base
	[ "$on" != - ] || on=stock
	die "patch ${1#"$QC_ROOT"/} does not apply to the $on tree${hunk:+ (failing hunk at $hunk)}: rebase it onto $tree $(qc_tree_version "$tree")"
}

# Prints the path of the variant's tree.
ensure_tree() {
	v=$1
	base=$(qc_variant_base "$v")
	if [ "$base" = "-" ]; then
		base_dir=$pristine
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
	# The first patch is checked on the base itself first (git apply
	# --check writes nothing), so that a stack whose first patch does not
	# apply costs no copy of the tree (~80,000 links, seconds). (The later
	# ones need those before them applied: one git apply of several patches
	# does not apply them in turn to a file they share.)
	p=$(qc_variant_patches "$v" | head -n1)
	[ -z "$p" ] || out=$(cd "$base_dir" && git apply --check --whitespace=nowarn "$p" 2>&1) || patch_failed "$p" "$out"
	mkdir -p "$QC_CACHE/trees"
	new=$dir.new.$$
	rm -rf "$new"
	cp -al "$base_dir" "$new"
	rm -f "$new/.qc-stack" "$new/.qc-pristine"
	for p in $(qc_variant_patches "$v"); do
		if ! out=$(cd "$new" && git apply --whitespace=nowarn "$p" 2>&1); then
			rm -rf "$new"
			patch_failed "$p" "$out"
		fi
	done
	echo "$id" > "$new/.qc-stack"
	rm -rf "$dir"
	mv "$new" "$dir"
	echo "$dir"
}

ensure_pristine
ensure_tree "$variant"
