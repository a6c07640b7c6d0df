# plugin.sh: the qc-cost TCG plugin (bench/plugin/) and what it needs:
# built into the cache (make keeps it up to date), the drain's reach per
# variant and the spin-wait functions it counts apart, and the counted
# drain it yields. (The file each guest's counts go to, QC_COST_FILE, is
# in the contract.)
# Needs paths.sh and log.sh.
# shellcheck shell=sh

# qc_cost_plugin QEMU_VERSION: the plugin built for that QEMU's plugin API:
# version 4 from QEMU 9 on, version 1 before (QEMU 7.2 refuses any other).
# Built into QC_PLUGIN_CACHE when set, else the cache's plugin/: a
# worktree whose plugin source differs sets it, so that its build does not
# replace the one another checkout's guests load from the shared cache
# (make rebuilds whenever a checkout's sources are newer than the .so).
qc_cost_plugin() {
	_so=qc-cost.so
	case $1 in [0-8].*) _so=qc-cost-v1.so ;; esac
	_pd=${QC_PLUGIN_CACHE:-$QC_CACHE/plugin}
	mkdir -p "$_pd"
	make -s -f "$QC_ROOT/bench/plugin/Makefile" PLUGIN_OUT="$_pd" \
		"$_pd/$_so" >&2 || die "bench/plugin/$_so does not build"
	echo "$_pd/$_so"
}
# qc_entry_plugin QEMU_VERSION: qc-entry.so (plugin API version 4: QEMU 9
# and later only).
qc_entry_plugin() {
	case $1 in [0-8].*) die "--count-entries needs QEMU 9 or later (plugin API 4); this is QEMU $1: run 'sudo make setup'" ;; esac
	mkdir -p "$QC_CACHE/plugin"
	make -s -f "$QC_ROOT/bench/plugin/Makefile" PLUGIN_OUT="$QC_CACHE/plugin" \
		"$QC_CACHE/plugin/qc-entry.so" >&2 || die "bench/plugin/qc-entry.so does not build"
	echo "$QC_CACHE/plugin/qc-entry.so"
}
# qc_rcu_forcing DIR: the RCU forcing interval hardware would run DIR's
# guest with, as qc-analyze's --rcu-forcing takes it,
# "HZ:JIFFIES_TILL_NEXT_FQS": DIR's guest.json's (guest-lib.sh
# qc_rcu_thresholds), or, in a time-scaled run (its time-scale.json beside
# DIR), the guest's own before scaling: hardware runs the kernel's
# defaults. Nothing when neither says.
qc_rcu_forcing() {
	if [ -f "$1/../$QC_TIME_SCALE" ]; then
		jq -r '.base' "$1/../$QC_TIME_SCALE"
	else
		jq -r '.rcu' "$1/$QC_GUEST_JSON"
	fi 2>/dev/null | jq -r '"\(.hz):\(.jiffies_till_next_fqs)" | select(test("^[0-9]+:[0-9]+$"))' 2>/dev/null
}
QC_DRAIN_REACH_LIST=$QC_ROOT/bench/plugin/drain-reach.list
QC_SPIN_WAIT_LIST=$QC_ROOT/bench/plugin/spin-wait.list
# qc_drain_reach VARIANT: "FUNCTION PER" from bench/plugin/drain-reach.list,
# its words split in the shell as awk splits them (every variant a run
# checks looks its rule up: no process for it).
qc_drain_reach() {
	r='' _dr_nl=''
	while read -r _dr_v _dr_fn _dr_per _dr_rest || [ -n "$_dr_v" ]; do
		[ "$_dr_v" = "$1" ] || continue
		r="$r$_dr_nl$_dr_fn $_dr_per" _dr_nl='
'
	done < "$QC_DRAIN_REACH_LIST"
	[ -n "$r" ] || die "bench/plugin/drain-reach.list has no rule for variant '$1': add one"
	echo "$r"
}
# qc_plugin_runs DIR VARIANT STAGES: what the cost directory DIR's counts
# make, by one jq (its start is most of what either costs), a line each
# (jq -c) in this order, of the STAGES named ("cost drain", "cost" or
# "drain"): cost, bench/plugin/cost-runs.jq's runs; drain, drain-runs.jq's
# object (VARIANT's reach rule applied). On stdout; when one does not match,
# its error on stderr, no line from it or the stages after it, and jq's exit
# status: 5 (1: VARIANT has no reach rule; 2: a file jq could not read).
# shellcheck disable=SC2016 # jq programs are single-quoted on purpose
qc_plugin_runs() {
	_dir=$1 _v=$2 _stages=" $3 " _inc='' _prog=''
	# (the arguments in the order each stage's own jq had them: a file
	# that is not JSON is named as it was)
	set -- -n -c -L "$QC_ROOT/bench/plugin" --slurpfile w "$_dir/$QC_COST_FILE"
	case $_stages in *" cost "*)
		set -- "$@" --slurpfile pft "$_dir/$QC_PFT_COST"
		_inc='include "cost-runs";' _prog='cost_runs($w; $pft; $spin_list)' ;;
	esac
	case $_stages in *" drain "*)
		_reach=$(qc_drain_reach "$_v") || return 1
		set -- "$@" --slurpfile hammer "$_dir/$QC_DRAIN_HAMMER" \
			--arg fn "${_reach%% *}" --arg per "${_reach#* }" \
			--argjson zones "$(cat "$_dir/$QC_DRAIN_ZONES" 2>/dev/null || echo 0)"
		_inc="$_inc include \"drain-runs\";"
		_prog=${_prog:+$_prog, }'drain_runs($w; $hammer; $fn; $per; $zones; $spin_list)' ;;
	esac
	jq "$@" --rawfile spin_list "$QC_SPIN_WAIT_LIST" "$_inc $_prog"
}
# qc_drain_runs DIR VARIANT: the counted drain of the cost directory DIR
# (drain-runs.jq's object on stdout; its error on stderr and a non-zero
# exit when the windows and the hammer's calls do not match).
qc_drain_runs() { qc_plugin_runs "$1" "$2" drain; }
