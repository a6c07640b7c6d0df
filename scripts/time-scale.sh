#!/bin/sh
# time-scale.sh VARIANT OUT.json: how much slower than hardware this host's
# guests run, and RCU's forcing parameters scaled by it (make compare
# TIME_SCALE=auto; tracing/README.md, "Hardware time").
#
# Under TCG a guest runs many times slower than hardware while its jiffies
# follow the host's clock, so RCU's forcing scans come many times sooner,
# in guest work, than on hardware. This boots VARIANT's hammer guest for
# 10 s under the qc-entry plugin (a scratch run of its own), which times
# every kernel stretch of 20,000 instructions or more on the isolated
# CPUs in guest ns an instruction (entry-rates.jsonl). The factor is their
# median over the stated rate (1 ns), rounded up: the typical stretch's
# slowdown. The slower tail (the host descheduling a vCPU's thread) stays
# slower than scaled, and the forcing it causes is still timed stretch by
# stretch (tracing/README.md, "Hardware time"). OUT.json gets
# the factor, its evidence, and the guest's RCU parameters as measured and
# as scaled: jiffies_till_first_fqs and jiffies_till_next_fqs times the
# factor (the kernel caps them at HZ: "capped"), and jiffies_till_sched_qs
# times it (settable at boot only). stdout: those three as kernel
# parameters, for run.sh --kernel-arg.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"

[ $# -eq 2 ] || die "usage: $0 VARIANT OUT.json"
variant=$1 out=$2
stated_ns_per_insn=1
min_samples=100
duration=10

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# (judged as run.sh judges a run of its own: its table is not ours)
guest=$(QC_RESULTS=$scratch "$QC_ROOT/scripts/run.sh" --no-build -V "$variant" -s hammer \
	-d "$duration" --count-entries 2>"$scratch/run.log") || {
	tail -n 5 "$scratch/run.log" >&2
	die "time-scale: the measuring boot of $variant failed (its last lines above)"
}
rates=$guest/$QC_ENTRY_RATES
[ -s "$rates" ] ||
	die "time-scale: the measuring boot of $variant has no qc-entry rates (a KVM host needs no scaling: TIME_SCALE is for TCG)"
jq -n --slurpfile a "$rates" --slurpfile g "$guest/$QC_GUEST_JSON" \
	--arg variant "$variant" --argjson duration "$duration" --argjson stated "$stated_ns_per_insn" \
	--argjson min "$min_samples" --arg qemu "$(sed -n 's/^qemu_version: //p' "$guest/$QC_BOOT_PARAMS")" '
	first($a[] | select(.vcpu == -1)) as $s | $g[0].rcu as $r
	| if $s.stretches < $min then
		error("the measuring boot timed \($s.stretches) kernel stretches, fewer than \($min): no factor to scale by")
	  elif ([$r.hz, $r.jiffies_till_first_fqs, $r.jiffies_till_next_fqs, $r.jiffies_to_sched_qs] | any(. == null)) then
		error("the measuring boot did not read RCU'"'"'s parameters (guest.json rcu: \($r | tojson))")
	  else . end
	| ([($s.median / $stated) | ceil, 1] | max) as $f
	| {factor: $f, stated_ns_per_insn: $stated, guest_ns_per_insn: ($s | del(.vcpu)),
	   by_cpu: [$a[] | select(.vcpu >= 0)],
	   measured_on: {variant: $variant, scenario: "hammer", duration_s: $duration, qemu_version: $qemu},
	   base: $r,
	   scaled: {jiffies_till_first_fqs: ([$r.jiffies_till_first_fqs * $f, $r.hz] | min),
	            jiffies_till_next_fqs: ([$r.jiffies_till_next_fqs * $f, $r.hz] | min),
	            jiffies_till_sched_qs: ($r.jiffies_to_sched_qs * $f)},
	   capped: ([$r.jiffies_till_first_fqs, $r.jiffies_till_next_fqs] | any(. * $f > $r.hz))}' \
	>"$scratch/scale.json" 2>"$scratch/jq.err" ||
	die "time-scale: $(sed 's/^jq: error[^:]*: //' "$scratch/jq.err" | head -n1)"
mv "$scratch/scale.json" "$out"
jq -r '.scaled | to_entries | map("rcutree.\(.key)=\(.value)") | join(" ")' "$out"
