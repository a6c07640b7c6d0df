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
  "mem_total_kb": $(awk '/^MemTotal/ { print $2 }' /proc/meminfo),
  "rcu": $(qc_rcu_thresholds)
}
JSON
}

# qc_rcu_thresholds: RCU's forcing thresholds in this boot, as JSON (null
# for one not read): the kernel's tick rate (hz, measured: jiffies against
# uptime over a second), the forcing scans' intervals (rcutree's
# jiffies_till_first_fqs and jiffies_till_next_fqs), and the delay after
# which a nohz_full CPU in the kernel is forced (rcutree's display-only
# jiffies_to_sched_qs, else the kernel's last "scheduler-enlistment delay"
# line: jiffies_till_sched_qs reads ULONG_MAX unless given at boot, and
# the line is not printed when it was, as TIME_SCALE gives it).
qc_rcu_thresholds() {
	_p=/sys/module/rcutree/parameters
	# (jiffies start 5 minutes below 2^64: their last 9 digits, mod 1e9)
	_jiffies() { awk '/^jiffies:/ { print substr($2, length($2) - 8) + 0; exit }' /proc/timer_list 2>/dev/null; }
	_j0=$(_jiffies)
	_u0=$(cut -d' ' -f1 /proc/uptime)
	sleep 1
	_j1=$(_jiffies)
	_u1=$(cut -d' ' -f1 /proc/uptime)
	_hz=null
	[ -z "$_j0" ] || [ -z "$_j1" ] || _hz=$(awk -v j0="$_j0" -v j1="$_j1" -v u0="$_u0" -v u1="$_u1" 'BEGIN {
		dj = j1 - j0; if (dj < 0) dj += 1000000000
		if (u1 <= u0) { print "null"; exit }
		r = dj / (u1 - u0); best = 0
		n = split("100 250 300 1000", hz, " ")
		for (i = 1; i <= n; i++) {
			d = (r - hz[i]) * (r - hz[i])
			if (!best || d < bd) { best = hz[i]; bd = d }
		}
		print best }')
	_tsq=$(cat $_p/jiffies_to_sched_qs 2>/dev/null) ||
	_tsq=$(dmesg | sed -n -e 's/.*scheduler-enlistment delay is \([0-9]*\) jiffies.*/\1/p' \
		-e 's/.*scheduler-enlistment delay to \([0-9]*\) jiffies.*/\1/p' | tail -n1)
	printf '{"hz": %s, "jiffies_till_first_fqs": %s, "jiffies_till_next_fqs": %s, "jiffies_to_sched_qs": %s}' \
		"$_hz" "$(cat $_p/jiffies_till_first_fqs 2>/dev/null || echo null)" \
		"$(cat $_p/jiffies_till_next_fqs 2>/dev/null || echo null)" "${_tsq:-null}"
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
