#!/bin/sh
# test-analyzer-table.sh: KTAP tests of qc-analyze's event table
# (tracing/handlers.c): every event the guest records has a row, and a
# trace the table cannot read is refused in one line, never counted with an
# event silently neutral or a field read as zero. The unreadable traces are
# made from tests/fixtures/traces/planted.dat: `trace-cmd convert` to an
# uncompressed version 6 file, whose event formats are plain text, then one
# name in a format changed to another of the same length. Boots nothing.
cd "$(dirname "$0")/.." || exit 2
. tests/ktap.sh
QC_ROOT=$(pwd)
. scripts/lib/paths.sh

QA=tracing/qc-analyze
ROWS=tracing/handlers.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ktap_require make pkg-config jq trace-cmd
make -s -C tracing check-deps >/dev/null 2>&1 ||
	ktap_skip_all "libtracecmd-dev, libtraceevent-dev or libtracefs-dev is missing (sudo make setup installs them)"
make -s -C tracing >/dev/null 2>&1 || ktap_bail_out "make -C tracing fails"
ktap_plan 9

# The rows, "system event-pattern" per line, as handlers.c writes them:
# { "system", "pattern", ... } (QC_PROOF_GROUP is "qcaudit", analyze.h).
sed -n 's/^[[:space:]]*{ "\([a-z_]*\)", "\([^"]*\)",.*/\1 \2/p; s/^[[:space:]]*{ QC_PROOF_GROUP, "\([^"]*\)",.*/qcaudit \1/p' \
	"$ROWS" > "$tmp/rows"
# has_row SYSTEM EVENT: a row matches (EVENT "*": any row of SYSTEM).
has_row() {
	while read -r _sys _pat; do
		[ "$_sys" = "$1" ] || continue
		[ "$2" = "*" ] && return 0
		# shellcheck disable=SC2254 # the row's pattern is a glob
		case $2 in $_pat) return 0 ;; esac
	done < "$tmp/rows"
	return 1
}
# What the guest records: events.list, the window markers, the traced IPI
# callbacks, and the kprobe groups of tracing/probes/*.list.
{
	grep -v '^#' tracing/events.list | grep ':' | awk '{ print $1 }'
	echo ftrace:print
	echo ftrace:function
	sed -n 's|^p:\([a-z_]*\)/\([a-z_]*\) .*|\1:\2|p' tracing/probes/*.list
} | sort -u > "$tmp/recorded"
missing=
while IFS=: read -r sys ev; do
	has_row "$sys" "$ev" || missing="$missing $sys:$ev"
done < "$tmp/recorded"
if [ "$(wc -l < "$tmp/rows")" -ge 20 ] && [ -z "$missing" ]; then
	ktap_ok "every event the guest records has a row in tracing/handlers.c ($(wc -l < "$tmp/recorded") names, $(wc -l < "$tmp/rows") rows)"
else
	ktap_not_ok "every event the guest records has a row in tracing/handlers.c"
	ktap_diag "rows read: $(wc -l < "$tmp/rows"); without a row:$missing"
fi

# Every row that counts says where its interruptions' senders are sought
# (.start, origins.h enum origin_start), so that no counted cause reaches
# origins.c without a class to start from; the analyzer refuses to run
# otherwise (evtable.c rows_check). Rows may span lines: one per row here.
# unstarted FILE: the rows of FILE with a count handler and no .start.
unstarted() {
	awk '/^\t\{ "|^\t\{ QC_/ { row = ""; open = 1 }
		open { row = row $0 }
		open && /\},[[:space:]]*$/ { if (row ~ /\.count = / && row !~ /\.start = START_/) print row; open = 0 }' "$1"
}
sed 's/, \.start = START_WORK },/ },/' "$ROWS" > "$tmp/handlers-unstarted.c"
if [ -z "$(unstarted "$ROWS")" ] && [ "$(unstarted "$tmp/handlers-unstarted.c" | grep -c workqueue_execute_start)" = 1 ]; then
	ktap_ok "every row with a count handler declares its .start (and one that drops it is found)"
else
	ktap_not_ok "every row with a count handler declares its .start (and one that drops it is found)"
	ktap_diag "without one: $(unstarted "$ROWS" | head -n 3)"
fi

# The version 6 copy reads as the original does.
args="--cpus 1-3 --task oslat"
# (kept in the cache, ktap_tracecmd_kept: converting it each run was a
# tenth of a second of CPU)
planted=tests/fixtures/traces/planted.dat
ktap_tracecmd_kept convert "$planted" --file-version 6 --compression none -o planted-v6.dat ||
	ktap_bail_out "trace-cmd convert cannot write a version 6 copy of planted.dat"
v6=$KTAP_KEPT/planted-v6.dat
# shellcheck disable=SC2086 # $args is words
"$QA" $args --json "$tmp/orig.json" --quiet "$planted" &&
	"$QA" $args --json "$tmp/v6.json" --quiet "$v6" 2>"$tmp/v6.err"
# (one jq: the two analyses as jq -c prints them, but for the trace's name)
ktap_check "the uncompressed version 6 copy of planted.dat counts as the original (31 interruptions)" \
	test "$(jq -n --slurpfile v6 "$tmp/v6.json" --slurpfile orig "$tmp/orig.json" \
		'($v6 | map(del(.trace) | tojson)) == ($orig | map(del(.trace) | tojson)) and ($v6 | map(.total)) == [31]' 2>/dev/null)" = true

# patched FROM TO OUT [V6]: V6 (default $v6) with the one occurrence of
# FROM replaced by TO.
patched() {
	_src=${4:-$v6}
	[ "$(LC_ALL=C grep -c -a -e "$1" "$_src")" = 1 ] || ktap_bail_out "'$1' is not in $_src exactly once"
	LC_ALL=C sed "s/$1/$2/" "$_src" > "$3"
}
patched 'name: sched_wakeup$' 'name: sched_wakeuq' "$tmp/norow.dat"
patched 'field:pid_t next_pid;' 'field:pid_t next_piq;' "$tmp/nofield.dat"

# shellcheck disable=SC2086
expect_one_error "a record of an event with no row (sched:sched_wakeuq) is refused, not neutral" \
	qc-analyze "has a record of sched:sched_wakeuq .*no row for: give it a handler, or mark it QC_NEUTRAL" \
	"$QA" $args --json "$tmp/x.json" --quiet "$tmp/norow.dat"
ktap_check "... and writes no JSON" test ! -e "$tmp/x.json"
# shellcheck disable=SC2086
expect_one_error "a format without a field its row reads (sched_switch's next_pid) is refused, not read as 0" \
	qc-analyze "the format of sched:sched_switch in this trace has no field \"next_pid\"" \
	"$QA" $args --json "$tmp/x.json" --quiet "$tmp/nofield.dat"

# The send side (tracing/origins.c), on a version 6 copy of origins-wq.dat:
# a field the trace has but that cannot be read refuses the trace (here
# csd_many's mask, its size made 3, which libtraceevent does not read),
# never read as 0: no target CPU, no send. And a send the guest's stack
# triggers select (origin-stacks.list) must carry its stack: with
# native_smp_send_reschedule renamed in the trace's kallsyms, no
# reschedule IPI's stack starts at its probed function, so none is
# attached, as when the triggers recorded nothing.
ktap_tracecmd_kept convert tests/fixtures/traces/origins-wq.dat --file-version 6 --compression none \
	-o origins-wq-v6.dat || ktap_bail_out "trace-cmd convert cannot write a version 6 copy of origins-wq.dat"
ov6=$KTAP_KEPT/origins-wq-v6.dat
t=$(printf '\t')
patched "field:u64 mask;${t}offset:16;${t}size:8;" "field:u64 mask;${t}offset:16;${t}size:3;" "$tmp/badmask.dat" "$ov6"
patched ' T native_smp_send_reschedule$' ' T native_smp_send_reschedulf' "$tmp/nostack.dat" "$ov6"
oargs="--cpus 1-3 --task oslat,refill --drain-functions drain_all_pages,__drain_all_pages"
# shellcheck disable=SC2086 # $oargs is words
expect_one_error "a send field the trace has but cannot read (csd_many's mask) is refused, not read as 0" \
	qc-analyze 'field "mask" of qcsend:csd_many could not be read in [0-9]* records, the first on CPU [0-9]' \
	"$QA" $oargs --json "$tmp/x.json" --quiet "$tmp/badmask.dat"
# shellcheck disable=SC2086
expect_one_error "reschedule IPIs sent to isolated CPUs without their stacks refuse the trace, not read as no one's" \
	qc-analyze '[0-9]* sends that a stack trigger selects carry no kernel stack, the first a qcsend:resched on CPU [0-9]' \
	"$QA" $oargs --json "$tmp/x.json" --quiet "$tmp/nostack.dat"
# The same trace, its window cut to begin right after a reschedule IPI
# was sent to CPU 1 (at 37798403150 ns) and to end once CPU 1 took it: no
# send in the window lacks its stack, but the sender of one of its
# interruptions does, and that refuses the trace too.
# shellcheck disable=SC2086
expect_one_error "a sender just before the window, without its stack, of an interruption in it refuses the trace" \
	qc-analyze "1 sender of the window's interruptions that a stack trigger selects carries no kernel stack, the first a qcsend:resched on CPU 0 at 37798403150 ns" \
	"$QA" $oargs --json "$tmp/x.json" --quiet --window 37798403151:37798472800 "$tmp/nostack.dat"
ktap_finish
