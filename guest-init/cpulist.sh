# The guest's one CPU-list helper (busybox ash), sourced by the guest's
# scripts and by cpusets/. Never run.
#
# CPU lists ("0", "1-3", "1,3-5") are turned into integer bitmasks so that
# set tests are shell arithmetic: cpusets/ walks every thread and every
# IRQ, and a fork per test is slow under TCG. 64-bit shell arithmetic limits
# this to CPUs 0-62, plenty for a QEMU guest. (The host's CPU lists are
# scripts/lib/cpulist.sh; the C programs' common/qc-util.c.)

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

# cl_first LIST: CL_FIRST = the lowest CPU of LIST ("3,1-2" gives 1);
# returns 1 if LIST is malformed or empty.
cl_first() {
	cl_mask "$1" && [ "$CL_MASK" -ne 0 ] || return 1
	CL_FIRST=0
	while [ $((CL_MASK >> CL_FIRST & 1)) -eq 0 ]; do CL_FIRST=$((CL_FIRST + 1)); done
}
