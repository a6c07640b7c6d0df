#!/bin/sh
# The host scripts' library, scripts/lib/ (and common/cpulist.sh, which the
# guest sources too): every script sources exactly the
# files whose functions and variables it uses (and what those use in
# turn), no more; every file's "# Needs" line names what it uses. Reads
# the code as text (comment lines left out); runs nothing of it.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
lib=$root/scripts/lib

# The library files' names (bench ... variants, then cpulist) and the
# scripts', in name order, without a process for either list; a check
# for each, and one for lib.sh.
libs="" checks=2
for f in "$lib"/*.sh; do f=${f##*/}; libs="$libs ${f%.sh}" checks=$((checks + 1)); done
libs="${libs# } cpulist"
scripts=
for f in "$root"/scripts/*.sh; do scripts="$scripts ${f##*/}" checks=$((checks + 1)); done
scripts=${scripts# }

# One awk reads every file (a process a file and check was most of this
# program's cost) and prints, one line a check, "lib:LIB:WANT:GOT" (what
# LIB's code uses; what its "# Needs" line names) and "script:S:WANT:GOT"
# (what S uses, and what that uses in turn; the library files S sources),
# each list sorted, space-separated.
# shellcheck disable=SC2016 # awk's $0, not the shell's
facts=$(awk -v root="$root" -v libs="$libs" -v scripts="$scripts" '
# file(LIB): where the library file LIB is.
function file(l) { return l == "cpulist" ? root "/common/cpulist.sh" : root "/scripts/lib/" l ".sh" }
# defined(F, LIB): the names F defines, its functions and its variables,
# each owned by LIB in owner[] (a name defined twice: the last one).
function defined(f, l,   line) {
	while ((getline line < f) > 0) {
		if (line ~ /^[a-z_][a-z0-9_]*\(\) /) owner[substr(line, 1, index(line, "(") - 1)] = l
		else if (line ~ /^[A-Z_][A-Z0-9_]*=/) owner[substr(line, 1, index(line, "=") - 1)] = l
	}
	close(f)
}
# contract(F): the files F sources as . "$QC_ROOT/...", one a line
# (paths.sh: the results contract, whose names count as paths.sh s).
function contract(f,   line, out) {
	out = ""
	while ((getline line < f) > 0)
		if (line ~ /^\. "\$QC_ROOT\/.*"$/) out = out substr(line, 12, length(line) - 12) "\n"
	close(f)
	return out
}
# sorted(A, N): A[1..N] sorted, space-separated.
function sorted(a, n,   i, j, t, s) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	s = ""
	for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") a[i]
	return s
}
# keys(SET): the keys of SET, sorted, space-separated.
function keys(set,   k, a, n) {
	n = 0
	for (k in set) a[++n] = k
	return sorted(a, n)
}
# uses(F, SELF): the library files (but SELF) whose names the code of F
# (comment lines left out) uses as whole words.
function uses(f, self,   line, w, n, i, set) {
	while ((getline line < f) > 0) {
		if (line ~ /^[[:space:]]*#/) continue
		gsub(/[^A-Za-z0-9_]+/, " ", line)
		n = split(line, w, " ")
		for (i = 1; i <= n; i++)
			if ((w[i] in owner) && owner[w[i]] != self) set[owner[w[i]]]
	}
	close(f)
	return keys(set)
}
# needs(F): what F uses, and what that uses in turn (libuses[]), sorted.
function needs(f,   todo, n, i, w, seen) {
	todo = uses(f, "")
	while (todo != "") {
		n = split(todo, w, " ")
		todo = ""
		for (i = 1; i <= n; i++)
			if (!(w[i] in seen)) { seen[w[i]]; todo = todo " " libuses[w[i]] }
	}
	return keys(seen)
}
# sourced(F): the library files F sources (". .../lib/NAME.sh" or
# common/NAME.sh), sorted, a file sourced twice named twice.
function sourced(f,   line, a, n) {
	n = 0
	while ((getline line < f) > 0)
		if (line ~ /^\. .*\/(lib|common)\/[a-z-]*\.sh"$/) {
			sub(/\.sh"$/, "", line)
			sub(/.*\//, "", line)
			a[++n] = line
		}
	close(f)
	return sorted(a, n)
}
# stated(LIB): the files the "# Needs" lines of LIB name, sorted.
function stated(l,   f, line, a, n) {
	f = file(l)
	n = 0
	while ((getline line < f) > 0) {
		if (line !~ /^# Needs /) continue
		line = substr(line, 9)
		while (match(line, /[a-z-]*\.sh/)) {
			a[++n] = substr(line, RSTART, RLENGTH - 3)
			line = substr(line, RSTART + RLENGTH)
		}
	}
	close(f)
	return sorted(a, n)
}
BEGIN {
	nl = split(libs, l, " ")
	for (i = 1; i <= nl; i++) {
		defined(file(l[i]), l[i])
		if (l[i] != "paths") continue
		nc = split(contract(file("paths")), c, "\n")
		for (j = 1; j <= nc; j++) if (c[j] != "") defined(root "/" c[j], "paths")
	}
	for (i = 1; i <= nl; i++) libuses[l[i]] = uses(file(l[i]), l[i])
	for (i = 1; i <= nl; i++) print "lib:" l[i] ":" libuses[l[i]] ":" stated(l[i])
	ns = split(scripts, s, " ")
	for (i = 1; i <= ns; i++) {
		f = root "/scripts/" s[i]
		print "script:" s[i] ":" needs(f) ":" sourced(f)
	}
}')

ktap_plan "$checks"
ktap_check "scripts/lib.sh, the old grab-bag, is gone" test ! -e "$root/scripts/lib.sh"
while IFS=: read -r kind name want got; do
	case $kind in
	lib)
		f=scripts/lib/$name.sh
		[ "$name" != cpulist ] || f=common/cpulist.sh
		ktap_check "$f says it needs what it uses ($want)" test "$got" = "$want" ;;
	script)
		ktap_check "scripts/$name sources what it uses: $want${got:+ (sources: $got)}" test "$got" = "$want" ;;
	esac
done <<EOF
$facts
EOF
ktap_finish
