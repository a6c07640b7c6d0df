#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# Stacks switched off after the trace started are refused, not read as
# senders without a stack: a guest (tests/guest/stacks-off.sh) plants 3
# IPIs on CPU 1 with the send side's stack triggers in place, removes
# every trigger while the trace runs, and plants 3 more. The window as a
# whole must be refused in one line naming the stackless send; the same
# trace up to the switch must count the first 3, each with its sender,
# so that the refusal is the switch's doing. One boot (~1 min under TCG).
. "$(dirname "$0")/ktap.sh"
ktap_scratch

ktap_require qemu-system-x86_64 jq trace-cmd
ktap_plan 4
ktap_build_boots
qa=$root/tracing/qc-analyze
make -s -C "$root/tracing" >/dev/null 2>&1 || ktap_bail_out "the analyzer does not build"
ipi=irq_vectors:call_function_single:qc_planted_ipi
if ! out=$("$root/scripts/run.sh" -V spinlock --no-build --guest-script "$root/tests/guest/stacks-off.sh" 2>"$scratch/log"); then
	ktap_diag "$(tail -n 3 "$scratch/log")"
	ktap_bail_out "the stacks-off guest did not run"
fi
dat=$out/stacks-off.dat
removed=$(cat "$out/stacks-removed.txt" 2>/dev/null)
pokes=$(sed -n 's/^text_patches: //p' "$out/$QC_BOOT_PARAMS")
ktap_check "the guest removed its stack triggers mid-trace (${removed:-none}) and patched no text with CPUs online ($pokes)" \
	sh -c '[ "${1:-0}" -gt 0 ] && echo "$2" | grep -q "online 0"' - "$removed" "$pokes"

"$qa" --cpus 1 --task oslat --quiet "$dat" >/dev/null 2>"$scratch/all.err"
rc=$?
ktap_check "the whole window is refused (exit $rc), in one line naming the stackless send: $(head -c 240 "$scratch/all.err")" \
	sh -c '[ "$1" -eq 2 ] && [ "$(wc -l < "$2")" -eq 1 ] && grep -q "carr[a-z]* no kernel stack, the first a qcsend:csd_queue on CPU 0" "$2"' - "$rc" "$scratch/all.err"

# The switch's time, in trace ns; the window up to it.
ns() { trace-cmd report -t "$dat" 2>/dev/null | awk -v m="$1" 'index($0, m) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); split($i, p, "."); print p[1] p[2]; exit } }'; }
start=$(ns "qc: window start") off=$(ns "qc: stacks off")
"$qa" --cpus 1 --task oslat --window "$start:$off" --json "$scratch/before.json" --expect "1:$ipi=3" \
	--quiet "$dat" >/dev/null 2>"$scratch/before.err"
rc=$?
ktap_check "up to the switch ($start:$off) it is read (exit $rc): the 3 IPIs planted before it counted on CPU 1" \
	[ "$rc" -eq 0 ]
sent=$(jq -r --arg c "$ipi" '.cpus["1"].origins.unknown_by_cause[$c] // 0' "$scratch/before.json" 2>/dev/null)
ktap_check "... and none of them without a sender (${sent:-no JSON})" [ "${sent:-x}" = 0 ]
ktap_finish
