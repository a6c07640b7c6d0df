#!/bin/sh
# tests/run.sh [--fast]: run every tests/test-*.sh, each a KTAP test
# program, nest their output one level as kselftest does, and close with
# the totals. Programs that boot guests say "# qc-test: slow" and are left
# out with --fast. A program that exits 4 (kselftest's KSFT_SKIP: a missing
# prerequisite) is counted as skipped. Exit status: non-zero when any
# program failed.
#
# The fast programs run first, then the slow ones. Each slow program builds
# the kernels it boots (its "# qc-test: boots" line, from the CI builds in
# ci-builds.list), so their order does not matter: QC_TEST_ORDER=shuffle
# runs them in a random order, QC_TEST_SEED=N repeats one. Output is
# streamed, so a long program's progress (builds, boots) shows as it comes.
cd "$(dirname "$0")" || exit 2
fast=no
[ "${1:-}" = --fast ] && fast=yes

is_slow() { grep -q '^# qc-test: slow' "$1"; }
# programs fast|slow: the test programs of one kind, in name order.
programs() {
	for t in test-*.sh; do
		if is_slow "$t"; then _kind=slow; else _kind=fast; fi
		[ "$_kind" != "$1" ] || echo "$t"
	done
}
shuffle() { awk -v seed="$1" 'BEGIN { srand(seed) } { print rand() "\t" $0 }' | sort -n | cut -f2-; }

order=$(programs fast)
if [ "$fast" = no ]; then
	if [ "${QC_TEST_ORDER:-}" = shuffle ]; then
		seed=${QC_TEST_SEED:-$(date +%s)}
		order="$order $(programs slow | shuffle "$seed")"
	else
		order="$order $(programs slow)"
	fi
fi
rcfile=$(mktemp)
trap 'rm -f "$rcfile"' EXIT
echo "TAP version 13"
echo "1..$(echo $order | wc -w)"
[ -z "${seed:-}" ] || echo "# slow programs shuffled (QC_TEST_SEED=$seed): $(programs slow | shuffle "$seed" | tr '\n' ' ')"
n=0 pass=0 fail=0 skip=0
for t in $order; do
	n=$((n + 1))
	start=$(date +%s)
	echo "# $t"
	{ sh "./$t" 2>&1; echo $? > "$rcfile"; } | tee "$rcfile.log" | sed -u 's/^/    /'
	rc=$(cat "$rcfile")
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1)); echo "ok $n $t # $(( $(date +%s) - start )) s"
	elif [ "$rc" -eq 4 ]; then
		# kselftest's KSFT_SKIP: a missing prerequisite, never a pass.
		skip=$((skip + 1)); echo "ok $n $t # SKIP $(sed -n 's/^1\.\.0 # SKIP //p' "$rcfile.log" | head -n1)"
	else
		fail=$((fail + 1)); echo "not ok $n $t # exit $rc"
	fi
done
rm -f "$rcfile.log"
# kselftest's totals line, then the plain one.
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
echo "# $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
