# README's tracepoint-switching script (docs/findings.md, "Under TCG";
# docs/int3/README.md):
# switches whole event systems on and off 15 times with every CPU online
# and busy, on purpose: the reproducer of the stale int3, not the rig's
# flow. Run it as a guest script:
#   scripts/run.sh -V spinlock-6.12 --no-build --smp 5 -d 30 --guest-script docs/int3/switch-tracepoints.sh
#   scripts/soak.sh -n 10 -V spinlock-6.12 --smp 5 -d 30 --guest-script docs/int3/switch-tracepoints.sh
T=/sys/kernel/tracing
for c in 0 1 2 3 4; do taskset -c $c sh -c 'while :; do usleep 500; done' & done
for i in $(seq 15); do
	for e in sched irq irq_vectors workqueue timer; do echo 1 > $T/events/$e/enable; done
	sleep 0.2
	for e in sched irq irq_vectors workqueue timer; do echo 0 > $T/events/$e/enable; done
done
