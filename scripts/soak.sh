#!/bin/sh
# soak.sh -n BOOTS [run.sh options...]: boot the same guest BOOTS times
# (scripts/run.sh, each boot results/<run-id>/<variant>-soakN) and count
# how each ended: whether the emulator leaves the kernel's text as the
# kernel wrote it is a rate, so one boot proves nothing (docs/findings.md,
# "Under TCG"). One line per boot, then the tally:
#   soak: N boots of VARIANT/SCENARIO on QEMU V: ok N, int3 N, hung N, splat N, killed N, failed N
# int3: the guest died or hung on a stale int3 (an "Oops: int3", or a vCPU
# found in asm_exc_int3); hung: any other hang; splat: any other kernel
# splat; killed: QEMU ended early by a signal from outside the rig (its
# qemu.err says "terminating on signal", with no splat in the console:
# another user's process, not the guest); failed: anything else run.sh
# refused. Exit 0 only when every boot was ok. run.sh's own options pass
# through (-V, -s, -d, --guest-script, --count-cost, ...); --no-build is
# added: build the variant first.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/qemu.sh"
. "$here/lib/runs.sh"

[ "${1:-}" = -n ] && [ $# -ge 2 ] || die "usage: soak.sh -n BOOTS [run.sh options...] (e.g. -n 20 -V spinlock-6.12 -s hammer -d 10)"
boots=$2
shift 2
case $boots in ''|*[!0-9]*|0) die "soak.sh -n '$boots': the number of boots is a whole number from 1" ;; esac
variant=spinlock scenario=oslat
a=
for o in "$@"; do
	case $a in -V|--variant) variant=$o ;; -s|--scenario) scenario=$o ;; --guest-script) scenario=custom ;; esac
	a=$o
done
qemu=$(qc_check_qemu)
run_id=$(qc_new_run)
run=$QC_RESULTS/$run_id
qc_run_txt "$run" "$variant" "$scenario" - - -
i=0
while [ $i -lt "$boots" ]; do
	i=$((i + 1))
	info "boot $i/$boots ($((boots - i)) after it)"
	start=$(date +%s)
	err=
	if "$here/run.sh" --run-id "$run_id" --tag "soak$i" --no-build "$@" > "$run/soak$i.log" 2>&1; then
		outcome=ok
	else
		d=$(ls -d "$run"/*-soak$i 2>/dev/null | head -n1)
		err=$(sed -n 's/^quietcore: error: //p' "$run/soak$i.log" | tail -n1)
		if grep -q 'Oops: int3' "$d/$QC_CONSOLE" 2>/dev/null || grep -q 'asm_exc_int3' "$d/$QC_VCPUS" 2>/dev/null; then
			outcome=int3
		else case $err in
			"guest hung"*) outcome=hung ;;
			"guest died before finishing; see "*)
				if grep -q 'terminating on signal' "$d/$QC_QEMU_ERR" 2>/dev/null; then
					outcome=killed err="$(grep -m1 'terminating on signal' "$d/$QC_QEMU_ERR"); $err"
				else outcome=splat; fi ;;
			"kernel splat"*|"guest died"*) outcome=splat ;;
			*) outcome=failed ;;
		esac; fi
	fi
	echo "boot $i: $outcome, $(( $(date +%s) - start )) s${err:+: $(echo "$err" | cut -c1-160)}"
done | tee "$run/soak.txt"
tally() { grep -c "^boot [0-9]*: $1" "$run/soak.txt" || true; }
line="soak: $boots boots of $variant/$scenario on QEMU $qemu: ok $(tally ok), int3 $(tally int3), hung $(tally hung), splat $(tally splat), killed $(tally killed), failed $(tally failed)"
echo "$line" | tee -a "$run/soak.txt"
info "results in $run"
[ "$(tally ok)" -eq "$boots" ]
