#!/bin/sh
# tests/run.sh [--fast]: run every tests/test-*.sh, each a KTAP test
# program, nest their output one level as kselftest does, and close with
# the totals. Programs that boot guests say "# qc-test: slow" and are left
# out with --fast. A program that exits 4 (kselftest's KSFT_SKIP: a missing
# prerequisite) is counted as skipped. Exit status: non-zero when any
# program failed.
cd "$(dirname "$0")" || exit 2
fast=no
[ "${1:-}" = --fast ] && fast=yes

selected() {
	for t in test-*.sh; do
		[ "$fast" = yes ] && grep -q '^# qc-test: slow' "$t" && continue
		echo "$t"
	done
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "TAP version 13"
echo "1..$(selected | wc -l)"
n=0 pass=0 fail=0 skip=0
for t in $(selected); do
	n=$((n + 1))
	start=$(date +%s)
	echo "# $t"
	sh "./$t" > "$log" 2>&1
	rc=$?
	sed 's/^/    /' "$log"
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "ok $n $t # $(( $(date +%s) - start )) s"
	elif [ $rc -eq 4 ]; then
		# kselftest's KSFT_SKIP: a missing prerequisite, never a pass.
		skip=$((skip + 1)); echo "ok $n $t # SKIP $(sed -n 's/^1\.\.0 # SKIP //p' "$log" | head -n1)"
	else
		fail=$((fail + 1)); echo "not ok $n $t # exit $rc"
	fi
done
echo "# $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
