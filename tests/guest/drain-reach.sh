# drain-reach.sh: the guest side of tests/test-drain-reach.sh, run
# by scripts/run.sh --guest-script under the qc-cost plugin (working
# directory /results). The refill workload on CPUs 1-3 so that drains find
# pages there, the exposure probes of this kernel (QC_PROBES, from the
# host) traced, and qc_hammer with markers=1 on CPU 0: every
# drain_all_pages() call is one plugin window and one traced call. The
# trace is not named trace.dat: that name is a measurement window's, which
# the host would analyze as one (common/contract.sh).
# qc-custom: one-cpu
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/module.sh
grep -c '^Node' /proc/zoneinfo > "$QC_DRAIN_ZONES"
# The module and the trace patch kernel text: with the boot CPU alone
# (guest-lib.sh qc_online_cpus says why), before the other CPUs come up.
qc_say "drain-reach: arming the trace and its probes"
insmod /qc/modules/qc_hammer.ko cpu=0 rate_hz=20 markers=1
sh /qc/tracing/guest/trace-arm.sh 8192
qc_online_cpus
refill -c 1-3 -T 20 -P 64 -D 60 -q --json refill.json > refill.txt 2>&1 &
refill_pid=$!
sleep 2
qc_say "drain-reach: 2 s of drains from CPU 0"
sh /qc/tracing/guest/trace-start.sh
qc_hammer_start 2
qc_hammer_finish "$QC_DRAIN_HAMMER" 60
qc_say "drain-reach: $(sed -n 's/.*"calls": *\([0-9]*\).*/\1/p' "$QC_DRAIN_HAMMER") drains made; stopping the trace"
sh /qc/tracing/guest/trace-stop.sh drain-reach.dat
kill -INT "$refill_pid" 2>/dev/null || true
wait "$refill_pid" || true
