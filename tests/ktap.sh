# KTAP output for quietcore's shell tests, in the style of kselftest's
# ktap_helpers.sh: a plan, one ok/not ok line per check, and a closing
# count line. Source it; call ktap_plan N first and ktap_finish last.
# Exit status, as kselftest's: 0 pass, 1 fail, 4 (KSFT_SKIP) the whole
# program was skipped for a missing prerequisite; tests/run.sh counts it.
# shellcheck shell=sh

KSFT_SKIP=4

ktap_n=0 ktap_pass=0 ktap_fail=0 ktap_skip=0

ktap_plan() { ktap_planned=$1; echo "TAP version 13"; echo "1..$1"; }
ktap_ok() { ktap_n=$((ktap_n + 1)); ktap_pass=$((ktap_pass + 1)); echo "ok $ktap_n $*"; }
ktap_not_ok() { ktap_n=$((ktap_n + 1)); ktap_fail=$((ktap_fail + 1)); echo "not ok $ktap_n $*"; }
ktap_skip() { ktap_n=$((ktap_n + 1)); ktap_skip=$((ktap_skip + 1)); echo "ok $ktap_n $* # SKIP"; }
ktap_diag() { echo "$*" | sed 's/^/# /'; }

# ktap_skip_all REASON: the program cannot run here (before ktap_plan):
# an empty plan with the reason, exit 4. Never a pass.
ktap_skip_all() { echo "TAP version 13"; echo "1..0 # SKIP $*"; exit "$KSFT_SKIP"; }
# ktap_require CMD...: skip the whole program unless every CMD is installed
# (make setup installs them all, so CI runs everything).
ktap_require() {
	for _c in "$@"; do
		command -v "$_c" >/dev/null 2>&1 ||
			ktap_skip_all "'$_c' is not installed (sudo make setup installs it)"
	done
}
# ktap_bail_out REASON: a check the rest depends on failed: say so and
# stop with a failure (the plan is not met; nothing is counted as passed).
ktap_bail_out() { echo "Bail out! $*"; exit 1; }

# The builds a slow program boots: its "# qc-test: boots" line, tokens named
# as build directories are (VARIANT, VARIANT-debug), each one of the CI
# builds in tests/ci-builds.list.
ktap_boots() { sed -n 's/^# qc-test: boots //p' "$0"; }
ktap_ci_builds() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$(dirname "$0")/ci-builds.list"; }

# ktap_build_boots: build every build the program declares (the caller's
# $root is the repository, $scratch a scratch directory) through
# scripts/build.sh, the build step of make compare (make and ccache redo
# only what changed), with one progress line before and after each. A
# program then boots with --no-build, and no program depends on another
# having built its kernels first: the suite passes in any order. A build
# that fails, or one not declared a CI build, bails out.
ktap_build_boots() {
	_builds=$(ktap_boots)
	_n=$(echo $_builds | wc -w) _i=0
	[ "$_n" -gt 0 ] || ktap_bail_out "$0 boots guests but has no '# qc-test: boots' line"
	for _b in $_builds; do
		_i=$((_i + 1))
		ktap_ci_builds | grep -qxF "$_b" ||
			ktap_bail_out "$0 boots $_b, which is not a CI build (add it to tests/ci-builds.list)"
		case $_b in
		*-debug) set -- --debug "${_b%-debug}" ;;
		*) set -- "$_b" ;;
		esac
		echo "# build $_i/$_n: $_b (scripts/build.sh $*)"
		_t=$(date +%s)
		if ! "$root/scripts/build.sh" "$@" >"$scratch/build.log" 2>&1; then
			ktap_diag "$(tail -n 5 "$scratch/build.log")"
			ktap_bail_out "the build of $_b failed"
		fi
		echo "# build $_i/$_n: $_b ready after $(($(date +%s) - _t)) s"
	done
}

# ktap_check DESCRIPTION COMMAND...: one test point from a command's status.
ktap_check() {
	desc=$1
	shift
	if "$@"; then ktap_ok "$desc"; else ktap_not_ok "$desc"; fi
}

# expect_error DESCRIPTION PATTERN COMMAND...: the command must fail with a
# one-line "quietcore: error:" message matching PATTERN.
expect_error() {
	desc=$1 pattern=$2
	shift 2
	if out=$("$@" 2>&1); then
		ktap_not_ok "$desc"
		ktap_diag "exited 0; output: $out"
	elif grep -q "^quietcore: error: .*$pattern" <<-EOF
		$out
		EOF
	then
		ktap_ok "$desc"
	else
		ktap_not_ok "$desc"
		ktap_diag "wrong message: $out"
	fi
}

# ktap_one_line TEXT: TEXT is one line (no newline inside; $(...) drops
# the last), told by the shell, not by wc.
ktap_one_line() { case $1 in *"
"*) return 1 ;; esac; }
# ktap_contains TEXT STRING: TEXT holds STRING (grep -qF's answer, without
# its process).
ktap_contains() { case $1 in *"$2"*) return 0 ;; esac; return 1; }
# ktap_one_error_line TEXT TOOL WORDS: TEXT is one line, "TOOL: error:
# ...WORDS..." (WORDS matched as they are, not as a pattern).
ktap_one_error_line() {
	ktap_one_line "$1" || return 1
	case $1 in "$2: error: "*"$3"*) ;; *) return 1 ;; esac
}
# expect_one_error DESCRIPTION TOOL PATTERN COMMAND...: the command must
# fail and print exactly one line, "TOOL: error: ...PATTERN..." (TOOL is a
# regular expression: quietcore, welch, [a-z]*...).
expect_one_error() {
	desc=$1 tool=$2 pattern=$3
	shift 3
	if out=$("$@" 2>&1); then
		ktap_not_ok "$desc"; ktap_diag "exited 0: $out"
	elif ktap_one_line "$out" && grep -q "^$tool: error: .*$pattern" <<-EOF
		$out
		EOF
	then
		ktap_ok "$desc"
	else
		ktap_not_ok "$desc"; ktap_diag "wrong message: $out"
	fi
}

# ktap_scratch: a guest-booting program's set-up: $root the repository,
# $scratch a scratch directory removed on exit, the runs it makes kept
# there ($QC_RESULTS), and scripts/lib's paths and log functions.
ktap_scratch() {
	root=$(cd "$(dirname "$0")/.." && pwd)
	scratch=$(mktemp -d)
	trap 'rm -rf "$scratch"' EXIT
	export QC_RESULTS="$scratch/results"
	. "$root/scripts/lib/paths.sh"
	. "$root/scripts/lib/log.sh"
}

# ktap_guest DESCRIPTION RUN.SH-ARGS...: one check that scripts/run.sh
# booted a guest and ran it to the end (the caller's $root is the
# repository, $scratch a scratch directory). GUEST is then the guest's
# result directory, or /nonexistent so that every check of its files fails.
ktap_guest() {
	_desc=$1
	shift
	if GUEST=$("$root/scripts/run.sh" "$@" 2>"$scratch/guest.log"); then
		ktap_ok "$_desc"
	else
		ktap_not_ok "$_desc"
		ktap_diag "$(tail -n 15 "$scratch/guest.log")"
		GUEST=/nonexistent
	fi
}

# ktap_kept_build NAME OUTVAR MAKEFILES TARGET...: the file names TARGET
# that make -f (the first of MAKEFILES) builds into OUTVAR=DIR, kept built
# in the cache, a directory per checkout ($QC_CACHE/tests/NAME-<cksum of
# $root>: no checkout tests another's build), and made again, in $scratch,
# when make finds them out of date or one of MAKEFILES (the first and
# those it includes) is newer than one of them: building them each run
# was most of a program's CPU time. KTAP_KEPT: the directory the checks
# then find them in, the cache's or, after a build, $scratch (a kept older
# build is never what they test; nothing there when the build failed,
# which fails).
ktap_kept_build() {
	_kb_out=$2 _kb_mks=$3
	read -r _kb_sum _ <<EOF
$(printf '%s' "$root" | cksum)
EOF
	_kb_keep=$QC_CACHE/tests/$1-$_kb_sum
	shift 3
	_kb_targets=$*
	_kb_fresh=yes
	for _kb_t in $_kb_targets; do
		[ -f "$_kb_keep/$_kb_t" ] || _kb_fresh=no
		for _kb_m in $_kb_mks; do
			# shellcheck disable=SC3013 # -nt: dash's test has it, as bash's and busybox's
			[ ! "$_kb_m" -nt "$_kb_keep/$_kb_t" ] || _kb_fresh=no
		done
	done
	KTAP_KEPT=$_kb_keep
	if [ $_kb_fresh = yes ]; then
		set --
		for _kb_t in $_kb_targets; do set -- "$@" "$KTAP_KEPT/$_kb_t"; done
		make -q -s -f "${_kb_mks%% *}" "$_kb_out=$KTAP_KEPT" "$@" 2>/dev/null && return 0
	fi
	KTAP_KEPT=$scratch
	set --
	for _kb_t in $_kb_targets; do set -- "$@" "$KTAP_KEPT/$_kb_t"; done
	make -s -f "${_kb_mks%% *}" "$_kb_out=$KTAP_KEPT" "$@" || return 1
	# (each copied, then each renamed into place; a cache it cannot write
	# only costs the next run the build)
	mkdir -p "$_kb_keep" 2>/dev/null || return 0
	for _kb_t in $_kb_targets; do cp "$scratch/$_kb_t" "$_kb_keep/$_kb_t.tmp" 2>/dev/null || return 0; done
	for _kb_t in $_kb_targets; do mv -f "$_kb_keep/$_kb_t.tmp" "$_kb_keep/$_kb_t" || return 0; done
}

# ktap_kept NAME KEY CMD ARGS...: CMD ARGS run once, in a directory of
# the cache kept for it, KTAP_KEPT, where it writes what it makes (its
# stdout: the file "stdout"), keyed on NAME and KEY, a cksum of all that
# decides what it makes (its inputs, its options, the tool's build): what
# a tool makes of a fixture never changes while those do not, and making
# it again each run is CPU the suite waits for. When CMD fails: status 1,
# and KTAP_KEPT a directory that does not exist (a check of its files
# then fails); nothing is kept. KTAP_KEPT_MADE: yes when CMD ran now.
ktap_kept() {
	KTAP_KEPT=$QC_CACHE/tests/$1-${2%% *} KTAP_KEPT_MADE=no
	shift 2
	[ ! -d "$KTAP_KEPT" ] || return 0
	KTAP_KEPT_MADE=yes
	# (made aside, then renamed into place: a half-made one is never kept;
	# what is left aside is one another run kept first, or a failure)
	rm -rf "$KTAP_KEPT.$$" && mkdir -p "$KTAP_KEPT.$$" &&
		(cd "$KTAP_KEPT.$$" && "$@" > stdout) &&
		mv -T "$KTAP_KEPT.$$" "$KTAP_KEPT" 2>/dev/null
	[ ! -d "$KTAP_KEPT.$$" ] || rm -rf "$KTAP_KEPT.$$"
	[ ! -d "$KTAP_KEPT" ] || return 0
	KTAP_KEPT=/nonexistent/kept-failed
	return 1
}

# ktap_tracecmd_kept SUBCOMMAND SOURCE ARGS...: "trace-cmd SUBCOMMAND -i
# SOURCE ARGS..." (-o a name in the current directory), kept (ktap_kept)
# on the cksum of the command, of SOURCE and of trace-cmd itself: making
# it each run was tenths of a second of a program's CPU. What trace-cmd
# says on stderr is dropped.
ktap_tracecmd_kept() {
	_tc_sub=$1 _tc_src=$2
	shift 2
	case $_tc_src in /*) ;; *) _tc_src=$PWD/$_tc_src ;; esac
	ktap_kept trace-cmd "$(printf '%s\n' "$_tc_sub $*" | cat - "$_tc_src" "$(command -v trace-cmd)" | cksum)" \
		ktap_tracecmd_quiet "$_tc_sub" -i "$_tc_src" "$@"
}
ktap_tracecmd_quiet() { trace-cmd "$@" 2>/dev/null; }

# ktap_jq_vals FILE PREFIX PROGRAM [JQ-ARGS...]: the figures PROGRAM makes
# of FILE, an object of them, set as shell variables PREFIX<KEY>, each as
# jq -r prints its value: one jq for a file's checks, not one a figure (a
# jq start costs ~25 ms here). When jq cannot read FILE, a diagnostic,
# and none is set.
ktap_jq_vals() {
	_jv_file=$1 _jv_prefix=$2 _jv_prog=$3
	shift 3
	_jv=$(jq -r "$@" "$_jv_prog | to_entries[] | \"$_jv_prefix\\(.key)=\\(.value | @sh)\"" "$_jv_file" 2>&1) ||
		{ ktap_diag "jq cannot read $_jv_file: $_jv"; _jv=; }
	eval "$_jv"
}

# ktap_jq_is DESC FILTER [DIAG]: a check that FILTER is true of a JSON
# file (as jq -e has it: its last output neither false nor null, and no
# error), gathered; ktap_jq_judge FILE answers the gathered checks, in
# order, with one jq (a jq start costs ~25 ms here, three processes a
# check more than the answer needs), and under a check that fails shows
# DIAG's value of FILE. A file that is not JSON fails every check.
ktap_jq_n=0 ktap_jq_prog=
ktap_jq_is() {
	ktap_jq_n=$((ktap_jq_n + 1))
	eval "ktap_jq_desc_$ktap_jq_n=\$1 ktap_jq_diag_$ktap_jq_n=\${3-}"
	ktap_jq_prog="$ktap_jq_prog, ([try ($2) catch false] | length > 0 and (last | . != false and . != null))"
}
ktap_jq_judge() {
	_kj_file=$1
	# shellcheck disable=SC2046 # one word a check
	set -- $(jq -r "${ktap_jq_prog#, }" "$_kj_file" 2>/dev/null)
	_kj_i=0 _kj_desc='' _kj_diag=''
	while [ $_kj_i -lt $ktap_jq_n ]; do
		_kj_i=$((_kj_i + 1))
		eval "_kj_desc=\$ktap_jq_desc_$_kj_i _kj_diag=\$ktap_jq_diag_$_kj_i"
		if [ "${1-}" = true ]; then ktap_ok "$_kj_desc"
		else
			ktap_not_ok "$_kj_desc"
			[ -z "$_kj_diag" ] || ktap_diag "$(jq -c "$_kj_diag" "$_kj_file" 2>&1)"
		fi
		[ $# -eq 0 ] || shift
	done
	ktap_jq_n=0 ktap_jq_prog=
}

# ktap_jq_edit FILE FILTER: FILE, a JSON file of the test's own, to be
# rewritten by FILTER, gathered; ktap_jq_edits_made makes the gathered
# edits with one jq (a jq start costs ~25 ms here, and a program's cases
# make dozens), each file written as `jq FILTER FILE` prints it. A file
# is edited once a batch (one FILTER holds all its changes). When jq
# cannot make them (a filter that does not compile, a file that is not
# JSON), it bails out: no case is checked against an unedited copy.
# (File names without blanks: the test's scratch directory's.)
ktap_jq_edit_prog= ktap_jq_edit_files=
ktap_jq_edit() {
	case " $ktap_jq_edit_files " in *" $1 "*)
		ktap_bail_out "ktap_jq_edit: $1 is edited twice in one batch: give one filter all its changes" ;;
	esac
	ktap_jq_edit_prog="$ktap_jq_edit_prog${ktap_jq_edit_prog:+, }(input | ($2) | \"@@ \\(input_filename)\", .)"
	ktap_jq_edit_files="$ktap_jq_edit_files $1"
}
ktap_jq_edits_made() {
	[ -n "$ktap_jq_edit_files" ] || return 0
	# shellcheck disable=SC2086 # one word a file
	jq -n "$ktap_jq_edit_prog" $ktap_jq_edit_files > "$scratch/ktap-edited" 2> "$scratch/ktap-edits.err" ||
		ktap_bail_out "the cases' edits failed: $(head -n 3 "$scratch/ktap-edits.err")"
	# (each file's text follows the line naming it, "@@ FILE" as jq quotes it)
	awk '/^"@@ / { if (f != "") close(f); f = substr($0, 5, length($0) - 5); next } { print > f }' "$scratch/ktap-edited"
	ktap_jq_edit_prog= ktap_jq_edit_files=
}

# ktap_finish: the closing count; fails when a check failed or when the
# program ran a different number of checks than it planned (a test that
# stopped short has not shown what it promised).
ktap_finish() {
	echo "# $ktap_pass passed, $ktap_fail failed, $ktap_skip skipped"
	if [ "$ktap_n" -ne "${ktap_planned:-$ktap_n}" ]; then
		echo "# planned $ktap_planned checks, ran $ktap_n"
		return 1
	fi
	[ "$ktap_fail" -eq 0 ]
}

# html_rows REPORT.HTML: the report's table rows as Markdown rows ("| a |
# b |", `code`, **bold**): report.md turns a table wider than 200
# characters into a list, report.html keeps every table.
html_rows() {
	sed -n 's/^<tr>\(.*\)<\/tr>$/\1/p' "$1" | sed -e 's/<code>/`/g' -e 's/<\/code>/`/g' \
		-e 's/<strong[^>]*>/**/g' -e 's/<\/strong>/**/g' -e 's/<\/t[dh]><t[dh][^>]*>/ | /g' \
		-e 's/^<t[dh][^>]*>/| /' -e 's/<\/t[dh]>$/ |/' -e "s/&apos;/'/g" -e 's/&quot;/"/g' \
		-e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g'
}
