# bench.sh: the host's statistics tool, bench/welch (Welch's t-test), built
# once into the cache and kept up to date there by make, not compiled again
# in a scratch directory by every summarize.sh and alloc-cost.sh pass.
# Needs paths.sh and log.sh.
# shellcheck shell=sh

# The precision a counted cost must have before a difference between two
# variants' means under 10 times it is compared (issue 33): each one's
# coefficient of variation over its runs, in percent, at most this. On
# QEMU 10.0.2 (Dec 7, two make compare runs, pft's own threads) pft at 1
# thread met it (CV 0.006-0.046 %), at 2-3 threads it did not
# (0.073-0.162 %); there one variant's mean moved up to 0.23 % between the
# two boots, more than Welch's test over one boot's runs allows for, and
# rcu's difference from wq was "significant" both ways (+0.26 %, -0.16 %
# at 2 threads). A difference of 10 times the floor (1 %) is more than
# four times that move, and is compared at any CV.
# What moved it was not the allocator (docs/findings.md, "Counted cost at
# 2-3 threads", Dec 7): pft's threads blocking and spinning on their
# shared mmap_lock, find_vma()'s walk of a tree whose shape the randomised
# layout and the threads' own mappings set (116-178 instructions a fault),
# the interrupts a window takes (1.9-16 a fault, as many as the wall clock
# allows), and the buddy allocator's merging, which follows the phase the
# workers' frees keep. The cost scenario now runs pft's workers as
# processes that start each round together, 16 rounds, with randomisation
# off, and the figure to hold to this floor is pft's own without
# spin-wait and without interrupts (task_insns_nospin_noirq): CV
# 0.002-0.062 % at 1-3 workers for wq, rcu and spinlock, 2-4 boots each.
# Within a boot, that is: at 3 workers rcu's mean moved 0.23 % between two
# of four boots, one of them on a loaded host (the buddy lists' merging,
# as the host ran three vCPU threads on two cores), so a difference under
# ~0.25 % there between variants booted once each is not yet one, whatever
# Welch says.
QC_COST_CV_FLOOR=0.1

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
