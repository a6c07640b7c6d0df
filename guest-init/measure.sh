# The isolation measurement, shared by the hammer, fifo, quiet and
# triggers scenarios (DESIGN.md, "The isolation scenario"). Sourced after
# lib.sh; every step writes its evidence under /results.
#
# Order matters: isolate first (so priming and oslat land on settled
# CPUs), prime, then start tracing with no live reader and open the window
# only once oslat's threads run, so its start-up (affinity changes wake
# migration/N) stays outside what is counted.

QC_HAMMER=/sys/kernel/debug/qc_hammer
QC_OSLAT_SETTLE=${QC_OSLAT_SETTLE:-3}

qc_isolate() {
	qc_say "isolating CPUs $QC_ISOLATED (housekeeping $QC_HOUSEKEEPING)"
	sh /qc/cpusets/isolate.sh "$@" "$QC_HOUSEKEEPING" "$QC_ISOLATED" /results/isolation.txt ||
		{ qc_say "cpusets/isolate.sh failed"; return 1; }
	if ! sh /qc/cpusets/verify.sh "$QC_HOUSEKEEPING" "$QC_ISOLATED" > /results/verify.txt 2>&1; then
		qc_say "isolation verification failed:"
		head -n 5 /results/verify.txt > /dev/console
		return 1
	fi
}

# What every traced scenario does before its window: isolate (options go
# to isolate.sh), load the module (its plant serves the self-test), prime.
qc_prepare() {
	qc_isolate "$@"
	qc_load_hammer
	qc_prime
}

qc_load_hammer() {
	insmod /qc/modules/qc_hammer.ko cpu="$QC_HOUSEKEEPING" ${QC_RATE:+rate_hz=$QC_RATE} ||
		{ qc_say "cannot load qc_hammer.ko"; return 1; }
}

# Fill each isolated CPU's pcplists and keep the counts before and after.
qc_prime() {
	sh /qc/guest-init/pcp-counts.sh /results/pcp-before.json
	prime "$QC_ISOLATED" > /results/prime.txt 2>&1 || { qc_say "priming failed"; return 1; }
	sh /qc/guest-init/pcp-counts.sh /results/pcp-primed.json
	qc_say "pcp pages after priming: $(tr -d '\n ' < /results/pcp-primed.json)"
}

# qc_window NAME SECONDS START_CMD [OSLAT_ARGS...]: trace one window of
# SECONDS while oslat runs on the isolated CPUs; START_CMD (a shell
# function) starts the disturbance right after the start marker and
# qc_window_done (defined by the caller, default: true) is polled until it
# says the disturbance is over, at most QC_WINDOW_GRACE (10) s past the window.
qc_window() {
	name=$1 secs=$2 start=$3
	shift 3
	sh /qc/tracing/trace-start.sh || { qc_say "trace-start failed"; return 1; }
	# oslat must live in the isolated partition to be allowed there; its
	# main thread sleeps on the first isolated CPU until the end. Its
	# workers spin on QC_OSLAT_WORKERS (default: every isolated CPU).
	first=$(qc_first_isolated)
	sh /qc/cpusets/enter-isolated.sh -- oslat -c "${QC_OSLAT_WORKERS:-$QC_ISOLATED}" -C "$first" \
		-D $((secs + QC_OSLAT_SETTLE + ${QC_WINDOW_GRACE:-10} + 15)) -q "$@" \
		--json="/results/oslat${name:+-$name}.json" > "/results/oslat${name:+-$name}.txt" 2>&1 &
	oslat_pid=$!
	sleep "$QC_OSLAT_SETTLE"
	# oslat's start-up (mlock, thread stacks) eats primed pages: what the
	# drains find is what the lists hold when the window opens.
	sh /qc/guest-init/pcp-counts.sh "/results/pcp-window${name:+-$name}.json"
	sh /qc/cpusets/verify.sh --measured "$QC_HOUSEKEEPING" "$QC_ISOLATED" \
		> "/results/verify-window${name:+-$name}.txt" 2>&1 || qc_say "isolation check during the window failed: see verify-window.txt"
	sh /qc/tracing/trace-mark.sh "qc: window start"
	$start
	qc_wait_progress "$secs" "${name:-window}"
	waited=0
	while ! qc_window_done && [ $waited -lt "${QC_WINDOW_GRACE:-10}" ]; do
		sleep 1
		waited=$((waited + 1))
	done
	sh /qc/tracing/trace-mark.sh "qc: window end"
	# oslat's -D outlasts the window and its grace; SIGINT ends it now and
	# it still writes its JSON. (If it is gone already, that is fine too.)
	kill -INT "$oslat_pid" 2>/dev/null || true
	wait "$oslat_pid" || qc_say "oslat exited with $?"
	sh /qc/tracing/trace-stop.sh "/results/trace${name:+-$name}.dat" ||
		{ qc_say "trace-stop failed"; return 1; }
}
qc_window_done() { true; }

qc_hammer_start() { echo "$QC_DURATION" > $QC_HAMMER/run; }
qc_hammer_done() { [ "$(cat $QC_HAMMER/state)" = done ]; }

# The rig's own sensitivity: plant a known number of interruptions on
# isolated CPUs in a window of their own; the host's analyzer must count
# exactly that many (scripts/analyze.sh).
qc_selftest() {
	first=$(qc_first_isolated)
	last=$(echo "$QC_ISOLATED" | tr ',' '\n' | tail -n1 | cut -d- -f2)
	k=${QC_PLANT:-5}
	echo "work $first $k" > /results/selftest-planted.txt
	echo "ipi $last $k" >> /results/selftest-planted.txt
	qc_say "self-test: planting $k work items on CPU $first and $k IPIs on CPU $last"
	QC_OSLAT_SETTLE=2 qc_window selftest 2 qc_plant
}
qc_plant() {
	while read -r kind cpu k; do
		echo "$kind $cpu $k" > $QC_HAMMER/plant || qc_say "planting '$kind $cpu $k' failed"
	done < /results/selftest-planted.txt
}

# The triggers scenario's disturbance: each real trigger in turn, marked in
# the trace, in the background on the housekeeping CPU.
qc_triggers() {
	. /qc/guest-init/triggers.sh
	(
		# A trigger that fails (the hog is OOM-killed on purpose) must not
		# end the others: no set -e in here.
		set +e
		for t in memory_offline gigantic_page direct_reclaim; do
			sh /qc/tracing/trace-mark.sh "qc: trigger $t"
			qc_say "trigger: $t"
			"trigger_$t"
		done > /results/triggers.txt 2>&1
		touch /tmp/triggers.done
	) &
}
