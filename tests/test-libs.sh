#!/bin/sh
# The host scripts' library, scripts/lib/: every script sources exactly the
# files whose functions and variables it uses (and what those use in
# turn), no more; every file's "# Needs" line names what it uses. Reads
# the code as text (comment lines left out); runs nothing of it.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/scripts/lib
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

libs=$(cd "$lib" && ls ./*.sh | sed 's|^\./||; s|\.sh$||')
# The names each file defines, one a line in $scratch/NAME: its functions
# and its variables (paths.sh's include the results contract it sources).
for l in $libs; do
	{
		sed -n -e 's/^\([a-z_][a-z0-9_]*\)() .*/\1/p' -e 's/^\([A-Z_][A-Z0-9_]*\)=.*/\1/p' "$lib/$l.sh"
		[ "$l" != paths ] || sed -n -e 's/^\([a-z_][a-z0-9_]*\)() .*/\1/p' -e 's/^\([A-Z_][A-Z0-9_]*\)=.*/\1/p' \
			"$root/$(sed -n 's|^\. "\$QC_ROOT/\(.*\)"$|\1|p' "$lib/paths.sh")"
	} > "$scratch/$l"
done
# uses FILE [SELF]: the library files (but SELF) whose names FILE's code uses.
uses() {
	grep -v '^[[:space:]]*#' "$1" > "$scratch/code"
	for l in $libs; do
		[ "$l" != "${2:-}" ] || continue
		! grep -qwF -f "$scratch/$l" "$scratch/code" || echo "$l"
	done
}
# needs FILE: what FILE uses, and what that uses in turn, sorted.
needs() {
	set -- $(uses "$1")
	done_=
	while [ $# -gt 0 ]; do
		case " $done_ " in *" $1 "*) shift; continue ;; esac
		done_="$done_ $1"
		set -- "$@" $(uses "$lib/$1.sh" "$1")
		shift
	done
	echo $done_ | tr ' ' '\n' | sort
}
# sourced FILE: the library files FILE sources, sorted.
sourced() { sed -n 's|^\. .*/lib/\([a-z-]*\)\.sh"$|\1|p' "$1" | sort; }
# stated LIB: the files a library file's "# Needs" line names, sorted.
stated() { sed -n 's/^# Needs //p' "$lib/$1.sh" | grep -o '[a-z-]*\.sh' | sed 's/\.sh$//' | sort; }

scripts=$(cd "$root/scripts" && ls ./*.sh | sed 's|^\./||')
ktap_plan $(( $(echo $scripts | wc -w) + $(echo $libs | wc -w) + 1 ))
ktap_check "scripts/lib.sh, the old grab-bag, is gone" test ! -e "$root/scripts/lib.sh"
for l in $libs; do
	want=$(uses "$lib/$l.sh" "$l" | sort)
	ktap_check "scripts/lib/$l.sh says it needs what it uses ($(echo $want))" \
		test "$(stated "$l")" = "$want"
done
for s in $scripts; do
	want=$(needs "$root/scripts/$s") got=$(sourced "$root/scripts/$s")
	ktap_check "scripts/$s sources what it uses: $(echo $want)${got:+ (sources: $(echo $got))}" test "$got" = "$want"
done
ktap_finish
