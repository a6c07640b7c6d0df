#!/bin/sh
# The kernel series (patches/): every series in patches/series applies to
# the pristine linux-source-6.1 tree in order, on top of its base, with
# git apply; each patch is checkpatch --strict clean (the only warning
# allowed is checkpatch's "Unknown commit id", since the Debian tree has
# no upstream history to resolve the reverted commits in); no pcp
# spinlock helper survives in wq; wq's rmqueue() returns what the
# pcplists gave, as v5.19 did; rcu's __drain_all_pages() queues no work on
# any CPU, and rcu installs a zone's pagesets only once they are set up,
# under the drain's mutex. Boots nothing; unpacks the tree once if needed.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/lib.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ktap_require git
ktap_plan 10
"$root/scripts/tree.sh" spinlock > /dev/null 2>&1 || ktap_diag "could not unpack the pristine tree"
pristine=$(qc_pristine_dir "$(qc_variant_tree spinlock)")

# apply_stack VARIANT DIR: the files of the pristine tree VARIANT's stack
# touches (each patch's "diff --git a/PATH" lines), copied into DIR, with
# the whole stack applied in order, as scripts/tree.sh applies it to its
# copy of the whole tree (a patch reads nothing but the files it names).
apply_stack() {
	rm -rf "$2" && mkdir -p "$2" || return 1
	stack= v=$1
	while [ "$v" != "-" ]; do stack="$v $stack"; v=$(qc_variant_base "$v"); done
	for v in $stack; do qc_variant_patches "$v"; done | tr '\n' '\0' |
		xargs -0 -r sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | sort -u | while read -r f; do
			[ ! -f "$pristine/$f" ] || { mkdir -p "$2/${f%/*}" && cp "$pristine/$f" "$2/$f"; } || exit 1
		done || return 1
	for v in $stack; do
		for p in $(qc_variant_patches "$v"); do
			(cd "$2" && git apply "$p") || { ktap_diag "$(basename "$p") does not apply"; return 1; }
		done
	done
}
ktap_check "wq applies to pristine 6.1 in order" apply_stack wq "$scratch/wq"
ktap_check "rcu applies on top of wq in order" apply_stack rcu "$scratch/rcu"

checkpatch_clean() {
	for p in $(qc_variant_patches "$1"); do
		out=$(cd "$pristine" && ./scripts/checkpatch.pl --strict --no-tree -q "$p" 2>&1)
		left=$(printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' | grep -v "Unknown commit id")
		[ -z "$left" ] || { ktap_diag "$(basename "$p"): $left"; return 1; }
	done
}
ktap_check "wq patches are checkpatch --strict clean" checkpatch_clean wq
ktap_check "rcu patches are checkpatch --strict clean" checkpatch_clean rcu
ktap_check "every patch is signed by the project, not a person" \
	sh -c "! grep -h '^Signed-off-by:' '$root'/patches/*/0*.patch | grep -v 'quietcore maintainers <maintainers@quietcore.invalid>'"

ktap_check "wq uses no pcp spinlock helper" \
	sh -c "! grep -nE 'pcp_spin_(lock|trylock|unlock)|pcpu_spin_|spin_lock_init\\(&pcp->lock\\)' '$scratch/wq/mm/page_alloc.c'"
# The body of __drain_all_pages(), from its definition to its closing brace.
drain_body() { sed -n '/^static void __drain_all_pages(/,/^}/p' "$1/mm/page_alloc.c"; }
queues_drain_work() { drain_body "$1" | grep -q 'queue_work_on(cpu, mm_percpu_wq'; }
queues_no_work() {
	body=$(drain_body "$1")
	[ -n "$body" ] && ! printf '%s\n' "$body" | grep -qE 'queue_work|schedule_work|flush_work'
}
ktap_check "wq's __drain_all_pages() queues work on mm_percpu_wq" queues_drain_work "$scratch/wq"
ktap_check "rcu's __drain_all_pages() queues no work on any CPU" queues_no_work "$scratch/rcu"

# wq, like v5.19: a pcplist-sized request never falls through from the
# pcplists to rmqueue_buddy() (that came with the v6.0 trylock).
pcp_then_out() {
	sed -n '/^struct page \*rmqueue(/,/^}/p' "$1/mm/page_alloc.c" |
		grep -A1 'migratetype, alloc_flags);' | grep -q '^[[:space:]]*goto out;'
}
ktap_check "wq's rmqueue() goes to out with whatever rmqueue_pcplist() gave" pcp_then_out "$scratch/wq"
# rcu: setup_zone_pageset() initialises every CPU's pagesets before it
# stores the pointer in the zone, and stores it under pcpu_drain_mutex,
# so a drain in flight never follows a zeroed pcp->drain.
installs_after_init() {
	body=$(sed -n '/^void __meminit setup_zone_pageset(/,/^}/p' "$1/mm/page_alloc.c")
	init=$(printf '%s\n' "$body" | grep -n 'per_cpu_pages_init(' | cut -d: -f1)
	lock=$(printf '%s\n' "$body" | grep -n 'mutex_lock(&pcpu_drain_mutex)' | cut -d: -f1)
	store=$(printf '%s\n' "$body" | grep -n 'zone->per_cpu_pageset = ' | cut -d: -f1)
	unlock=$(printf '%s\n' "$body" | grep -n 'mutex_unlock(&pcpu_drain_mutex)' | cut -d: -f1)
	[ -n "$init" ] && [ -n "$lock" ] && [ -n "$store" ] && [ -n "$unlock" ] &&
		[ "$(echo "$store" | wc -l)" -eq 1 ] &&
		[ "$init" -lt "$lock" ] && [ "$lock" -lt "$store" ] && [ "$store" -lt "$unlock" ]
}
ktap_check "rcu's setup_zone_pageset() installs pagesets after init, under pcpu_drain_mutex" \
	installs_after_init "$scratch/rcu"
ktap_finish
