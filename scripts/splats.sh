#!/bin/sh
# splats.sh [--brief] CONSOLE_LOG: print the kernel splats in a guest
# console log (WARNING, BUG, oops, panic, lockdep, RCU, list corruption,
# sleeping in atomic context...) with a few lines of context each; exit 1
# when there is one. --brief: only the first three splat lines, joined on
# one line, to quote in a one-line error. The one splat matcher: boot.sh
# (a guest that died), run.sh (a guest that finished) and so the stress
# runs use it. The OOM killer's own report is expected under memory
# pressure and is not a splat, although it prints a call trace.
#
# One report is known and not ours, and only that one is let through
# (known_reports below): stock 6.12 PREEMPT_RT with PROVE_RCU warns once,
# early in boot, that rcuc/N reads its own CPU's RCU_NOCB offloaded state
# unsafely. On RT, rcu_core() runs in the rcuc kthread with BHs disabled,
# which does not count in preempt_count(), so the lockdep condition of
# rcu_rdp_is_offloaded() misses that the read is safe: an rdp's offloaded
# state changes only while its CPU is offline, and its rcuc is parked
# then. Upstream fixed the check in 6.16, 36f8e3087562 ("rcu/nocb: Add
# Safe checks for access offloaded rdp"). The report is matched whole:
# its header, its message, the rcuc task and the call chain
# lockdep_rcu_suspicious <- rcu_rdp_is_offloaded <- rcu_core <-
# rcu_cpu_kthread. Only its header line is dropped, so a splat of any
# other kind printed among its lines is still found.
brief=no
[ "${1:-}" != --brief ] || { brief=yes; shift; }
log=${1:?usage: splats.sh [--brief] CONSOLE_LOG}
pattern='WARNING:|BUG:|Oops|Kernel panic|general protection fault|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|detected stall|detected expedited stall|INFO: task .* blocked|list_(add|del) corruption|sleeping function called from invalid context|scheduling while atomic|UBSAN:|lockdep is turned off|DEBUG_LOCKS_WARN_ON|bad page state'

# known_reports: the log (no carriage returns) without the header line of each known report.
known_reports() {
	awk '
	{ gsub(/\r/, ""); line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			if (line[i] !~ /WARNING: suspicious RCU usage$/)
				continue
			msg = 0; task = 0; chain = ""
			for (j = i + 1; j <= NR && j <= i + 80; j++) {
				l = line[j]
				if (l ~ /WARNING: suspicious RCU usage$/)
					break
				if (l ~ /kernel\/rcu\/tree_plugin\.h:[0-9]+ Unsafe read of RCU_NOCB offloaded state!$/)
					msg = 1
				if (l ~ /Comm: rcuc\/[0-9]+ /)
					task = 1
				# a reliable frame: "  name+0xoff/0xlen", not "  ? name..."
				if (match(l, /^(\[[^]]*\])? +[A-Za-z0-9_.]+\+0x[0-9a-f]+\/0x[0-9a-f]+/)) {
					f = substr(l, RSTART, RLENGTH)
					sub(/^(\[[^]]*\])? +/, "", f)
					sub(/\+.*/, "", f)
					chain = chain " " f
				}
				if (l ~ /<\/TASK>$/)
					break
			}
			if (msg && task &&
			    index(chain, " lockdep_rcu_suspicious rcu_rdp_is_offloaded rcu_core rcu_cpu_kthread "))
				skip[i] = 1
		}
		# The results block (common/contract.sh QC_BLOCK_BEGIN..END, with
		# qc.results=console) is base64: any text can stand in it.
		for (i = 1; i <= NR; i++) {
			if (line[i] ~ /^QC-RESULTS-BEGIN /)
				block = 1
			if (!block && !(i in skip))
				print line[i]
			if (line[i] ~ /^QC-RESULTS-END/)
				block = 0
		}
	}' < "$log"
}

if known_reports | grep -Eq "$pattern"; then
	if [ "$brief" = yes ]; then
		known_reports | grep -m3 -E "$pattern" | tr '\n' ' ' | cut -c1-300
		echo
	else
		known_reports | grep -E -A6 "$pattern" | head -n 40
	fi
	exit 1
fi
exit 0
