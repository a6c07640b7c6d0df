#!/bin/sh
# scripts/check-names.sh on a fake System.map (tests/fixtures/system-map):
# every function name the analyzer matches in stacks (the drain's, RCU's
# forcing, the lock hand-offs, the audit's "#path" functions) must be a
# text symbol of the build, by itself or as a compiler's clone, unless
# tracing/names-absent.list declares it absent on that variant; a name
# missing, or declared absent but there, is refused in one line. Boots
# nothing.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
check=$root/scripts/check-names.sh
fx=$root/tests/fixtures/system-map/System.map
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ktap_require jq make awk
make -s -C "$root/tracing" >/dev/null 2>&1 || ktap_bail_out "tracing/qc-analyze does not build"
ktap_plan 6

# without MAP's line(s) matching PATTERN (grep -v)
without() { grep -v -e "$1" "$fx" > "$tmp/$2"; }
ktap_check "every name, some as clones (.constprop.0, .isra.0), is in the spinlock map, hammer and audit" \
	sh -c "'$check' --map '$fx' spinlock '' hammer >/dev/null && '$check' --map '$fx' spinlock '' audit >/dev/null"
without ' force_qs_rnp\.constprop\.0$' noforcer.map
expect_one_error "a forcer the build lacks is refused, naming it and its list" \
	quietcore 'lacks 1 function name(s).* the first force_qs_rnp (rcu_forcers(tracing/origins.c))' \
	"$check" --map "$tmp/noforcer.map" spinlock
without ' sysctl_compaction_handler$' nopath.map
ktap_check "a \"#path\" function the build lacks passes the hammer scenario (it reads no audit list)" \
	sh -c "'$check' --map '$tmp/nopath.map' spinlock '' hammer >/dev/null"
expect_one_error "... and is refused in the audit's" \
	quietcore 'the first sysctl_compaction_handler (#path(tracing/probes/audit.list))' \
	"$check" --map "$tmp/nopath.map" spinlock "" audit
{ cat "$fx"; echo "ffffffff82000000 t drain_local_pages_wq"; } > "$tmp/stale.map"
expect_one_error "a name declared absent that the build has is refused (a stale declaration)" \
	quietcore 'declares drain_local_pages_wq (drain_functions(tracing/verdict-policy.json)) absent on spinlock, but' \
	"$check" --map "$tmp/stale.map" spinlock
expect_one_error "a name a build lacks that its variant does not declare absent is refused (spinlock's map as wq's)" \
	quietcore "wq's .* lacks 1 function name(s) the analyzer matches in stacks, the first drain_local_pages_wq" \
	"$check" --map "$fx" wq
ktap_finish
