#!/bin/sh
# qc-test: slow
# qc-test: boots wq rcu spinlock
# The counted drain's reach rule (bench/plugin/drain-reach.list: the
# drainer's own entries of each variant's per-CPU function, per CPU),
# checked call by call against the kernel's own exposure probes
# (tracing/probes/<variant>.list) in the same boot: for every
# drain_all_pages() call of qc_hammer markers=1, the CPUs the plugin says
# it reached must be the distinct CPUs whose lists a qc:drain_cpu event
# drained between that call's entry and return. One boot per variant
# (~30 s each); the calls must reach CPUs, or the check proves nothing.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"
. "$root/scripts/lib/paths.sh"
. "$root/scripts/lib/log.sh"
. "$root/scripts/lib/plugin.sh"

ktap_require qemu-system-x86_64 jq trace-cmd
variants=$(ktap_boots)
ktap_plan $(($(echo $variants | wc -w) * 2))
ktap_build_boots
reach_boot() {
	"$root/scripts/run.sh" -V "$1" --no-build --guest-script "$root/tests/guest/drain-reach.sh" \
		--count-cost 2>"$scratch/log"
}
# A guest that hangs is booted again, at most twice, and says so: under
# the plugin, QEMU 7.2's multi-threaded TCG has kept a vCPU trapping on a
# kernel text patch's int3 after the kernel removed it, in 3 of ~43 boots
# here and in CI (README.md, "Under TCG"). Only a hang: any other failure,
# or a third hang, fails the check.
reach_boot_retried() {
	for try in 1 2 3; do
		reach_boot "$1" && return 0
		grep -q 'quietcore: error: guest hung' "$scratch/log" && [ "$try" -lt 3 ] || return 1
		ktap_diag "$1: $(grep -m1 'guest hung' "$scratch/log" | cut -c1-400)" >&2
		ktap_diag "$1: booting it again, $((try + 1)) of 3 (a hang here has been QEMU 7.2 TCG's stale int3)" >&2
	done
}
for v in $variants; do
	if ! out=$(reach_boot_retried "$v"); then
		ktap_not_ok "$v: the counted drain under the exposure probes ran"
		ktap_diag "$(tail -n 3 "$scratch/log")"
		ktap_not_ok "$v: the plugin's CPUs reached equal the probes' on every call (no run)"
		continue
	fi
	plugin=$(qc_drain_runs "$out" "$v" 2>"$scratch/err" | jq -c '[.samples[] | {call, cpus_reached}]')
	probes=$(trace-cmd report "$out/drain-reach.dat" 2>/dev/null | awk -f "$root/tests/plugin/probe-reach.awk" | jq -sc .)
	calls=$(jq -r .calls "$out/$QC_DRAIN_HAMMER")
	reached=$(echo "${plugin:-[]}" | jq 'length')
	ktap_check "$v: $calls drain_all_pages() calls, counted and traced, $reached of them reaching a CPU with pages" \
		test "$(echo "${probes:-[]}" | jq length)" = "$calls" -a "${reached:-0}" -gt 0
	# The plugin keeps the calls that reached a CPU, in complete windows
	# (the first, which switched the counting on, is not); the probes say
	# so for every call. The two must agree on the calls the plugin keeps,
	# and the probes must see no CPU in its other complete windows.
	complete=$(jq -sc '[.[] | select(.opener == "module")] | sort_by(.window) | map(.complete)' "$out/$QC_COST_FILE")
	same=$(jq -n --argjson p "${plugin:-null}" --argjson t "${probes:-null}" --argjson c "$complete" \
		'$p != null and $t != null and ([$p[] | .cpus_reached == $t[.call - 1]] | all)
		 and ([range($t | length) | select($c[.])] - [$p[].call - 1] | map($t[.]) | all(. == 0))')
	ktap_check "$v: the plugin's CPUs reached equal the probes' on every call (plugin $(echo "$plugin" | jq -c 'map(.cpus_reached)'), probes $probes)" \
		test "$same" = true
done
ktap_finish
