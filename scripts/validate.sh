#!/bin/sh
# validate.sh KIND FILE [FIX]: FILE against its declared schema,
# docs/schemas/KIND.json (the format and the list of kinds: the README.md
# there), by the one validator, scripts/validate.jq: types, ranges, NaN
# and infinities, the sums a file states, and duplicate keys. Silent on
# success; otherwise one "quietcore: error:" line naming FILE, where the
# problem is, and FIX (what to do) when given, and exit 1.
# run.txt (KIND run-txt) is read as an object of its "key: value" lines.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
kind=${1:?usage: validate.sh KIND FILE [FIX]} file=${2:?usage: validate.sh KIND FILE [FIX]} fix=${3:-}
schema=$QC_ROOT/docs/schemas/$kind.json
[ -f "$schema" ] || die "no schema '$kind' in docs/schemas/: choose one of $(ls "$QC_ROOT/docs/schemas" | sed -n 's/\.json$//p' | tr '\n' ' ')"
fail() { die "$file: $1 (schema docs/schemas/$kind.json)${fix:+: $fix}"; }
[ -f "$file" ] || fail "is missing"
as_json() {
	if [ "$kind" = run-txt ]; then awk -f "$QC_ROOT/scripts/run-txt.awk" "$file"; else cat "$file"; fi
}
jq_error() { printf '%s\n' "$1" | head -n1 | sed 's/^jq: error (at [^)]*): //'; }
json=$(as_json 2>&1) || fail "$(jq_error "$json")"
# Duplicate keys from the parser's events, then the schema.
out=$(printf '%s\n' "$json" | jq -n -r --stream -L "$QC_ROOT/scripts" \
	'include "validate"; duplicate(inputs) as $d | if $d == null then "ok" else duplicate_text($d) end' 2>&1) ||
	fail "is not JSON ($(jq_error "$out"))"
[ "$out" = ok ] || fail "$out"
out=$(printf '%s\n' "$json" | jq -n -r -L "$QC_ROOT/scripts" --slurpfile schema "$schema" \
	'include "validate"; validate([inputs]; $schema[0])' 2>&1) || fail "is not JSON ($(jq_error "$out"))"
[ "$out" = ok ] || fail "$out"
