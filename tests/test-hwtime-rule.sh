#!/bin/sh
# The hardware-time rule (tracing/README.md, "Hardware time") on a real
# trace and its qc-entry counts: tests/fixtures/traces/hwtime-stretch.dat,
# the long window of tests/guest/stretch.sh (isolated CPU 2 held in
# kernel stretches of 24.03 million instructions while CPU 0 runs grace
# periods), whose 41 RCU QS interruptions on CPU 2 are 10 forcing
# reschedule IPIs, each with its irq_work kick and the ticks kept for RCU.
# As measured, every one is hardware-plausible. Crafted from the same
# counts: the first forcing's stretch cut to 1,000,000 instructions makes
# it and its 4 followers emulator-timed, exactly; the second forcing's
# count taken away leaves it and its 3 followers untimed; no counts at
# all leave all 41 untimed, never timed as 0.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ktap_require jq
make -s -C "$root/tracing" >/dev/null || ktap_bail_out "the analyzer does not build"
QA=$root/tracing/qc-analyze
FX=$root/tests/fixtures/traces
ktap_plan 16
# timing [COUNTS]: CPU 2's rcu_qs_timing, as "emulator plausible untimed"
timing() {
	"$QA" --cpus 2 --task sh --quiet --json "$tmp/t.json" ${1:+--entry-counts "$1" --rcu-forcing 1000:3} \
		"$FX/hwtime-stretch.dat" 2>"$tmp/err" || { ktap_diag "$(cat "$tmp/err")" >&2; echo refused; return; }
	jq -r '.cpus["2"].rcu_qs_timing | "\(.emulator_timed) \(.hardware_plausible) \(.untimed)"' "$tmp/t.json"
}
ktap_check "as measured: 41 RCU QS interruptions, all hardware-plausible" \
	test "$(timing "$FX/hwtime-stretch.jsonl")" = "0 41 0"
ktap_check "... every stretch of the 10 forcings between 24 and 25 million instructions" \
	sh -c 'jq -e "$1" "$2" > /dev/null' - '.cpus["2"].rcu_qs_timing.stretch_insns | length == 10 and all(.[]; . > 24000000 and . < 25000000)' "$tmp/t.json"
# (the plugin's numbers of the first two forcings, as --explain gives them)
"$QA" --cpus 2 --task sh --quiet --explain "$tmp/ex" --entry-counts "$FX/hwtime-stretch.jsonl" --rcu-forcing 1000:3 \
	"$FX/hwtime-stretch.dat"
first=$(jq -s '[.[] | select(.counted.vec == "RES")][0].counted.n' "$tmp/ex")
second=$(jq -s '[.[] | select(.counted.vec == "RES")][1].counted.n' "$tmp/ex")
jq -c --argjson n "$first" 'if .vec == "RES" and .n == $n then .stretch = 1000000 else . end' "$FX/hwtime-stretch.jsonl" > "$tmp/short.jsonl"
ktap_check "the first forcing's stretch at 1,000,000 instructions: it and its 4 followers emulator-timed, the other 36 hardware-plausible" \
	test "$(timing "$tmp/short.jsonl")" = "5 36 0"
jq -c --argjson n "$second" 'select(.vec != "RES" or .n != $n)' "$FX/hwtime-stretch.jsonl" > "$tmp/gap.jsonl"
ktap_check "the second forcing's count missing: it and its 3 followers untimed, the rest hardware-plausible" \
	test "$(timing "$tmp/gap.jsonl")" = "0 37 4"
ktap_check "no counts: all 41 untimed, and the analysis says hardware time was not measured" \
	sh -c 'test "$1" = "0 0 41" && jq -e ".hardware_time.measured == false" "$2" > /dev/null' - "$(timing)" "$tmp/t.json"
printf '{"vcpu":2,"n":5}\n' > "$tmp/bad.jsonl"
ktap_check "a counts file that is not qc-entry's is refused, naming its line" \
	sh -c 'out=$("$1" --cpus 2 --quiet --entry-counts "$2" --rcu-forcing 1000:3 "$3" 2>&1 >/dev/null); [ $? -ne 0 ] &&
		case $out in *"bad.jsonl:1 is not a qc-entry line"*) ;; *) false ;; esac' \
	- "$QA" "$tmp/bad.jsonl" "$FX/hwtime-stretch.dat"
ktap_check "counts without the guest's forcing interval are refused" \
	sh -c 'out=$("$1" --cpus 2 --quiet --entry-counts "$2" "$3" 2>&1 >/dev/null); [ $? -ne 0 ] &&
		case $out in *"is not HZ:JIFFIES_TILL_NEXT_FQS"*) ;; *) false ;; esac' \
	- "$QA" "$FX/hwtime-stretch.jsonl" "$FX/hwtime-stretch.dat"
# The trace holds every vector the kernel counted on an isolated CPU
# between the guest's counts, or is refused (crafted markers:
# tests/received-vectors.c, compiled through ccache: tests/ccache-cc.sh).
cd "$root" || ktap_bail_out "cannot enter $root"
P="libtracecmd libtraceevent libtracefs"
QC_ROOT=$root
. scripts/lib/paths.sh
. tests/ccache-cc.sh
# shellcheck disable=SC2046,SC2086 # pkg-config's words; CC's, as make has them
ccache_cc ${CC:-cc} -Wall -Itracing -Icommon $(pkg-config --cflags $P) -o "$tmp/received-vectors" \
	tests/received-vectors.c tracing/hwtime.c common/qc-util.c $(pkg-config --libs $P) \
	2>"$tmp/rv.err" || ktap_diag "tests/received-vectors.c does not build: $(head -n 3 "$tmp/rv.err")"
[ ! -x "$tmp/received-vectors" ] || "$tmp/received-vectors" > "$tmp/rv.out"
for i in 1 2 3 4 5 6 7 8 9; do
	ktap_check "received vectors: $(sed -n "s/^\(not \)*ok $i //p" "$tmp/rv.out" 2>/dev/null)" grep -q "^ok $i " "$tmp/rv.out"
done
ktap_finish
