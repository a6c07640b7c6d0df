# The guest's one helper for the guest kernel module, qc_hammer
# (hammer/README.md), in busybox ash, sourced by every scenario that
# drives it: load it, start a hammer run, wait for its end, run the decoy,
# plant the self-test's noise, keep its stats.
# Sourced after guest-lib.sh.

QC_HAMMER=/sys/kernel/debug/qc_hammer

# qc_hammer_load: insmod on the first housekeeping CPU (the audit boots a
# second one, to take offline), at QC_RATE calls/s when the host passed
# qc.rate= (the module's default, 100/s, otherwise).
qc_hammer_load() {
	qc_cpulist_first "$QC_HOUSEKEEPING" || { qc_say "housekeeping CPUs '$QC_HOUSEKEEPING' malformed"; return 1; }
	insmod /qc/modules/qc_hammer.ko cpu="$CL_FIRST" ${QC_RATE:+rate_hz=$QC_RATE} ||
		{ qc_say "cannot load qc_hammer.ko"; return 1; }
}

# qc_hammer_start [SECONDS]: a run of SECONDS (default QC_DURATION); returns
# at once, the module's kthread makes the calls.
qc_hammer_start() { echo "${1:-$QC_DURATION}" > $QC_HAMMER/run; }

# qc_hammer_done: the run's kthread has left its loop.
qc_hammer_done() { [ "$(cat $QC_HAMMER/state)" = done ]; }

# qc_hammer_finish STATS_FILE [MAX_S]: wait at most MAX_S (default 30) s for
# the run to end (a stalled drain_all_pages() ends once the CPU it waits
# for yields), then ask it to stop if it has not (`echo 0 > run`: no call
# starts after that) and write its stats, one JSON object, to STATS_FILE.
qc_hammer_finish() {
	_n=0
	while ! qc_hammer_done && [ $_n -lt "${2:-30}" ]; do sleep 1; _n=$((_n + 1)); done
	if ! qc_hammer_done; then
		qc_say "hammer: still running after ${2:-30} s more: stopping it"
		echo 0 > $QC_HAMMER/run
	fi
	cat $QC_HAMMER/stats > "$1"
}

# qc_hammer_start_decoy: the hammer run, and with QC_DECOY=N (qc.decoy=)
# the decoy too (hammer/decoy.c): N rounds spread over QC_DURATION, each one
# IPI and one work item to every isolated CPU, from a kthread of its own.
qc_hammer_start_decoy() {
	qc_hammer_start || return 1
	[ "${QC_DECOY:-0}" -gt 0 ] || return 0
	qc_cpulist_mask "$QC_ISOLATED" || { qc_say "isolated CPUs '$QC_ISOLATED' malformed"; return 1; }
	printf '%x %d %d\n' "$CL_MASK" "$QC_DECOY" $((QC_DURATION * 1000 / QC_DECOY)) > $QC_HAMMER/decoy ||
		{ qc_say "cannot start the decoy"; return 1; }
}

# qc_decoy_finish: stop the decoy (so that none of it reaches the control),
# then its counts to QC_DECOY_JSON.
qc_decoy_finish() {
	[ "${QC_DECOY:-0}" -gt 0 ] || return 0
	echo stop > $QC_HAMMER/decoy || qc_say "cannot stop the decoy"
	cat $QC_HAMMER/decoy > "/results/$QC_DECOY_JSON"
}

# qc_hammer_plant FILE: plant each "KIND CPU K" line of FILE (the self-test).
qc_hammer_plant() {
	while read -r kind cpu k; do
		echo "$kind $cpu $k" > $QC_HAMMER/plant || qc_say "planting '$kind $cpu $k' failed"
	done < "$1"
}
