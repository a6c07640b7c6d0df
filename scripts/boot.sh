#!/bin/sh
# boot.sh: boot one guest in QEMU and bring its results home.
#
#   boot.sh --kernel BZIMAGE --initrd CPIO --out DIR --isolated LIST
#           [--smp N] [--mem MB] [--numa MB,MB...] [--accel tcg|kvm]
#           [--timeout S] [--append ARGS] [--plugin SO,ARGS] [--dry-run]
#
# --numa: one NUMA node per size (summing to --mem), every CPU on node 0.
# The serial console goes to DIR/console.log; "QC:" progress lines are
# shown as they arrive. The guest writes its /results as a tar stream to a
# raw virtio disk, unpacked here into DIR. Exit 0 only when the guest said
# "QC-EXIT: 0"; a failing scenario, a panic or a hang is a one-line error
# quoting the console lines that matter. --plugin loads a TCG plugin
# (QEMU's -plugin SO,ARGS); QEMU's own exit status then counts too, since
# a plugin reports its refusal through it. --dry-run prints the QEMU
# command line, one argument a line, and boots nothing.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/qemu.sh"
. "$here/../common/cpulist.sh"
. "$here/lib/cmdline.sh"

kernel= initrd= out= isolated= smp=4 mem=2048 accel=tcg timeout=300 append= plugin= numa= dry_run=
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry_run=yes; shift; continue ;;
	--kernel) kernel=$2 ;; --initrd) initrd=$2 ;; --out) out=$2 ;;
	--isolated) isolated=$2 ;; --smp) smp=$2 ;; --mem) mem=$2 ;;
	--accel) accel=$2 ;; --timeout) timeout=$2 ;; --append) append=$2 ;;
	--plugin) plugin=$2 ;;
	--numa) numa=$2 ;;
	*) die "boot.sh: unknown option '$1'" ;;
	esac
	shift 2
done
[ -f "$kernel" ] || die "no kernel image '$kernel': build the variant first (scripts/build.sh)"
[ -f "$initrd" ] || die "no initramfs '$initrd'"
[ -n "$out" ] && [ -n "$isolated" ] || die "boot.sh needs --out and --isolated"
need_cmd timeout tar
qemu_version=$(qc_check_qemu)
case $accel in tcg|kvm) ;; *) die "--accel '$accel' is not an accelerator: use tcg or kvm" ;; esac

cmdline=$(qc_kernel_cmdline "$isolated" "$smp" "$timeout" "$append")

# QEMU's gdbstub, so that a guest about to be stopped as hung can be asked
# where its vCPUs are (vcpus.sh, below); a socket path of its own, short
# enough for a unix socket wherever the results are.
gdb_sock=$(mktemp -u "${TMPDIR:-/tmp}/qc-gdb.XXXXXX")
vmlinux=${kernel%/arch/x86/boot/bzImage}/vmlinux

disk=$out/.results.img
accel_opt="tcg,thread=multi"
[ "$accel" = kvm ] && accel_opt=kvm
[ -z "$plugin" ] || [ "$accel" = tcg ] || die "a TCG plugin needs --accel tcg, not $accel"
set -- "$QC_QEMU" -nodefaults -machine pc -accel "$accel_opt" -cpu max \
	-smp "$smp" -m "$mem" -kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
	-drive "file=$disk,format=raw,if=virtio" \
	-display none -monitor none -serial "file:$out/$QC_CONSOLE" -no-reboot \
	-gdb "unix:$gdb_sock,server=on,wait=off" ${plugin:+-plugin "$plugin"}
node=0 sum=0
for mb in $(echo "$numa" | tr ',' ' '); do
	cpus=
	[ "$node" -ne 0 ] || cpus=",cpus=0-$((smp - 1))"
	set -- "$@" -object "memory-backend-ram,id=mem$node,size=${mb}M" \
		-numa "node,nodeid=$node$cpus,memdev=mem$node"
	node=$((node + 1)) sum=$((sum + mb))
done
[ -z "$numa" ] || [ "$sum" -eq "$mem" ] || die "boot.sh: NUMA node sizes $numa do not sum to --mem $mem"
if [ -n "$dry_run" ]; then
	printf '%s\n' "$@"
	exit 0
fi
# (every input checked, the command built: now the first write)
mkdir -p "$out"
rm -f "$disk"
truncate -s 1G "$disk"
{
	echo "accel: $accel"
	echo "qemu_version: $qemu_version"
	echo "smp: $smp"
	echo "mem_mb: $mem"
	echo "kernel_cmdline: $cmdline"
	echo "qemu: $*"
} > "$out/$QC_BOOT_PARAMS"

: > "$out/$QC_CONSOLE"
start=$(date +%s)
timeout -k 5 "$timeout" "$@" </dev/null 2>"$out/qemu.err" &
qpid=$!
# Show the guest's own progress lines while it runs.
tail -n +1 -s 0.5 -f --pid=$qpid "$out/$QC_CONSOLE" 2>/dev/null | while IFS= read -r line; do
	case $line in
	QC:\ booted*)
		# Kept aside: this loop is a subshell, boot-params.txt is written
		# by this script's main line only.
		echo "boot_s: $(( $(date +%s) - start ))" > "$out/.boot_s"
		info "${line#QC: } (+$(( $(date +%s) - start )) s)" ;;
	QC:*) info "${line#QC: }" ;;
	esac
done &
tpid=$!
# Shortly before the limit (15 s, or a third of a short one), where each
# vCPU is: a guest looping with interrupts off prints nothing of its own.
margin=15
[ "$timeout" -gt 45 ] || margin=$((timeout / 3))
(
	trap 'kill $sleeper 2>/dev/null; exit 0' TERM
	sleep $((timeout - margin)) & sleeper=$!
	wait $sleeper
	! kill -0 $qpid 2>/dev/null || "$QC_ROOT/scripts/vcpus.sh" "$gdb_sock" "$vmlinux" > "$out/$QC_VCPUS" 2>/dev/null
) &
spid=$!
rc=0
wait $qpid || rc=$?
wait $tpid 2>/dev/null || true
kill $spid 2>/dev/null || true
wait $spid 2>/dev/null || true
rm -f "$gdb_sock"
{
	cat "$out/.boot_s" 2>/dev/null
	echo "wall_s: $(( $(date +%s) - start ))"
} >> "$out/$QC_BOOT_PARAMS"
rm -f "$out/.boot_s"

# Lines worth quoting when a guest dies: its first splats (splats.sh).
splat() { "$QC_ROOT/scripts/splats.sh" --brief "$out/$QC_CONSOLE" || true; }

# A plugin that refuses (at load or at exit) says why on QEMU's stderr.
plugin_refused() {
	[ -n "$plugin" ] && [ "$rc" -ne 0 ] || return 0
	e=$(sed -n 's/^quietcore: error: //p' "$out/$QC_QEMU_ERR" | head -n1 | cut -c1-300)
	die "${e:-QEMU exited $rc with the plugin loaded: see $out/$QC_QEMU_ERR}"
}

guest_rc=$(sed -n 's/^QC-EXIT: \([0-9]*\).*/\1/p' "$out/$QC_CONSOLE" | tail -n1 | tr -d '\r')
if [ -z "$guest_rc" ]; then
	rm -f "$disk"
	# The guest's own death first: a plugin then refuses only as a consequence.
	s=$(splat)
	[ -n "$s" ] || [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || plugin_refused
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		# Where it was (its last progress line, its vCPUs), what the kernel
		# said (the first splat), what a plugin said, the console's last word.
		p=$(grep '^QC: ' "$out/$QC_CONSOLE" | tail -n1 | tr -d '\r' | cut -c5-124)
		e=$(sed -n 's/^quietcore: error: //p' "$out/$QC_QEMU_ERR" 2>/dev/null | head -n1 | cut -c1-200)
		v=$(awk '$1 == 1 { printf "%s%s %s", sep, $2, $4; sep = ", " }' "$out/$QC_VCPUS" 2>/dev/null | cut -c1-200)
		die "guest hung: no exit within $timeout s (last progress: ${p:-none}${v:+; vCPUs at: $v (all in $QC_VCPUS)}${s:+; first splat: $s}${e:+; QEMU: $e}; last console line: $(tail -n1 "$out/$QC_CONSOLE" | tr -d '\r' | cut -c1-160)); see $out/$QC_CONSOLE"
	fi
	die "guest died before finishing${s:+: $s}; see $out/$QC_CONSOLE"
fi
tar --no-overwrite-dir -xf "$disk" -C "$out" 2>/dev/null || { rm -f "$disk"; die "could not read the guest's results disk; see $out/$QC_CONSOLE"; }
rm -f "$disk"
plugin_refused
[ "$guest_rc" -eq 0 ] ||
	die "guest scenario failed with exit $guest_rc: see $out/$QC_SCENARIO_LOG ($(tail -n1 "$out/$QC_SCENARIO_LOG" 2>/dev/null | cut -c1-160))"
