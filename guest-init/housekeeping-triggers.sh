# The housekeeping operations that reach every CPU, one function each:
# the kernel's own reasons to drain pcplists (stress scenario) and the
# isolation audit's triggers (audit scenario). Run on a housekeeping CPU
# while the window is open. Busybox ash; sourced.

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

# ---- the isolation audit (scenario "audit") --------------------------------
# One function per trigger of the audit lists (tracing/probes/audit.list,
# each tree's list naming the same triggers), audit_<name>, run
# on a housekeeping CPU in its own marked sub-window. Each prints one line
# saying what it did. Exit status: 0 it ran, 1 it failed, 3 this guest
# cannot run it (the line says why: the row is "not implemented" then).
# QC_AUDIT_ISO_CPU: the isolated CPU the TLB trigger's task spins on.

audit_vmstat_refresh() {
	echo 1 > /proc/sys/vm/stat_refresh && echo "stat_refresh written"
}

audit_compaction() {
	echo 1 > /proc/sys/vm/compact_memory && echo "compact_memory written"
}

# Every cache, as slabinfo -s does; aliases are symlinks to their cache.
audit_slab_shrink() {
	n=0
	for d in /sys/kernel/slab/*; do
		[ -L "$d" ] || [ ! -w "$d/shrink" ] && continue
		echo 1 > "$d/shrink" && n=$((n + 1))
	done
	[ $n -gt 0 ] || { echo "no /sys/kernel/slab/*/shrink to write"; return 1; }
	echo "shrank $n caches"
}

audit_membarrier() { trigger membarrier 100; }

audit_tlb_shootdown() {
	trigger tlb "$QC_AUDIT_ISO_CPU" 1000 /sys/fs/cgroup/isolated/cgroup.procs
}

audit_pcp_drain() {
	echo 1 > /sys/kernel/debug/qc_hammer/run || return 1
	n=0
	while [ "$(cat /sys/kernel/debug/qc_hammer/state)" != done ] && [ $n -lt 30 ]; do
		sleep 1
		n=$((n + 1))
	done
	echo "qc_hammer: $(grep -o '"calls": *[0-9]*' /sys/kernel/debug/qc_hammer/stats) in 1 s"
}

# A static key flipped by a module's load and unload, and a kprobe armed
# and disarmed (in a trace instance of its own: its hits stay out of the
# recorded buffer).
audit_text_poke() {
	T=/sys/kernel/tracing
	insmod /qc/modules/qc_textpoke.ko || { echo "insmod qc_textpoke.ko failed"; return 1; }
	mkdir -p $T/instances/qcpoke
	echo 'p:qcpoke/sysinfo __x64_sys_sysinfo' >> $T/kprobe_events || { echo "kprobe on __x64_sys_sysinfo refused"; return 1; }
	echo 1 > $T/instances/qcpoke/events/qcpoke/sysinfo/enable
	sleep 0.2
	echo 0 > $T/instances/qcpoke/events/qcpoke/sysinfo/enable
	echo '-:qcpoke/sysinfo' >> $T/kprobe_events
	rmdir $T/instances/qcpoke
	rmmod qc_textpoke || { echo "rmmod qc_textpoke failed"; return 1; }
	echo "qc_textpoke.ko loaded and unloaded, kprobe on __x64_sys_sysinfo armed and disarmed"
}

# Written on one housekeeping CPU, sealed on another (trigger.c says why).
audit_lru_drain() {
	set -- $(echo "$QC_HOUSEKEEPING" | tr ',' ' ')
	[ $# -ge 2 ] || { echo "one housekeeping CPU ($QC_HOUSEKEEPING): the seal needs a second"; return 3; }
	trigger lru 20 "$1" "$2"
}

audit_bh_lru() { trigger flushbufs /dev/vda; }

# drain_all_stock() runs when memory.high is set under the usage: set
# under, then back to max at once, so the workloads are hardly throttled.
audit_memcg_drain() {
	cg=/sys/fs/cgroup/isolated
	[ -f $cg/memory.high ] || { echo "no $cg/memory.high (CONFIG_MEMCG? +memory not enabled?)"; return 3; }
	# 1 MiB under: the usage moves by the refill workload's 64 pages as
	# it is read, and drain_all_stock() runs only if it is still above.
	cur=$(cat $cg/memory.current)
	echo $((cur - 1048576)) > $cg/memory.high
	echo max > $cg/memory.high
	echo "memory.high of $cg set to $((cur - 1048576)) (usage $cur), then max"
}

audit_memory_offline() { trigger_memory_offline; }

# 64 MiB from the hugetlb CMA area (hugetlb_cma=, on node 1) through CMA's
# debugfs: cma_alloc() -> alloc_contig_range(), migrating what movable
# pages lie there. (A 1 GiB page does not succeed in this guest: every
# 1 GiB range outside a CMA area holds some unmovable kernel page.)
audit_contig_alloc() {
	d=$(ls -d /sys/kernel/debug/cma/hugetlb* 2>/dev/null | tail -n1)
	[ -n "$d" ] && [ -w "$d/alloc" ] ||
		{ echo "no hugetlb CMA area in /sys/kernel/debug/cma (hugetlb_cma=, CONFIG_CMA_DEBUGFS)"; return 3; }
	pages=16384
	echo $pages > "$d/alloc" || { echo "cma_alloc of $pages pages from $(basename "$d") failed"; return 1; }
	used=$(cat "$d/used")
	echo $pages > "$d/free"
	echo "cma_alloc of $pages pages (64 MiB) from $(basename "$d"): ok (used $used), freed"
}

audit_page_migration() {
	[ -d /sys/devices/system/node/node1 ] || { echo "one NUMA node: nothing to migrate to"; return 3; }
	pid=$(pidof refill | cut -d' ' -f1)
	[ -n "$pid" ] || pid=$(pidof oslat | cut -d' ' -f1)
	[ -n "$pid" ] || { echo "no measured task to migrate"; return 1; }
	trigger migrate "$pid" 0 1 && trigger migrate "$pid" 1 0
}

# The housekeeping CPUs but the one the triggers run on (the first). A CPU
# coming online resets some kthreads' affinity (kcompactd: its node's
# CPUs, isolated ones included): the line says which, and they go back.
audit_cpu_hotplug() {
	cpu=$(echo "$QC_HOUSEKEEPING" | tr ',' '\n' | sed 's/-.*//' | sed -n 2p)
	[ -n "$cpu" ] || { echo "one housekeeping CPU ($QC_HOUSEKEEPING): none to take offline"; return 3; }
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online || { echo "cpu$cpu would not go offline"; return 1; }
	echo 1 > /sys/devices/system/cpu/cpu$cpu/online || { echo "cpu$cpu would not come back online"; return 1; }
	echo "cpu$cpu offline, then online"
	sh /qc/cpusets/verify.sh --measured "$QC_HOUSEKEEPING" "$QC_ISOLATED" 2>&1 |
		sed -n 's/^FAIL .* pid \([0-9]*\) (\([^)]*\)).*/\1 \2/p' |
		while read -r pid comm; do
			echo "afterwards $comm (pid $pid) was allowed on the isolated CPUs again: re-pinned"
			taskset -pc "$QC_HOUSEKEEPING" "$pid" > /dev/null 2>&1
		done
}
