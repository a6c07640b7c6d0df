#!/bin/sh
# The host scripts' library, scripts/lib/ (and common/cpulist.sh, which the
# guest sources too): every script sources exactly the
# files whose functions and variables it uses (and what those use in
# turn), no more; every file's "# Needs" line names what it uses. Reads
# the code as text (comment lines left out); runs nothing of it.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/scripts/lib
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

libs="$(cd "$lib" && ls ./*.sh | sed 's|^\./||; s|\.sh$||') cpulist"
# file LIB: where the library file LIB is.
file() { if [ "$1" = cpulist ]; then echo "$root/common/cpulist.sh"; else echo "$lib/$1.sh"; fi; }
# The names each file defines, "NAME LIB" a line in $scratch/names: its
# functions and its variables (paths.sh's include the results contract it
# sources).
defined() { sed -n -e 's/^\([a-z_][a-z0-9_]*\)() .*/\1/p' -e 's/^\([A-Z_][A-Z0-9_]*\)=.*/\1/p' "$1"; }
for l in $libs; do
	{
		defined "$(file "$l")"
		[ "$l" != paths ] || defined "$root/$(sed -n 's|^\. "\$QC_ROOT/\(.*\)"$|\1|p' "$lib/paths.sh")"
	} | sed "s/\$/ $l/"
done > "$scratch/names"
cut -d' ' -f1 "$scratch/names" > "$scratch/words"
# uses FILE [SELF]: the library files (but SELF) whose names FILE's code
# uses, one a line, sorted.
uses() {
	grep -v '^[[:space:]]*#' "$1" | grep -owF -f "$scratch/words" |
		awk -v self="${2:-}" 'NR == FNR { lib[$1] = $2; next } lib[$1] != self { print lib[$1] }' "$scratch/names" - |
		sort -u
}
# What each library file uses, once: $scratch/uses-LIB.
for l in $libs; do uses "$(file "$l")" "$l" > "$scratch/uses-$l"; done
# needs FILE: what FILE uses, and what that uses in turn, sorted.
needs() {
	set -- $(uses "$1")
	done_=
	while [ $# -gt 0 ]; do
		case " $done_ " in *" $1 "*) shift; continue ;; esac
		done_="$done_ $1"
		set -- "$@" $(cat "$scratch/uses-$1")
		shift
	done
	echo $done_ | tr ' ' '\n' | sort
}
# sourced FILE: the library files FILE sources, sorted.
sourced() { sed -n 's,^\. .*/\(lib\|common\)/\([a-z-]*\)\.sh"$,\2,p' "$1" | sort; }
# stated LIB: the files a library file's "# Needs" line names, sorted.
stated() { sed -n 's/^# Needs //p' "$(file "$1")" | grep -o '[a-z-]*\.sh' | sed 's/\.sh$//' | sort; }

scripts=$(cd "$root/scripts" && ls ./*.sh | sed 's|^\./||')
ktap_plan $(( $(echo $scripts | wc -w) + $(echo $libs | wc -w) + 1 ))
ktap_check "scripts/lib.sh, the old grab-bag, is gone" test ! -e "$root/scripts/lib.sh"
for l in $libs; do
	want=$(cat "$scratch/uses-$l")
	ktap_check "$(file "$l" | sed "s|^$root/||") says it needs what it uses ($(echo $want))" \
		test "$(stated "$l")" = "$want"
done
for s in $scripts; do
	want=$(needs "$root/scripts/$s") got=$(sourced "$root/scripts/$s")
	ktap_check "scripts/$s sources what it uses: $(echo $want)${got:+ (sources: $(echo $got))}" test "$got" = "$want"
done
ktap_finish
