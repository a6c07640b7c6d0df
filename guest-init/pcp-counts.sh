#!/bin/sh
# pcp-counts.sh [OUTFILE]: pages on each CPU's per-CPU page lists
# (pcplists), summed over all zones, from /proc/zoneinfo.
#
#   no argument   "cpu count high" lines on stdout (high: pcp->high summed)
#   OUTFILE       {"0": 12, "1": 270, ...} written to OUTFILE
#
# 6.1 prints, per zone (mm/vmstat.c, zoneinfo_show_print()):
#     pagesets
#       cpu: 1
#                 count: 270
#                 high:  378
#                 batch: 63
# count is in base pages, high-order pcp entries included. Unpopulated
# zones print no pagesets. A CPU with count 0 after priming is unprimed;
# the caller decides what that means.
json=no out=${1:-}
[ -z "$out" ] || json=yes
summary() {
	awk -v json="$json" '
	$1 == "cpu:" { cpu = $2; seen[cpu] = 1; next }
	$1 == "count:" && cpu != "" { count[cpu] += $2; next }
	$1 == "high:" && cpu != "" { high[cpu] += $2; next }
	$1 == "pagesets" { cpu = ""; next }
	$1 == "Node" { cpu = "" }
	END {
		n = 0
		for (c in seen) if (c + 0 >= n) n = c + 1
		if (json == "yes") {
			printf "{"
			sep = ""
			for (c = 0; c < n; c++) if (c in seen) {
				printf "%s\"%d\": %d", sep, c, count[c]; sep = ", "
			}
			print "}"
		} else {
			for (c = 0; c < n; c++) if (c in seen)
				print c, count[c] + 0, high[c] + 0
		}
	}' /proc/zoneinfo
}
if [ -n "$out" ]; then
	summary > "$out"
else
	summary
fi
