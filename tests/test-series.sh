#!/bin/sh
# The kernel series (patches/): every series in patches/series applies to
# its pristine tree (linux-source-6.1 or -6.12) in order, on top of its
# base, with git apply; each patch is checkpatch --strict clean with its
# own tree's checkpatch.pl (the only warning allowed is checkpatch's
# "Unknown commit id", since the Debian tree has no upstream history to
# resolve the reverted commits in); no pcp spinlock helper survives in wq;
# wq's rmqueue() returns what the pcplists gave, as v5.19 did; rcu's
# __drain_all_pages() queues no work on any CPU, and rcu installs a zone's
# pagesets only once they are set up, under the drain's mutex. The 6.12
# port (rcu-6.12-rt) is checked for what it changes, each property shown
# absent from stock 6.12 first: no CPU takes another's pcp->lock to set
# the free-high-batch hint, the remote drain swaps and waits for a grace
# period instead of locking, nothing reads the lists or their count
# around pcp->lp, and pagesets come and go under the drain's mutex.
# Boots nothing; unpacks each tree once if needed.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
. "$root/scripts/lib/paths.sh"
. "$root/scripts/lib/log.sh"
. "$root/scripts/lib/plugin.sh"
. "$root/scripts/lib/variants.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ktap_require git
ktap_plan 18
"$root/scripts/tree.sh" spinlock > /dev/null 2>&1 || ktap_diag "could not unpack the pristine 6.1 tree"
"$root/scripts/tree.sh" spinlock-6.12 > /dev/null 2>&1 || ktap_diag "could not unpack the pristine 6.12 tree (sudo make setup installs it)"
# pristine_of VARIANT: the unpacked stock tree the variant is built from
# (its tree read in this shell: qc_variant_word, not a subshell).
pristine_of() { qc_variant_word "$1" 3 && qc_pristine_dir "$QC_VW"; }

# copy_files FROM TO PATH...: FROM/PATH copied to TO/PATH, by one cp.
copy_files() {
	_from=$1 _to=$2
	shift 2
	[ $# -eq 0 ] || (cd "$_from" && cp --parents "$@" "$_to")
}
# apply_stack VARIANT DIR: the files of the pristine tree VARIANT's stack
# touches (each patch's "diff --git a/PATH" lines), copied into DIR, with
# the whole stack applied in order, as scripts/tree.sh applies it to its
# copy of the whole tree (a patch reads nothing but the files it names).
apply_stack() {
	_pristine=$(pristine_of "$1")
	[ -f "$_pristine/Makefile" ] || { ktap_diag "no pristine tree for $1"; return 1; }
	_dir=$2
	# (a directory of the scratch's, new: rm only for one that is there)
	{ [ ! -e "$_dir" ] || rm -rf "$_dir"; } && mkdir -p "$_dir" || return 1
	# (each base read in this shell: qc_variant_word, not a subshell)
	stack='' v=$1
	while [ "$v" != "-" ]; do stack="$v $stack"; qc_variant_word "$v" 2; v=$QC_VW; done
	set --
	for v in $stack; do
		for p in $(qc_variant_patches "$v"); do set -- "$@" "$p"; done
	done
	[ $# -gt 0 ] || return 0
	# The files the pristine tree has (not those a patch creates), copied
	# by one cp (a mkdir and a cp a file before).
	_files=
	# shellcheck disable=SC2013 # a path a word
	for f in $(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$@" | sort -u); do
		[ ! -f "$_pristine/$f" ] || _files="$_files $f"
	done
	# shellcheck disable=SC2086 # a path a word
	copy_files "$_pristine" "$_dir" $_files || return 1
	# The whole stack by one git apply: it applies its patches in turn,
	# each to what those before it made (a git a patch was most of this
	# check's cost). When one does not apply, the files again and the
	# patches one by one name the first.
	git -C "$_dir" apply "$@" 2>/dev/null && return 0
	# shellcheck disable=SC2086 # a path a word
	rm -rf "$_dir" && mkdir -p "$_dir" && copy_files "$_pristine" "$_dir" $_files || return 1
	for p; do
		git -C "$_dir" apply "$p" || { ktap_diag "${p##*/} does not apply"; return 1; }
	done
}
ktap_check "wq applies to pristine 6.1 in order" apply_stack wq "$scratch/wq"
ktap_check "rcu applies on top of wq in order" apply_stack rcu "$scratch/rcu"
ktap_check "rcu-6.12-rt applies to pristine 6.12 in order" apply_stack rcu-6.12-rt "$scratch/rcu612"

# findings OUTPUT: left, checkpatch's ERROR, WARNING and CHECK lines of
# OUTPUT but "Unknown commit id", one a line; read in the shell (two greps
# a patch were most of what this check ran beside checkpatch).
findings() {
	left=''
	while IFS= read -r _l; do
		case $_l in ERROR:*|WARNING:*|CHECK:*) ;; *) continue ;; esac
		case $_l in *"Unknown commit id"*) continue ;; esac
		left="$left${left:+
}$_l"
	done <<EOF
$1
EOF
}
# (perl's version, asked once for the three variants)
perl_version=$(perl -e 'print "$^V\n"')
# checkpatch_inputs TREE PATCH...: everything checkpatch.pl's findings
# on the PATCHes, as this program runs it and reads them, depend on: this
# program, the options, perl's version, GIT_DIR, the .checkpatch.conf
# files it would read, the script and the lists beside it, each patch
# (name and text), and the tree's files the patches name (it reads them
# for CamelCase).
checkpatch_inputs() {
	_t=$1
	shift
	cat "$0" 2>&1
	echo "--strict --no-tree -q"
	echo "$perl_version"
	printf 'GIT_DIR=%s\n' "${GIT_DIR-(unset)}"
	for _c in "$_t/.checkpatch.conf" "$HOME/.checkpatch.conf" "$_t/.scripts/.checkpatch.conf"; do
		[ ! -f "$_c" ] || { echo "$_c"; cat "$_c"; }
	done
	cat "$_t/scripts/checkpatch.pl" "$_t/scripts/spelling.txt" "$_t/scripts/const_structs.checkpatch" 2>&1
	# The patches (one directory's, a variant's) and the tree's files they
	# name, each under its "==> NAME <==" header (tail -v), by a tail for
	# each list, not a cat a file.
	_names=
	for _p; do _names="$_names ${_p##*/}"; done
	# shellcheck disable=SC2086 # a name a word
	(cd "${1%/*}" && tail -v -n +1 -- $_names) 2>&1
	_files=$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$@" | sort -u)
	# shellcheck disable=SC2086 # a path a word
	[ -z "$_files" ] || (cd "$_t" && tail -v -n +1 -- $_files) 2>&1
}
# checkpatch_clean VARIANT: no patch of VARIANT has a finding. One
# checkpatch.pl reads them all (perl's start, ~0.35 s of CPU, was most of
# this program's cost, once a patch); when it finds something, each patch
# is checked on its own to name the first with findings, and the check
# fails whatever that says. A clean verdict is kept in the cache under the
# hash of checkpatch_inputs, as ccache keeps an object: the same inputs
# are not read again (checkpatch.pl was over half of this program's CPU
# time); any change to one of them runs it again.
checkpatch_clean() {
	_tree=$(pristine_of "$1")
	[ -f "$_tree/scripts/checkpatch.pl" ] ||
		{ ktap_diag "no checkpatch.pl in the pristine tree of $1"; return 1; }
	# shellcheck disable=SC2046 # a patch a word, as the loops here take them
	set -- $(qc_variant_patches "$1")
	[ $# -gt 0 ] || return 0
	read -r _key _ <<EOF
$(checkpatch_inputs "$_tree" "$@" | sha256sum)
EOF
	_clean=$QC_CACHE/tests/checkpatch/$_key.clean
	[ ! -f "$_clean" ] || return 0
	out=$(cd "$_tree" && ./scripts/checkpatch.pl --strict --no-tree -q "$@" 2>&1) || true
	findings "$out"
	if [ -z "$left" ]; then
		# (a cache it cannot write only costs the next run the check)
		mkdir -p "${_clean%/*}" 2>/dev/null && : > "$_clean" 2>/dev/null || :
		return 0
	fi
	_all=$left
	for p; do
		out=$(cd "$_tree" && ./scripts/checkpatch.pl --strict --no-tree -q "$p" 2>&1) || true
		findings "$out"
		[ -z "$left" ] || { ktap_diag "${p##*/}: $left"; return 1; }
	done
	ktap_diag "$_all"
	return 1
}
ktap_check "wq patches are checkpatch --strict clean" checkpatch_clean wq
ktap_check "rcu patches are checkpatch --strict clean" checkpatch_clean rcu
ktap_check "rcu-6.12-rt patches are checkpatch --strict clean (6.12's checkpatch.pl)" checkpatch_clean rcu-6.12-rt
# (these checks' pipelines in this shell's functions, not a sh's each)
signed_by_project() {
	! grep -h '^Signed-off-by:' "$root"/patches/*/0*.patch | grep -v 'quietcore maintainers <maintainers@quietcore.invalid>'
}
ktap_check "every patch is signed by the project, not a person" signed_by_project

no_pcp_spin_helper() { ! grep -nE 'pcp_spin_(lock|trylock|unlock)|pcpu_spin_|spin_lock_init\(&pcp->lock\)' "$1/mm/page_alloc.c"; }
ktap_check "wq uses no pcp spinlock helper" no_pcp_spin_helper "$scratch/wq"
# The body of __drain_all_pages(), from its definition to its closing brace.
drain_body() { sed -n '/^static void __drain_all_pages(/,/^}/p' "$1/mm/page_alloc.c"; }
queues_drain_work() { drain_body "$1" | grep -q 'queue_work_on(cpu, mm_percpu_wq'; }
queues_no_work() {
	body=$(drain_body "$1")
	# (the body given to grep by a here-document, not a printf's process)
	[ -n "$body" ] && ! grep -qE 'queue_work|schedule_work|flush_work' <<EOF
$body
EOF
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
# (One awk finds, in the function's body, the lines of the four steps, each
# "N" or "N,M..." when it is there more than once: a sed and four greps
# before.)
installs_after_init() {
	IFS=: read -r init lock store unlock <<EOF
$(awk '/^void __meminit setup_zone_pageset\(/ { inside = 1 }
	inside { n++
		if (index($0, "per_cpu_pages_init(")) i = i (i == "" ? "" : ",") n
		if (index($0, "mutex_lock(&pcpu_drain_mutex)")) l = l (l == "" ? "" : ",") n
		if (index($0, "zone->per_cpu_pageset = ")) s = s (s == "" ? "" : ",") n
		if (index($0, "mutex_unlock(&pcpu_drain_mutex)")) u = u (u == "" ? "" : ",") n }
	inside && n > 1 && /^}/ { inside = 0 }
	END { print i ":" l ":" s ":" u }' "$1/mm/page_alloc.c")
EOF
	[ -n "$init" ] && [ -n "$lock" ] && [ -n "$store" ] && [ -n "$unlock" ] &&
		case $store in *,*) false ;; esac &&
		[ "$init" -lt "$lock" ] && [ "$lock" -lt "$store" ] && [ "$store" -lt "$unlock" ]
}
ktap_check "rcu's setup_zone_pageset() installs pagesets after init, under pcpu_drain_mutex" \
	installs_after_init "$scratch/rcu"

# rcu-6.12-rt against stock 6.12: each property fails on the stock tree
# (the check can fail) and holds on the port.
stock612=$(pristine_of spinlock-6.12)
port612=$scratch/rcu612
# body FILE FUNCTION-REGEX: a function's definition up to its closing brace.
body() { sed -n "/^$2(/,/^}/p" "$1/mm/page_alloc.c"; }
# zone_pcp_update_cacheinfo() runs for every CPU sharing a cache with one
# coming online: it must not take those CPUs' pcp->lock.
cacheinfo_unlocked() {
	b=$(body "$1" 'static void zone_pcp_update_cacheinfo')
	[ -n "$b" ] && ! grep -qE 'spin_(lock|trylock)|pcp_spin_' <<EOF
$b
EOF
}
both() {
	desc=$1
	shift
	if "$@" "$stock612"; then
		ktap_not_ok "$desc (holds on stock 6.12 already: the check cannot fail)"
	else
		ktap_check "$desc" "$@" "$port612"
	fi
}
both "rcu-6.12-rt: zone_pcp_update_cacheinfo() takes no pcp->lock (stock 6.12 takes the remote one)" \
	cacheinfo_unlocked
# __drain_all_pages(): swap, synchronize_rcu(), free the detached lists
# with no pcp->lock; stock locks each remote pcp in drain_pages_zone().
drains_through_rcu() {
	b=$(body "$1" 'static void __drain_all_pages')
	d=$(body "$1" 'static noinline void drain_detached_pcplists')
	[ -n "$b" ] && [ -n "$d" ] &&
		ktap_contains "$b" 'detach_pcplists(pcp, force_all_cpus)' &&
		ktap_contains "$b" 'synchronize_rcu();' &&
		ktap_contains "$b" 'drain_detached_pcplists(cpu, z);' &&
		! grep -qE 'drain_pages(_zone)?\(|spin_(lock|trylock)|pcp_spin_' <<EOF
$b
$d
EOF
}
both "rcu-6.12-rt: __drain_all_pages() swaps, waits with synchronize_rcu() and frees without a pcp->lock" \
	drains_through_rcu
# The owner's lookup is an RCU dereference checked against the pcp's own lock.
rcu_lookup() {
	body "$1" 'static inline struct pcplists \*pcp_lists' |
		grep -q 'rcu_dereference_check(pcp->lp, lockdep_is_held(&pcp->lock))'
}
both "rcu-6.12-rt: pcp_lists() is rcu_dereference_check() on the pcp's own lock" rcu_lookup
# Nothing reaches the lists or their count around pcp->lp.
no_direct_lists() {
	! grep -nE 'pcp->(count|lists)\b|->per_cpu_pageset(, *cpu)?\)?->count|per_cpu_pageset->count' \
		"$1/mm/page_alloc.c" "$1/mm/vmstat.c" "$1/mm/show_mem.c" |
		grep -v '^[^:]*:[0-9]*:[[:space:]]*\*' | grep -q .
}
both "rcu-6.12-rt: no code reads pcp->count or pcp->lists around pcp->lp" no_direct_lists
both "rcu-6.12-rt: setup_zone_pageset() installs pagesets after init, under pcpu_drain_mutex" \
	installs_after_init
reset_locked() {
	b=$(body "$1" 'void zone_pcp_reset')
	ktap_contains "$b" 'mutex_lock(&pcpu_drain_mutex)' && ktap_contains "$b" 'mutex_unlock(&pcpu_drain_mutex)'
}
both "rcu-6.12-rt: zone_pcp_reset() frees pagesets under pcpu_drain_mutex" reset_locked
ktap_finish
