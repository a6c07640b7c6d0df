#!/bin/sh
# run.sh: build (if needed) and boot one variant, run one scenario in it, and
# keep everything under results/<run-id>/<variant>/.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/../common/cpulist.sh"
. "$here/lib/inputs.sh"
. "$here/lib/qemu.sh"
. "$here/lib/plugin.sh"
. "$here/lib/probes.sh"
. "$here/lib/runs.sh"
. "$here/lib/console.sh"
. "$here/lib/variants.sh"

usage() {
	cat <<USAGE
usage: $0 [options]
  -V, --variant NAME      kernel variant: $(qc_variant_words)(default spinlock)
  -s, --scenario NAME     guest scenario: $(qc_scenarios | tr '\n' ' ')(default oslat)
  -d, --duration SECONDS  measurement window (default 20)
  -c, --isolated LIST     isolated CPUs, e.g. 1-3; CPU 0 is housekeeping (default 1-3)
      --refill LIST       isolated CPUs that run the refill workload instead of
                          oslat: a list, "none", or "auto" (default: all isolated
                          CPUs but the first in hammer, quiet and audit, none
                          elsewhere)
      --rate N            drain_all_pages() calls/s of the hammer (default 100)
      --smp N             vCPUs (default 4; audit 5)
      --mem MB            guest memory (default 2048; audit 3328 in two NUMA
                          nodes, the second of 1280)
      --debug             boot the debug build (configs/debug.config)
      --run-id ID         add to an existing results/ID instead of a new run
      --tag NAME          name the result directory <variant>-NAME
      --param KEY=VALUE   pass qc.KEY=VALUE to the guest (QC_KEY in scenarios),
                          KEY one of: $QC_PARAMS_SETTABLE
                          (common/contract.sh), e.g. --param bench_runs=5
      --kernel-arg ARG    one more kernel parameter for the guest, e.g.
                          rcutree.kthread_prio=20 (repeatable; scenario rthog:
                          RCU boosting above the hog's priority)
      --guest-script FILE run FILE in the guest (scenario "custom"); what it
                          writes in its working directory comes home
      --timeout SECONDS   hard limit for the guest (default 300 + 3 x duration;
                          audit 900)
      --no-build          use the existing build; fail if there is none
      --count-cost        load the qc-cost TCG plugin (bench/plugin/): count
                          the guest's instructions and memory accesses between
                          its markers into alloc-cost.jsonl (TCG only)
      --count-entries     load the qc-entry TCG plugin (bench/plugin/): each
                          isolated CPU's kernel stretch, in instructions, at
                          every reschedule IPI, into entry-counts.jsonl: what
                          hardware would time (TCG, QEMU 9 or later; KVM:
                          nothing to time, no plugin)
Environment: QC_CACHE (default ~/.cache/quietcore), QC_RESULTS (default
results/), QC_ACCEL=tcg|kvm to skip the KVM probe.
USAGE
}

variant=spinlock scenario=oslat duration=20 isolated=1-3 smp= mem=
flavour= run_id= guest_script= timeout= build=yes tag= params= refill=auto rate= count_cost=no count_entries=no kernel_args=
while [ $# -gt 0 ]; do
	case $1 in
	-V|--variant) variant=$2; shift ;;
	-s|--scenario) scenario=$2; shift ;;
	-d|--duration) duration=$2; shift ;;
	-c|--isolated) isolated=$2; shift ;;
	--refill) refill=$2; shift ;;
	--rate) rate=$2; shift ;;
	--smp) smp=$2; shift ;;
	--mem) mem=$2; shift ;;
	--debug) flavour=debug ;;
	--run-id) run_id=$2; shift ;;
	--tag) tag=$2; shift ;;
	--param)
		case $2 in
		[a-z]*=*) case ${2%%=*}${2#*=} in *[!a-z0-9_.,-]*) die "--param '$2' must be KEY=VALUE of letters, digits and _.,-" ;; esac ;;
		*) die "--param '$2' is not KEY=VALUE" ;;
		esac
		case " $QC_PARAMS_SETTABLE " in *" ${2%%=*} "*) ;; *)
			die "--param '$2': the guest reads no parameter '${2%%=*}' (one of: $QC_PARAMS_SETTABLE; see common/contract.sh)" ;;
		esac
		# The rate is checked with the other inputs.
		if [ "${2%%=*}" = rate ]; then rate=${2#*=}; else params="$params qc.$2"; fi
		shift ;;
	--kernel-arg) qc_check_kernel_arg "$2"; kernel_args="$kernel_args${kernel_args:+ }$2"; shift ;;
	--guest-script) guest_script=$2; scenario=custom; shift ;;
	--timeout) timeout=$2; shift ;;
	--no-build) build=no ;;
	--count-cost) count_cost=yes ;;
	--count-entries) count_entries=yes ;;
	-h|--help) usage; exit 0 ;;
	*) die "unknown option '$1' (see $0 --help)" ;;
	esac
	shift
done

# Check every input before anything is built or written.
qc_guest_of "$scenario"
: "${smp:=$QC_GUEST_SMP}" "${mem:=$QC_GUEST_MEM}"
qc_is_count "$smp" || die "--smp '$smp' is not a CPU count"
qc_is_count "$mem" || die "--mem '$mem' is not a size in MB"
# The second NUMA node keeps its size; node 0 gets the rest.
numa=
if [ -n "$QC_GUEST_NUMA" ]; then
	node1=${QC_GUEST_NUMA#*,}
	[ "$mem" -ge $((node1 + 1024)) ] || die "--mem $mem is too small for the $scenario guest: it needs $((node1 + 1024)) MB or more (NUMA node 1 alone is $node1 MB)"
	numa=$((mem - node1)),$node1
fi
qc_check_inputs "$variant" "$scenario" "$duration" "$isolated" "$smp" "$rate" "$refill"
refill=$QC_REFILL_CPUS
[ "$scenario" != rthog ] || qc_check_rthog "$refill" "$params"
[ -z "$rate" ] || params=" qc.rate=$rate$params"
[ -z "$guest_script" ] || [ -f "$guest_script" ] || die "guest script '$guest_script' does not exist"
: "${timeout:=$QC_GUEST_TIMEOUT}"
[ -n "$timeout" ] || timeout=$((300 + 3 * duration))
qc_is_count "$timeout" || die "--timeout '$timeout' is not a whole number of seconds"

label=$(qc_label "$variant" "$flavour" "$tag")
# Kernel parameters a scenario needs (stress: page_owner=on)
# are named in the scenario itself, on a "# qc-kernel-args:" line.
kargs=$(qc_scenario_kargs "$scenario")
kargs="$kargs${kargs:+${kernel_args:+ }}$kernel_args"
bdir=$(qc_build_dir "$variant" "$flavour")
if [ "$build" = yes ]; then
	"$QC_ROOT/scripts/build.sh" ${flavour:+--$flavour} "$variant" >/dev/null
else
	[ -f "$bdir/arch/x86/boot/bzImage" ] ||
		die "variant $label is not built: run scripts/build.sh ${flavour:+--$flavour }$variant"
fi
qc_check_probes "$variant" "$flavour" "$scenario"

if [ -n "$run_id" ]; then
	[ -d "$QC_RESULTS/$run_id" ] || die "no run '$run_id' in $QC_RESULTS"
	own_run=no
else
	# A run of its own, as compare makes one: its facts for summarize.sh
	# and report.sh, and its status, the guest's when it ends.
	run_id=$(qc_new_run)
	own_run=yes
	qc_run_txt "$QC_RESULTS/$run_id" "$variant" "$scenario" "$duration" "$isolated" "$refill"
fi
out=$QC_RESULTS/$run_id/$label
[ ! -e "$out" ] || die "$out already exists: results are never overwritten, start a new run"
mkdir -p "$out"
qc_status_begin "$out/$QC_STATUS"
# This run's own initramfs, beside the build: two runs on one build (two
# checkouts sharing a cache, a helper's worktree) must not boot each
# other's guest-init, nor one half-written. Gone when the run ends.
initrd=$bdir/qc-initramfs.$$.cpio
on_exit() {
	rm -f "$initrd"
	# A run of its own gets its guest's status, unless its judging, at
	# the end, has settled it already.
	[ "$own_run" = no ] || [ -e "$QC_RESULTS/$run_id/$QC_STATUS" ] ||
		cp "$out/$QC_STATUS" "$QC_RESULTS/$run_id/$QC_STATUS"
}
trap on_exit EXIT
"$QC_ROOT/scripts/initramfs.sh" --build "$bdir" ${guest_script:+--extra "$guest_script"} "$initrd"
accel=$("$QC_ROOT/scripts/accel.sh" "$bdir/arch/x86/boot/bzImage" "$initrd")
plugin=
if [ "$count_cost" = yes ]; then
	[ "$accel" = tcg ] || die "--count-cost needs TCG (the plugin counts what TCG executes): set QC_ACCEL=tcg"
	so=$(qc_cost_plugin "$(qc_qemu_version)")
	map=$(qc_system_map "$variant" "$flavour")
	reach=$(qc_drain_reach "$variant")
	plugin="$so,map=$map,out=$out/$QC_COST_FILE,entry=${reach%% *}"
fi
if [ "$count_entries" = yes ]; then
	[ "$count_cost" = no ] || die "--count-entries and --count-cost each load a plugin: boot one guest for each"
	if [ "$accel" = tcg ]; then
		so=$(qc_entry_plugin "$(qc_qemu_version)")
		plugin="$so,map=$(qc_system_map "$variant" "$flavour"),out=$out/$QC_ENTRY_COUNTS,cpus=$isolated,spin=$QC_SPIN_WAIT_LIST,rates=$out/$QC_ENTRY_RATES"
	else
		# (on KVM the guest's kernel entries run at hardware speed: nothing to time)
		info "--count-entries: $accel runs the guest on the host's CPU, whose clock is hardware's: no plugin"
	fi
fi
info "booting $label ($accel, $smp vCPUs, isolated $isolated${refill:+, refill on $refill}, scenario $scenario, ${duration} s)"
"$QC_ROOT/scripts/boot.sh" --kernel "$bdir/arch/x86/boot/bzImage" --initrd "$initrd" \
	--out "$out" --isolated "$isolated" --smp "$smp" --mem "$mem" --accel "$accel" \
	${numa:+--numa "$numa"} --timeout "$timeout" ${plugin:+--plugin "$plugin"} \
	--append "$(qc_guest_append "$kargs" "$variant" "$scenario" "$duration" "$refill")$params"
qc_check_console "$out" "$label" "$timeout"
# So does kernel text patched while another CPU could run it (console.sh);
# a guest script's patching is its own business: named, not refused.
pokes=$(qc_check_text_patches "$out" ${guest_script:+warn})
"$QC_ROOT/scripts/analyze.sh" "$out" "$isolated"
{
	echo "text_patches: ${pokes:-unknown}"
	echo "variant: $label"
	echo "scenario: $scenario"
	echo "duration_s: $duration"
	echo "kernel_tree: $(qc_variant_tree "$variant") $(qc_tree_version "$(qc_variant_tree "$variant")") + patches/$variant"
} >> "$out/$QC_BOOT_PARAMS"
echo "ok" > "$QC_STATUS_FILE"
# A run of its own is judged as compare judges its runs (make report
# renders that summary; it judges nothing itself); the verdict table goes
# to stderr, stdout is the guest's directory. A guest script's results
# are its own, not a scenario's: nothing to judge.
if [ "$own_run" = yes ] && [ -z "$guest_script" ]; then
	cp "$out/$QC_STATUS" "$QC_RESULTS/$run_id/$QC_STATUS"
	"$QC_ROOT/scripts/summarize.sh" "$QC_RESULTS/$run_id" >&2
fi
info "results in $out"
echo "$out"
