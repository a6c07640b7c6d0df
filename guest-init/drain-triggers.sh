# The kernel's own reasons to drain every CPU's pcplists, one function
# each, for the "triggers" and "stress" scenarios; run on the housekeeping
# CPU. Busybox ash; sourced.

# Offline then online the highest-numbered memory block that will go.
trigger_memory_offline() {
	for blk in $(ls -d /sys/devices/system/memory/memory* 2>/dev/null | sort -t y -k2 -n -r | head -n 16); do
		[ "$(cat "$blk/state")" = online ] || continue
		if echo offline > "$blk/state" 2>/dev/null; then
			echo online > "$blk/state" && echo "memory offline/online: $(basename "$blk") ok"
			return 0
		fi
	done
	echo "memory offline/online: no block could be offlined"
}

# alloc_contig_range() through a 1 GiB hugetlb page, released at once.
trigger_gigantic_page() {
	f=/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages
	[ -w "$f" ] || { echo "gigantic page: $f missing"; return 0; }
	echo 1 > "$f" 2>/dev/null
	echo "gigantic page: allocated $(cat "$f")"
	echo 0 > "$f"
}

# Direct reclaim: allocate past free memory until the OOM killer ends it.
trigger_direct_reclaim() {
	# Let the hog ask for more than RAM: the heuristic would refuse it.
	echo 1 > /proc/sys/vm/overcommit_memory
	rc=0
	hog --mib "$(( $(awk '/^MemTotal/ { print $2 }' /proc/meminfo) / 1024 + 256 ))" >/dev/null 2>&1 || rc=$?
	echo "direct reclaim: hog exited with $rc (137 = OOM-killed)"
	grep -E '^(allocstall|pgscan_direct|oom_kill|drain)' /proc/vmstat | tr '\n' ' '
	echo
}
