# Helpers shared by the guest's /init and scenarios (busybox ash): the
# console progress line, a window's countdown, the kernel's own facts.
# Sourcing it brings the guest's CPU-list helper (cpulist.sh) too.
. /qc/common/cpulist.sh
# Every result file's name and every qc.* parameter (the results contract).
. /qc/common/contract.sh

# qc_say MSG: a progress line on the console, which the host shows.
qc_say() { echo "QC: $*" > /dev/console; }

# qc_wait_progress SECONDS WHAT: sleep through a window, saying how much of
# it is left every 5 s (the console write happens on the housekeeping CPU).
qc_wait_progress() {
	left=$1
	while [ "$left" -gt 0 ]; do
		step=5
		[ "$left" -lt "$step" ] && step=$left
		sleep "$step"
		left=$((left - step))
		qc_say "$2: ${left} s left"
	done
}

# A JSON file of what the kernel really did with the command line.
qc_record_facts() {
	cat > "$1" <<JSON
{
  "kernel": "$(uname -r)",
  "version": "$(cat /proc/version | sed 's/"/\\"/g')",
  "cmdline": "$(cat /proc/cmdline)",
  "cpus_online": "$(cat /sys/devices/system/cpu/online)",
  "isolated": "$(cat /sys/devices/system/cpu/isolated)",
  "nohz_full": "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)",
  "mem_total_kb": $(awk '/^MemTotal/ { print $2 }' /proc/meminfo)
}
JSON
}

# qc_online_cpus: bring up the CPUs the kernel left offline (boot.sh boots
# with maxcpus=1 noreplace-smp), once this boot's kernel text patching is
# done: tracing armed, modules loaded, cgroups made (measure.sh
# qc_prepare). Under TCG a vCPU may run a stale translation of text that
# another vCPU patched (docs/findings.md, "Under TCG"); with one CPU
# online, nothing else runs the text being patched. Idempotent.
qc_online_cpus() {
	sh /qc/tracing/guest/poke-watch.sh mark "qc: onlining CPUs"
	for _o in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ "$(cat "$_o")" = 1 ] || echo 1 > "$_o" ||
			{ qc_say "cannot bring ${_o%/online} online"; return 1; }
	done
	sh /qc/tracing/guest/poke-watch.sh mark "qc: CPUs online"
	qc_say "CPUs online: $(cat /sys/devices/system/cpu/online)"
}
