# stacks-off.sh: the guest side of tests/test-stacks-off.sh, run by
# scripts/run.sh --guest-script (working directory /results). The rig's
# trace armed as a measurement arms it, a window opened, 3 IPIs planted on
# CPU 1 with the send side's stack triggers in place, then every
# stacktrace trigger removed while the trace runs (as a guest whose
# triggers were lost mid-trace would record), 3 more planted, the window
# closed, with oslat busy on CPU 1 throughout: an idle CPU polling for
# work takes a call function without an IPI (the sender sees it polling
# and only wakes it), so planted on an idle CPU an "IPI" may be no
# interruption at all (1 of 6 in 2 of 3 boots, Dec 7). Removing a trigger from an event trace-cmd enabled patches no
# kernel text: the event stays enabled, only its soft mode ends
# (the host checks the text-patch watch's count). The trace is not named
# trace.dat: that name is a measurement window's (common/contract.sh).
# qc-custom: one-cpu
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/module.sh
T=/sys/kernel/tracing
qc_say "stacks-off: arming the trace and its stack triggers"
insmod /qc/modules/qc_hammer.ko cpu=0
sh /qc/tracing/guest/trace-arm.sh 8192
qc_online_cpus
sh /qc/tracing/guest/trace-start.sh
# (the measured task, as qc-analyze --task oslat reads it)
oslat -c 1 -D 60 -q > /dev/null 2>&1 &
oslat_pid=$!
sleep 2
# (an IPI before the window and one after it: CPU 1, idle, must show
# events on both sides of the window, or the analyzer refuses its trace)
echo "ipi 1 1" > $QC_HAMMER/plant
sh /qc/tracing/guest/trace-mark.sh "qc: window start"
echo "ipi 1 3" > $QC_HAMMER/plant
sh /qc/tracing/guest/trace-mark.sh "qc: stacks off"
n=0
for t in $T/events/*/*/trigger; do
	grep -q '^stacktrace' "$t" 2>/dev/null || continue
	echo '!stacktrace' > "$t" && n=$((n + 1))
done
qc_say "stacks-off: $n stack triggers removed while tracing"
echo "ipi 1 3" > $QC_HAMMER/plant
sh /qc/tracing/guest/trace-mark.sh "qc: window end"
echo "ipi 1 1" > $QC_HAMMER/plant
kill "$oslat_pid" 2>/dev/null
wait "$oslat_pid" 2>/dev/null || :
sh /qc/tracing/guest/trace-stop.sh stacks-off.dat
echo "$n" > stacks-removed.txt
