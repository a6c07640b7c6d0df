#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# cpusets/ and the priming helpers in a real guest (spinlock variant, CPUs
# 1-3 isolated): isolate.sh + verify.sh pass; verify.sh fails, naming the
# CPU, for a task left on CPU 2, an IRQ aimed at CPU 2 and a widened
# workqueue cpumask; prime raises every isolated CPU's pcp count and
# leaves nothing behind; oslat started through enter-isolated.sh measures
# every isolated CPU. The guest half writes "name=value" lines to
# checks.txt; this half turns them into KTAP.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"

cat > "$scratch/guest.sh" <<'GUEST'
HK=$QC_HOUSEKEEPING ISO=$QC_ISOLATED
set +e
c() { echo "$1=$2" >> checks.txt; }
sh /qc/cpusets/isolate.sh $HK $ISO isolation.txt > isolate.log 2>&1; c isolate $?
sh /qc/cpusets/verify.sh --record isolation.txt $HK $ISO > verify.txt; c verify $?
c partition "$(cat /sys/fs/cgroup/isolated/cpuset.cpus.partition)"
sleep 1000 & leak=$!
sh /qc/cpusets/enter-isolated.sh $leak && taskset -pc 2 $leak > /dev/null
sh /qc/cpusets/verify.sh $HK $ISO > verify-task.txt; c verify_task $?
c verify_task_line "$(grep -c "^FAIL cpu 2: .*pid $leak (sleep)" verify-task.txt)"
kill $leak; wait $leak 2>/dev/null
echo 2 > /proc/irq/4/smp_affinity_list
sh /qc/cpusets/verify.sh $HK $ISO > verify-irq.txt; c verify_irq $?
c verify_irq_line "$(grep -c '^FAIL cpu 2: irq 4 ' verify-irq.txt)"
echo $HK > /proc/irq/4/smp_affinity_list
read -r wq < /sys/devices/virtual/workqueue/cpumask
echo f > /sys/devices/virtual/workqueue/cpumask
sh /qc/cpusets/verify.sh $HK $ISO > verify-wq.txt; c verify_wq $?
echo "$wq" > /sys/devices/virtual/workqueue/cpumask
sh /qc/cpusets/verify.sh $HK $ISO > verify-clean.txt; c verify_clean $?
sh /qc/guest-init/pcp-counts.sh pcp-before.json
prime $ISO > prime.txt 2>&1; c prime $?
sh /qc/guest-init/pcp-counts.sh pcp-primed.json
c isolated_procs_after_prime "$(wc -l < /sys/fs/cgroup/isolated/cgroup.procs)"
sh /qc/cpusets/enter-isolated.sh -- oslat -c $ISO -C ${ISO%%[-,]*} -D 3 -q --json=oslat.json > oslat.txt 2>&1; c oslat $?
sh /qc/cpusets/isolate.sh --rt-throttle off $HK $ISO isolation-fifo.txt > /dev/null 2>&1; c isolate_fifo $?
c rt_runtime "$(cat /proc/sys/kernel/sched_rt_runtime_us)"
# The guest's hammer helper: a 60 s run asked to finish within 1 s is
# stopped (echo 0 > run) and its stats kept.
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/module.sh
qc_hammer_load; c hammer_load $?
qc_hammer_start 60; c hammer_start $?
sleep 1
qc_hammer_finish hammer.json 1; c hammer_finish $?
sleep 1
c hammer_state "$(cat $QC_HAMMER/state)"
GUEST

ktap_require qemu-system-x86_64 gcc make jq cpio
ktap_plan 18
ktap_build_boots
ktap_guest "guest ran the cpusets checks" -V spinlock --no-build -d 5 --guest-script "$scratch/guest.sh"
out=$GUEST
v() { sed -n "s/^$1=//p" "$out/checks.txt" 2>/dev/null; }
ktap_check "isolate.sh 0 1-3 exits 0" test "$(v isolate)" = 0
ktap_check "verify.sh passes after isolate.sh" test "$(v verify)" = 0
ktap_check "the isolated cgroup is an 'isolated' partition (got '$(v partition)')" test "$(v partition)" = isolated
ktap_check "verify.sh fails for a task left on CPU 2" test "$(v verify_task)" = 1
ktap_check "... naming cpu 2 and the task" test "$(v verify_task_line)" = 1
ktap_check "verify.sh fails for an IRQ aimed at CPU 2" test "$(v verify_irq)" = 1
ktap_check "... naming cpu 2 and irq 4" test "$(v verify_irq_line)" = 1
ktap_check "verify.sh fails for a workqueue cpumask with isolated CPUs" test "$(v verify_wq)" = 1
ktap_check "verify.sh passes again once all is undone" test "$(v verify_clean)" = 0
ktap_check "prime 1-3 exits 0" test "$(v prime)" = 0
raised=$(jq -n --slurpfile b "$out/pcp-before.json" --slurpfile a "$out/pcp-primed.json" \
	'[("1","2","3") | select($a[0][.] > $b[0][.])] | length' 2>/dev/null)
ktap_check "priming raised the pcp count of CPUs 1, 2 and 3" test "$raised" = 3
ktap_diag "pcp before: $(cat "$out/pcp-before.json" 2>/dev/null) primed: $(cat "$out/pcp-primed.json" 2>/dev/null)"
ktap_check "nothing is left in the isolated cgroup after priming" test "$(v isolated_procs_after_prime)" = 0
cpus=$(jq -r '[.thread[].cpu] | sort | map(tostring) | join(",")' "$out/oslat.json" 2>/dev/null)
ktap_check "oslat through enter-isolated.sh measured CPUs 1,2,3 (got '$cpus')" test "$cpus" = 1,2,3
ktap_check "isolate.sh --rt-throttle off exits 0" test "$(v isolate_fifo)" = 0
ktap_check "... and sched_rt_runtime_us is -1" test "$(v rt_runtime)" = -1
ktap_check "module.sh loads the module and starts a 60 s run" test "$(v hammer_load)/$(v hammer_start)" = 0/0
calls=$(jq .calls "$out/hammer.json" 2>/dev/null)
ktap_check "qc_hammer_finish stopped it early: done, its stats kept, $calls calls (< 60 s x 100/s)" \
	sh -c "test '$(v hammer_finish)/$(v hammer_state)' = 0/done && test '${calls:-0}' -gt 0 && test '${calls:-0}' -lt 6000"
ktap_finish
