#!/bin/sh
# tests/run.sh [--fast]: run every tests/test-*.sh, each a KTAP test
# program, nest their output one level as kselftest does, and close with
# the totals. Programs that boot guests say "# qc-test: slow" and are left
# out with --fast. A program that exits 4 (kselftest's KSFT_SKIP: a missing
# prerequisite) is counted as skipped. Exit status: non-zero when any
# program failed.
#
# The fast programs run first, side by side: QC_TEST_JOBS at a time
# (default: the CPU count), the longest first (by their last run's
# seconds, kept in the cache), each into a file; their output is printed
# in name order, each program whole, as soon as it and those before it
# are done. What they share is made once before they start: the analyzer
# (tracing/qc-analyze) and the kernel trees tree.sh unpacks into the
# cache. Then the slow ones, one at a time, streamed, so that a long
# program's progress (builds, boots) shows as it comes. Each slow program
# builds the kernels it boots (its "# qc-test: boots" line, from the CI
# builds in ci-builds.list), so their order does not matter:
# QC_TEST_ORDER=shuffle runs them in a random order, QC_TEST_SEED=N
# repeats one.
cd "$(dirname "$0")" || exit 2
fast=no
[ "${1:-}" = --fast ] && fast=yes
jobs=${QC_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*|0) echo "quietcore: error: QC_TEST_JOBS='$jobs' is not a number of programs at a time (1, 2, ...)" >&2; exit 2 ;; esac

# programs fast|slow: the test programs of one kind, in name order (one
# grep: files without the slow line, or with it).
programs() {
	if [ "$1" = fast ]; then grep -L '^# qc-test: slow' test-*.sh; else grep -l '^# qc-test: slow' test-*.sh; fi
}
shuffle() { awk -v seed="$1" 'BEGIN { srand(seed) } { print rand() "\t" $0 }' | sort -n | cut -f2-; }

fast_order=$(programs fast)
slow_order=
if [ "$fast" = no ]; then
	if [ "${QC_TEST_ORDER:-}" = shuffle ]; then
		seed=${QC_TEST_SEED:-$(date +%s)}
		slow_order=$(programs slow | shuffle "$seed")
	else
		slow_order=$(programs slow)
	fi
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "TAP version 13"
echo "1..$(echo $fast_order $slow_order | wc -w)"
[ -z "${seed:-}" ] || echo "# slow programs shuffled (QC_TEST_SEED=$seed): $(echo $slow_order)"
n=0 pass=0 fail=0 skip=0

# result N PROGRAM RC SECONDS LOG: the program's closing line, counted.
result() {
	if [ "$3" -eq 0 ]; then
		pass=$((pass + 1)); echo "ok $1 $2 # $4 s"
	elif [ "$3" -eq 4 ]; then
		# kselftest's KSFT_SKIP: a missing prerequisite, never a pass.
		skip=$((skip + 1)); echo "ok $1 $2 # SKIP $(sed -n 's/^1\.\.0 # SKIP //p' "$5" | head -n1)"
	else
		fail=$((fail + 1)); echo "not ok $1 $2 # exit $3"
	fi
}

# --- the fast programs, side by side -----------------------------------
# The seconds each program took last time, to start the longest first.
times_file=${QC_CACHE:-${HOME:-/tmp}/.cache/quietcore}/test-seconds
# What they share, made once: the analyzer (several run it; make in one
# directory from several programs at once would race) and the trees
# (tree.sh unpacks one on first use; two programs at once would both).
# A tree is unpacked through the first variant built from it as it is
# (no base, no patch of its own), so that no patched copy is made here.
# They are made side by side (each tree in a directory of its own): even
# when all is made already, each check costs a few tenths of a second.
if [ -n "$fast_order" ] && [ -f ../patches/series ]; then
	make -s -C ../tracing >/dev/null 2>&1 &
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' ../patches/series | {
		while read -r v base tree _; do
			[ "$base" = - ] || continue
			! ls ../patches/"$v"/*.patch >/dev/null 2>&1 || continue
			case " ${seen:-} " in *" $tree "*) continue ;; esac
			seen="${seen:-} $tree"
			../scripts/tree.sh "$v" >/dev/null 2>&1 &
		done
		wait
	}
	wait
fi
# (A program that cannot have these fails or skips on its own, saying why.)
# (one awk for them all: a program's last line there, 0 for one not there)
printf '%s\n' $fast_order | awk -v times="$times_file" '
	BEGIN { while ((getline line < times) > 0) { split(line, w, " "); s[w[1]] = w[2] } }
	{ print s[$1] + 0, $1 }' | sort -k1,1nr -k2 | cut -d' ' -f2 > "$out/queue"
# Each program: its output in out/P.log, then its status and seconds in
# out/P.rc (written last), then its name down the pipe out/done, which the
# printer reads (it waits there, without polling); "end" when all are done.
export out
mkfifo "$out/done"
exec 3<>"$out/done"
# shellcheck disable=SC2016 # expanded by the inner sh
{
	xargs -P "$jobs" -n 1 sh -c '
		start=$(date +%s)
		sh "./$1" > "$out/$1.log" 2>&1
		rc=$?
		echo "$rc $(( $(date +%s) - start ))" > "$out/$1.rc.tmp" && mv "$out/$1.rc.tmp" "$out/$1.rc"
		echo "$1" > "$out/done"' run < "$out/queue"
	echo end > "$out/done"
} &
runner=$!
ended=no
for t in $fast_order; do
	n=$((n + 1))
	echo "# $t"
	while [ ! -f "$out/$t.rc" ] && [ "$ended" = no ]; do
		read -r finished <&3 || finished=end
		[ "$finished" != end ] || ended=yes
	done
	# (the runner ended without its status: counted as failed)
	[ -f "$out/$t.rc" ] || { echo "9 0" > "$out/$t.rc"; : >> "$out/$t.log"; }
	read -r rc secs < "$out/$t.rc"
	sed 's/^/    /' "$out/$t.log"
	result "$n" "$t" "$rc" "$secs" "$out/$t.log"
	echo "$t $secs" >> "$out/seconds"
done
wait "$runner"
exec 3<&-
# (merged: another suite's programs, test-ktap.sh's, keep their lines)
if [ -s "$out/seconds" ] && mkdir -p "$(dirname "$times_file")" 2>/dev/null; then
	awk 'NR == FNR { new[$1] = 1; print; next } !($1 in new)' "$out/seconds" "$times_file" \
		> "$out/merged" 2>/dev/null || cp "$out/seconds" "$out/merged"
	mv "$out/merged" "$times_file" 2>/dev/null || :
fi

# --- the slow programs, one at a time, streamed ------------------------
for t in $slow_order; do
	n=$((n + 1))
	start=$(date +%s)
	echo "# $t"
	{ sh "./$t" 2>&1; echo $? > "$out/rc"; } | tee "$out/log" | sed -u 's/^/    /'
	result "$n" "$t" "$(cat "$out/rc")" "$(( $(date +%s) - start ))" "$out/log"
done
# kselftest's totals line, then the plain one.
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
echo "# $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
