#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# The isolation test as a LAVA job (docs/lava.md), under TCG here:
#   the console as the way home: a spinlock hammer guest booted by run.sh
#     with qc.results=console; scripts/lava-fetch.sh makes its console log
#     a run whose every guest file matches, by sha256, what the guest wrote
#     to its results disk, and whose verdict is the disk's;
#   the job: make lava-job for spinlock (and for an x86 board, both held to
#     LAVA's own strict job schema; what a lab cannot run refused),
#     lava-run'd with no server; its test
#     cases, one per isolated CPU and figure, carry what the host's
#     analysis of that same boot (lava-fetch.sh of lava-run's log) says:
#     the drain calls that reached the CPU, its largest latency, 3 windows;
#   a server's raw job log is read as lava-run's output is;
#   refusals: a log whose block is missing, truncated or corrupt is refused
#     with one line, and no run is made.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QC_RESULTS="$scratch/results"
. "$root/common/contract.sh"

ktap_require qemu-system-x86_64 gcc make jq cpio lava-run
[ "$(id -u)" -eq 0 ] || ktap_skip_all "lava-run needs root (CI runs make test as root)"
ktap_plan 20
ktap_build_boots

# The rig's own boot, its results home both ways.
ktap_guest "spinlock hammer guest with qc.results=console ran and was judged" \
	-V spinlock --no-build -s hammer -d 5 --param results=console
rig=$GUEST
fetched=$("$root/scripts/lava-fetch.sh" "$rig/$QC_CONSOLE" 2>"$scratch/fetch.log") || fetched=/nonexistent
ktap_check "lava-fetch.sh made its console log a judged run" test -f "$fetched/$QC_STATUS"
ktap_diag "$(grep 'results block' "$scratch/fetch.log")"
# The block's own file list, decoded here (not by lava-fetch.sh).
tr -d '\r' < "$rig/$QC_CONSOLE" | awk -v b="$QC_BLOCK_BEGIN" -v e="$QC_BLOCK_END" \
	'index($0, b " ") == 1 { on = 1; next } $0 == e { on = 0 } on' | base64 -d 2>/dev/null | tar -tzf - 2>/dev/null | sed -n 's|^\./\(..*[^/]\)$|\1|p' > "$scratch/files"
same() {
	[ "$(wc -l < "$scratch/files")" -ge 20 ] || return 1
	while read -r f; do
		[ "$(sha256sum < "$rig/$f")" = "$(sha256sum < "$fetched/$f")" ] || { ktap_diag "$f differs"; return 1; }
	done < "$scratch/files"
}
ktap_check "its $(wc -l < "$scratch/files") guest files match the results disk's by sha256" same
verdict() { jq -r '.variants.spinlock.verdict' "$1/../$QC_SUMMARY" 2>/dev/null; }
v=$(verdict "$rig")
ktap_check "the console's run and the disk's have one verdict ($v, $(verdict "$fetched"))" \
	sh -c "[ -n '$v' ] && [ '$v' != null ] && [ '$v' = '$(verdict "$fetched")' ]"

# The LAVA job, run by LAVA's own dispatcher.
job=$(make -s -C "$root" lava-job VARIANT=spinlock DURATION=5 OUT="$scratch/job.yaml" 2>"$scratch/job.log")
ktap_check "make lava-job wrote the job and its rendered qemu device" \
	test -s "$scratch/job.yaml" -a -s "$scratch/job.device.yaml" -a "$job" = "$scratch/job.yaml"
make -s -C "$root" lava-job VARIANT=spinlock DEVICE=x86-board OUT="$scratch/board.yaml" \
	URLS="https://lab.example/bzImage https://lab.example/initramfs.cpio" >/dev/null 2>&1
schema() {
	/usr/bin/python3 -c 'import sys, yaml
from lava_common.schemas import validate
for f in sys.argv[1:]:
    validate(yaml.safe_load(open(f)), strict=True)' "$@" 2>"$scratch/schema.log"
}
ktap_check "both jobs (qemu, x86-board) pass LAVA's strict job schema" schema "$scratch/job.yaml" "$scratch/board.yaml"
ktap_diag "$(tail -n 1 "$scratch/schema.log")"
# What a lab cannot run is refused with one line.
expect_one_error "lava-job.sh refuses an unknown device" quietcore "one of qemu, x86-board" \
	"$root/scripts/lava-job.sh" --device vm --out "$scratch/x.yaml"
expect_one_error "lava-job.sh refuses an x86-board job without URLs" quietcore "needs --urls" \
	"$root/scripts/lava-job.sh" --device x86-board --out "$scratch/x.yaml"
expect_one_error "lava-job.sh refuses the audit scenario (two NUMA nodes)" quietcore "NUMA" \
	"$root/scripts/lava-job.sh" --scenario audit --out "$scratch/x.yaml"
t=$(date +%s)
lava-run --job-id 1 --output-dir "$scratch/lava" --device "$scratch/job.device.yaml" "$scratch/job.yaml" \
	> "$scratch/lava.log" 2>&1
# lava-run's records: one JSON object a line (a few are YAML only: skipped)
res() { jq -R -c "(try fromjson catch empty) | select(.lvl == \"results\") | .msg | $1" "$scratch/lava.log" 2>/dev/null; }
ktap_check "lava-run ran the job to a pass in $(($(date +%s) - t)) s" test "$(res 'select(.case == "job") | .result')" = '"pass"'
cases=$(res 'select(.definition == "quietcore-spinlock-hammer") | "\(.case) \(.result) \(.measurement) \(.units)"' | tr -d '"')
ktap_check "9 test cases, 3 per isolated CPU, each passed with a measurement and units" \
	test "$(echo "$cases" | awk 'NF == 4 && $2 == "pass" && $3 != "null"' | wc -l)" -eq 9
ktap_diag "$cases"
lava=$("$root/scripts/lava-fetch.sh" "$scratch/lava.log" 2>"$scratch/fetch2.log") || lava=/nonexistent
ktap_check "lava-fetch.sh made lava-run's log a judged run ($(verdict "$lava"))" \
	sh -c "grep -qx ok '$lava/$QC_STATUS' && jq -e '.variants.spinlock.verdict | strings' '$lava/../$QC_SUMMARY' >/dev/null"
ktap_diag "$(grep 'results block' "$scratch/fetch2.log")"
case_of() { echo "$cases" | awk -v c="$1" '$1 == c { print $3 }'; }
drains_ok() {
	for c in 1 2 3; do
		want=$(jq -r ".cpus.\"$c\".exposure.drains" "$lava/$QC_ANALYSIS.json" 2>/dev/null)
		[ -n "$want" ] && [ "$(case_of "cpu${c}_drains_reached")" = "$want" ] || return 1
	done
}
ktap_check "each CPU's drains_reached is the host analyzer's exposure.drains" drains_ok
max_ok() {
	for c in 1 2 3; do
		want=$(jq -r "[.thread[] | select(.cpu == $c) | .max] | first" "$lava/oslat.json" "$lava/refill.json" 2>/dev/null | grep -v null | head -n1)
		[ -n "$want" ] && awk -v a="$(case_of "cpu${c}_max_latency")" -v b="$want" 'BEGIN { exit !(a + 0 == b + 0) }' || return 1
	done
}
ktap_check "each CPU's max_latency is its oslat or refill JSON's max" max_ok
ktap_check "each CPU's windows_complete is 3 (hammer, quiet, self-test)" \
	test "$(echo "$cases" | awk '$1 ~ /_windows_complete$/ && $3 == 3' | wc -l)" -eq 3

# A server's job log (lavacli jobs logs --raw): each record after "- ".
sed 's/^/- /' "$scratch/lava.log" > "$scratch/server.log"
server=$("$root/scripts/lava-fetch.sh" "$scratch/server.log" 2>/dev/null) || server=/nonexistent
ktap_check "a server's raw job log is read the same way (verdict $(verdict "$server"))" \
	sh -c "grep -qx ok '$server/$QC_STATUS' && [ '$(verdict "$server")' = '$(verdict "$lava")' ]"

# Refusals: one line, and no run made.
runs() { find "$QC_RESULTS" -mindepth 1 -maxdepth 1 | wc -l; }
before=$(runs)
grep -v "\"msg\": \"$QC_BLOCK_BEGIN " "$scratch/lava.log" > "$scratch/missing.log"
expect_one_error "a log without the results block is refused" quietcore "holds no results block" \
	"$root/scripts/lava-fetch.sh" "$scratch/missing.log"
grep -v "\"msg\": \"$QC_BLOCK_END\"" "$scratch/lava.log" > "$scratch/truncated.log"
expect_one_error "a block without its end line is refused" quietcore "truncated" \
	"$root/scripts/lava-fetch.sh" "$scratch/truncated.log"
# the block's first line of base64 begun with other characters: still
# base64 of the same size, another sha256
sed "/\"msg\": \"$QC_BLOCK_BEGIN /{n;s/\"msg\": \"..../\"msg\": \"AAAA/;}" "$scratch/lava.log" > "$scratch/corrupt.log"
expect_one_error "a block with one line changed is refused by its sha256" quietcore "sha256" \
	"$root/scripts/lava-fetch.sh" "$scratch/corrupt.log"
ktap_check "no refused log made a run" test "$(runs)" -eq "$before"
ktap_finish
