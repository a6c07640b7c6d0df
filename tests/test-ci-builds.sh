#!/bin/sh
# The order of the test programs does not matter, checked statically: each
# slow program declares the kernel builds it boots ("# qc-test: boots"),
# only CI builds (ci-builds.list), builds them itself before its first
# boot (ktap_build_boots) and boots nothing else (check-boots.awk says
# what is checked); every CI build names a variant of patches/series. The
# checker must also catch each kind of offender.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
. "$root/scripts/lib/paths.sh"
. "$root/scripts/lib/log.sh"
. "$root/scripts/lib/plugin.sh"
. "$root/scripts/lib/variants.sh"

ci=$(ktap_ci_builds | tr '\n' ' ')
check() { awk -v ci="$ci" -f "$root/tests/check-boots.awk" "$@"; }

# (the fixtures counted by the shell's glob, not by ls and wc)
set -- "$root"/tests/fixtures/ci-builds/*.sh
ktap_plan $((4 + $#))
unknown=$(for b in $ci; do qc_variant_base "${b%-debug}" >/dev/null 2>&1 || echo "$b"; done)
ktap_check "every CI build ($ci) names a variant of patches/series${unknown:+ (not: $unknown)}" test -z "$unknown"
ktap_check "CI builds are listed once each" test "$(ktap_ci_builds | sort | uniq -d)" = ""
if out=$(check "$root"/tests/test-*.sh 2>&1); then
	ktap_ok "every test program boots only the CI builds it declares, built by itself"
else
	ktap_not_ok "every test program boots only the CI builds it declares, built by itself"
	ktap_diag "$out"
fi
slow=$(grep -l '^# qc-test: slow' "$root"/tests/test-*.sh | wc -l)
ktap_check "the slow programs ($slow) were among those checked" test "$slow" -ge 8

# Crafted offenders (fixtures/ci-builds/, each naming on its "# expect:"
# line the reason it must be caught for): each caught, for that reason.
# One check over them all, as over the programs above (each problem names
# its file; what it keeps of a program starts again at the next), and one
# grep of their "# expect:" lines: an awk, a sed and a grep a fixture before.
fixtures=$root/tests/fixtures/ci-builds
problems=$(check "$fixtures"/*.sh 2>&1)
expects=$(grep -H '^# expect: ' "$fixtures"/*.sh)
# lines_of TEXT PREFIX: L, the lines of TEXT that start with PREFIX.
lines_of() {
	L=''
	while IFS= read -r _l; do
		case $_l in "$2"*) L="$L${L:+
}$_l" ;; esac
	done <<EOF
$1
EOF
}
for f in "$fixtures"/*.sh; do
	name=${f##*/} name=${name%.sh}
	lines_of "$expects" "$f:# expect: "
	expect=${L#"$f:# expect: "}
	lines_of "$problems" "$f:"
	out=$L
	if [ -z "$out" ]; then
		ktap_not_ok "caught: $name ($expect)"; ktap_diag "not caught"
	elif ktap_contains "$out" "$expect"; then
		ktap_ok "caught: $name ($expect)"
	else
		ktap_not_ok "caught: $name ($expect)"; ktap_diag "caught for another reason: $out"
	fi
done
ktap_finish
