# Scenario "bench": the page allocator's cost. pft (bench/pft.c) faults in
# and frees anonymous memory on two CPUs at once; one warm-up run, then
# QC_BENCH_RUNS (default 5) measured runs, one JSON line each, in
# "/results/$QC_PFT". No isolation, no tracing: only the allocator's speed.
# qc-scenario:
. /qc/guest-init/guest-lib.sh
qc_online_cpus
set -e
runs=${QC_BENCH_RUNS:-5}
# Two threads on CPUs 0-1: no more busy vCPUs than this machine's 2 host
# cores. With 4, the host deschedules vCPUs that hold mm locks and a fault
# costs ~190 us instead of ~35 us (measured under TCG): that would measure
# QEMU, not the allocator. isolcpus=domain keeps init's children on the
# housekeeping CPU, so widen the shell's affinity first.
cpus=${QC_BENCH_CPUS:-0-1}
taskset -pc "$cpus" $$ > /dev/null
qc_say "pft: warm-up run"
pft -a "$cpus" -r 2 > /dev/null
qc_say "pft: $runs measured runs"
pft -a "$cpus" -r 4 -n "$runs" > "/results/$QC_PFT"
qc_say "pft: $(wc -l < "/results/$QC_PFT") runs recorded"
