#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# RCU forcing timed against hardware (tracing/README.md, "Hardware time"),
# on a stretch of known length: qc_stretch holds isolated CPU 2 in one
# kernel entry of 2,000,000 loop rounds (22 million instructions: 22 ms at
# the stated 1 ns an instruction, over the 2 ms a force needs at HZ 1000)
# in one traced window, and of 100,000 rounds (1.1 million: 1.1 ms, under
# it) in another, while CPU 0 keeps grace periods going
# (tests/guest/stretch.sh), under the qc-entry plugin. Both windows must be
# forced (under TCG even the short stretch outlasts RCU's forcing
# interval), the long one's forcing hardware-plausible and the short
# one's emulator-timed, each forced stretch counted at its known length.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"
. "$root/scripts/lib/paths.sh"

ktap_require qemu-system-x86_64 jq trace-cmd
ktap_plan 5
ktap_build_boots
make -s -C "$root/tracing" >/dev/null || ktap_bail_out "the analyzer does not build"
ktap_guest "a spinlock guest held CPU 2 in long and short kernel stretches under qc-entry" \
	-V spinlock --no-build --guest-script "$root/tests/guest/stretch.sh" --count-entries
# window NAME: CPU 2's RCU QS timing in that window, as the rig times it.
window() {
	"$root/tracing/qc-analyze" --cpus 1-3 --task sh --quiet --json "$scratch/$1.json" \
		--entry-counts "$GUEST/$QC_ENTRY_COUNTS" \
		--rcu-forcing "$(jq -r '.rcu | "\(.hz):\(.jiffies_till_next_fqs)"' "$GUEST/$QC_GUEST_JSON" 2>/dev/null)" \
		"$GUEST/stretch-$1.dat" 2>"$scratch/$1.err" || ktap_diag "$1: $(cat "$scratch/$1.err")"
	jq -c '.cpus["2"].rcu_qs_timing | {emulator_timed, hardware_plausible, untimed, stretch_insns}' \
		"$scratch/$1.json" 2>/dev/null || echo null
}
long=$(window long)
short=$(window short)
ktap_diag "long: $long"
ktap_diag "short: $short"
# (a forced stretch is the loop's rounds plus the write's own entry: at
# least the rounds' 11 instructions each, and not twice that)
ktap_check "long stretches: forced, every forcing hardware-plausible, none emulator-timed" \
	jq -e '.hardware_plausible > 0 and .emulator_timed == 0' <<EOF
$long
EOF
ktap_check "... each forced stretch counted at its known length (22 to 44 million instructions)" \
	jq -e '(.stretch_insns | length) > 0 and all(.stretch_insns[]; . >= 22000000 and . < 44000000)' <<EOF
$long
EOF
ktap_check "short stretches: forced, every forcing emulator-timed, none hardware-plausible" \
	jq -e '.emulator_timed > 0 and .hardware_plausible == 0' <<EOF
$short
EOF
ktap_check "... each forced stretch counted at its known length (1.1 to 2 million instructions)" \
	jq -e '(.stretch_insns | length) > 0 and all(.stretch_insns[]; . >= 1100000 and . < 2000000)' <<EOF
$short
EOF
ktap_finish
