#!/bin/sh
# common/cpulist.sh, the CPU-list helper both sides source, gives the same
# answers under the host's shell (dash) and the guest's (busybox ash): the
# list form the host checks input with, the bitmask form the guest's
# cpusets/ and tracing/guest/ use.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)

# Each case: a command line of the helper's functions, " => ", and what
# it prints.
cases=$(mktemp)
trap 'rm -f "$cases"' EXIT
cat > "$cases" <<'CASES'
qc_cpulist_expand 1-3,5 | paste -sd' ' - => 1 2 3 5
qc_cpulist_valid 1-3,5 && echo yes => yes
qc_cpulist_valid 3-1 || qc_cpulist_valid 1,x || qc_cpulist_valid '' || echo no => no
qc_cpulist_below 1-3 4 && echo yes => yes
qc_cpulist_below 1-99999999 4 || qc_cpulist_below 1-4 4 || qc_cpulist_below 1-x 4 || echo no => no
qc_cpulist_minus 0-3 1-2 => 0,3
qc_housekeeping_of 1-3 4 => 0
qc_cpulist_mask 1-3,5 && echo $CL_MASK => 46
qc_cpulist_mask 63 || qc_cpulist_mask 1-x || echo no => no
qc_cpulist_of_mask 46; echo $CL_LIST => 1-3,5
qc_cpulist_first 3,1-2 && echo $CL_FIRST => 1
qc_cpulist_first '' || echo no => no
qc_cpulist_hexmask 46; echo $HEXMASK => 2e
qc_cpulist_mask_of_hex 00000000,0000002e; echo $HEX_MASK => 46
CASES

ktap_plan $((2 * $(wc -l < "$cases")))
# run_cases SHELL...: every case under SHELL, by one SHELL that sources the
# helper once and runs each case in a subshell of its own, as "SHELL -c"
# a case did before (a shell started a case was most of this program's
# cost): a line a case, "ok" when it printed what it should, "no" when
# not, a tab, and what it printed (its lines joined by " | ").
run_cases() {
	# shellcheck disable=SC2016 # expanded by SHELL
	"$@" -c '. "$1"
	while IFS= read -r line; do
		cmd=${line% => *} want=${line##* => }
		got=$(eval "$cmd" 2>&1)
		verdict=no
		[ "$got" != "$want" ] || verdict=ok
		flat=
		while IFS= read -r l; do flat="$flat${flat:+ | }$l"; done <<EOF
$got
EOF
		printf "%s\t%s\n" "$verdict" "$flat"
	done < "$2"' run_cases "$root/common/cpulist.sh" "$cases"
}
tab=$(printf '\t')
for shell in sh busybox; do
	results=
	if command -v "$shell" >/dev/null 2>&1; then
		case $shell in sh) results=$(run_cases sh) ;; busybox) results=$(run_cases busybox sh) ;; esac
	fi
	while IFS= read -r line; do
		cmd=${line% => *} want=${line##* => }
		if ! command -v "$shell" >/dev/null 2>&1; then
			ktap_skip "$shell: $cmd (no $shell here)"
			continue
		fi
		IFS= read -r result <&3 || result="no${tab}(no answer)"
		got=${result#*"$tab"}
		ktap_check "$shell: $cmd => $want${got:+ (got $got)}" test "${result%%"$tab"*}" = ok
	done < "$cases" 3<<EOF
$results
EOF
done
ktap_finish
