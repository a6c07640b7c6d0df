#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# Stacks switched off after the trace started are refused, not read as
# senders without a stack: a guest (tests/guest/stacks-off.sh) plants 3
# IPIs on CPU 1 with the send side's stack triggers in place, removes
# every trigger while the trace runs, and plants 3 more. The trace must be
# refused in one line saying how many sends lack their stack; read with
# no stack required, it must count all 6, the 3 after the switch without
# a stack: the refusal is the switch's doing. One boot (~30 s under TCG).
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
ktap_check "the trace is refused (exit $rc), in one line naming the sends without a stack: $(head -c 240 "$scratch/all.err")" \
	sh -c '[ "$1" -eq 2 ] && [ "$(wc -l < "$2")" -eq 1 ] && grep -q "carr[a-z]* no kernel stack" "$2"' - "$rc" "$scratch/all.err"

# The same trace read with no send's stack required (a stack list whose
# one line selects a forked task placed on an isolated CPU: with
# isolcpus=domain, none is): the refusal was the stacks' alone. All 6
# IPIs are counted, each with its sender; those planted before the switch
# carry their stack, those after it none.
echo "sched/sched_wakeup_new target_cpu" > "$scratch/no-stacks.list"
"$qa" --cpus 1 --task oslat --stack-list "$scratch/no-stacks.list" --expect "1:$ipi=6" \
	--explain "$scratch/explain.jsonl" --quiet "$dat" >/dev/null 2>"$scratch/none.err"
rc=$?
ktap_check "with no stack required it is read (exit $rc): the 6 planted IPIs counted on CPU 1 $(head -c 200 "$scratch/none.err")" \
	[ "$rc" -eq 0 ]
split=$(jq -sc --arg c "$ipi" '[.[] | select(.cause == $c) | .senders[0].stack != null] | group_by(.) | map({(.[0] | tostring): length}) | add' \
	"$scratch/explain.jsonl" 2>/dev/null)
ktap_check "... each with a sender, the 3 before the switch with its stack and the 3 after without (${split:-no explain})" \
	[ "$split" = '{"false":3,"true":3}' ]
ktap_finish
