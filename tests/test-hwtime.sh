#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# RCU forcing timed against hardware (tracing/README.md, "Hardware time"),
# on a stretch of known length: qc_stretch holds isolated CPU 2 in one
# kernel entry of 2,000,000 loop rounds (22 million instructions or more:
# 22 ms at the stated 1 ns an instruction, over the 2 ms a force needs at
# HZ 1000) in one traced window, and of 150,000 rounds (1.65-1.8 million:
# under it) in another, while CPU 0 keeps grace periods going
# (tests/guest/stretch.sh), under the qc-entry plugin. Both windows must be
# forced, the long one's forcing hardware-plausible and the short one's
# emulator-timed, each forced stretch counted at its known length.
# The short stretch is forced only where TCG runs it slower than RCU's
# forcing interval: QEMU runs on one host core here, with two guest CPUs
# spinning beside CPU 2, so that it does on any host (a CI host without
# that ran 1.8 million instructions in under 3 ms of guest time). Should
# a host still run every short stretch within two forcing intervals, the
# short checks skip, naming the guest times measured; a short stretch
# that lasted longer and was not forced fails.
. "$(dirname "$0")/ktap.sh"
ktap_scratch
. "$root/scripts/lib/plugin.sh"

ktap_require qemu-system-x86_64 jq trace-cmd taskset
ktap_plan 5
ktap_build_boots
make -s -C "$root/tracing" >/dev/null || ktap_bail_out "the analyzer does not build"
# (this shell and what it starts, QEMU too, on the first host CPU it may use)
taskset -p -c "$(taskset -p -c $$ | sed 's/.*: //; s/[-,].*//')" $$ >/dev/null ||
	ktap_bail_out "cannot pin the test to one host CPU (taskset)"
ktap_guest "a spinlock guest held CPU 2 in long and short kernel stretches under qc-entry" \
	-V spinlock --no-build --guest-script "$root/tests/guest/stretch.sh" --count-entries
# window NAME: CPU 2's forcings in that window as the rig times them: the
# reschedule IPIs of RCU's forcing that hit the qc_stretch write (syscall
# 1), each [timing, stretch instructions], and the window's counts.
window() {
	"$root/tracing/qc-analyze" --cpus 2 --task sh --quiet --json "$scratch/$1.json" --explain "$scratch/$1.ex" \
		--entry-counts "$GUEST/$QC_ENTRY_COUNTS" \
		--rcu-forcing "$(qc_rcu_forcing "$GUEST")" \
		"$GUEST/stretch-$1.dat" 2>"$scratch/$1.err" || { ktap_diag "$1: $(cat "$scratch/$1.err")" >&2; echo null; return; }
	jq -sc --slurpfile a "$scratch/$1.json" '{forced: [.[] | select(.class == "rcu_qs" and .counted.vec == "RES"
			and .mode == "kernel" and .entry == "syscall 1") | [.timing, .stretch_insns]],
		window: ($a[0].cpus["2"].rcu_qs_timing | del(.stretch_insns, .indirect))}' "$scratch/$1.ex" 2>/dev/null || echo null
}
# holds EXPR: the JSON on stdin makes jq's EXPR true
holds() { jq -e "$1" > /dev/null; }
long=$(window long)
short=$(window short)
ktap_diag "long: $long"
ktap_diag "short: $short"
# (a stretch is the loop's rounds, 11-12 instructions each, plus the
# write's own entry)
ktap_check "long stretches: forced, and every forcing of the loop hardware-plausible" \
	holds '(.forced | length) > 0 and all(.forced[]; .[0] == "hardware_plausible")' <<EOF
$long
EOF
ktap_check "... each of them counted at the loop's length (22 to 30 million instructions)" \
	holds '(.forced | length) > 0 and all(.forced[]; .[1] >= 22000000 and .[1] < 30000000)' <<EOF
$long
EOF
# The short loops' guest times, and the two forcing intervals within
# which RCU need not force one (guest.json's rcu)
read -r _ loops _ shortest _ longest < "$GUEST/stretch-short.txt" 2>/dev/null || loops=
ktap_diag "short loops: ${loops:-?}, guest time ${shortest:-?} to ${longest:-?} us"
fqs_us=$(jq -r '.rcu | 2000000 * .jiffies_till_next_fqs / .hz | floor' "$GUEST/$QC_GUEST_JSON" 2>/dev/null)
unforced=$(echo "$short" | jq '.forced | length == 0' 2>/dev/null)
if [ -n "$loops" ] && [ -n "$fqs_us" ] && [ "$unforced" = true ] && [ "$longest" -lt "$fqs_us" ]; then
	why="this host ran all $loops short stretches within $longest us of guest time, under two forcing intervals ($fqs_us us): nothing for RCU to force"
	ktap_skip "short stretches: $why"
	ktap_skip "... each counted at the loop's length: $why"
else
	ktap_check "short stretches: forced, every forcing of the loop emulator-timed, none in the window hardware-plausible" \
		holds '(.forced | length) > 0 and all(.forced[]; .[0] == "emulator_timed") and .window.hardware_plausible == 0' <<EOF
$short
EOF
	ktap_check "... each of them counted at the loop's length (1.65 to 2 million instructions)" \
		holds '(.forced | length) > 0 and all(.forced[]; .[1] >= 1650000 and .[1] < 2000000)' <<EOF
$short
EOF
fi
ktap_finish
