# cpulist.sh: CPU lists ("0", "1-3", "1,3-5"), the one helper both sides
# source: the host's scripts (dash) and the guest's (busybox ash: /init's
# helpers, cpusets/, tracing/guest/). Never run. Needs nothing.
# shellcheck shell=sh
#
# Two forms, for two costs:
# - as one CPU number per line (qc_cpulist_expand ...): any CPU number, a
#   fork or two per call; the host checks user input with these, where a
#   list such as "1-99999999" must be refused by what it says, not by a
#   size limit;
# - as an integer bitmask (qc_cpulist_mask ...): set tests in shell
#   arithmetic, no fork; the guest's, since cpusets/ walks every thread and
#   every IRQ and a fork per test is slow under TCG. 64-bit shell
#   arithmetic limits it to CPUs 0-62, plenty for a QEMU guest.
# (The C programs' CPU lists are common/qc-util.c's.)

# --- as numbers ------------------------------------------------------------

# qc_cpulist_expand LIST: one CPU a line; fails on a malformed LIST.
# A plain list (qc_cpulist_words) is expanded without a process: the
# host's scripts expand lists of a few CPUs again and again. Anything else
# goes the general way, whose output and failures are the reference.
qc_cpulist_expand() {
	if qc_cpulist_words "$1"; then
		_cl_ifs=$IFS IFS=' '
		# shellcheck disable=SC2086 # one CPU a word
		[ -z "$CL_WORDS" ] || printf '%s\n' $CL_WORDS
		IFS=$_cl_ifs
		return 0
	fi
	printf '%s\n' "$1" | tr ',' '\n' | while IFS=- read -r lo hi; do
		case "$lo$hi" in *[!0-9]*|'') return 1 ;; esac
		[ -n "$hi" ] || hi=$lo
		[ "$lo" -le "$hi" ] || return 1
		seq "$lo" "$hi"
	done
}
# qc_cpulist_words LIST: CL_WORDS = LIST's CPUs, space-separated, for a
# plain, well-formed LIST: at most 64 characters, each comma-separated
# part N or N-M (N <= M, at most 64 CPUs), numbers without a leading zero.
# Returns 1 for any other LIST (qc_cpulist_expand's general way decides).
qc_cpulist_words() {
	CL_WORDS=
	case $1 in ''|*[!0-9,-]*|,*|*,|*,,*) return 1 ;; esac
	[ ${#1} -le 64 ] || return 1
	_cl_ifs=$IFS IFS=,
	# shellcheck disable=SC2086 # split at ',' on purpose (checked: no glob)
	set -- $1
	IFS=$_cl_ifs
	for _cl_r; do
		case $_cl_r in *-*-*|-*|*-) CL_WORDS=; return 1 ;; esac
		_cl_lo=${_cl_r%-*} _cl_hi=${_cl_r#*-}
		for _cl_n in "$_cl_lo" "$_cl_hi"; do
			case $_cl_n in 0) ;; 0*|??????????*) CL_WORDS=; return 1 ;; esac
		done
		[ "$_cl_lo" -le "$_cl_hi" ] && [ $((_cl_hi - _cl_lo)) -le 64 ] || { CL_WORDS=; return 1; }
		while [ "$_cl_lo" -le "$_cl_hi" ]; do CL_WORDS="$CL_WORDS $_cl_lo"; _cl_lo=$((_cl_lo + 1)); done
	done
	CL_WORDS=${CL_WORDS# }
}
# qc_cpulist_valid LIST: LIST is a well-formed CPU list.
qc_cpulist_valid() {
	case $1 in ''|*[!0-9,-]*) return 1 ;; esac
	qc_cpulist_expand "$1" >/dev/null 2>&1
}
# qc_cpulist_below LIST N: every CPU of LIST is below N, checked without
# expanding it (so "1-99999999" is refused at once, not after a count to
# it). A malformed LIST is not below anything.
qc_cpulist_below() {
	case $1 in ''|*[!0-9,-]*) return 1 ;; esac
	_ifs=$IFS IFS=,-
	# shellcheck disable=SC2086 # split at ',' and '-' on purpose
	set -- "$2" $1
	IFS=$_ifs _max=$1
	shift
	for _n; do
		[ -n "$_n" ] && [ ${#_n} -le ${#_max} ] && [ "$_n" -lt "$_max" ] || return 1
	done
}
# qc_cpulist_minus A B: the CPUs of list A not in list B, as a list ("" if none).
# Plain lists of a few CPUs (the host's, again and again) in the shell.
qc_cpulist_minus() {
	if qc_cpulist_words "$2"; then
		_cl_b=" $CL_WORDS "
		if qc_cpulist_words "$1"; then
			_cl_out=
			_cl_ifs=$IFS IFS=' '
			for _cl_c in $CL_WORDS; do
				case $_cl_b in *" $_cl_c "*) ;; *) _cl_out=${_cl_out:+$_cl_out,}$_cl_c ;; esac
			done
			IFS=$_cl_ifs
			echo "$_cl_out"
			return 0
		fi
	fi
	qc_cpulist_expand "$2" > "${TMPDIR:-/tmp}/qc-minus.$$"
	qc_cpulist_expand "$1" | grep -vxF -f "${TMPDIR:-/tmp}/qc-minus.$$" | paste -sd, -
	rm -f "${TMPDIR:-/tmp}/qc-minus.$$"
}
# qc_housekeeping_of ISOLATED SMP: the CPUs of 0..SMP-1 not in ISOLATED, as a list.
qc_housekeeping_of() { qc_cpulist_minus "0-$(($2 - 1))" "$1"; }

# --- as bitmasks -----------------------------------------------------------

# qc_cpulist_mask LIST: CL_MASK = bitmask of LIST; returns 1 if LIST is malformed.
qc_cpulist_mask() {
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

# qc_cpulist_of_mask MASK: CL_LIST = the CPU list of MASK, ranges folded ("1-3,5").
qc_cpulist_of_mask() {
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

# qc_cpulist_hexmask MASK: HEXMASK = MASK in the hex form of sysfs cpumask files.
qc_cpulist_hexmask() { HEXMASK=$(printf '%x' "$1"); }

# qc_cpulist_mask_of_hex STRING: HEX_MASK = integer value of a sysfs hex cpumask
# ("00000001" or "00000000,00000001").
qc_cpulist_mask_of_hex() {
	_h=$(echo "$1" | tr -d ',')
	HEX_MASK=$((0x${_h:-0}))
}

# qc_cpulist_first LIST: CL_FIRST = the lowest CPU of LIST ("3,1-2" gives 1);
# returns 1 if LIST is malformed or empty.
qc_cpulist_first() {
	qc_cpulist_mask "$1" && [ "$CL_MASK" -ne 0 ] || return 1
	CL_FIRST=0
	while [ $((CL_MASK >> CL_FIRST & 1)) -eq 0 ]; do CL_FIRST=$((CL_FIRST + 1)); done
}
