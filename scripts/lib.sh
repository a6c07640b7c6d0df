# quietcore shared shell library: sourced by every host-side script.
# Logging, progress, one-line errors, the cache layout and CPU lists.
# shellcheck shell=sh

QC_ROOT=${QC_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
# The cache follows the user, even where HOME is not set (a bare CI shell).
QC_HOME=${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}
QC_CACHE=${QC_CACHE:-${XDG_CACHE_HOME:-$QC_HOME/.cache}/quietcore}
QC_ARCH=x86_64
QC_JOBS=${QC_JOBS:-$(nproc 2>/dev/null || echo 2)}
# Where Debian's linux-source-* packages put their tarballs.
QC_SRC=${QC_SRC:-/usr/src}

qc_prog=${qc_prog:-$(basename "$0" .sh)}
# Every result file's name and every qc.* parameter (the results contract).
. "$QC_ROOT/guest-init/contract.sh"

info() { printf '[%s] %s\n' "$qc_prog" "$*" >&2; }
warn() { printf '[%s] warning: %s\n' "$qc_prog" "$*" >&2; }
# die: the one-line error every bad input ends in, then a non-zero exit.
# A run in progress names its status file in QC_STATUS_FILE, so that the
# reason lands in the run's own files too, never a half result left as whole.
die() {
	printf 'quietcore: error: %s\n' "$*" >&2
	[ -z "${QC_STATUS_FILE:-}" ] || echo "failed: $*" > "$QC_STATUS_FILE"
	exit 1
}
# step N TOTAL MSG: the "step x/y" progress line long jobs print.
step() { printf '[%s] step %s/%s: %s\n' "$qc_prog" "$1" "$2" "$3" >&2; }

need_cmd() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' is not installed: run 'sudo make setup' once on this machine"
	done
}

# The variant registry, patches/series (its header says what each word
# means): every variant, its base, tree, config and audit list come from
# there, nowhere else.
QC_SERIES=${QC_SERIES:-$QC_ROOT/patches/series}
qc_registry() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$QC_SERIES"; }
qc_variants() { qc_registry | awk '{ print $1 }'; }
# qc_variant_field VARIANT N: word N of VARIANT's line; fails for an
# unknown variant.
qc_variant_field() {
	qc_registry | awk -v v="$1" -v n="$2" '$1 == v { print $n; found = 1; exit } END { exit !found }'
}
qc_variant_base() { qc_variant_field "$1" 2; }
qc_variant_tree() { qc_variant_field "$1" 3; }
# qc_variant_configs VARIANT [FLAVOUR]: the config fragments, as paths, in
# the order they merge; a flavour adds configs/<flavour>.config last, then,
# for each of the variant's fragments NAME.config, configs/NAME-<flavour>.config
# if there is one: what that kernel needs on top in the flavour (the RT
# fragment's RT lock debugging, guest-6.12-rt-debug.config).
qc_variant_configs() {
	_frags=$(qc_variant_field "$1" 4 | tr ',' ' ')
	for _f in $_frags ${2:+$2.config}; do
		echo "$QC_ROOT/configs/$_f"
	done
	[ -n "${2:-}" ] || return 0
	for _f in $_frags; do
		[ ! -f "$QC_ROOT/configs/${_f%.config}-$2.config" ] ||
			echo "$QC_ROOT/configs/${_f%.config}-$2.config"
	done
}
# qc_config_requested FRAGMENT...: what the fragments ask of Kconfig, one
# line per symbol ("CONFIG_X=v" or "# CONFIG_X is not set"), a later
# fragment's word overriding an earlier one's, as merge_config.sh merges
# them (a variant's fragment may turn off what guest.config turns on).
qc_config_requested() {
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1 &/p' -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set.*/\1 &/p' "$@" |
		awk '{ k = $1; l = $0; sub(/^[^ ]* /, "", l); if (!(k in last)) order[++n] = k; last[k] = l }
			END { for (i = 1; i <= n; i++) print last[order[i]] }'
}
# qc_variant_audit VARIANT: the name of its audit list in tracing/probes/
# (the guest gets it as qc.audit).
qc_variant_audit() { qc_variant_field "$1" 5; }
# qc_variant_of LABEL: the variant of a guest's directory, named
# VARIANT[-FLAVOUR][-TAG] by qc_label: the longest variant it starts with
# (spinlock-6.12-debug is spinlock-6.12's, not spinlock's); fails if none.
qc_variant_of() {
	qc_variants | awk -v l="$1" 'l == $1 || index(l, $1 "-") == 1 { if (length($1) > length(v)) v = $1 }
		END { if (v == "") exit 1; print v }'
}
# qc_series_marked MARK: the variants whose line carries MARK, in order.
qc_series_marked() { qc_registry | awk -v m="$1" '{ for (i = 6; i <= NF; i++) if ($i == m) print $1 }'; }
# The variants a job runs when VARIANTS is not given, on one line.
qc_default_variants() { qc_series_marked default | paste -sd' ' -; }
# The variant comparisons are made against, if one is marked "baseline".
qc_series_baseline() { qc_series_marked baseline | head -n1; }
# check_variant VARIANT: a variant the registry knows, whose line is
# whole, and every file it needs there: each one missing fails in one line
# naming it, before anything is built (a list found missing after a build
# costs the build).
check_variant() {
	qc_variant_base "$1" >/dev/null ||
		die "unknown variant '$1': choose one of: $(qc_variants | tr '\n' ' ')(see patches/series)"
	[ -n "$(qc_variant_field "$1" 5)" ] ||
		die "patches/series: variant '$1' names no base, tree, configs and audit list: write '<variant> <base> <tree> <configs> <audit>'"
	_base=$(qc_variant_base "$1")
	if [ "$_base" != - ]; then
		qc_variant_base "$_base" >/dev/null ||
			die "patches/series: the base '$_base' of variant '$1' is not a variant: name one, or '-' for the stock tree"
		[ "$(qc_variant_tree "$_base")" = "$(qc_variant_tree "$1")" ] ||
			die "patches/series: variant '$1' names tree $(qc_variant_tree "$1") but its base '$_base' is built from $(qc_variant_tree "$_base"): name the base's tree"
	fi
	for _f in "$QC_ROOT/tracing/probes/$1.list" "$QC_ROOT/tracing/probes/$(qc_variant_audit "$1").list" \
		$(qc_variant_configs "$1") \
		"$QC_DRAIN_REACH_LIST" "$QC_SPIN_WAIT_LIST"; do
		[ -s "$_f" ] || die "variant '$1' needs ${_f#"$QC_ROOT"/}, which is missing or empty: add it (see patches/series)"
	done
	qc_drain_reach "$1" >/dev/null
}
# qc_tree_tarball TREE: the stock source a tree package installs.
qc_tree_tarball() { echo "$QC_SRC/$1.tar.xz"; }
# qc_tree_version TREE: the installed package's version (6.1.192-3), which
# every run records: Debian's security archive moves.
qc_tree_version() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo "(version unknown)"; }
# qc_pristine_dir TREE: where that source is unpacked, once, never written.
qc_pristine_dir() { echo "$QC_CACHE/$1"; }
# check_tree VARIANT...: each variant's tree package is installed (a build
# needs its source; a boot of an existing build does not).
check_tree() {
	for _v in "$@"; do
		_t=$(qc_variant_tree "$_v")
		[ -f "$(qc_tree_tarball "$_t")" ] ||
			die "variant '$_v' is built from $_t, which is not installed ($(qc_tree_tarball "$_t") is missing): run 'sudo make setup'"
	done
}
# The patch files of one variant, in the order they apply.
qc_variant_patches() {
	for p in "$QC_ROOT/patches/$1"/*.patch; do
		[ -f "$p" ] || continue
		case $(basename "$p") in 0000-cover-letter.patch) continue ;; esac
		printf '%s\n' "$p"
	done
}

# CPU lists: "1-3,5" <-> one number per line.
cpulist_expand() {
	printf '%s\n' "$1" | tr ',' '\n' | while IFS=- read -r lo hi; do
		case "$lo$hi" in *[!0-9]*|'') return 1 ;; esac
		[ -n "$hi" ] || hi=$lo
		[ "$lo" -le "$hi" ] || return 1
		seq "$lo" "$hi"
	done
}
cpulist_valid() {
	case $1 in ''|*[!0-9,-]*) return 1 ;; esac
	cpulist_expand "$1" >/dev/null 2>&1
}
# cpulist_below LIST N: every CPU of LIST is below N, checked without
# expanding it (so "1-99999999" is refused at once, not after a count to
# it). A malformed LIST is not below anything.
cpulist_below() {
	case $1 in ''|*[!0-9,-]*) return 1 ;; esac
	_ifs=$IFS IFS=,-
	# shellcheck disable=SC2086 # split at ',' and '-' on purpose
	set -- "$2" $1
	IFS=$_ifs _max=$1
	shift
	for _n; do
		[ -n "$_n" ] && [ ${#_n} -le ${#_max} ] && [ "$_n" -lt "$_max" ] || return 1
	done
}

is_count() { case $1 in ''|*[!0-9]*) return 1 ;; esac; [ "$1" -gt 0 ]; }
# qc_kv FILE KEY: the value of FILE's first "KEY: value" line, blanks
# trimmed ("" when there is none): run.txt, boot-params.txt.
qc_kv() { sed -n "s/^$2: *//p" "$1" 2>/dev/null | head -n1 | sed 's/[[:space:]]*$//'; }
# The guests of a run by their label's tag (contract.sh qc_label): the
# allocator benchmark's, timed (summarize.sh) and counted (alloc-cost.sh);
# every other guest is judged.
is_bench() { case $1 in *-"$QC_TAG_BENCH") return 0 ;; esac; return 1; }
is_cost() { case $1 in *-"$QC_TAG_COST") return 0 ;; esac; return 1; }
# Guest vCPUs unless run.sh --smp says otherwise: CPU 0 keeps house.
QC_SMP=4

# qc_guest_of SCENARIO: the guest a scenario boots unless run.sh's or
# compare.sh's options say otherwise, in QC_GUEST_SMP, QC_GUEST_MEM (MB),
# QC_GUEST_NUMA (MB per NUMA node, "" for one node), QC_GUEST_ARGS (kernel
# parameters beside the scenario's own "# qc-kernel-args:" line),
# QC_GUEST_TIMEOUT (s, "" for run.sh's 300 + 3 x duration) and
# QC_GUEST_BENCH_RUNS (compare's timed and counted allocator runs).
# A scenario that needs another guest says so on its own "# qc-guest:"
# line, beside the reason (scenario audit), with these settings:
#   smp=N  mem=MB  numa=MB,MB  memcg=on  timeout=S  bench-runs=N
# Every guest boots with the memory controller off (cgroup_disable=memory)
# unless its scenario says memcg=on: CONFIG_MEMCG is configured for the
# audit's memcg trigger, and the others' page faults pay no charging.
# An unknown scenario keeps the defaults (qc_check_inputs names it).
qc_guest_of() {
	QC_GUEST_SMP=$QC_SMP QC_GUEST_MEM=2048 QC_GUEST_NUMA= QC_GUEST_ARGS="cgroup_disable=memory"
	QC_GUEST_TIMEOUT= QC_GUEST_BENCH_RUNS=5
	_f=$QC_ROOT/guest-init/scenarios/$1.sh
	[ -f "$_f" ] || return 0
	for _kv in $(sed -n 's/^# qc-guest: *//p' "$_f"); do
		_val=${_kv#*=}
		case $_kv in
		smp=*) is_count "$_val" && QC_GUEST_SMP=$_val ;;
		mem=*) is_count "$_val" && QC_GUEST_MEM=$_val ;;
		numa=*,*) is_count "${_val%,*}" && is_count "${_val#*,}" && QC_GUEST_NUMA=$_val ;;
		memcg=on) QC_GUEST_ARGS= ;;
		timeout=*) is_count "$_val" && QC_GUEST_TIMEOUT=$_val ;;
		bench-runs=*) case $_val in ''|*[!0-9]*) false ;; *) QC_GUEST_BENCH_RUNS=$_val ;; esac ;;
		*) false ;;
		esac || die "$_f: '# qc-guest:' setting '$_kv' is not one of smp=N mem=MB numa=MB,MB memcg=on timeout=S bench-runs=N"
	done
}

# The guest scenarios: guest-init/scenarios/<name>.sh.
qc_scenarios() { ls "$QC_ROOT/guest-init/scenarios" | sed -n 's/\.sh$//p'; }
check_scenario() {
	[ -f "$QC_ROOT/guest-init/scenarios/$1.sh" ] ||
		die "unknown scenario '$1': choose one of: $(qc_scenarios | tr '\n' ' ')(guest-init/scenarios/)"
}

# qc_check_inputs VARIANTS SCENARIO DURATION ISOLATED SMP RATE REFILL: a
# run's inputs, checked the one way every entry point (make compare, make
# run, make stress, ...) checks them, before anything is built or any
# results directory is made: a bad value dies with one line naming it and
# the fix. RATE "" is the hammer's own default. Sets QC_REFILL_CPUS to the
# refill CPUs REFILL resolves to ("" for none).
qc_check_inputs() {
	[ -n "$1" ] || die "no variants given: choose from $(qc_variants | tr '\n' ' ')(see patches/series)"
	_seen=
	for _v in $1; do
		check_variant "$_v"
		case " $_seen " in *" $_v "*) die "variant '$_v' is given twice: a run has one guest per variant" ;; esac
		_seen="$_seen $_v"
	done
	check_scenario "$2"
	# The hammer takes runs of 1-86400 s (hammer/README.md).
	{ is_count "$3" && [ "$3" -le 86400 ]; } ||
		die "duration '$3' is not a whole number of seconds from 1 to 86400"
	cpulist_valid "$4" || die "isolated CPU list '$4' is not a CPU list like 1-3 or 1,3"
	for _c in $(cpulist_expand "$4"); do
		[ "$_c" -ne 0 ] || die "isolated CPUs '$4' include housekeeping CPU 0: CPU 0 always keeps house, isolate CPUs from 1 up (e.g. 1-$(($5 - 1)))"
		[ "$_c" -lt "$5" ] || die "isolated CPU $_c does not exist in a $5-CPU guest: use a smaller list (scripts/run.sh --smp $((_c + 1)) boots a bigger guest)"
	done
	[ -z "$6" ] || { is_count "$6" && [ "$6" -le 10000 ]; } ||
		die "rate '$6' is not a whole number of drain_all_pages() calls per second from 1 to 10000 (the hammer's range)"
	QC_REFILL_CPUS=$(qc_refill_cpus "$2" "$4" "$7") || exit 1
}

# qc_guest_cc OUT SOURCE [GCC-OPTIONS...]: compile one guest program as the
# initramfs packs it: static (the busybox initramfs has no libc), with the
# C helper every quietcore program shares (common/qc-util.c).
qc_guest_cc() {
	_out=$1 _src=$2
	shift 2
	gcc -static -O2 -Wall -Wextra -pthread -I"$QC_ROOT/common" "$@" \
		-o "$_out" "$_src" "$QC_ROOT/common/qc-util.c"
}

# The verdict policy (QC_VERDICT_POLICY overrides it) and the drain-cause
# list it names (QC_DRAIN_CAUSES overrides that): the analyzer charges by
# the one summarize.sh judges by.
QC_POLICY=${QC_VERDICT_POLICY:-$QC_ROOT/tracing/verdict-policy.json}
qc_drain_causes_file() {
	if [ -n "${QC_DRAIN_CAUSES:-}" ]; then echo "$QC_DRAIN_CAUSES"; return; fi
	_dc=$(jq -r '.drain_causes_file // empty' "$QC_POLICY" 2>/dev/null) && [ -n "$_dc" ] ||
		die "the verdict policy $QC_POLICY is missing or names no drain_causes_file: restore it (git checkout tracing/verdict-policy.json)"
	echo "$QC_ROOT/$_dc"
}

# The drain's own functions (the policy's drain_functions), comma-separated
# as qc-analyze --drain-functions takes them.
qc_drain_functions() {
	jq -er '.drain_functions | join(",")' "$QC_POLICY" 2>/dev/null ||
		die "the verdict policy $QC_POLICY names no drain_functions: restore it (git checkout tracing/verdict-policy.json)"
}

# Build directory of one variant and flavour ("" or "debug").
qc_build_dir() { echo "$QC_CACHE/build/$1${2:+-$2}"; }
qc_tree_dir() { echo "$QC_CACHE/trees/$1"; }

# The qc-cost TCG plugin (bench/plugin/) and what it needs: built into the
# cache (make keeps it up to date) and the variant's System.map. (The file
# each guest's counts go to, QC_COST_FILE, is in the contract.)
qc_cost_plugin() {
	mkdir -p "$QC_CACHE/plugin"
	make -s -f "$QC_ROOT/bench/plugin/Makefile" PLUGIN_OUT="$QC_CACHE/plugin" \
		"$QC_CACHE/plugin/qc-cost.so" >&2 || die "bench/plugin/qc-cost.so does not build"
	echo "$QC_CACHE/plugin/qc-cost.so"
}
QC_DRAIN_REACH_LIST=$QC_ROOT/bench/plugin/drain-reach.list
QC_SPIN_WAIT_LIST=$QC_ROOT/bench/plugin/spin-wait.list
# qc_drain_reach VARIANT: "FUNCTION PER" from bench/plugin/drain-reach.list.
qc_drain_reach() {
	r=$(awk -v v="$1" '$1 == v { print $2, $3 }' "$QC_DRAIN_REACH_LIST")
	[ -n "$r" ] || die "bench/plugin/drain-reach.list has no rule for variant '$1': add one"
	echo "$r"
}
# qc_spin_wait: bench/plugin/spin-wait.list as a JSON array of names.
qc_spin_wait() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$QC_SPIN_WAIT_LIST" |
		jq -Rsc 'split("\n") | map(select(length > 0))'
}
# qc_drain_runs DIR VARIANT: the counted drain of the cost directory DIR
# (bench/plugin/drain-runs.jq's object on stdout; its error on stderr and
# a non-zero exit when the windows and the hammer's calls do not match).
qc_drain_runs() {
	_reach=$(qc_drain_reach "$2") || return 1
	jq -n --slurpfile w "$1/$QC_COST_FILE" --slurpfile hammer "$1/$QC_DRAIN_HAMMER" \
		--arg fn "${_reach%% *}" --arg per "${_reach#* }" \
		--argjson zones "$(cat "$1/$QC_DRAIN_ZONES" 2>/dev/null || echo 0)" \
		--argjson spin "$(qc_spin_wait)" -f "$QC_ROOT/bench/plugin/drain-runs.jq"
}
qc_system_map() {
	m=$(qc_build_dir "$1" "${2:-}")/System.map
	[ -f "$m" ] || die "no System.map for $1 in $(dirname "$m"): build it (scripts/build.sh $1)"
	echo "$m"
}
# qc_check_probes VARIANT FLAVOUR SCENARIO: every function the probe lists
# the guest will define probe is a function of its build, by the build's
# System.map: the send-side origins.list and the variant's exposure probes
# in every guest, its audit list in the audit's. A name the tree renamed or
# the compiler inlined is refused in one line before the guest boots, not
# by the guest's kprobe_events minutes later.
qc_check_probes() {
	_map=$(qc_system_map "$1" "$2") || exit 1
	_lists="tracing/probes/origins.list tracing/probes/$1.list"
	[ "$3" != audit ] || _lists="$_lists tracing/probes/$(qc_variant_audit "$1").list"
	for _l in $_lists; do
		for _fn in $(sed -n 's/^[pr]:[^ ]* \([^ ]*\).*/\1/p' "$QC_ROOT/$_l" | sort -u); do
			awk -v f="$_fn" '$3 == f && $2 ~ /^[tT]$/ { found = 1; exit } END { exit !found }' "$_map" ||
				die "$_l probes $_fn, which the $1${2:+ ($2)} build does not have (not a function in $_map): name the function its tree has"
		done
	done
}

# housekeeping_of ISOLATED SMP: the CPUs of 0..SMP-1 not in ISOLATED, as a list.
housekeeping_of() { cpulist_minus "0-$(($2 - 1))" "$1"; }

# Results: one directory per run, named by UTC time so ids sort by time,
# created with mkdir so that an id is never reused.
QC_RESULTS=${QC_RESULTS:-$QC_ROOT/results}
qc_new_run() {
	mkdir -p "$QC_RESULTS"
	id=$(date -u +%Y%m%d-%H%M%S)
	n=1 try=$id
	until mkdir "$QC_RESULTS/$try" 2>/dev/null; do
		n=$((n + 1)) try=$id-$n
	done
	echo "$try"
}

# qc_status_begin FILE: this script now owns the status file FILE: it says
# "running" until the script writes "ok", die() writes "failed: why", and
# an interrupt leaves "failed: interrupted".
qc_status_begin() {
	export QC_STATUS_FILE="$1"
	echo "running" > "$QC_STATUS_FILE"
	trap 'grep -q "^running" "$QC_STATUS_FILE" 2>/dev/null && echo "failed: interrupted" > "$QC_STATUS_FILE"; exit 130' INT TERM
}

# qc_run_txt RUNDIR VARIANTS SCENARIO DURATION ISOLATED [REFILL]: the
# run's facts, read back by summarize.sh. REFILL: the isolated CPUs that
# ran the refill workload (empty: none; the others ran oslat).
qc_run_txt() {
	printf 'id: %s\nvariants: %s\nscenario: %s\nduration_s: %s\nisolated: %s\nrefill: %s\n' \
		"$(basename "$1")" "$2" "$3" "$4" "$5" "${6:-}" > "$1/$QC_RUN_TXT"
}

# cpulist_minus A B: the CPUs of list A not in list B, as a list ("" if none).
cpulist_minus() {
	cpulist_expand "$2" > "${TMPDIR:-/tmp}/qc-minus.$$"
	cpulist_expand "$1" | grep -vxF -f "${TMPDIR:-/tmp}/qc-minus.$$" | paste -sd, -
	rm -f "${TMPDIR:-/tmp}/qc-minus.$$"
}

# qc_refill_cpus SCENARIO ISOLATED REFILL: the refill workload's CPUs for a
# run, from REFILL as the user gave it: "auto" (the default) is every
# isolated CPU but the first in the scenarios that measure drains (hammer
# and its control, quiet, and the audit), none elsewhere; "none" or "" is none; a list
# must lie inside ISOLATED and leave at least one CPU to oslat. Dies on a
# bad list.
qc_refill_cpus() {
	case $3 in
	none|'') return 0 ;;
	auto)
		case $1 in hammer|quiet|audit) ;; *) return 0 ;; esac
		cpulist_minus "$2" "$(cpulist_expand "$2" | head -n1)"
		return 0 ;;
	esac
	cpulist_valid "$3" || die "refill CPU list '$3' is not a CPU list like 2-3 (or 'auto', 'none')"
	[ -z "$(cpulist_minus "$3" "$2")" ] ||
		die "refill CPUs '$3' are not all isolated (isolated: $2): choose refill CPUs among the isolated ones"
	[ -n "$(cpulist_minus "$2" "$3")" ] ||
		die "refill CPUs '$3' leave no isolated CPU for oslat, the pure-spin reference: keep one out (e.g. REFILL=$(cpulist_minus "$2" "$(cpulist_expand "$2" | head -n1)"))"
	cpulist_expand "$3" | paste -sd, -
}
