# plugin.sh: the qc-cost TCG plugin (bench/plugin/) and what it needs:
# built into the cache (make keeps it up to date), the drain's reach per
# variant and the spin-wait functions it counts apart, and the counted
# drain it yields. (The file each guest's counts go to, QC_COST_FILE, is
# in the contract.)
# Needs paths.sh and log.sh.
# shellcheck shell=sh

qc_cost_plugin() {
	mkdir -p "$QC_CACHE/plugin"
	make -s -f "$QC_ROOT/bench/plugin/Makefile" PLUGIN_OUT="$QC_CACHE/plugin" \
		"$QC_CACHE/plugin/qc-cost.so" >&2 || die "bench/plugin/qc-cost.so does not build"
	echo "$QC_CACHE/plugin/qc-cost.so"
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
# qc_drain_runs DIR VARIANT: the counted drain of the cost directory DIR
# (bench/plugin/drain-runs.jq's object on stdout; its error on stderr and
# a non-zero exit when the windows and the hammer's calls do not match).
qc_drain_runs() {
	_reach=$(qc_drain_reach "$2") || return 1
	jq -n --slurpfile w "$1/$QC_COST_FILE" --slurpfile hammer "$1/$QC_DRAIN_HAMMER" \
		--arg fn "${_reach%% *}" --arg per "${_reach#* }" \
		--argjson zones "$(cat "$1/$QC_DRAIN_ZONES" 2>/dev/null || echo 0)" \
		--rawfile spin_list "$QC_SPIN_WAIT_LIST" -L "$QC_ROOT/bench/plugin" -f "$QC_ROOT/bench/plugin/drain-runs.jq"
}
