#!/bin/sh
# Guest smoke test for qc_hammer (hammer/), in busybox ash;
# tests/test-module.sh runs it in a spinlock guest, as
#   scripts/run.sh -V spinlock --guest-script tests/guest/module-smoke.sh
# It writes smoke.log and the stats JSON files in its working directory and
# ends with "smoke: N failures". Every wait is bounded.
set +e
D=/sys/kernel/debug/qc_hammer
T=/sys/kernel/tracing
fails=0
say() { echo "smoke: $*"; }
bad() { echo "smoke: FAIL: $*"; fails=$((fails + 1)); }
state() { cat $D/state; }
# wait_done SECONDS: poll the state file until it is not "running".
wait_done() {
	n=0
	while [ "$(state)" = running ] && [ $n -lt $(($1 * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ "$(state)" != running ] || bad "still running after $1 s"
}
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }

exec > smoke.log 2>&1
insmod /qc/modules/qc_hammer.ko || { bad "insmod"; exit 1; }
dmesg | grep qc_hammer
ls $D
say "idle state: $(state)"
[ "$(state)" = idle ] || bad "state is not idle after load"
cut -c1-300 $D/stats

say "5 s run at 100/s on CPU 0"
echo 5 > $D/run || bad "echo 5 > run"
sleep 1
say "after 1 s: state $(state), in_flight_us $(cat $D/in_flight_us)"
if echo 5 > $D/run 2>/dev/null; then bad "second run accepted while running"; fi
t0=$(date +%s)
wait_done 20
say "done after about $(( $(date +%s) - t0 + 1 )) s, state $(state)"
cat $D/stats > stats-5s.json
cut -c1-900 stats-5s.json
calls=$(field calls < stats-5s.json)
say "calls=$calls"
[ "$calls" -ge 450 ] && [ "$calls" -le 500 ] || bad "calls $calls not in 450..500"

say "plant work on CPU 1 x5, ipi on CPU 2 x7, with tracing"
echo qc_planted_ipi > $T/set_ftrace_filter
echo function > $T/current_tracer
echo 1 > $T/events/workqueue/workqueue_execute_start/enable
echo > $T/trace
echo 1 > $T/tracing_on
echo "work 1 5" > $D/plant || bad "plant work"
cat $D/plant
echo "ipi 2 7" > $D/plant || bad "plant ipi"
cat $D/plant
echo 0 > $T/tracing_on
nw=$(grep -c 'workqueue_execute_start.*qc_planted_work' $T/trace)
ni=$(grep -c 'qc_planted_ipi' $T/trace)
grep -m2 qc_planted_work $T/trace
grep -m2 qc_planted_ipi $T/trace
say "trace: $nw qc_planted_work starts, $ni qc_planted_ipi calls"
[ "$nw" = 5 ] || bad "trace shows $nw planted work items, not 5"
[ "$ni" = 7 ] || bad "trace shows $ni planted IPIs, not 7"
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
echo 0 > $T/events/workqueue/workqueue_execute_start/enable
echo "ipi 0 3" > $D/plant || bad "plant ipi on own CPU"
cat $D/plant
for bad_input in "work 9 1" "ipi 99 1" "work 1" "irq 1 1" "work 1 2 3"; do
	if echo "$bad_input" > $D/plant 2>/dev/null; then
		bad "plant accepted '$bad_input'"
	else
		say "plant rejected '$bad_input'"
	fi
done

say "early stop: 10 s run stopped after 1 s"
echo 10 > $D/run
sleep 1
echo 0 > $D/run
wait_done 5
cut -c1-300 $D/stats

say "1000/s for 2 s"
echo 1000 > $D/rate_hz
echo 2 > $D/run
wait_done 10
cat $D/stats > stats-1000hz.json
cut -c1-600 stats-1000hz.json

say "1000/s for 2 s, stall threshold 1 ms"
echo 1 > $D/stall_threshold_ms
echo 2 > $D/run
wait_done 10
cut -c1-300 $D/stats
echo 1000 > $D/stall_threshold_ms

if command -v oslat >/dev/null; then
	say "plant work on CPU 3 while a SCHED_FIFO oslat owns it (RT throttling off)"
	echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	oslat -c 3 -f 1 -D 14 > oslat-fifo.txt 2>&1 &
	sleep 2
	t0=$(date +%s)
	if echo "work 3 1" > $D/plant; then bad "plant on a FIFO-owned CPU succeeded"; fi
	say "it returned after $(( $(date +%s) - t0 )) s: $(cat $D/plant)"
	say "hammer 2 s at 100/s meanwhile"
	echo 100 > $D/rate_hz
	echo 2 > $D/run
	wait_done 10
	cut -c1-300 $D/stats
	wait
	echo 950000 > /proc/sys/kernel/sched_rt_runtime_us
	echo "work 3 2" > $D/plant || bad "plant work on CPU 3 after oslat"
	cat $D/plant
fi

say "rmmod during a run"
echo 100 > $D/rate_hz
echo 30 > $D/run
sleep 1
t0=$(date +%s)
tries=0
until rmmod qc_hammer; do
	tries=$((tries + 1))
	[ $tries -lt 5 ] || { bad "rmmod kept failing"; break; }
	sleep 0.2
done
say "rmmod took $(( $(date +%s) - t0 )) s, $tries retries"
dmesg | grep -iE 'qc_hammer|BUG|WARNING|lockdep|circular' | tail -20
say "$fails failures"
