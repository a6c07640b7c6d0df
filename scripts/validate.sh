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
jq_error() { printf '%s\n' "$1" | head -n1 | sed 's/^jq: error (at [^)]*): //'; }
# The JSON text: the file itself, or run.txt's lines as an object.
src=$file
if [ "$kind" = run-txt ]; then
	src=$(mktemp)
	trap 'rm -f "$src"' EXIT
	out=$(awk -f "$QC_ROOT/scripts/run-txt.awk" "$file" 2>&1 > "$src") || fail "$(jq_error "$out")"
fi
# One jq reads the text twice: as the parser's events, for duplicate keys
# (a parsed object keeps the last copy), then parsed, against the schema.
out=$(jq -n -r --stream -L "$QC_ROOT/scripts" --slurpfile doc "$src" --slurpfile schema "$schema" \
	'include "validate"; [inputs] as $ev
	 | if has_duplicate($ev[]; $doc) | not then validate($doc; $schema[0])
	   else duplicate($ev[]) as $d | if $d == null then "a key is given twice" else duplicate_text($d) end end' \
	"$src" 2>&1) || fail "is not JSON ($(jq_error "${out#"jq: Bad JSON in --slurpfile doc $src: "}"))"
[ "$out" = ok ] || fail "$out"
