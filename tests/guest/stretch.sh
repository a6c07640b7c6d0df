# stretch.sh: the guest side of tests/test-hwtime.sh, run by scripts/run.sh
# --guest-script --count-entries (working directory /results). CPU 0 keeps
# RCU grace periods going (qc_stretch "gp"); a task on isolated CPU 2
# holds its CPU in one kernel stretch of a known length (qc_stretch
# "loop"), again and again, in two traced windows: long stretches, which
# hardware too would still be in when RCU forces it, and short ones, which
# it would have left. The qc-entry plugin counts each stretch a forcing
# hit; the host times each forcing by it (tracing/README.md, "Hardware
# time"). The traces are not named trace.dat: that name is a measurement
# window's (common/contract.sh).
# qc-custom: one-cpu
. /qc/guest-init/guest-lib.sh
. /qc/guest-init/measure.sh
QC_STRETCH_CPU=2
# loop rounds of 11-12 instructions: 2.2e7 or more (22 ms at 1 ns an
# instruction, over the 2 ms a force needs at HZ 1000) and 1.65e6 to 1.8e6
# (under it, yet several ms of guest time under TCG: long enough to be
# forced)
QC_STRETCH_LONG=${QC_STRETCH_LONG:-2000000}
QC_STRETCH_SHORT=${QC_STRETCH_SHORT:-150000}

qc_arm_extra() { insmod /qc/modules/qc_stretch.ko; }
qc_prepare || exit 1
echo "gp 1000000" > /proc/qc_stretch &
gp_pid=$!

# stretch_window NAME ROUNDS SECONDS: a traced window of SECONDS in which
# the task on QC_STRETCH_CPU writes "loop ROUNDS" over and over; it starts
# a second before the window and ends a second after it, so that the
# analyzer sees the CPU traced throughout. stretch-NAME.txt: the loops'
# guest times (qc_stretch), whether RCU had time to force them.
stretch_window() {
	echo "reset 0" > /proc/qc_stretch
	sh /qc/tracing/guest/trace-start.sh || return 1
	# (builtins only in the loop: a forked command would bring the tick
	# back, two tasks on the CPU, and RCU would need no forcing)
	sh /qc/cpusets/enter-isolated.sh -- sh -c "
		taskset -p -c $QC_STRETCH_CPU \$\$ > /dev/null || exit 1
		read up _ < /proc/uptime
		end=\$((\${up%%.*} + $3 + 2))
		while [ \${up%%.*} -lt \$end ]; do
			echo 'loop $2' > /proc/qc_stretch
			read up _ < /proc/uptime
		done" &
	loop_pid=$!
	sleep 1
	sh /qc/tracing/guest/trace-mark.sh "qc: window start"
	sleep "$3"
	sh /qc/tracing/guest/trace-mark.sh "qc: window end"
	wait "$loop_pid" || qc_say "stretch: the $1 loop on CPU $QC_STRETCH_CPU failed"
	sh /qc/tracing/guest/trace-stop.sh "stretch-$1.dat"
	cat /proc/qc_stretch > "stretch-$1.txt"
	qc_say "stretch: $1: $(cat "stretch-$1.txt")"
}
# spin CPU...: a user-mode loop on each CPU (builtins only: no kernel
# entry, nothing for RCU to wait on), so that its vCPU competes with
# QC_STRETCH_CPU's for the host's cores and TCG runs the stretch slower:
# a short stretch then lasts several ms of guest time even on a fast host
spin() {
	for c in "$@"; do
		sh /qc/cpusets/enter-isolated.sh -- sh -c "taskset -p -c $c \$\$ > /dev/null && while :; do :; done" &
		spinners="$spinners $!"
	done
}
qc_say "stretch: long stretches ($QC_STRETCH_LONG rounds) on CPU $QC_STRETCH_CPU"
stretch_window long "$QC_STRETCH_LONG" 3 || exit 1
qc_say "stretch: short stretches ($QC_STRETCH_SHORT rounds) on CPU $QC_STRETCH_CPU"
spinners=
spin 1 3
stretch_window short "$QC_STRETCH_SHORT" 12 || exit 1
kill $spinners "$gp_pid" 2>/dev/null
echo "$QC_STRETCH_CPU $QC_STRETCH_LONG $QC_STRETCH_SHORT" > stretch.txt
qc_say "stretch: done"
