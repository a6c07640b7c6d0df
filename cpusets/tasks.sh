# Tasks and cgroups as isolate.sh, verify.sh and enter-isolated.sh read
# them (busybox ash): the cgroup paths, a task's flags, affinity and
# cgroup, and a /proc or /sys value. Sourced, never run; sources the
# guest's CPU-list helper (common/cpulist.sh) itself.

# Found from this directory, in the repository and in the guest's /qc alike.
. "$QC_CPUSETS/../common/cpulist.sh"

QC_CGROOT=${QC_CGROOT:-/sys/fs/cgroup}
QC_CG_HK=$QC_CGROOT/housekeeping
QC_CG_ISO=$QC_CGROOT/isolated

# PF_* bits of /proc/PID/stat field 9 (include/linux/sched.h, 6.1).
PF_KTHREAD=$((0x00200000))
PF_NO_SETAFFINITY=$((0x04000000))

# read_first FILE: LINE = the first line of FILE (empty if unreadable).
# Not the "read" builtin: it reads a byte at a time and /proc/sys files
# return EOF to any read at a non-zero offset ("300" would read as "3").
read_first() {
	LINE=$(cat "$1" 2>/dev/null)
	LINE=${LINE%%"
"*}
}

# boot_isolated_all MASK: every CPU of MASK was taken out of the
# scheduling domains at boot (isolcpus=domain: /sys/devices/system/cpu/isolated).
boot_isolated_all() {
	read_first "${QC_SYSCPU:-/sys/devices/system/cpu}/isolated"
	qc_cpulist_mask "${LINE:-x}" 2>/dev/null || return 1
	[ $(($1 & ~CL_MASK)) -eq 0 ]
}

# task_info DIR (a /proc/PID or /proc/PID/task/TID directory): sets
# T_COMM, T_ALLOWED (CPU list), T_FLAGS, T_CPU (where it last ran) and
# returns 1 if the task vanished meanwhile.
task_info() {
	T_COMM= T_ALLOWED= T_FLAGS=0 T_CPU=
	while read -r _k _v; do
		case $_k in
		Name:) T_COMM=$_v ;;
		Cpus_allowed_list:) T_ALLOWED=$_v ;;
		esac
	done 2>/dev/null < "$1/status" || return 1
	read -r _stat 2>/dev/null < "$1/stat" || return 1
	# comm may hold spaces or ')': the fields we want follow the last ") ".
	set -- ${_stat##*") "}
	# $1 is field 3 (state); flags is field 9, processor field 39.
	T_FLAGS=$7
	shift 36
	T_CPU=$1
	[ -n "$T_ALLOWED" ]
}

# is_kthread / is_bound_kthread: from T_FLAGS set by task_info. A kthread
# with PF_NO_SETAFFINITY was bound by the kernel (kthread_bind, per-CPU
# workers, migration/N ...): user space cannot move it.
is_kthread() { [ $((T_FLAGS & PF_KTHREAD)) -ne 0 ]; }
is_bound_kthread() { is_kthread && [ $((T_FLAGS & PF_NO_SETAFFINITY)) -ne 0 ]; }

# task_cgroup PID: T_CGROUP = the task's cgroup v2 path ("/housekeeping").
task_cgroup() {
	T_CGROUP=
	while IFS=: read -r _id _ctl _path; do
		[ "$_id" = 0 ] && T_CGROUP=$_path
	done 2>/dev/null < "/proc/$1/cgroup"
}
