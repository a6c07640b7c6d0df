#!/bin/sh
# The variant registry (patches/series) and its checks before any build:
# the jobs' default variants come from its "default" marks; a variant
# whose line is incomplete or inconsistent, or which lacks a file it needs
# (its exposure probes, its audit list, a config fragment, its
# drain-reach rule, the spin-wait list), or whose tree package is not
# installed, is refused in one line naming what is missing, and nothing is
# built: the cache is never created. Each refusal is made on a copy of the
# repository with one thing broken. Config fragments merge with the later
# one's word winning, and what they ask must survive Kconfig (the config
# step alone, on the 6.1 tree unpacked once per machine, ~10 s); a probed
# function missing from a build's System.map stops run.sh before the boot.
# Boots nothing, compiles no kernel.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The cache the pristine trees are unpacked in once per machine (the
# config checks below read the 6.1 tree there, never writing to it).
# (and the 6.1 tree's place there: both named by paths.sh, in one subshell)
# shellcheck disable=SC2034 # QC_ROOT: paths.sh's
{ read -r real_cache; read -r pristine61; } <<EOF
$(QC_ROOT=$root; . "$root/scripts/lib/paths.sh" && echo "$QC_CACHE" && qc_pristine_dir linux-source-6.1)
EOF
export QC_RESULTS="$scratch/results" QC_CACHE="$scratch/cache"

ktap_plan 30

# fresh: $fake, a new copy of what the host scripts read, as the
# repository has it (by one cp: a cp a directory before).
fake=$scratch/repo
fresh() {
	mkdir -p "$fake"
	(cd "$root" && cp -r --parents scripts configs common tracing/probes bench/plugin/*.list \
		patches/series guest-init/scenarios "$fake/")
}
# in_copy / no_src / on_built COMMAND...: COMMAND run on the copy
# (QC_ROOT=$fake), without the trees' packages (QC_SRC, an empty place),
# on the made-up build below (QC_CACHE=$built): the shell's assignment,
# not env's process a call.
in_copy() { QC_ROOT=$fake "$@"; }
no_src() { QC_SRC=$scratch/nosrc "$@"; }
on_built() { QC_CACHE=$built "$@"; }
# breaks PATH: the case that follows breaks $fake/PATH, one file of the
# copy, once the file the case before broke is mended (copied back from
# the repository): one copy serves every case (a fresh copy a case was a
# third of this program's CPU time).
broken=
breaks() { mend; broken=$1; }
mend() { [ -z "$broken" ] || cp "$root/$broken" "$fake/$broken"; broken=; }
# The config step alone (build.sh --config-only) on the 6.1 tree, for a
# variant of a copy of the repository whose fragment both turns off what
# guest.config turns on (CONFIG_PREEMPT, for CONFIG_PREEMPT_NONE) and asks
# what Kconfig drops (CONFIG_PREEMPT_RT): one Kconfig pass answers both,
# as Kconfig's ~80 compiler probes make each pass ~10 CPU-s. It starts
# here, while the checks below run; its outcome is checked in its place
# further down. It has a cache of its own in the real cache, kept from
# run to run (the kept tinyconfig and Kconfig's host tools are made once
# per machine) and sharing the pristine tree. Its outcome (build.sh's
# output, exit status and merged .config) is kept too, under a key of
# everything Kconfig's answer depends on: build.sh, tree.sh and what they
# source, the copy's configs, registry and lists, the tree's package
# version and the toolchain (not the analyzer's or the report's scripts,
# which a change to would otherwise cost this pass again). Same key,
# same answer: the pass runs again whenever any of them changes, as make
# rebuilds on a changed prerequisite. The four newest outcomes are kept.
if QC_CACHE=$real_cache "$root/scripts/tree.sh" spinlock >/dev/null 2>&1; then
	fake=$scratch/cfgrepo
	fresh
	printf '# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT_RT=y\n' > "$fake/configs/nort.config"
	cp "$fake/tracing/probes/spinlock.list" "$fake/tracing/probes/nort.list"
	printf 'nort drain_pages 1\n' >> "$fake/bench/plugin/drain-reach.list"
	printf 'nort - linux-source-6.1 guest.config,nort.config audit\n' >> "$fake/patches/series"
	# (a fixed path: the Kconfig tools' .cmd files name the tree by it)
	cfg_cache=$real_cache/tests/config-nort
	mkdir -p "$cfg_cache" && ln -sfn "$pristine61" "$cfg_cache/linux-source-6.1"
	merged=$cfg_cache/build/nort/.qc-config/.config
	cfg_key=$(cd "$fake" && { files=$(find scripts/build.sh scripts/tree.sh scripts/lib common configs patches \
			tracing bench guest-init -type f | sort)
		     echo "$files"; cat $files "$pristine61/.qc-pristine"; gcc --version; ld --version; } 2>&1 |
		  sha256sum | cut -c1-16)
	kept=$cfg_cache/outcome-$cfg_key
	# outcome: the directory of the pass's out, rc and config, the kept
	# one's (read there, never written) or this run's.
	if [ -f "$kept/rc" ]; then
		outcome=$kept
	else
		outcome=$scratch/cfg
		mkdir "$outcome"
		(QC_ROOT=$fake QC_CACHE=$cfg_cache "$fake/scripts/build.sh" --config-only nort > "$outcome/out" 2>&1
		 echo $? > "$outcome/rc"
		 cp "$merged" "$outcome/config" 2>/dev/null
		 # (the three newest others kept too: checkouts of other code
		 # sharing the cache, run in turn, would each redo the pass)
		 # shellcheck disable=SC2012 # outcome-<hex> names: ls sorts them by time
		 (cd "$cfg_cache" && ls -dt outcome-* 2>/dev/null | tail -n +4 | xargs -r rm -rf)
		 mkdir "$kept" && cp "$outcome/out" "$kept/out" && cp "$outcome/config" "$kept/config" &&
			cp "$outcome/rc" "$kept/rc") &
		cfg_pid=$!
	fi
	cfg_done=yes
	fake=$scratch/repo
fi

# nothing_built: a refusal made no cache (a diagnostic on the check before).
nothing_built() { [ ! -e "$QC_CACHE" ] || { ktap_diag "... but $QC_CACHE was created"; rm -rf "$QC_CACHE"; }; }
# refused DESCRIPTION PATTERN COMMAND...: one "quietcore: error:" line
# matching PATTERN, from the copy's scripts, and no cache made. (The jobs
# that boot guests are called by expect_one_error itself, as
# tests/check-boots.awk wants of a fast program.)
refused() {
	desc=$1 pattern=$2
	shift 2
	expect_one_error "$desc" quietcore "$pattern" in_copy "$@"
	nothing_built
}

# The defaults: the variants marked "default", in the registry's order, for
# compare (make audit is compare) and stress alike; nothing else names them.
. "$root/scripts/lib/paths.sh"
. "$root/scripts/lib/log.sh"
. "$root/scripts/lib/plugin.sh"
. "$root/scripts/lib/variants.sh"
. "$root/scripts/lib/probes.sh"
marked=$(awk '!/^#/ && / default( |$)/ { print $1 }' "$root/patches/series" | paste -sd' ' -)
ktap_check "the default variants are those patches/series marks 'default' ($marked)" \
	test -n "$marked" -a "$(qc_default_variants)" = "$marked"
# (one grep over the three files: a grep pair a file before; the jobs'
# names built, as tests/check-boots.awk takes a job's path for a boot)
set -- "$root/Makefile"
for j in compare stress; do set -- "$@" "$root/scripts/$j.sh"; done
written=$(grep -nE '(wq|rcu|spinlock)[ ,]+(wq|rcu|spinlock)' "$@" | grep -v '^[^:]*:[0-9]*:[[:space:]]*#')
ktap_check "no variant list is written out in the Makefile or the compare and stress jobs${written:+ ($written)}" \
	test -z "$written"
# A variant the copy's registry marks default, lacking its probes: the
# jobs run without VARIANTS refuse it by name, so their default is the
# registry's.
fresh
breaks patches/series
echo "extra - linux-source-6.1 guest.config audit default" >> "$fake/patches/series"
expect_one_error "compare without --variants runs the registry's defaults (the new 'extra' among them)" quietcore \
	"variant 'extra' needs tracing/probes/extra.list" in_copy "$fake/scripts/compare.sh"
nothing_built
expect_one_error "... and so does stress" quietcore \
	"variant 'extra' needs tracing/probes/extra.list" in_copy "$fake/scripts/stress.sh"
nothing_built

# A guest's directory names its variant by the longest registered prefix:
# a variant named after another plus a suffix is told apart from it.
breaks patches/series
echo "spinlock-x - linux-source-6.1 guest.config audit" >> "$fake/patches/series"
ktap_check "qc_variant_of: spinlock-x-debug-cost is spinlock-x's, spinlock-debug spinlock's, nosuch no one's" \
	test "$(QC_SERIES=$fake/patches/series; qc_variant_of spinlock-x-debug-cost; qc_variant_of spinlock-debug;
		qc_variant_of nosuch-debug || echo none)" = "$(printf 'spinlock-x\nspinlock\nnone')"

# Each file a variant needs, missing: refused by name before any build.
breaks tracing/probes/wq.list
rm "$fake/tracing/probes/wq.list"
refused "a variant without its exposure probes is refused before the build" \
	"variant 'wq' needs tracing/probes/wq.list, which is missing" "$fake/scripts/build.sh" wq
expect_one_error "... and by compare before it builds the variants before it" quietcore \
	"variant 'wq' needs tracing/probes/wq.list" in_copy "$fake/scripts/compare.sh" --variants "spinlock wq"
nothing_built
breaks tracing/probes/audit.list
rm "$fake/tracing/probes/audit.list"
refused "a variant without its audit list is refused" \
	"variant 'wq' needs tracing/probes/audit.list, which is missing" "$fake/scripts/build.sh" wq
breaks tracing/probes/origins.list
rm "$fake/tracing/probes/origins.list"
refused "a variant without its send-side list is refused" \
	"variant 'wq' needs tracing/probes/origins.list, which is missing" "$fake/scripts/build.sh" wq
breaks patches/series
sed -i 's/^\(wq .*\)guest\.config/\1guest.config,nosuch.config/' "$fake/patches/series"
refused "a variant whose config fragment is missing is refused, naming the fragment" \
	"variant 'wq' needs configs/nosuch.config, which is missing" "$fake/scripts/build.sh" wq
breaks bench/plugin/drain-reach.list
sed -i '/^wq /d' "$fake/bench/plugin/drain-reach.list"
expect_one_error "a variant without a drain-reach rule is refused" quietcore \
	"drain-reach.list has no rule for variant 'wq'" in_copy "$fake/scripts/run.sh" -V wq
nothing_built
breaks bench/plugin/spin-wait.list
: > "$fake/bench/plugin/spin-wait.list"
refused "an empty spin-wait list is refused" \
	"needs bench/plugin/spin-wait.list, which is missing or empty" "$fake/scripts/build.sh" spinlock

# The registry's own lines.
breaks patches/series
echo "odd -" >> "$fake/patches/series"
refused "a registry line without tree, configs and audit list is refused" \
	"variant 'odd' names no base, tree, configs and audit list" "$fake/scripts/build.sh" odd
breaks patches/series
echo "orphan nosuch linux-source-6.1 guest.config audit" >> "$fake/patches/series"
refused "a variant whose base is not a variant is refused" \
	"the base 'nosuch' of variant 'orphan' is not a variant" "$fake/scripts/build.sh" orphan
breaks patches/series
echo "mixed wq linux-source-9.9 guest.config audit" >> "$fake/patches/series"
refused "a variant on another tree than its base's is refused" \
	"variant 'mixed' names tree linux-source-9.9 but its base 'wq' is built from linux-source-6.1" \
	"$fake/scripts/build.sh" mixed

# A tree package that is not installed: named, with the fix, before any build.
mend
refused "a variant whose tree is not installed names the package and make setup" \
	"variant 'spinlock' is built from linux-source-6.1, which is not installed (.* is missing): run 'sudo make setup'" \
	no_src "$fake/scripts/build.sh" spinlock
expect_one_error "... and compare refuses before building the variants before it" quietcore \
	"variant 'wq' is built from linux-source-6.1, which is not installed" \
	in_copy no_src "$fake/scripts/compare.sh" --variants "wq rcu"
nothing_built

# Every tree's audit list fires audit.list's triggers in its order (the
# guest has one audit_<name> per trigger, and the cross-kernel audit one row
# per trigger); only the probed functions may differ.
# (one a line: compared, not shown)
triggers() { sed -n 's|^p:qcaudit/\([a-z_]*\) .*|\1|p' "$root/tracing/probes/$1.list"; }
# audits, sends_lists: the audit lists the registry names, and their
# send-side lists (qc_sends_of), each once, in the registry's order (read
# in this shell, by the library's reader: three tools a list before).
audits='' sends_lists=
lists_of() {
	[ -n "${5-}" ] || return 0
	case " $audits " in *" $5 "*) return 0 ;; esac
	audits="$audits $5"
	qc_sends_of "$5"
	case " $sends_lists " in *" $QC_SEND_LIST "*) ;; *) sends_lists="$sends_lists $QC_SEND_LIST" ;; esac
}
qc_registry_each lists_of || :
# (audit.list's triggers read once, not once a list)
want=$(triggers audit) odd=
for a in $audits; do
	[ "$(triggers "$a")" = "$want" ] || odd="$odd $a"
done
ktap_check "every audit list in patches/series names audit.list's triggers in its order${odd:+ (not:$odd)}" \
	test -z "$odd" -a -n "$want"

# Every tree's send-side list (named after its audit list) defines
# origins.list's events with its fields: the analyzer, origin-stacks.list
# and the stack triggers name them; only the probed functions may differ.
ktap_check "the send-side list follows the audit list: spinlock's origins, spinlock-6.12's origins-6.12" \
	test "$(qc_variant_sends spinlock) $(qc_variant_sends spinlock-6.12)" = "origins origins-6.12"
sends() {
	sed -n 's|^[pr]:\([^ ]*\) [^ ]*\(.*\)|\1\2|p' "$root/tracing/probes/$1.list" |
		awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) { sub(/=.*/, "", $i); printf " %s", $i } print "" }' | sort
}
# (each list the variants name read once, and origins.list once: three
# tools a list, where variants share their tree's list)
want=$(sends origins) odd=
for l in $sends_lists; do
	[ "$(sends "$l")" = "$want" ] || odd="$odd $l"
done
ktap_check "every send-side list in patches/series defines origins.list's events and fields${odd:+ (not:$odd)}" \
	test -z "$odd" -a -n "$want"

# Config fragments: a later fragment's word on a symbol overrides an
# earlier one's, and what the merged request asks must survive Kconfig.
printf 'CONFIG_A=y\nCONFIG_PREEMPT=y\n# CONFIG_B is not set\n' > "$scratch/one.config"
printf '# CONFIG_PREEMPT is not set\nCONFIG_B=y\nCONFIG_C="x y"\n' > "$scratch/two.config"
ktap_check "qc_config_requested: the last fragment's word on each symbol, in first-seen order" \
	test "$(qc_config_requested "$scratch/one.config" "$scratch/two.config" | paste -sd'|' -)" = \
	'CONFIG_A=y|# CONFIG_PREEMPT is not set|CONFIG_B=y|CONFIG_C="x y"'
# A flavour merges configs/<flavour>.config, then the flavour's companion
# of each of the variant's fragments that has one (RT's lock debugging).
frags() {
	_fr=
	for _p in $(qc_variant_configs "$@"); do _fr="$_fr ${_p##*/}"; done
	echo "${_fr# }"
}
ktap_check "qc_variant_configs: rcu-6.12-rt's debug flavour adds debug.config, then guest-6.12-rt-debug.config; the plain one neither" \
	test "$(frags rcu-6.12-rt debug)" = "guest.config guest-6.12.config guest-6.12-rt.config debug.config guest-6.12-rt-debug.config" \
	-a "$(frags rcu-6.12-rt)" = "guest.config guest-6.12.config guest-6.12-rt.config" \
	-a "$(frags spinlock debug)" = "guest.config debug.config"
# (the config step started near the top: its outcome)
if [ -n "${cfg_done:-}" ]; then
	[ -z "${cfg_pid:-}" ] || wait "$cfg_pid"
	# cfg_status: build.sh's output, then its exit status (expect_error reads both).
	cfg_status() { cat "$outcome/out"; read -r _rc < "$outcome/rc"; return "$_rc"; }
	# (build.sh's progress lines come first: the error is its last line)
	expect_error "an option Kconfig drops is refused by name (PREEMPT_RT: 6.1's x86 has no ARCH_SUPPORTS_RT)" \
		"Kconfig dropped requested options for nort: CONFIG_PREEMPT_RT (check" cfg_status
	# (its two lines looked for in this shell's greps, not a shell's)
	preempt_kept_off() {
		grep -qx '# CONFIG_PREEMPT is not set' "$outcome/config" && grep -qx 'CONFIG_PREEMPT_NONE=y' "$outcome/config"
	}
	ktap_check "a variant's fragment turns off what guest.config turns on (CONFIG_PREEMPT), and Kconfig keeps it so" \
		preempt_kept_off
else
	ktap_skip "an option Kconfig drops is refused: no 6.1 tree"
	ktap_skip "a variant's fragment overrides guest.config: the 6.1 tree could not be unpacked"
fi

# A probe list naming a function the build lacks: caught from the build's
# System.map before the guest boots; the audit's list in the audit's guest
# only (here, a build whose map lacks the audit's alloc_contig_range, as a
# 6.12 build would, then an exposure probe's drain_pages_zone).
built=$scratch/built
b=$built/build/wq
mkdir -p "$b/arch/x86/boot" && : > "$b/arch/x86/boot/bzImage"
sed -n 's/^[pr]:[^ ]* \([^ ]*\).*/ffffffff81000000 T \1/p' "$root/tracing/probes/origins.list" \
	"$root/tracing/probes/wq.list" "$root/tracing/probes/audit.list" > "$b/System.map"
# probes_pass VARIANT FLAVOUR SCENARIO: qc_check_probes passes on that
# build (in a subshell: a refusal exits).
probes_pass() { (QC_CACHE=$built; qc_check_probes "$@"); }
ktap_check "a build whose System.map has every probed function passes, for the audit too" \
	probes_pass wq '' audit
sed -i '/ alloc_contig_range$/d' "$b/System.map"
expect_one_error "an audit probe's function the build lacks is refused before the audit's guest boots, naming list and function" quietcore \
	"tracing/probes/audit.list probes alloc_contig_range, which the wq build does not have" \
	on_built "$root/scripts/run.sh" -V wq --no-build -s audit
ktap_check "... while a guest that defines no audit probe passes the check" \
	probes_pass wq '' oslat
sed -i 's/ drain_pages_zone$/ drain_pages_zone.constprop.0/' "$b/System.map"
expect_one_error "a probed function the build has only as a compiler's clone is refused, naming the clone to probe" quietcore \
	"tracing/probes/wq.list probes drain_pages_zone, which the wq build has only as the compiler's clone drain_pages_zone.constprop.0" \
	on_built "$root/scripts/run.sh" -V wq --no-build -s oslat
sed -i '/ drain_pages_zone.constprop.0$/d' "$b/System.map"
expect_one_error "an exposure probe's function the build lacks is refused before any guest boots" quietcore \
	"tracing/probes/wq.list probes drain_pages_zone, which the wq build does not have" \
	on_built "$root/scripts/run.sh" -V wq --no-build -s oslat
ktap_check "... and no run was written" test ! -e "$QC_RESULTS"
ktap_finish
