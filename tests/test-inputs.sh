#!/bin/sh
# Bad input is refused with one clear line and a non-zero exit, before
# anything is built, booted or written. Boots nothing.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"

ktap_plan 57

expect_error "isolated list containing housekeeping CPU 0 is refused" \
	"include housekeeping CPU 0" "$root/scripts/run.sh" -c 0-3
expect_error "isolated CPU beyond the guest's CPUs is refused" \
	"does not exist in a 4-CPU guest" "$root/scripts/run.sh" -c 1-4
expect_error "malformed CPU list is refused" "is not a CPU list" "$root/scripts/run.sh" -c 3-1
expect_error "unknown variant is refused, naming the known ones" \
	"unknown variant 'vanilla': choose one of: wq rcu spinlock" "$root/scripts/run.sh" -V vanilla
expect_error "unknown variant is refused by the build too" "unknown variant 'nope'" "$root/scripts/build.sh" nope
expect_error "unknown scenario is refused" "unknown scenario 'bogus'" "$root/scripts/run.sh" -s bogus
expect_error "zero duration is refused" "is not a whole number of seconds" "$root/scripts/run.sh" -d 0
expect_error "missing guest script is refused" "does not exist" "$root/scripts/run.sh" --guest-script /nonexistent
expect_error "refill CPUs outside the isolated ones are refused" \
	"refill CPUs '0' are not all isolated" "$root/scripts/run.sh" -s hammer --refill 0
expect_error "refill on every isolated CPU is refused: oslat keeps one" \
	"leave no isolated CPU for oslat" "$root/scripts/run.sh" -s hammer --refill 1-3
expect_error "a malformed refill list is refused by compare before any build" \
	"refill CPU list 'x' is not a CPU list" "$root/scripts/compare.sh" --refill x
# make compare stops at a bad window input at once: nothing built, no run.
# (make adds its own "*** Error" line; what the rig says is one line.)
make_compare() {
	out=$(make -s -C "$root" compare "$@" 2>&1)
	rc=$?
	not_make
	return $rc
}
# not_make: the lines of $out but make's own, "make: ***" and
# "make[N]: ***" (grep -Ev '^make(\[[0-9]+\])?: \*\*\*' in the shell: a
# pipeline each make was much of this program's own cost).
not_make() {
	while IFS= read -r _l; do
		case $_l in
		'make: ***'*) continue ;;
		'make['*)
			_n=${_l#make\[} _r=${_l#make\[*\]}
			_n=${_n%%\]*}
			case $_n in ''|*[!0-9]*) ;; *) case $_r in ': ***'*) continue ;; esac ;; esac ;;
		esac
		printf '%s\n' "$_l"
	done <<EOF
$out
EOF
}
# Each input the one validation (scripts/lib/inputs.sh qc_check_inputs) checks,
# through make compare; the cache must stay untouched (nothing built).
untouched=$scratch/cache-untouched
# cpu_ms: cpu, the CPU time in ms the programs this shell ran have used so
# far (the shell's times: its children's user and system time; run in this
# shell, not in a $(...) subshell, whose children are its own). "At once"
# is measured in CPU time, not by the clock: on a loaded machine, or with
# the suite's programs running side by side, a refusal may wait for a CPU
# longer than it takes (a refusal costs about 0.7 s of CPU here), while
# unpacking a tree or building takes tens of seconds to minutes of CPU.
# (Read in the shell: no process of its own in the CPU time it measures.)
cpu_ms() {
	times > "$scratch/times"
	{ read -r _ _; read -r _user _sys; } < "$scratch/times"
	tms_ms "$_user"
	cpu=$_ms
	tms_ms "$_sys"
	cpu=$((cpu + _ms))
}
# tms_ms TIME: _ms, TIME as times prints it ("1m2.345678s") in whole ms.
tms_ms() {
	_min=${1%%m*} _sec=${1#*m}
	_sec=${_sec%s}
	case $_sec in *.*) _frac=${_sec#*.}000 _sec=${_sec%%.*} ;; *) _frac=000 ;; esac
	_frac=${_frac%"${_frac#???}"}
	# (a leading 1 keeps 0-led digits from reading as octal)
	_ms=$((_min * 60000 + _sec * 1000 + 1$_frac - 1000))
}
# in_untouched COMMAND...: COMMAND with the cache that must stay untouched.
in_untouched() { QC_CACHE=$untouched "$@"; }
# Each make variable goes through make compare once (make hands it to
# compare.sh as its option); its other bad values go to compare.sh's
# option itself ("--option=value"), the same validation without make's
# start and shell.
for bad in "VARIANTS=vanilla:unknown variant 'vanilla'" "--variants=wq wq:is given twice" \
	"SCENARIO=bogus:unknown scenario 'bogus'" \
	"ISOLATED=0-2:include housekeeping CPU 0" "--isolated=1-7:does not exist in a 4-CPU guest" \
	"--isolated=3-1:is not a CPU list" \
	"DURATION=abc:is not a whole number of seconds" "--duration=0:is not a whole number of seconds" \
	"RATE=abc:rate 'abc' is not a whole number" "--rate=20000:from 1 to 10000" \
	"REFILL=1-3:leave no isolated CPU for oslat" "--refill=x:refill CPU list 'x' is not a CPU list"; do
	input=${bad%%:*}
	cpu_ms
	start=$cpu
	case $input in
	--*)
		expect_one_error "compare.sh ${input%%=*} ${input#*=} is refused in one line before any build" \
			quietcore "${bad#*:}" in_untouched "$root/scripts/compare.sh" "${input%%=*}" "${input#*=}" ;;
	*) QC_CACHE=$untouched expect_one_error "make compare $input is refused in one line before any build" \
		quietcore "${bad#*:}" make_compare "$input" ;;
	esac
	cpu_ms
	ktap_check "... within 2 s of CPU time" test $((cpu - start)) -le 2000
done
# make run and make stress check through the same function.
make_target() {
	t=$1
	shift
	out=$(QC_CACHE=$untouched make -s -C "$root" "$t" "$@" 2>&1)
	rc=$?
	not_make
	return $rc
}
expect_one_error "make run RATE=abc is refused in one line" quietcore "rate 'abc' is not a whole number" \
	make_target run VARIANT=wq SCENARIO=hammer RATE=abc
expect_one_error "make stress STRESS_SECONDS=abc is refused in one line" quietcore "duration 'abc'" \
	make_target stress STRESS_SECONDS=abc
expect_one_error "make stress VARIANTS=nope is refused in one line" quietcore "unknown variant 'nope'" \
	make_target stress VARIANTS=nope
expect_error "compare.sh --decoy takes a number of rounds" "decoy 'lots' is not a number of rounds" \
	"$root/scripts/compare.sh" --decoy lots
expect_error "compare.sh --decoy runs in the hammer scenario only" "decoy runs in the hammer scenario only, not 'audit'" \
	"$root/scripts/compare.sh" --scenario audit --decoy 5
expect_error "run.sh --param refuses a parameter the guest does not read" "reads no parameter 'colour'" \
	"$root/scripts/run.sh" --param colour=red
ktap_check "refused runs wrote no result directory" test ! -e "$QC_RESULTS"
ktap_check "... and built nothing: the cache was never created" test ! -e "$untouched"

# A machine without the kernel source package: a fresh cache and no tarball.
expect_error "missing kernel source names the package and make setup" \
	"built from linux-source-6.1, which is not installed .*: run 'sudo make setup'" env QC_CACHE="$scratch/cache" QC_SRC="$scratch/nosrc" \
	"$root/scripts/tree.sh" spinlock

# A missing host tool names itself and the fix.
mkdir -p "$scratch/bin"
# (one ln for them all: each link named after its tool)
tools=
for t in sh dirname basename cat awk sed tr nproc; do tools="$tools $(command -v $t)"; done
ln -s $tools "$scratch/bin/"
expect_error "a missing package is named with the fix" "'gcc' is not installed: run 'sudo make setup'" \
	env PATH="$scratch/bin" "$root/scripts/build.sh" spinlock

# A patch that no longer applies: a copy of the repo with one broken variant
# (with the lists every variant needs: scripts/lib/variants.sh qc_check_variant).
fake=$scratch/repo
mkdir -p "$fake/patches/broken" "$fake/tracing" "$fake/bench/plugin"
cp -r "$root/scripts" "$root/configs" "$fake/"
cp -r "$root/tracing/probes" "$fake/tracing/"
cp "$fake/tracing/probes/spinlock.list" "$fake/tracing/probes/broken.list"
cp "$root/bench/plugin/spin-wait.list" "$fake/bench/plugin/"
printf 'spinlock drain_pages 1\nbroken drain_pages 1\n' > "$fake/bench/plugin/drain-reach.list"
# The host's library sources the results contract.
cp -r "$root/common" "$fake/"
printf 'spinlock - linux-source-6.1 guest.config audit\nbroken - linux-source-6.1 guest.config audit\n' > "$fake/patches/series"
cat > "$fake/patches/broken/0001-break.patch" <<'PATCH'
diff --git a/mm/page_alloc.c b/mm/page_alloc.c
--- a/mm/page_alloc.c
+++ b/mm/page_alloc.c
@@ -1,3 +1,3 @@
-this line is not in page_alloc.c
+so the hunk cannot apply
 at all
 anywhere
PATCH
# The pristine tree is unpacked once per machine; this check needs it.
if "$root/scripts/tree.sh" spinlock >/dev/null; then
	expect_error "a patch that does not apply names the file and the hunk" \
		"patch patches/broken/0001-break.patch does not apply to the stock tree.*mm/page_alloc.c:1.*rebase it onto linux-source-6.1 " \
		env QC_ROOT="$fake" "$fake/scripts/tree.sh" broken
	# (the trees looked for by the shell's glob, not by ls in a shell)
	no_broken_tree() {
		for _t in "${QC_CACHE:-$HOME/.cache/quietcore}"/trees/broken*; do
			[ ! -e "$_t" ] && [ ! -L "$_t" ] || return 1
		done
	}
	ktap_check "no half-patched tree is left behind" no_broken_tree
else
	# A missing prerequisite is a skip, as in kselftest, never a pass.
	ktap_skip "a patch that does not apply: the pristine tree could not be unpacked"
	ktap_skip "no half-patched tree is left behind: no pristine tree"
fi

# CPU list helpers.
. "$root/scripts/lib/paths.sh"
. "$root/scripts/lib/log.sh"
. "$root/common/cpulist.sh"
. "$root/scripts/lib/inputs.sh"
ktap_check "qc_housekeeping_of 1-3 on 4 CPUs is 0" test "$(qc_housekeeping_of 1-3 4)" = 0
ktap_check "refill by default: every isolated CPU but the first, in hammer, quiet and audit only" \
	test "$(qc_refill_cpus hammer 1-3 auto)/$(qc_refill_cpus quiet 1,3 auto)/$(qc_refill_cpus fifo 1-3 auto)/$(qc_refill_cpus hammer 1 auto)/$(qc_refill_cpus audit 1-3 auto)" = "2,3/3///2,3"
# A scenario's guest: the defaults, or its own "# qc-guest:" line.
ktap_check "the audit's guest is its scenario's qc-guest line; every other scenario's the default" \
	test "$(qc_guest_of audit; echo "$QC_GUEST_SMP/$QC_GUEST_MEM/$QC_GUEST_NUMA/$QC_GUEST_ARGS/$QC_GUEST_TIMEOUT/$QC_GUEST_BENCH_RUNS")|$(qc_guest_of hammer; echo "$QC_GUEST_SMP/$QC_GUEST_MEM/$QC_GUEST_NUMA/$QC_GUEST_ARGS/$QC_GUEST_TIMEOUT/$QC_GUEST_BENCH_RUNS")" = \
	"5/3328/2048,1280//900/0|4/2048//cgroup_disable=memory//5"
mkdir -p "$scratch/guest/guest-init/scenarios"
echo '# qc-guest: smp=5 mem=lots' > "$scratch/guest/guest-init/scenarios/bad.sh"
echo '# qc-guest: swap=on' > "$scratch/guest/guest-init/scenarios/odd.sh"
# guest_of SCENARIO: qc_guest_of on those scenarios, in a subshell (its
# refusal exits).
guest_of() { (QC_ROOT=$scratch/guest qc_guest_of "$1"); }
expect_one_error "a qc-guest setting that is not a number is refused, naming it and the file" quietcore \
	"bad.sh: '# qc-guest:' setting 'mem=lots' is not one of" guest_of bad
expect_one_error "an unknown qc-guest setting is refused" quietcore \
	"odd.sh: '# qc-guest:' setting 'swap=on' is not one of" guest_of odd
# A scenario's traits: its own "# qc-scenario:" line, every scenario's.
traits=$(qc_scenario_traits_json 2>&1)
ktap_check "every scenario declares its traits; hammer's are all five, oslat's none ($(echo "$traits" | jq -c '{hammer, oslat}' 2>&1))" \
	test "$(echo "$traits" | jq -c --argjson n "$(ls "$root"/guest-init/scenarios/*.sh | wc -l)" '[length == $n, .hammer, .oslat]' 2>/dev/null)" = \
	'[true,["traced","selftest","hammer","exposure","refill"],[]]'
echo '# qc-scenario: traced hammered' > "$scratch/guest/guest-init/scenarios/typo.sh"
echo '# no traits line' > "$scratch/guest/guest-init/scenarios/bare.sh"
traits_of() { (QC_ROOT=$scratch/guest qc_scenario_traits "$1"); }
expect_one_error "an unknown trait is refused, naming it and the file" quietcore \
	"typo.sh: '# qc-scenario:' trait 'hammered' is not one of" traits_of typo
expect_one_error "a scenario without its qc-scenario line is refused" quietcore \
	"bare.sh has no '# qc-scenario:' line" traits_of bare
echo '# qc-scenario: traced selftest' > "$scratch/guest/guest-init/scenarios/taskless.sh"
expect_one_error "a traced scenario without its measured tasks is refused" quietcore \
	"taskless.sh: a traced scenario declares its measured tasks" traits_of taskless
ktap_check "each traced scenario's measured tasks are its own: hammer oslat,refill, rthog with its hog" \
	test "$(qc_scenario_tasks hammer) $(qc_scenario_tasks rthog) [$(qc_scenario_tasks oslat)]" = "oslat,refill oslat,refill,rthog []"
ktap_finish
