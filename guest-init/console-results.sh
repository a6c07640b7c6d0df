# qc.results=console: a lab's board (LAVA, docs/lava.md) brings home no
# results disk, only its serial console. So the guest prints there what a
# LAVA monitor makes test cases of (one line per isolated CPU and figure)
# and then the whole results tree, which scripts/lava-fetch.sh turns back
# into a run the host's analyzer and judge read as any other. The names and
# markers are in common/contract.sh. Sourced by /init after guest-lib.sh.

# qc_cpu_max CPU WINDOW: the largest latency (us) oslat, or refill's
# oslat-style loop on a refill CPU, measured on CPU in WINDOW; nothing if
# neither measured it.
qc_cpu_max() {
	for t in oslat refill; do
		f=/results/$(qc_window_file "$t" "$2" json)
		[ -f "$f" ] || continue
		awk -v cpu="$1" -F'[:,]' '
			$1 ~ /"cpu"$/ { c = $2 + 0 }
			$1 ~ /"max"$/ && c == cpu { gsub(/ /, "", $2); print $2; exit }' "$f"
	done | head -n1
}

# qc_console_cases: "QC-CASE: cpuN_FIGURE pass|fail VALUE UNITS" for each
# isolated CPU: the measurement window's drain calls that freed pages there
# (when that window was traced), its largest latency there, and the
# windows that ended with a figure for it, and a trace if traced (pass:
# all that opened).
# The verdict is not here: it needs the host's analyzer and judge.
qc_console_cases() {
	for cpu in $(qc_cpulist_expand "$QC_ISOLATED"); do
		if [ -f "/results/$QC_CPU_DRAINS" ]; then
			n=$(awk -v cpu="$cpu" '$1 == cpu { print $2 }' "/results/$QC_CPU_DRAINS")
			echo "$QC_CASE_SAYS cpu${cpu}_drains_reached pass ${n:-0} calls"
		fi
		max=$(qc_cpu_max "$cpu" "")
		if [ -n "$max" ]; then echo "$QC_CASE_SAYS cpu${cpu}_max_latency pass $max us"
		else echo "$QC_CASE_SAYS cpu${cpu}_max_latency fail 0 us"; fi
		# The windows the scenario opened ("" is the measurement window):
		# oslat's output file is made when a window starts.
		opened=0 done_n=0
		for f in /results/oslat.txt /results/oslat-*.txt; do
			[ -f "$f" ] || continue
			w=${f#/results/oslat} && w=${w%.txt} && w=${w#-}
			opened=$((opened + 1))
			# A traced window (qc_window: its pcp-window file) ends with its trace.
			[ -s "/results/$(qc_window_file trace "$w" dat)" ] ||
				[ ! -e "/results/$(qc_window_file pcp-window "$w" json)" ] || continue
			[ -z "$(qc_cpu_max "$cpu" "$w")" ] || done_n=$((done_n + 1))
		done
		r=fail
		[ "$opened" -eq 0 ] || [ "$done_n" -ne "$opened" ] || r=pass
		echo "$QC_CASE_SAYS cpu${cpu}_windows_complete $r $done_n windows"
	done
}

# qc_console_results: the results tree as a gzipped tar in base64 between
# the markers, the begin line carrying its sha256 and size.
qc_console_results() {
	# Kernel messages would land inside the block: the log is saved already.
	dmesg -n 1
	tar -czf /tmp/qc-results.tgz -C /results . || return 1
	sum=$(sha256sum < /tmp/qc-results.tgz)
	echo "$QC_BLOCK_BEGIN ${sum%% *} $(($(wc -c < /tmp/qc-results.tgz)))"
	base64 /tmp/qc-results.tgz || return 1
	echo "$QC_BLOCK_END"
}
