# probes.sh: a build's System.map, and the probe lists the guest will
# define (tracing/probes/) checked against it before the guest boots.
# Needs paths.sh, log.sh and variants.sh.
# shellcheck shell=sh

qc_system_map() {
	m=$(qc_build_dir "$1" "${2:-}")/System.map
	[ -f "$m" ] || die "no System.map for $1 in $(dirname "$m"): build it (scripts/build.sh $1)"
	echo "$m"
}
# qc_check_probes VARIANT FLAVOUR SCENARIO: every function the probe lists
# the guest will define probe is a function of its build, by the build's
# System.map: the send-side list (qc_variant_sends) and the variant's exposure probes
# in every guest, its audit list in the audit's. A name the tree renamed or
# the compiler inlined is refused in one line before the guest boots, not
# by the guest's kprobe_events minutes later. A name is exact: where the
# build has only a compiler's clone of it (NAME.isra.N, .constprop.N,
# .part.N), the refusal names the clone, and the tree's own list must
# probe the clone with its own argument spec (a clone may take its
# arguments in other registers, or drop some; a .cold part is no entry).
qc_check_probes() {
	_map=$(qc_system_map "$1" "$2") || exit 1
	_lists="tracing/probes/$(qc_variant_sends "$1").list tracing/probes/$1.list"
	[ "$3" != audit ] || _lists="$_lists tracing/probes/$(qc_variant_audit "$1").list"
	# Each list's functions in sort -u order, after a line "@ LIST"; one
	# awk reads the map's functions once and names the first one it lacks,
	# "LIST FUNCTION" (an awk a function read a map of ~100,000 lines each
	# time).
	_missing=$(for _l in $_lists; do
			echo "@ $_l"
			sed -n 's/^[pr]:[^ ]* \([^ ]*\).*/\1/p' "$QC_ROOT/$_l" | sort -u
		done | awk -v map="$_map" '
		BEGIN {
			while ((getline l < map) > 0) {
				split(l, w)
				if (w[2] !~ /^[tT]$/) continue
				fn[w[3]] = 1
				b = w[3]
				if (sub(/\.(isra|constprop|part)\.[0-9]+$/, "", b)) clone[b] = w[3]
			}
		}
		$1 == "@" { list = $2; next }
		NF && !($1 in fn) { print list, $1, clone[$1]; exit }')
	[ -z "$_missing" ] || {
		# shellcheck disable=SC2086 # "LIST FUNCTION [CLONE]": words
		set -- "$1" "$2" $_missing
		[ -z "${5:-}" ] ||
			die "$3 probes $4, which the $1${2:+ ($2)} build has only as the compiler's clone $5: probe $5 in that tree's list, with the argument spec its code takes"
		die "$3 probes $4, which the $1${2:+ ($2)} build does not have (not a function in $_map): name the function its tree has"
	}
}
