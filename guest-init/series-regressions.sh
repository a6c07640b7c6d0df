# Guest checks of the kernel series' own failure paths (busybox ash),
# run by the stress scenario on the debug builds: each drives one path a
# reviewer found risky, says whether it really got there, and leaves the
# verdict to the console (any splat fails the run on the host).

# The first block of ZONE_MOVABLE that movablecore= gave this boot, and the
# others: an online block's valid_zones names its own zone. Read once, at
# start, while every block is still online.
qc_movable_blocks() {
	for b in /sys/devices/system/memory/memory*; do
		[ "$(cat "$b/valid_zones" 2>/dev/null)" = Movable ] && echo "$b"
	done
}

# Pages present in ZONE_MOVABLE of node 0, from /proc/zoneinfo.
qc_movable_present() {
	awk '/^Node 0, zone +Movable/ { z = 1; next } /^Node/ { z = 0 }
		z && $1 == "present" { print $2; exit }' /proc/zoneinfo
}

# regress_movable_cycle BLOCKS...: empty ZONE_MOVABLE and fill it again.
# Offlining its last block resets the zone's pagesets (zone_pcp_reset());
# onlining the first block into the empty zone sets up fresh ones
# (setup_zone_pageset()), which the rcu series must not let a drain in
# flight see half set up. Offlining can fail while memory is short (the
# pages must migrate), so each block gets a few tries.
regress_movable_cycle() {
	[ $# -gt 0 ] || { echo "movable cycle: no ZONE_MOVABLE block: boot with movablecore="; return 1; }
	off=0
	for b in "$@"; do
		tries=0
		until [ "$(cat "$b/state")" = offline ] || [ $tries -ge 5 ]; do
			echo offline > "$b/state" 2>/dev/null || sleep 1
			tries=$((tries + 1))
		done
		[ "$(cat "$b/state")" = offline ] && off=$((off + 1))
	done
	present=$(qc_movable_present)
	on=0
	for b in "$@"; do
		[ "$(cat "$b/state")" = online ] && continue
		echo online_movable > "$b/state" 2>/dev/null && on=$((on + 1))
	done
	emptied=no
	[ "$off" -eq $# ] && [ "${present:-1}" -eq 0 ] && emptied=yes
	echo "movable cycle: $off/$# blocks offline, zone emptied: $emptied, $on onlined into it"
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
