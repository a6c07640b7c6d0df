#!/bin/sh
# qc-test: slow
# qc-test: boots rcu-debug
# The debug stress, shortened, in CI on the series' own kernel only (rcu:
# the RCU drain; make stress runs every default variant, and the 6.12
# ones on request). A cold build took 682-713 s here on Dec 5 (the three
# 6.1 builds, the host otherwise idle; 292-343 s on Dec 4), a debug one
# more: wq's and spinlock's debug builds left CI to keep a cold run
# within its 70 min.
# Each variant's debug build (lockdep,
# PROVE_RCU, DEBUG_VM, DEBUG_LIST...) hammers drain_all_pages() at 100/s
# under an allocation load, memory offline/online, a gigantic page and
# the OOM killer for 60 s, and runs the series' regression checks
# (ZONE_MOVABLE emptied and onlined again, page_owner's pagetypeinfo
# drain), each of which must have been reached. Any WARNING, BUG, lockdep
# or RCU splat fails the variant, quoted here.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"
duration=${QC_STRESS_SECONDS:-60}

variants=$(ktap_boots | sed 's/-debug//g')
ktap_plan $(($(echo $variants | wc -w) * 4))
ktap_build_boots
"$root/scripts/stress.sh" --no-build --variants "$variants" --duration "$duration" > "$scratch/log" 2>&1
for v in $variants; do
	d=$(ls -d "$QC_RESULTS"/*/"$v-debug" 2>/dev/null | head -n1)
	if [ -n "$d" ] && grep -qx ok "$d/status"; then
		ktap_ok "$v: ${duration} s debug stress without a splat"
	else
		ktap_not_ok "$v: ${duration} s debug stress without a splat"
		ktap_diag "$(cat "$d/status" 2>/dev/null || tail -n 5 "$scratch/log")"
	fi
	calls=$(jq -r .calls "$d/hammer.json" 2>/dev/null)
	phases=$(grep -c '^phase' "$d/stress-phases.txt" 2>/dev/null)
	ktap_check "$v: the stress really ran ($calls drains, ${phases:-0} pressure phases)" \
		test "${calls:-0}" -ge $((duration * 10)) -a "${calls:-0}" -ge 100 -a "${phases:-0}" -ge 1
	# The series' regression paths (guest-init/series-regressions.sh) must
	# have been reached, not merely survived.
	emptied=$(grep -c 'zone emptied: yes' "$d/stress-phases.txt" 2>/dev/null)
	ktap_check "$v: ZONE_MOVABLE emptied and onlined again under drains (${emptied:-0} times)" \
		test "${emptied:-0}" -ge 1
	pti=$(grep -c 'page_owner ran' "$d/stress-phases.txt" 2>/dev/null)
	ktap_check "$v: drain_all_pages(NULL) through /proc/pagetypeinfo with page_owner (${pti:-0} times)" \
		test "${pti:-0}" -ge 1
done
ktap_finish
