#!/bin/sh
# isolate.sh [options] HOUSEKEEPING ISOLATED [RECORD]
#   e.g. isolate.sh 0 1-3 /results/isolation.txt
#
# Keep housekeeping work off the isolated CPUs (docs/design.md, step 2),
# as tuned's cpu-partitioning / realtime profiles do, but with cgroup v2
# cpuset partitions instead of systemd:
#
#   /sys/fs/cgroup/housekeeping   cpuset.cpus=HOUSEKEEPING; every user task
#   /sys/fs/cgroup/isolated       cpuset.cpus=ISOLATED, partition "isolated"
#                                 (no load balancing); empty until the
#                                 measured task enters (enter-isolated.sh)
#
# Kernel threads stay in the root cgroup: cgroup v2 refuses to move bound
# ones, and moving kthreadd would make every later kthread (also ones the
# rig's modules bind to isolated CPUs) be born in a cpuset that excludes
# its CPU. Their affinity is set to HOUSEKEEPING instead; the per-CPU ones
# (PF_NO_SETAFFINITY, bound to one CPU) cannot move and are listed.
#
# Then: the unbound workqueue cpumask, IRQ affinities (irq-affinity.sh),
# vm.stat_interval and, only when asked, RT throttling (sysctls.sh).
# RECORD (key=value lines) gets every setting with its value before
# ("<key>.was").
#
# Options:
#   --rt-throttle off|on|keep   off writes -1 to sched_rt_runtime_us (the
#                               fifo scenario), on writes 950000; default keep
#   --stat-interval SECONDS     vm.stat_interval (default 300)
#   --partition isolated|root   partition type to ask for (default isolated;
#                               falls back to root if the kernel refuses)
#   --cgroups-only              make the two cgroups and stop: the first
#                               cpuset's mkdir patches kernel text (static
#                               keys), done while one CPU is online
#                               (guest-init/measure.sh qc_prepare)
# Exit: 0 set up, 1 a step failed (message on stderr), 2 usage.
set -u
case $0 in */*) QC_CPUSETS=${0%/*} ;; *) QC_CPUSETS=. ;; esac
. "$QC_CPUSETS/tasks.sh"
. "$QC_CPUSETS/irq-affinity.sh"
. "$QC_CPUSETS/sysctls.sh"

rt=keep stat_interval=300 want_prs=isolated cgroups_only=no
usage() { echo "usage: $0 [--rt-throttle off|on|keep] [--stat-interval S] [--partition isolated|root] [--cgroups-only] HOUSEKEEPING ISOLATED [RECORD]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--rt-throttle) [ $# -ge 2 ] || usage; rt=$2; shift 2 ;;
	--stat-interval) [ $# -ge 2 ] || usage; stat_interval=$2; shift 2 ;;
	--partition) [ $# -ge 2 ] || usage; want_prs=$2; shift 2 ;;
	--cgroups-only) cgroups_only=yes; shift ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] && [ $# -le 3 ] || usage
case $rt in off | on | keep) ;; *) usage ;; esac
case $want_prs in isolated | root) ;; *) usage ;; esac
case $stat_interval in '' | *[!0-9]*) usage ;; esac
hk=$1 iso=$2 record=${3:-/dev/null}

qc_cpulist_mask "$hk" || { echo "isolate: bad housekeeping list '$hk'" >&2; exit 2; }
hk_mask=$CL_MASK
qc_cpulist_mask "$iso" || { echo "isolate: bad isolated list '$iso'" >&2; exit 2; }
iso_mask=$CL_MASK
[ $((hk_mask & iso_mask)) -eq 0 ] || { echo "isolate: housekeeping $hk and isolated $iso overlap" >&2; exit 2; }
[ "$hk_mask" -ne 0 ] && [ "$iso_mask" -ne 0 ] || usage

errors=0
err() { echo "isolate: $*" >&2; echo "error=$*" >> "$record"; errors=$((errors + 1)); }
rec() { echo "$1=$2" >> "$record"; }
: > "$record" || { echo "isolate: cannot write $record" >&2; exit 1; }
rec housekeeping "$hk"
rec isolated "$iso"
rec kernel_isolated "$(cat /sys/devices/system/cpu/isolated 2>/dev/null)"
rec kernel_nohz_full "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)"

# set_file KEY FILE VALUE: write VALUE to FILE, record old and new value.
set_file() {
	read_first "$2"
	rec "$1.was" "$LINE"
	if echo "$3" > "$2" 2>/dev/null; then
		read_first "$2"
		rec "$1" "$LINE"
	else
		err "$1: writing '$3' to $2 refused"
	fi
}

# --- 1. cpuset partitions ----------------------------------------------------
[ -f "$QC_CGROOT/cgroup.controllers" ] ||
	{ err "no cgroup v2 at $QC_CGROOT"; exit 1; }
grep -qw cpuset "$QC_CGROOT/cgroup.controllers" ||
	{ err "cpuset controller missing (CONFIG_CPUSETS)"; exit 1; }
echo +cpuset > "$QC_CGROOT/cgroup.subtree_control" ||
	{ err "cannot enable cpuset in $QC_CGROOT/cgroup.subtree_control"; exit 1; }
mkdir -p "$QC_CG_HK" "$QC_CG_ISO" || { err "cannot create cgroups"; exit 1; }
[ "$cgroups_only" = no ] || exit 0
qc_cpulist_of_mask "$hk_mask"; hk_list=$CL_LIST
qc_cpulist_of_mask "$iso_mask"; iso_list=$CL_LIST
# Only cpus is set: an empty cpuset.mems uses the parent's nodes in v2.
set_file cgroup.housekeeping.cpus "$QC_CG_HK/cpuset.cpus" "$hk_list"
set_file cgroup.isolated.cpus "$QC_CG_ISO/cpuset.cpus" "$iso_list"

# The partition takes ISOLATED away from the root cpuset: the kernel then
# re-pins every root task except per-CPU kthreads to what is left
# (update_tasks_cpumask() in kernel/cgroup/cpuset.c).
# A partition left invalid (or of the other type) by an earlier run stays
# invalid when asked for a partition type again: go through "member".
prs=$want_prs
read_first "$QC_CG_ISO/cpuset.cpus.partition"
rec partition.was "$LINE"
[ "$LINE" = member ] || [ "$LINE" = "$prs" ] ||
	echo member > "$QC_CG_ISO/cpuset.cpus.partition" 2>/dev/null
echo "$prs" > "$QC_CG_ISO/cpuset.cpus.partition" 2>/dev/null
read_first "$QC_CG_ISO/cpuset.cpus.partition"
if [ "$LINE" != "$prs" ] && [ "$prs" = isolated ]; then
	echo "isolate: kernel refused an 'isolated' partition ($LINE); falling back to 'root'" >&2
	rec partition.fallback "isolated refused: $LINE"
	echo member > "$QC_CG_ISO/cpuset.cpus.partition" 2>/dev/null
	prs=root
	echo "$prs" > "$QC_CG_ISO/cpuset.cpus.partition" 2>/dev/null
	read_first "$QC_CG_ISO/cpuset.cpus.partition"
fi
# 6.12 refuses any partition over CPUs that isolcpus=domain took out of
# scheduling domains at boot (the root cpuset no longer holds them, so a
# partition has nothing to take from it: "invalid"). The boot has then
# done what the partition is for (no load balancing there, nothing else
# placed there), so a plain member cpuset over them is enough for the
# measured tasks to enter; only when the boot isolated every one of them.
refused=$LINE
if [ "$refused" != "$prs" ] && boot_isolated_all "$iso_mask"; then
	echo "isolate: kernel refused a '$prs' partition ($refused) over CPUs isolated at boot; keeping a member cpuset" >&2
	rec partition.fallback "$prs refused: $refused; member over boot-isolated CPUs"
	echo member > "$QC_CG_ISO/cpuset.cpus.partition" 2>/dev/null
	prs=member
	read_first "$QC_CG_ISO/cpuset.cpus.partition"
fi
rec partition "$LINE"
[ "$LINE" = "$prs" ] || err "partition: asked for '$prs', kernel says '$LINE'"
read_first "$QC_CG_ISO/cpuset.cpus.effective"
rec cgroup.isolated.effective "$LINE"
read_first "$QC_CGROOT/cpuset.cpus.effective"
rec cgroup.root.effective "$LINE"

# --- 2. tasks ----------------------------------------------------------------
# User tasks (whole thread groups) go to the housekeeping cgroup; kthreads
# get housekeeping affinity. Tasks already in the isolated cgroup are the
# measured ones and are left alone.
moved=0 pinned=0 percpu=
for p in $(cat "$QC_CGROOT/cgroup.procs"); do
	task_info "/proc/$p" || continue
	if ! is_kthread; then
		echo "$p" > "$QC_CG_HK/cgroup.procs" 2>/dev/null &&
			moved=$((moved + 1)) || err "task: cannot move pid $p ($T_COMM) to $QC_CG_HK"
	elif is_bound_kthread; then
		# Bound by the kernel; user space cannot move it. On one isolated
		# CPU: a per-CPU kthread that stays. Bound wider: verify.sh says.
		qc_cpulist_mask "$T_ALLOWED"
		[ $((CL_MASK & iso_mask)) -eq 0 ] || [ $((CL_MASK & (CL_MASK - 1))) -ne 0 ] ||
			percpu="$percpu $T_COMM"
	else
		qc_cpulist_mask "$T_ALLOWED"
		if [ $((CL_MASK & ~hk_mask)) -ne 0 ]; then
			taskset -pc "$hk_list" "$p" > /dev/null 2>&1 &&
				pinned=$((pinned + 1)) || err "kthread: cannot pin pid $p ($T_COMM) to $hk_list"
		fi
	fi
done
rec tasks.moved_to_housekeeping "$moved"
rec kthreads.repinned "$pinned"
rec kthreads.per_cpu_staying "${percpu# }"

# --- 3. unbound workqueues ---------------------------------------------------
# Unbound work (and the kworker/uN:M pools) may run only on these CPUs.
wq=/sys/devices/virtual/workqueue/cpumask
if [ -f "$wq" ]; then
	qc_cpulist_hexmask "$hk_mask"
	set_file workqueue.cpumask "$wq" "$HEXMASK"
else
	rec workqueue.cpumask "absent"
fi

# --- 4. IRQs (irq-affinity.sh) -----------------------------------------------
steer_irqs

# --- 5. sysctls (sysctls.sh) -------------------------------------------------
set_sysctls "$stat_interval" "$rt"

rec errors "$errors"
[ "$errors" -eq 0 ] || exit 1
exit 0
