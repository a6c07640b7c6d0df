#!/bin/sh
# Every link to a kept run in README.md and docs/ resolves: a figure's run
# id is its evidence, so a link to a run that results/ does not hold is a
# claim without it. Checked the way a Markdown viewer follows a relative
# link: from the file's own directory. And README.md stays a five-minute
# read: at most 200 lines (the rest lives in docs/).
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
ktap_plan 3

# broken FILE...: "FILE:TARGET" for each "](...results/...)" link of the
# FILEs whose target (without its #anchor) does not exist; the count of
# links checked in $checked
broken() {
	checked=0
	for f in "$@"; do
		for target in $(grep -o '](\(\.\./\)*results/[^)]*)' "$f" | sed 's|^](||; s|)$||; s|#.*||'); do
			checked=$((checked + 1))
			[ -e "$(dirname "$f")/$target" ] || printf ' %s:%s' "$f" "$target"
		done
	done
}

bad=$(broken "$root/README.md" "$root"/docs/*.md)
broken "$root/README.md" "$root"/docs/*.md >/dev/null
ktap_check "every results/ link in README.md and docs/ resolves ($checked links${bad:+; broken:$bad})" \
	[ -z "$bad" ] && [ "$checked" -gt 0 ]
# (the check itself: a link to a run that is not there is found)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs" "$tmp/results/20000101-000000"
printf 'a [kept run](../results/20000101-000000) and [a lost one](../results/19990101-000000/report.md#answer)\n' \
	> "$tmp/docs/x.md"
bad=$(broken "$tmp/docs/x.md")
ktap_check "of two links, the one to a run results/ does not hold is found (${bad# })" \
	[ "$bad" = " $tmp/docs/x.md:../results/19990101-000000/report.md" ]
lines=$(wc -l < "$root/README.md")
ktap_check "README.md is at most 200 lines ($lines)" [ "$lines" -le 200 ]
ktap_finish
