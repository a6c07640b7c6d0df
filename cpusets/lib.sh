# Helpers shared by isolate.sh, verify.sh and enter-isolated.sh (busybox
# ash). Sourced, never run.
#
# CPU lists ("0", "1-3", "1,3-5") are turned into integer bitmasks so that
# set tests are shell arithmetic: the scripts walk every thread and every
# IRQ, and a fork per test is slow under TCG. 64-bit shell arithmetic limits
# this to CPUs 0-62, plenty for a QEMU guest.

QC_CGROOT=${QC_CGROOT:-/sys/fs/cgroup}
QC_CG_HK=$QC_CGROOT/housekeeping
QC_CG_ISO=$QC_CGROOT/isolated

# PF_* bits of /proc/PID/stat field 9 (include/linux/sched.h, 6.1).
PF_KTHREAD=$((0x00200000))
PF_NO_SETAFFINITY=$((0x04000000))

# cl_mask LIST: CL_MASK = bitmask of LIST; returns 1 if LIST is malformed.
cl_mask() {
	CL_MASK=0
	_ifs=$IFS
	IFS=,
	for _r in $1; do
		case $_r in
		*-*) _a=${_r%-*} _b=${_r#*-} ;;
		*) _a=$_r _b=$_r ;;
		esac
		case $_a$_b in '' | *[!0-9]*) IFS=$_ifs; return 1 ;; esac
		[ "$_b" -le 62 ] || { IFS=$_ifs; return 1; }
		while [ "$_a" -le "$_b" ]; do
			CL_MASK=$((CL_MASK | (1 << _a)))
			_a=$((_a + 1))
		done
	done
	IFS=$_ifs
	return 0
}

# cl_list MASK: CL_LIST = the CPU list of MASK, ranges folded ("1-3,5").
cl_list() {
	CL_LIST= _c=0 _start=-1
	while [ $_c -le 63 ]; do
		if [ $_c -le 62 ] && [ $(($1 >> _c & 1)) -eq 1 ]; then
			[ $_start -ge 0 ] || _start=$_c
		elif [ $_start -ge 0 ]; then
			_e=$((_c - 1))
			if [ $_start -eq $_e ]; then _r=$_start; else _r=$_start-$_e; fi
			CL_LIST=${CL_LIST:+$CL_LIST,}$_r
			_start=-1
		fi
		_c=$((_c + 1))
	done
}

# hexmask_of MASK: HEXMASK = MASK in the hex form of sysfs cpumask files.
hexmask_of() { HEXMASK=$(printf '%x' "$1"); }

# mask_of_hex STRING: HEX_MASK = integer value of a sysfs hex cpumask
# ("00000001" or "00000000,00000001").
mask_of_hex() {
	_h=$(echo "$1" | tr -d ',')
	HEX_MASK=$((0x${_h:-0}))
}

# read_first FILE: LINE = the first line of FILE (empty if unreadable).
# Not the "read" builtin: it reads a byte at a time and /proc/sys files
# return EOF to any read at a non-zero offset ("300" would read as "3").
read_first() {
	LINE=$(cat "$1" 2>/dev/null)
	LINE=${LINE%%"
"*}
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
