# guest-cc.sh: how a guest program is compiled (the initramfs's C helpers).
# Needs paths.sh.
# shellcheck shell=sh

# qc_guest_cc OUT SOURCE [GCC-OPTIONS...]: compile one guest program as the
# initramfs packs it: static (the busybox initramfs has no libc), with the
# C helper every quietcore program shares (common/qc-util.c), in one
# compile-and-link by QC_GUEST_CC (default gcc; the tests' runs the same
# command through ccache: tests/ccache-cc.sh's "ccache_cc gcc").
qc_guest_cc() {
	_out=$1 _src=$2
	shift 2
	# shellcheck disable=SC2086 # a command and its words
	${QC_GUEST_CC:-gcc} -static -O2 -Wall -Wextra -pthread -I"$QC_ROOT/common" "$@" \
		-o "$_out" "$_src" "$QC_ROOT/common/qc-util.c"
}
