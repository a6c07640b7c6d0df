# Guest checks of the kernel series' own failure paths (busybox ash),
# run by the stress scenario on the debug builds: each drives one path a
# reviewer found risky, says whether it really got there, and leaves the
# verdict to the console (any splat fails the run on the host).

# Pages present in ZONE_MOVABLE of node 0, from /proc/zoneinfo.
qc_movable_present() {
	awk '/^Node 0, zone +Movable/ { z = 1; next } /^Node/ { z = 0 }
		z && $1 == "present" { print $2; exit }' /proc/zoneinfo
}

# qc_offline_some_block: offline one memory block, the highest that will
# go (pages must migrate away, which fails while memory is short, so a
# few tries); prints its sysfs directory.
qc_offline_some_block() {
	for try in 1 2 3; do
		for b in $(ls -d /sys/devices/system/memory/memory* | sort -t y -k2 -n -r); do
			[ "$(cat "$b/state")" = online ] || continue
			echo offline > "$b/state" 2>/dev/null && { echo "$b"; return 0; }
		done
		sleep 1
	done
	return 1
}

# regress_movable_cycle [N]: N times (default 3), online a block into the
# empty ZONE_MOVABLE and empty the zone again. Onlining the first block of
# an empty zone sets up fresh pagesets (setup_zone_pageset()), offlining
# the last one resets them (zone_pcp_reset()): the window in which the rcu
# series must not let a drain in flight see half set-up pagesets. The
# guest boots without movablecore=, so ZONE_MOVABLE starts empty and any
# offline block may be onlined into it. The block goes back to its kernel
# zone at the end of each cycle.
regress_movable_cycle() {
	n=${1:-3} done=0 i=0
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		b=$(qc_offline_some_block) || { echo "movable cycle $i: no block could be offlined"; continue; }
		empty_before=$(qc_movable_present)
		if echo online_movable > "$b/state" 2>/dev/null; then
			filled=$(qc_movable_present)
			offline=no
			for try in 1 2 3; do
				echo offline > "$b/state" 2>/dev/null && { offline=yes; break; }
				sleep 1
			done
			emptied=$(qc_movable_present)
		else
			filled=0 offline=no emptied=0
		fi
		[ "$(cat "$b/state")" = online ] || echo online > "$b/state" 2>/dev/null ||
			echo "movable cycle $i: $(basename "$b") could not be onlined again"
		if [ "${empty_before:-1}" -eq 0 ] && [ "${filled:-0}" -gt 0 ] && [ "$offline" = yes ] && [ "${emptied:-1}" -eq 0 ]; then
			done=$((done + 1))
			echo "movable cycle $i: $(basename "$b") onlined into an empty ZONE_MOVABLE ($filled pages) and offlined until it was empty again: zone emptied: yes"
		else
			echo "movable cycle $i: $(basename "$b") movable present $empty_before -> $filled -> $emptied, offlined again: $offline: zone emptied: no"
		fi
	done
	[ "$done" -gt 0 ]
}

# regress_pagetypeinfo: with page_owner=on, reading /proc/pagetypeinfo
# calls drain_all_pages(NULL) before it counts mixed pageblocks: the
# all-zones drain that oopsed in the seed. The mixed-blocks table is only
# printed when page_owner is on, so it proves the drain ran.
regress_pagetypeinfo() {
	if grep -q '^Number of mixed blocks' /proc/pagetypeinfo; then
		echo "pagetypeinfo: drain_all_pages(NULL) through page_owner ran"
	else
		echo "pagetypeinfo: no page_owner table: boot the debug build with page_owner=on"
		return 1
	fi
}
