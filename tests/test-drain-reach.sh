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
ktap_scratch
. "$root/scripts/lib/plugin.sh"

ktap_require qemu-system-x86_64 jq trace-cmd
variants=$(ktap_boots)
ktap_plan $(($(echo $variants | wc -w) * 2))
ktap_build_boots
reach_boot() {
	"$root/scripts/run.sh" -V "$1" --no-build --guest-script "$root/tests/guest/drain-reach.sh" \
		--count-cost 2>"$scratch/log"
}
# One boot per variant, no retry: the hang QEMU 7.2's multi-threaded TCG
# left here (a vCPU trapping on a kernel text patch's stale int3) did not
# come in 60 boots of the rcu guest on QEMU 10.0.2 with one-CPU patching
# (docs/findings.md, "Under TCG"). A hung guest fails the check; its
# error line quotes where the vCPUs were (scripts/vcpus.sh), and the end
# of its console.log, with the guest's own dump of its tasks and CPUs,
# is printed before the scratch directory goes.
for v in $variants; do
	if ! out=$(reach_boot "$v"); then
		ktap_not_ok "$v: the counted drain under the exposure probes ran"
		grep -m1 'quietcore: error: guest hung' "$scratch/log" | cut -c1-400 | while IFS= read -r l; do ktap_diag "$v: $l"; done
		ktap_diag "$(tail -n 3 "$scratch/log")"
		for c in "$QC_RESULTS"/*/"$v"*/"$QC_CONSOLE"; do
			[ -f "$c" ] && ktap_diag "$v: the end of its $QC_CONSOLE:" && ktap_diag "$(tail -n 40 "$c")"
		done
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
