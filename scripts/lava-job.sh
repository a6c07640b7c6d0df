#!/bin/sh
# lava-job.sh: write a LAVA v2 job that runs one variant's scenario on a
# lab's device, the kernel command line built by the code boot.sh uses
# (lib/cmdline.sh, lib/inputs.sh), the results brought home on the console
# (qc.results=console, for scripts/lava-fetch.sh) and each isolated CPU's
# figures as LAVA test cases (a monitor on the guest's QC-CASE lines).
#
#   lava-job.sh [--variant V] [--scenario S] [--device qemu|x86-board]
#               [--duration S] [--isolated LIST] [--smp N] [--rate N]
#               [--kernel-arg ARG]... [--urls "KERNEL_URL INITRAMFS_URL"] [--out FILE]
#
# Without --urls the variant's build is used: its bzImage and a fresh
# initramfs are written beside FILE (FILE with .bzImage, .initramfs.cpio
# for .yaml) and named by file:// (a job for lava-run on this machine). --device qemu also writes the
# rendered device lava-run needs, FILE with .device.yaml for .yaml
# (lava/qemu-device.yaml with the job's memory and extra options).
# Prints FILE (default $QC_CACHE/lava/<variant>-<scenario>-<device>.yaml).
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/../common/cpulist.sh"
. "$here/lib/cmdline.sh"
. "$here/lib/inputs.sh"
. "$here/lib/plugin.sh"
. "$here/lib/variants.sh"

variant=spinlock scenario=hammer device=qemu duration=20 isolated=1-3 smp= rate= urls= out= kernel_args=
while [ $# -gt 0 ]; do
	case $1 in -h|--help) sed -n '2,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
	[ $# -ge 2 ] || die "lava-job.sh: option '$1' needs a value"
	case $1 in
	--variant) variant=$2 ;; --scenario) scenario=$2 ;; --device) device=$2 ;;
	--duration) duration=$2 ;; --isolated) isolated=$2 ;; --smp) smp=$2 ;;
	--rate) rate=$2 ;; --urls) urls=$2 ;; --out) out=$2 ;;
	--kernel-arg) qc_check_kernel_arg "$2"; kernel_args="$kernel_args${kernel_args:+ }$2" ;;
	*) die "lava-job.sh: unknown option '$1'" ;;
	esac
	shift 2
done
case $device in qemu|x86-board) ;; *) die "--device '$device': one of qemu, x86-board" ;; esac
[ -n "$urls" ] || [ "$device" = qemu ] ||
	die "--device $device needs --urls (URLS=...): a lab's dispatcher cannot read this machine's files"
qc_guest_of "$scenario"
[ -z "$QC_GUEST_NUMA" ] || die "scenario $scenario needs a guest with two NUMA nodes: no LAVA job for it (run it with make run)"
[ "$scenario" != custom ] || die "scenario custom runs a script of yours: no LAVA job for it"
: "${smp:=$QC_GUEST_SMP}"
qc_is_count "$smp" || die "--smp '$smp' is not a CPU count"
qc_check_inputs "$variant" "$scenario" "$duration" "$isolated" "$smp" "$rate" auto
timeout=${QC_GUEST_TIMEOUT:-$((300 + 3 * duration))}
[ -n "$out" ] || out=$QC_CACHE/lava/$variant-$scenario-$device.yaml
case $out in *.yaml) ;; *) die "--out '$out': a job file's name ends in .yaml" ;; esac

# The kernel and initramfs, by URL.
if [ -n "$urls" ]; then
	# shellcheck disable=SC2086 # two URLs, one a word
	set -- $urls
	[ $# -eq 2 ] || die "--urls '$urls': give two URLs, the kernel's and the initramfs's"
	kernel_url=$1 initrd_url=$2
	for u in "$@"; do
		case $u in *://*) ;; *) die "--urls: '$u' is not a URL (file://, http://, https://)" ;; esac
	done
else
	bdir=$(qc_build_dir "$variant" "")
	[ -f "$bdir/arch/x86/boot/bzImage" ] || die "variant $variant is not built: run scripts/build.sh $variant, or give --urls"
	# Copies beside the job: a later build or checkout changes no job's files.
	mkdir -p "$(dirname "$out")"
	cp "$bdir/arch/x86/boot/bzImage" "${out%.yaml}.bzImage.tmp"
	mv "${out%.yaml}.bzImage.tmp" "${out%.yaml}.bzImage"
	"$QC_ROOT/scripts/initramfs.sh" --build "$bdir" "${out%.yaml}.initramfs.cpio.tmp"
	mv "${out%.yaml}.initramfs.cpio.tmp" "${out%.yaml}.initramfs.cpio"
	case $out in /*) abs=$out ;; *) abs=$PWD/$out ;; esac
	kernel_url=file://${abs%.yaml}.bzImage initrd_url=file://${abs%.yaml}.initramfs.cpio
fi

# The command line: boot.sh's, and the console as the way home.
kargs=$(qc_scenario_kargs "$scenario")
kargs="$kargs${kargs:+${kernel_args:+ }}$kernel_args"
cmdline=$(qc_kernel_cmdline "$isolated" "$smp" "$timeout" \
	"$(qc_guest_append "$kargs" "$variant" "$scenario" "$duration" "$QC_REFILL_CPUS")${rate:+ qc.rate=$rate} qc.results=console qc.lab=lava-$device")
case $cmdline in *[\'\"]*) die "the kernel command line holds a quote, which the job cannot carry: $cmdline" ;; esac

# Timeouts: the guest's own limit, then the results block at 115200 baud
# (11.5 KB/s; base64 is 4/3 of the block). Measured on spinlock hammer:
# 2.1-2.3 MB for 5 and 10 s windows, most of it the three trace.dat files'
# own ~0.7 MB each (kallsyms, event formats) whatever the window's length;
# bounded here by 2.4 MB + 20 KB a window-second (docs/lava.md).
block_kb=$((2400 + 20 * (2 * duration + 2)))
console_s=$((block_kb * 1024 * 4 / 3 / 11520))
test_min=$(((timeout + 2 * console_s) / 60 + 1))
job_min=$((test_min + 15))

mkdir -p "$(dirname "$out")"
{
	cat <<YAML
# quietcore: $variant, scenario $scenario, ${duration} s windows, CPUs $isolated
# isolated of $smp. Written by scripts/lava-job.sh; docs/lava.md. The
# verdict is not LAVA's: scripts/lava-fetch.sh LOG decodes the results
# block this job's log holds and judges it on the host.
job_name: quietcore $variant $scenario $device
priority: medium
visibility: public
timeouts:
  job: {minutes: $job_min}
  action: {minutes: 10}
  connection: {minutes: 2}
YAML
	if [ "$device" = qemu ]; then
		cat <<YAML
device_type: qemu
context:
  arch: amd64
  cpu: max
  machine: pc
  memory: $QC_GUEST_MEM
  # TCG, as the rig's own guests here: no -enable-kvm
  no_kvm: True
  extra_options: ['-smp $smp', '-accel tcg,thread=multi', '-no-reboot']
actions:
- deploy:
    to: tmpfs
    timeout: {minutes: 5}
    images:
      kernel:
        # a tmpfs deploy has no "append": the command line rides here
        image_arg: '-kernel {kernel} -append "$cmdline"'
        url: $kernel_url
      ramdisk:
        image_arg: '-initrd {ramdisk}'
        url: $initrd_url
- boot:
    method: qemu
    media: tmpfs
    timeout: {minutes: 5}
YAML
	else
		cat <<YAML
device_type: x86
context:
  # the isolation parameters and the guest's qc.* ones (docs/lava.md)
  extra_kernel_args: '$cmdline'
actions:
- deploy:
    to: tftp
    timeout: {minutes: 10}
    kernel:
      url: $kernel_url
    ramdisk:
      url: $initrd_url
- boot:
    method: ipxe
    commands: ramdisk
    timeout: {minutes: 10}
YAML
	fi
	cat <<YAML
- test:
    timeout: {minutes: $test_min}
    monitors:
    - name: quietcore-$variant-$scenario
      start: 'QC: booted'
      # the guest's last line, after the results block
      end: 'QC-EXIT: '
      pattern: '$QC_CASE_SAYS (?P<test_case_id>cpu[0-9]+_[a-z_]+) (?P<result>pass|fail) (?P<measurement>[0-9.]+) (?P<units>[a-z]+)'
YAML
} > "$out.tmp"
mv "$out.tmp" "$out"
if [ "$device" = qemu ]; then
	# (the options a server renders from the job's context, as the job's)
	opts=$(sed -n "s/^  extra_options: \[\(.*\)\]$/\1/p" "$out" | sed "s/', '/\n/g; s/'//g")
	awk -v mem="$QC_GUEST_MEM" -v opts="$opts" '
		/@MEM@/ { sub(/@MEM@/, mem) }
		/@EXTRA_OPTIONS@/ { n = split(opts, o, "\n"); for (i = 1; i <= n; i++) print "          - " o[i]; next }
		{ print }' "$QC_ROOT/lava/qemu-device.yaml" > "${out%.yaml}.device.yaml.tmp"
	mv "${out%.yaml}.device.yaml.tmp" "${out%.yaml}.device.yaml"
fi
echo "$out"
