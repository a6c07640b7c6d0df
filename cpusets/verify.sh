#!/bin/sh
# verify.sh [--measured] [--record FILE] HOUSEKEEPING ISOLATED
#   e.g. verify.sh --record /results/isolation.txt 0 1-3
#
# --measured: the measured tasks (oslat) run now; tasks inside the isolated
# cgroup are theirs and reported as info. Without it the isolated cgroup
# must be empty: anything there was left behind.
# --record FILE: isolate.sh's record, for the IRQs it could not move.
#
# Check that nothing movable is left on the isolated CPUs after isolate.sh.
# One line per finding on stdout:
#   FAIL cpu C: ...   something that could run on isolated CPU(s) C and
#                     should not (exit status 1)
#   info cpu C: ...   what stays there by design: per-CPU kthreads, managed
#                     IRQs, the measured tasks (with --measured)
#   ok ...            a setting that is as it should be
# A task allowed on several isolated CPUs gets one line naming them all.
#
# Per-thread, since affinity is per thread. Threads with PF_NO_SETAFFINITY
# that are bound to exactly one isolated CPU (ksoftirqd/N, cpuhp/N,
# migration/N, kworker/N:M, rcuc/N ...) are per-CPU kthreads: the kernel put
# them there and they only run when that CPU has work for them.
#
# Read-only. Which IRQs cannot be moved (managed IRQs refuse with EIO) is
# known only from trying, which isolate.sh did: with --record FILE (its
# record), the IRQs it lists in irq.refused are info, not failures.
set -u
case $0 in */*) QC_CPUSETS=${0%/*} ;; *) QC_CPUSETS=. ;; esac
. "$QC_CPUSETS/tasks.sh"

measured=no refused=
while [ $# -gt 2 ]; do
	case $1 in
	--measured) measured=yes; shift ;;
	--record) refused=" $(sed -n 's/^irq\.refused=//p' "$2" 2>/dev/null) "; shift 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--measured] [--record FILE] HOUSEKEEPING ISOLATED" >&2; exit 2; }
qc_cpulist_mask "$1" || { echo "verify: bad housekeeping list '$1'" >&2; exit 2; }
hk_mask=$CL_MASK
qc_cpulist_mask "$2" || { echo "verify: bad isolated list '$2'" >&2; exit 2; }
iso_mask=$CL_MASK
qc_cpulist_of_mask "$hk_mask"; hk_list=$CL_LIST
qc_cpulist_of_mask "$iso_mask"; iso_list=$CL_LIST

fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
info() { echo "info $*"; }
ok() { echo "ok $*"; }

# --- partition -----------------------------------------------------------
read_first "$QC_CG_ISO/cpuset.cpus.partition"
case $LINE in
isolated) ok "partition: $QC_CG_ISO is an isolated partition" ;;
root) info "cpu $iso_list: $QC_CG_ISO is a 'root' partition (kernel refused 'isolated'): load balancing stays on inside it" ;;
member)
	# isolate.sh's fallback where the kernel refuses a partition over
	# CPUs isolcpus=domain isolated at boot (6.12): only over those
	if boot_isolated_all "$iso_mask"; then
		info "cpu $iso_list: $QC_CG_ISO is a member cpuset (kernel refused a partition over CPUs isolated at boot, which balance no load)"
	else
		fail "cpu $iso_list: $QC_CG_ISO is no partition and the boot did not isolate all of $iso_list"
	fi ;;
'') fail "cpu $iso_list: no partition $QC_CG_ISO (isolate.sh not run?)" ;;
*) fail "cpu $iso_list: partition $QC_CG_ISO is '$LINE'" ;;
esac
read_first "$QC_CG_ISO/cpuset.cpus.effective"
qc_cpulist_mask "${LINE:-x}" && [ "$CL_MASK" -eq "$iso_mask" ] &&
	ok "partition: effective CPUs $LINE" ||
	fail "cpu $iso_list: partition effective CPUs are '$LINE', want $iso_list"
read_first "$QC_CG_ISO/cpuset.cpus.partition"
member=$LINE
for cg in "$QC_CGROOT" "$QC_CG_HK"; do
	read_first "$cg/cpuset.cpus.effective"
	# no partition took the isolated CPUs from the root (the member
	# fallback): the boot keeps them out of scheduling domains instead
	if [ "$cg" = "$QC_CGROOT" ] && [ "$member" = member ] && boot_isolated_all "$iso_mask"; then
		info "cpu $iso_list: cgroup $cg keeps them (member cpuset over CPUs isolated at boot)"
		continue
	fi
	if qc_cpulist_mask "${LINE:-x}" && [ $((CL_MASK & iso_mask)) -eq 0 ]; then
		ok "cgroup $cg: effective CPUs $LINE"
	else
		fail "cpu $iso_list: cgroup $cg has effective CPUs '$LINE'"
	fi
done

# --- kernel isolation as booted (informational) -------------------------------
for f in isolated nohz_full; do
	read_first "/sys/devices/system/cpu/$f"
	qc_cpulist_mask "${LINE:-x}" 2>/dev/null && [ $((iso_mask & ~CL_MASK)) -eq 0 ] &&
		ok "boot: $f=$LINE" || info "cpu $iso_list: boot $f is '$LINE', not covering $iso_list"
done

# --- tasks -----------------------------------------------------------------
percpu=
for t in /proc/[0-9]*/task/[0-9]*; do
	task_info "$t" || continue
	qc_cpulist_mask "$T_ALLOWED" || continue
	hit=$((CL_MASK & iso_mask))
	[ "$hit" -ne 0 ] || continue
	qc_cpulist_of_mask "$hit"; cpus=$CL_LIST
	tid=${t##*/} pid=${t#/proc/}; pid=${pid%%/*}
	if is_bound_kthread && [ "$CL_MASK" -eq "$hit" ] && [ $((hit & (hit - 1))) -eq 0 ]; then
		percpu="$percpu $cpus:$T_COMM"
		continue
	fi
	task_cgroup "$pid"
	who="pid $tid ($T_COMM) allowed $T_ALLOWED, last ran on $T_CPU, cgroup $T_CGROUP"
	if [ "$T_CGROUP" = "/${QC_CG_ISO##*/}" ] && [ $measured = yes ]; then
		info "cpu $cpus: measured task $who"
	elif [ "$T_CGROUP" = "/${QC_CG_ISO##*/}" ]; then
		fail "cpu $cpus: task in the isolated partition before measurement: $who"
	elif is_bound_kthread && case $T_COMM in kworker/R-*) true ;; *) false ;; esac; then
		# 6.12's rescuer of a workqueue (kworker/R-<wq>): it sleeps, and
		# binds itself to a CPU only to rescue that CPU's pool
		info "cpu $cpus: workqueue rescuer $who"
	elif is_bound_kthread; then
		fail "cpu $cpus: kernel-bound kthread $who (not per-CPU: an unbound kworker pool or a driver thread)"
	elif is_kthread; then
		fail "cpu $cpus: movable kthread $who"
	else
		fail "cpu $cpus: movable task $who"
	fi
done
# Per-CPU kthreads, one line per isolated CPU.
m=$iso_mask c=0
while [ "$m" -ne 0 ]; do
	if [ $((m & 1)) -eq 1 ]; then
		l=
		for k in $percpu; do
			[ "${k%%:*}" = "$c" ] && l="$l ${k#*:}"
		done
		info "cpu $c: per-CPU kthreads staying:${l:- none}"
	fi
	m=$((m >> 1)) c=$((c + 1))
done

# --- IRQs ------------------------------------------------------------------
# Both masks count: x86 applies a new affinity of a legacy (IO-APIC) IRQ
# only when it next fires, so a bad requested mask can hide behind a good
# effective one until then.
for d in /proc/irq/[0-9]*; do
	n=${d##*/}
	read_first "$d/smp_affinity_list"
	req=$LINE eff=
	[ ! -f "$d/effective_affinity_list" ] || { read_first "$d/effective_affinity_list"; eff=$LINE; }
	qc_cpulist_mask "${req:-x}" 2>/dev/null || continue
	m=$CL_MASK
	! qc_cpulist_mask "${eff:-x}" 2>/dev/null || m=$((m | CL_MASK))
	hit=$((m & iso_mask))
	[ "$hit" -ne 0 ] || continue
	qc_cpulist_of_mask "$hit"
	name=$(awk -v n="$n:" '$1 == n { print $NF }' /proc/interrupts)
	what="irq $n (${name:-no handler}) affinity $req, effective ${eff:-?}"
	case $refused in
	*" $n "*) info "cpu $CL_LIST: $what (isolate.sh could not move it: managed or fixed)" ;;
	*) fail "cpu $CL_LIST: $what" ;;
	esac
done

# --- workqueues and sysctls ------------------------------------------------
wq=/sys/devices/virtual/workqueue/cpumask
if [ -f "$wq" ]; then
	read_first "$wq"
	qc_cpulist_mask_of_hex "$LINE"
	if [ $((HEX_MASK & iso_mask)) -eq 0 ]; then
		ok "workqueue cpumask $LINE"
	else
		qc_cpulist_of_mask $((HEX_MASK & iso_mask))
		fail "cpu $CL_LIST: unbound workqueue cpumask $LINE includes isolated CPUs"
	fi
fi
read_first /proc/sys/vm/stat_interval
info "vm.stat_interval=$LINE"
read_first /proc/sys/kernel/sched_rt_runtime_us
info "kernel.sched_rt_runtime_us=$LINE"

echo "# $fails problem(s) on isolated CPUs $iso_list"
[ "$fails" -eq 0 ]
