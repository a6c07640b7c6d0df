#!/bin/sh
# lava-fetch.sh LOG: make a guest's results, carried home on its console
# (qc.results=console), into results/<run-id>/<variant>/, as run.sh leaves
# them: analysed, judged and ready for make report.
#
# LOG is a LAVA job's log, as lava-run prints it or as a server gives it
# ({"dt": ..., "lvl": "target", "msg": LINE} records, one a line, "- "
# before each in a server's), or a guest's plain console log. The results
# block (common/contract.sh) must be there once, whole, with the size and
# sha256 its first line names: anything else is refused with one line and
# nothing is written. Prints the guest's result directory.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/runs.sh"
. "$here/lib/console.sh"
. "$here/lib/plugin.sh"
. "$here/lib/variants.sh"

[ $# -eq 1 ] || die "usage: lava-fetch.sh LOG (a LAVA job log, or a guest's console log)"
log=$1
[ -f "$log" ] && [ -r "$log" ] || die "no readable log '$log'"
need_cmd jq base64 sha256sum tar gzip
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The console's lines: a LAVA log's "target" records, or the log itself.
if grep -q '^\(- \)\?{"dt": ' "$log"; then
	sed 's/^- //' "$log" | jq -R -r '(try fromjson catch empty) | select(.lvl == "target" and (.msg | type) == "string") | .msg' > "$tmp/console"
else
	tr -d '\r' < "$log" > "$tmp/console"
fi

# The block, decoded: exactly one begin line, then base64 up to the end line.
n=$(grep -c "^$QC_BLOCK_BEGIN " "$tmp/console" || true)
[ "$n" -gt 0 ] || die "$log holds no results block ('$QC_BLOCK_BEGIN'): was the guest booted with qc.results=console, and did it get that far?"
[ "$n" -eq 1 ] || die "$log holds $n results blocks: give one job's log"
# shellcheck disable=SC2046 # the begin line's words
set -- $(grep "^$QC_BLOCK_BEGIN " "$tmp/console")
sum=${2:-} bytes=${3:-}
case $sum in *[!0-9a-f]*|'') die "$log: the results block's first line names no sha256" ;; esac
case $bytes in ''|*[!0-9]*) die "$log: the results block's first line names no size" ;; esac
awk -v b="$QC_BLOCK_BEGIN" -v e="$QC_BLOCK_END" '
	index($0, b " ") == 1 { on = 1; next }
	on && $0 == e { done = 1; exit }
	on { print }
	END { exit !done }' "$tmp/console" > "$tmp/block.b64" ||
	die "$log: the results block is truncated (no '$QC_BLOCK_END' line): the job ended or timed out while the guest was printing it"
base64 -d < "$tmp/block.b64" > "$tmp/results.tgz" 2>/dev/null ||
	die "$log: the results block is not valid base64 (console noise inside it?)"
got=$(wc -c < "$tmp/results.tgz")
[ "$got" -eq "$bytes" ] || die "$log: the results block decodes to $got bytes, not the $bytes its first line names"
got=$(sha256sum < "$tmp/results.tgz")
[ "${got%% *}" = "$sum" ] || die "$log: the results block's sha256 is ${got%% *}, not the $sum its first line names"
mkdir "$tmp/tree"
tar -xzf "$tmp/results.tgz" -C "$tmp/tree" 2>/dev/null || die "$log: the results block is not a gzipped tar"
[ -f "$tmp/tree/$QC_GUEST_JSON" ] && [ -f "$tmp/tree/$QC_EXIT_STATUS" ] ||
	die "$log: the results block lacks $QC_GUEST_JSON or $QC_EXIT_STATUS: not a quietcore guest's results"

# What the guest was asked to do, from its own kernel command line.
cmdline=$(jq -r .cmdline "$tmp/tree/$QC_GUEST_JSON")
param() { for a in $cmdline; do case $a in "qc.$1="*) echo "${a#*=}"; return ;; esac; done; }
variant=$(param probes) scenario=$(param scenario) duration=$(param duration)
isolated=$(param isolated) refill=$(param refill) timeout=$(param timeout) lab=$(param lab)
[ "$refill" != none ] || refill=
qc_check_variant "$variant"
[ -n "$scenario" ] && [ -n "$duration" ] && [ -n "$isolated" ] ||
	die "$log: the guest's command line lacks qc.scenario, qc.duration or qc.isolated"
rc=$(cat "$tmp/tree/$QC_EXIT_STATUS")

# The run, as run.sh makes one: the guest's tree, the console without the
# block (it is the tree), what the boot was; then the same checks.
run_id=$(qc_new_run)
qc_run_txt "$QC_RESULTS/$run_id" "$variant" "$scenario" "$duration" "$isolated" "$refill"
out=$QC_RESULTS/$run_id/$variant
mkdir "$out"
qc_status_begin "$out/$QC_STATUS"
trap 'rm -rf "$tmp"; [ -e "$QC_RESULTS/$run_id/$QC_STATUS" ] || cp "$out/$QC_STATUS" "$QC_RESULTS/$run_id/$QC_STATUS"' EXIT
cp -R "$tmp/tree/." "$out/"
awk -v b="$QC_BLOCK_BEGIN" -v e="$QC_BLOCK_END" 'index($0, b " ") == 1 { on = 1 } !on { print } on && $0 == e { on = 0 }' \
	"$tmp/console" > "$out/$QC_CONSOLE"
smp=$(jq -r .cpus_online "$tmp/tree/$QC_GUEST_JSON")
{
	echo "accel: ${lab:-lava}"
	echo "smp: $((${smp##*-} + 1))"
	echo "mem_mb: $(($(jq -r .mem_total_kb "$tmp/tree/$QC_GUEST_JSON") / 1024))"
	echo "kernel_cmdline: $cmdline"
	echo "lab_log: $log"
	echo "results_block_bytes: $bytes"
} > "$out/$QC_BOOT_PARAMS"
info "results block: $bytes bytes, $(wc -c < "$tmp/block.b64") on the console ($(($(wc -c < "$tmp/block.b64") / 11520 + 1)) s at 115200 baud)"
[ "$rc" -eq 0 ] 2>/dev/null ||
	die "guest scenario failed with exit $rc: see $out/$QC_SCENARIO_LOG ($(tail -n1 "$out/$QC_SCENARIO_LOG" 2>/dev/null | cut -c1-160))"
qc_check_console "$out" "$variant" "${timeout:-0}"
pokes=$(qc_check_text_patches "$out")
"$QC_ROOT/scripts/analyze.sh" "$out" "$isolated"
{
	echo "text_patches: $pokes"
	echo "variant: $variant"
	echo "scenario: $scenario"
	echo "duration_s: $duration"
	echo "kernel_tree: $(qc_variant_tree "$variant") $(qc_tree_version "$(qc_variant_tree "$variant")") + patches/$variant"
} >> "$out/$QC_BOOT_PARAMS"
echo ok > "$QC_STATUS_FILE"
cp "$out/$QC_STATUS" "$QC_RESULTS/$run_id/$QC_STATUS"
"$QC_ROOT/scripts/summarize.sh" "$QC_RESULTS/$run_id" >&2
info "results in $out"
echo "$out"
