# The sysctls isolate.sh sets (busybox ash; sourced by it, never run):
# vm.stat_interval, the watchdog's cpumask and, only when asked, RT
# throttling; the MCE poll interval is recorded, not changed.

# set_sysctls STAT_INTERVAL RT: RT is off, on or keep. Uses isolate.sh's
# hk_list, set_file and rec.
set_sysctls() {
	# vmstat_update would otherwise run every second on a CPU whose counters
	# changed; with nohz_full it is deferred, a long interval keeps it so.
	set_file vm.stat_interval /proc/sys/vm/stat_interval "$1"
	# The soft-lockup watchdog kthreads (if built) stay on housekeeping.
	[ ! -f /proc/sys/kernel/watchdog_cpumask ] ||
		set_file kernel.watchdog_cpumask /proc/sys/kernel/watchdog_cpumask "$hk_list"
	# Recorded, not changed: the MCE poll timer (check_interval, 300 s by
	# default) fires on every CPU, isolated ones too, in runs that long.
	read_first /sys/devices/system/machinecheck/machinecheck0/check_interval
	[ -z "$LINE" ] || rec mce.check_interval "$LINE (kept)"
	case $2 in
	off) set_file kernel.sched_rt_runtime_us /proc/sys/kernel/sched_rt_runtime_us -1 ;;
	on) set_file kernel.sched_rt_runtime_us /proc/sys/kernel/sched_rt_runtime_us 950000 ;;
	keep) read_first /proc/sys/kernel/sched_rt_runtime_us; rec kernel.sched_rt_runtime_us "$LINE (kept)" ;;
	esac
}
