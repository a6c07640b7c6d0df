# cpu-drains.awk: per CPU, the drain_all_pages() calls that opened between
# the "qc: window start" and "qc: window end" marks and freed pages on that
# CPU, read from the kernel's text trace (/sys/kernel/tracing/trace) by the
# rule the host's analyzer applies to trace.dat (tracing/drains.c): a
# drain_bulk with count > 0 by a task inside its drain_cpu(cpu) counts for
# the latest call still open. One "CPU CALLS" line per CPU reached.
# busybox awk; the guest prints it as a LAVA test case (console-results.sh).

# The pid of a line "<comm>-<pid> [<cpu>] ...": comm may hold '-'.
function pid_of(line,   s) {
	if (!match(line, /-[0-9]+ +\[[0-9]+\]/)) return ""
	s = substr(line, RSTART + 1, RLENGTH - 1)
	sub(/ .*/, "", s)
	return s
}
# The value of "name=V" on the line ("" when absent); V may be hex (0x1f).
function arg(line, name,   s) {
	if (!match(line, name "=[-0-9a-fx]+")) return ""
	return substr(line, RSTART + length(name) + 1, RLENGTH - length(name) - 1)
}
/tracing_mark_write: qc: window start/ { inwin = 1; next }
/tracing_mark_write: qc: window end/ { inwin = 0; next }
/ drain_all: / { nopen++; open_pid[nopen] = pid_of($0); call[nopen] = ++ncalls; counted[ncalls] = inwin; next }
/ drain_all_ret: / {
	p = pid_of($0)
	for (i = nopen; i > 0; i--) if (open_pid[i] == p) {
		for (j = i; j < nopen; j++) { open_pid[j] = open_pid[j + 1]; call[j] = call[j + 1] }
		nopen--
		break
	}
	next
}
/ drain_cpu: / { cpu_of[pid_of($0)] = arg($0, "cpu"); next }
/ drain_cpu_ret: / { cpu_of[pid_of($0)] = ""; next }
/ drain_bulk: / {
	c = cpu_of[pid_of($0)]
	n = arg($0, "count")
	if (c == "" || n == "" || n ~ /^-/ || n ~ /^(0x)?0+$/ || !nopen) next
	k = call[nopen]
	if (counted[k] && !((k, c) in seen)) { seen[k, c] = 1; reached[c]++ }
}
END { for (c in reached) print c, reached[c] }
