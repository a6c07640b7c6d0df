# bench.sh: the host's statistics tool, bench/welch (Welch's t-test), built
# once into the cache and kept up to date there by make, not compiled again
# in a scratch directory by every summarize.sh and alloc-cost.sh pass.
# Needs paths.sh and log.sh.
# shellcheck shell=sh

# qc_welch SCRATCH: the path of an up-to-date welch. When it is out of
# date, it is built in SCRATCH and renamed into place, so that a welch
# another script runs at that moment is never one half written.
qc_welch() {
	_w=$QC_CACHE/bench/welch
	if ! make -q -s -f "$QC_ROOT/bench/Makefile" BENCH_OUT="$QC_CACHE/bench" "$_w" 2>/dev/null; then
		mkdir -p "$QC_CACHE/bench" &&
			make -s -f "$QC_ROOT/bench/Makefile" BENCH_OUT="$1" "$1/welch" >/dev/null &&
			mv -f "$1/welch" "$_w" || die "bench/welch does not build"
	fi
	echo "$_w"
}
