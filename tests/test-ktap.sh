#!/bin/sh
# The KTAP helpers (tests/ktap.sh) and the runner (tests/run.sh) behave as
# kselftest's: a plan that ran short fails, a skip is "ok N ... # SKIP",
# a program that cannot run exits 4 and the runner counts it as skipped,
# never as passed or failed. Runs small programs in a scratch copy.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ktap_plan 14

# prog NAME BODY: a test program in the scratch tests/ directory, named
# test-NAME.sh as the runner finds them; it finds ktap.sh beside it without
# dirname's process (run directly or by the runner, its path has a slash).
mkdir -p "$scratch/tests"
cp "$root/tests/ktap.sh" "$root/tests/run.sh" "$scratch/tests/"
prog() { printf '. "${0%%/*}/ktap.sh"\n%s\n' "$2" > "$scratch/tests/test-$1.sh"; }
# has PATTERN / lacks PATTERN: a line of the last program's output $out
# matches the case PATTERN, whole (read in the shell: a grep a check was
# most of what this program ran itself).
has() {
	while IFS= read -r _l; do
		# shellcheck disable=SC2254 # the pattern is the argument's
		case $_l in $1) return 0 ;; esac
	done <<EOF
$out
EOF
	return 1
}
lacks() { ! has "$1"; }

prog short 'ktap_plan 3
ktap_ok one
ktap_ok two
ktap_finish'
out=$(sh "$scratch/tests/test-short.sh")
ktap_check "a plan that ran short fails the program" test $? -ne 0
ktap_check "... and says so" has '# planned 3 checks, ran 2'

prog skipone 'ktap_plan 1
ktap_skip "needs a thing"
ktap_finish'
out=$(sh "$scratch/tests/test-skipone.sh")
rc=$?
ktap_check "a skipped check is 'ok N desc # SKIP'" has 'ok 1 needs a thing # SKIP'
ktap_check "... and does not fail the program" test "$rc" -eq 0

prog skipall 'ktap_require qc-no-such-command
ktap_plan 1
ktap_ok never'
out=$(sh "$scratch/tests/test-skipall.sh")
rc=$?
ktap_check "a missing prerequisite skips the whole program: exit 4" test "$rc" -eq 4
ktap_check "... with an empty plan naming it" has "1..0 # SKIP 'qc-no-such-command' is not installed*"
ktap_check "... and no check run" lacks '*never*'

prog bail 'ktap_plan 2
ktap_not_ok first
ktap_bail_out "nothing to test"
ktap_ok second'
out=$(sh "$scratch/tests/test-bail.sh")
ktap_check "a bail-out stops the program with a failure" test $? -eq 1
ktap_check "... saying why" has 'Bail out! nothing to test'
ktap_check "... and runs no check after it" lacks '*second*'

# The runner over a passing, a skipped and a failing program.
out=$(sh "$scratch/tests/run.sh")
rc=$?
ktap_check "the runner counts the skipped program as skipped, naming why" \
	has "ok [0-9] test-skipall.sh # SKIP 'qc-no-such-command' is not installed*"
ktap_check "... and the totals: 1 passed, 2 failed, 1 skipped" has '# 1 passed, 2 failed, 1 skipped'
ktap_check "... and exits non-zero" test "$rc" -ne 0
rm "$scratch/tests/test-short.sh" "$scratch/tests/test-bail.sh"
sh "$scratch/tests/run.sh" > /dev/null
ktap_check "a suite of passes and skips passes" test $? -eq 0
ktap_finish
