#!/bin/sh
# check-names.sh [--map SYSTEM.MAP] VARIANT [FLAVOUR] [SCENARIO]: every
# function name the analyzer matches in a variant's stacks is a function of
# that build: the drain's (verdict-policy.json's drain_functions), RCU's
# forcing and the lock hand-offs (qc-analyze --names), and in the audit
# scenario the "#path" functions of the variant's audit list. A stack frame
# matches by base name, so a compiler's clone (.isra.N, .constprop.N,
# .part.N, .cold) of the name counts as the name. A name the build lacks is
# refused in one line, unless tracing/names-absent.list declares it absent
# on that variant (and then the build must lack it: a stale declaration is
# refused too). Without --map, the variant's own build's System.map
# (scripts/build.sh). The probe lists, whose names must be exact (a probe
# cannot take a clone's arguments), are checked by qc_check_probes
# (lib/probes.sh).
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/plugin.sh"
. "$here/lib/variants.sh"
. "$here/lib/probes.sh"
. "$here/lib/policy.sh"
map=
if [ "${1:-}" = --map ]; then map=${2:?usage: check-names.sh [--map SYSTEM.MAP] VARIANT [FLAVOUR] [SCENARIO]}; shift 2; fi
variant=${1:?usage: check-names.sh [--map SYSTEM.MAP] VARIANT [FLAVOUR] [SCENARIO]}
flavour=${2:-} scenario=${3:-}
[ -n "$map" ] || map=$(qc_system_map "$variant" "$flavour")
[ -r "$map" ] || die "cannot read the System.map $map"
absent=$QC_ROOT/tracing/names-absent.list
need_cmd make jq awk
make -s -C "$QC_ROOT/tracing" >/dev/null 2>&1 || die "the trace analyzer does not build: run make -C tracing to see why"

# "LIST NAME" for each name, LIST saying where it is defined.
names() {
	qc_drain_functions | tr ',' '\n' | sed 's|^|drain_functions(tracing/verdict-policy.json) |'
	"$QC_ROOT/tracing/qc-analyze" --names | sed 's|^rcu_forcers |rcu_forcers(tracing/origins.c) |;
		s|^untraced_runners |untraced_runners(tracing/origins.c) |;
		s|^rcu_runner |rcu_runner(tracing/origins.c) |;
		s|^lock_handoff |lock_handoff(tracing/explain.c) |'
	if [ "$scenario" = audit ]; then
		_l=tracing/probes/$(qc_variant_audit "$variant").list
		sed -n 's/^#path [^ ]* //p' "$QC_ROOT/$_l" | tr ' ' '\n' | sed "/^\$/d; s|^|#path($_l) |"
	fi
}
# One awk: the map's text symbols by base name, the declarations for this
# variant (a glob on the variant's name), then each name. It prints the
# first problem, "missing N LIST NAME" or "stale LIST NAME", else
# "ok CHECKED ABSENT".
verdict=$(names | awk -v map="$map" -v decl="$absent" -v variant="$variant" '
	function glob(p) { gsub(/[.+^$(){}|\\]/, "\\\\&", p); gsub(/\*/, ".*", p); gsub(/\?/, ".", p); return "^" p "$" }
	BEGIN {
		while ((getline l < map) > 0) {
			split(l, w, " ")
			if (w[2] !~ /^[tT]$/) continue
			b = w[3]
			while (sub(/(\.(isra|constprop|part)\.[0-9]+|\.cold)$/, "", b)) ;
			have[b] = 1
		}
		while ((getline l < decl) > 0) {
			sub(/#.*/, "", l)
			if (split(l, w, " ") >= 2 && variant ~ glob(w[1])) declared[w[2]] = 1
		}
	}
	{ n++ }
	!($2 in have) && !($2 in declared) { missing++; if (!first) first = $1 " " $2 }
	($2 in have) && ($2 in declared) && !stale { stale = $1 " " $2 }
	!($2 in have) && ($2 in declared) { absent++ }
	END {
		if (missing) print "missing", missing, first
		else if (stale) print "stale", stale
		else print "ok", n, absent + 0
	}')
# shellcheck disable=SC2086 # the awk's answer, as words
set -- $verdict
case $1 in
missing)
	die "$variant's $map lacks $2 function name(s) the analyzer matches in stacks, the first $4 ($3), nor a clone of it: fix the list, or declare it absent for $variant in tracing/names-absent.list with why" ;;
stale)
	die "tracing/names-absent.list declares $3 ($2) absent on $variant, but $map has it: drop that declaration" ;;
ok)
	echo "$variant: the $2 function names the analyzer matches in stacks are in $map ($3 declared absent)" ;;
*)
	die "check-names.sh: the check of $map gave no answer ($verdict)" ;;
esac
