# cpulist.sh: the host's CPU lists, "1-3,5" <-> one number per line.
# Needs nothing.
# shellcheck shell=sh

cpulist_expand() {
	printf '%s\n' "$1" | tr ',' '\n' | while IFS=- read -r lo hi; do
		case "$lo$hi" in *[!0-9]*|'') return 1 ;; esac
		[ -n "$hi" ] || hi=$lo
		[ "$lo" -le "$hi" ] || return 1
		seq "$lo" "$hi"
	done
}
cpulist_valid() {
	case $1 in ''|*[!0-9,-]*) return 1 ;; esac
	cpulist_expand "$1" >/dev/null 2>&1
}
# cpulist_below LIST N: every CPU of LIST is below N, checked without
# expanding it (so "1-99999999" is refused at once, not after a count to
# it). A malformed LIST is not below anything.
cpulist_below() {
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
# cpulist_minus A B: the CPUs of list A not in list B, as a list ("" if none).
cpulist_minus() {
	cpulist_expand "$2" > "${TMPDIR:-/tmp}/qc-minus.$$"
	cpulist_expand "$1" | grep -vxF -f "${TMPDIR:-/tmp}/qc-minus.$$" | paste -sd, -
	rm -f "${TMPDIR:-/tmp}/qc-minus.$$"
}
# housekeeping_of ISOLATED SMP: the CPUs of 0..SMP-1 not in ISOLATED, as a list.
housekeeping_of() { cpulist_minus "0-$(($2 - 1))" "$1"; }
