#!/bin/sh
# test-origins.sh: the analyzer names the sender of every interruption
# (tracing/README.md, "Origins"), on real guest traces with the send-side
# probes (tests/fixtures/traces/README.md says how each was captured):
# the decoy's IPIs and work items are the decoy's, the self-test's planted
# ones the planter's with exact counts, wq's drain work items, barriers and
# IPIs the drain's, one IPI serving two senders' callbacks gives each its
# own, and no remote-type interruption is left without a sender. A trace
# without the send side says so and explains nothing. Boots nothing.
cd "$(dirname "$0")/.." || exit 2
. tests/ktap.sh

FX=tests/fixtures/traces
QA=tracing/qc-analyze
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ktap_plan 81
make -s -C tracing >/dev/null 2>&1 || ktap_bail_out "tracing/qc-analyze does not build"
drain_fns=$(jq -r '.drain_functions | join(",")' tracing/verdict-policy.json)
analyze() { "$QA" --cpus 1-3 --task oslat,refill --drain-functions "$drain_fns" --json "$tmp/$1.json" --explain "$tmp/$1.jsonl" --quiet "$FX/$2" 2>"$tmp/$1.err"; }
# vals NAME PROGRAM: the figures PROGRAM makes of NAME's analysis (.) and
# its explained interruptions ($x, slurped), an object of them, set as
# shell variables v_NAME_KEY, each compact JSON, FAIL where it failed
# (ktap_jq_vals).
vals() {
	ktap_jq_vals "$tmp/$1.json" "v_$1_" "def v(f): [try (f | tojson) catch \"FAIL\"] | join(\"\\n\"); $2" \
		--slurpfile x "$tmp/$1.jsonl"
}

ktap_check "origins-wq.dat (wq, hammer, decoy) is analysed with the send side" analyze wq origins-wq.dat
# The decoy (hammer/decoy.c): every IPI and work item of its on each CPU;
# wq's drain: its work items and barriers on the refill CPUs (2, 3), the
# drain's; one call-function vector that ran two senders' callbacks.
vals wq '
	# per CPU C: the drain work items and barriers, and those the drain sent
	def drain_items($c): [$x[] | select(.cpu == $c and (.cause == "workqueue:drain_local_pages_wq" or .cause == "workqueue:wq_barrier_func"))]
		| {n: length, drain: map(select(.drain and .senders[0].comm == "qc_hammer/0"
		and (.senders[0].stack | test("__drain_all_pages")))) | length};
	($x | [.[] | select(.cause | test("qc_decoy"))] | group_by(.cpu) |
	 map({cpu: .[0].cpu, n: length, decoy: map(select(.senders[0].comm == "qc_decoy" and
	 (.senders[0].stack | test("qc_decoy_fn")) and .drain == false)) | length})) as $decoy
	| ($x | [.[] | select(.cause | startswith("irq_vectors:call_function_single:"))] | group_by([.cpu, .vector_ns])
	 | map(select(length > 1 and ([.[].senders[0].comm] | unique | length) > 1)) | .[0]
	 | map({cb: (.cause | split(":")[2]), comm: .senders[0].comm})) as $batch
	| {probes: v(.origin_probes),
	   unknown: v([.cpus[] | .origins.classes.unknown]),
	   handoff: v([.cpus[] | .origins | [.drain, .drain_handoff]]),
	   handoff_ok: v([.cpus[] | .origins | [.drain, .drain_handoff]] | all(.[]; .[1] == 0) and any(.[]; .[0] > 0)),
	   decoy: v($decoy), decoy_ok: v($decoy | length == 3 and all(.n > 0 and .n == .decoy)),
	   got_2: v(drain_items(2)), got_2_ok: v(drain_items(2) | .n > 0 and .n == .drain),
	   got_3: v(drain_items(3)), got_3_ok: v(drain_items(3) | .n > 0 and .n == .drain),
	   items_2: v([$x[] | select(.cpu == 2 and .cause == "workqueue:drain_local_pages_wq")] | length),
	   items_3: v([$x[] | select(.cpu == 3 and .cause == "workqueue:drain_local_pages_wq")] | length),
	   reached_2: v(.cpus["2"].exposure.drains), reached_3: v(.cpus["3"].exposure.drains),
	   batch: v($batch),
	   batch_ok: v($batch | map(select((.cb == "qc_decoy_ipi" and .comm == "qc_decoy") or (.cb == "nohz_full_kick_func" and .comm == "qc_hammer/0"))) | length)}'
ktap_check "... its send-side probes are complete" test "$v_wq_probes" = '{"complete":true,"missing":null}'
ktap_check "no interruption without a sender on any CPU (unknown per CPU: $v_wq_unknown)" test "$v_wq_unknown" = '[0,0,0]'
ktap_check "wq's drain work items and IPIs are not lock hand-offs ([drain, hand-off] per CPU: $v_wq_handoff)" \
	test "$v_wq_handoff_ok" = true
ktap_check "each decoy interruption on CPUs 1-3 is the decoy's, none the drain's ($v_wq_decoy)" \
	test "$v_wq_decoy_ok" = true
for c in 2 3; do
	eval "got=\$v_wq_got_$c got_ok=\$v_wq_got_${c}_ok items=\$v_wq_items_$c reached=\$v_wq_reached_$c"
	ktap_check "CPU $c: every drain work item and barrier is the drain's ($got), drain items $items >= drains that reached it $reached" \
		test "$got_ok" = true -a "$items" -ge "$reached" -a "$reached" -gt 0
done
ktap_check "a vector serving the drain's nohz kick and the decoy's IPI names each one's sender ($v_wq_batch)" \
	test "$v_wq_batch_ok" = 2

# The self-test: 3 work items and 3 IPIs planted on each CPU by "sh".
ktap_check "origins-selftest-wq.dat is analysed with the send side" analyze st origins-selftest-wq.dat
vals st '
	# [cpu, counted, the planter'"'"'s] of the interruptions KIND planted
	def planted($kind): $x | [.[] | select(.cause | endswith($kind))] | group_by(.cpu) | map([.[0].cpu, length,
		(map(select(.senders[0].comm == "sh" and (.senders[0].stack | test("qc_plant_write")))) | length)]);
	{qc_planted_work: v(planted("qc_planted_work")), qc_planted_ipi: v(planted("qc_planted_ipi")),
	 unknown: v([.cpus[] | .origins.classes.unknown])}'
for kind in qc_planted_work qc_planted_ipi; do
	eval "got=\$v_st_$kind"
	ktap_check "$kind: 3 planted on each CPU, each the planter's ([cpu, counted, planter's]: $got)" \
		test "$got" = '[[1,3,3],[2,3,3],[3,3,3]]'
done
ktap_check "the self-test window: no interruption without a sender" \
	test "$v_st_unknown" = '[0,0,0]'

# A trace from before the send side: it says so, and explains nothing.
ktap_check "planted.dat (no send-side probes) is still counted" analyze old planted.dat
vals old '{probes: v(.origin_probes),
	probes_ok: v(.origin_probes.complete == false and (.origin_probes.missing | test("qcsend:"))),
	no_origins: v([.cpus[].origins] == [null, null, null]), explained: v($x | length)}'
ktap_check "... names the send-side event it lacks ($v_old_probes)" \
	test "$v_old_probes_ok" = true
ktap_check "... and has no origins for any CPU, nor an explained interruption" \
	test "$v_old_no_origins/$v_old_explained" = true/0
# A path followed through a kworker (audit-kworker-spinlock.dat: the
# contig_alloc trigger's synchronize_rcu_expedited() queues wait_rcu_exp_gp,
# whose kworker sends an rcu_exp_handler IPI to CPU 3), its analysis
# written through two pipes (kw.json and kw.jsonl what they carried): a
# --json or --explain target that is no regular file (/dev/null, a pipe)
# is written in place: renamed over, run as root, /dev/null would become
# a file (it did, once, this way).
mkfifo "$tmp/j" "$tmp/x"
# (a reader that never gets a writer gives up after 10 s: a fail, not a hang)
timeout 10 cat "$tmp/j" > "$tmp/kw.json" & timeout 10 cat "$tmp/x" > "$tmp/kw.jsonl" &
"$QA" --cpus 2-3 --task oslat,refill --window 129430654820:133132160378 --path-functions alloc_contig_range \
	--json "$tmp/j" --explain "$tmp/x" --quiet "$FX/audit-kworker-spinlock.dat" 2>"$tmp/kw.err"
wait
vals kw '{probes: v(.origin_probes), explained: v($x | length),
	own: v([.cpus[].origins.path]), path: v([.cpus[] | [.interruptions, .origins.path]]),
	via_work: v($x | [.[] | select(.path) | .senders[0] | (.comm | startswith("kworker/")),
		(.stack | test("alloc_contig_range") | not), (.via_work.stack | test("< alloc_contig_range <"))] | length == 3 and all)}'
ktap_check "a pipe as --json and --explain is written in place, still a pipe ($v_kw_explained lines explained)" \
	test -p "$tmp/j" -a -p "$tmp/x" -a "$v_kw_probes" = '{"complete":true,"missing":null}' -a -s "$tmp/kw.jsonl"
ktap_check "the kworker's IPI is on the trigger's path (own per CPU: $v_kw_own)" \
	test "$v_kw_path" = '[[0,0],[1,1]]'
ktap_check "... through its work item: the kworker's own stack lacks the trigger, its queueing's holds it" \
	test "$v_kw_via_work" = true
ktap_check "... and with no --path-functions nothing is counted as a path" \
	sh -c "'$QA' --cpus 2-3 --task oslat,refill --window 129430654820:133132160378 --json - '$FX/audit-kworker-spinlock.dat' 2>/dev/null |
		jq -e '[.cpus[].origins | has(\"path\")] == [false, false] and (.policy | has(\"path_functions\") | not)' >/dev/null"

# PREEMPT_RT (rt-handoff-spinlock-6.12-rt.dat, CPU 2): zone->lock is an
# rt_mutex, so the refill task that blocks on it while the drainer frees
# into the zone is woken by the drainer's unlock, a reschedule IPI whose
# sender's stack holds the drain; and
# rcuc/2, switched to right after each tick returns, is the tick's
# (tracing/README.md, "On PREEMPT_RT", rule 7), not a task of its own.
"$QA" --cpus 2 --task oslat,refill --window 42736000000:43395000000 \
	--drain-functions "$drain_fns" \
	--json "$tmp/rt.json" --explain "$tmp/rt.jsonl" --quiet "$FX/rt-handoff-spinlock-6.12-rt.dat" 2>"$tmp/rt.err"
vals rt '{by_cause: v(.cpus["2"].by_cause),
	counts: v(.cpus["2"] | [.interruptions, .by_cause["timer:tick_nohz_handler"], .by_cause["irq_vectors:reschedule"],
		.by_cause["irq_vectors:irq_work:nohz_full_kick_func"], (.by_cause | keys | any(startswith("sched:")))]),
	remote: v($x | [.[] | select(.class == "remote") | [.cause, (.senders[0].stack | test("rt_spin_unlock < drain_pages_zone <"))]]),
	handoff_by_cause: v(.cpus["2"].origins.drain_handoff_by_cause),
	handoff: v(.cpus["2"].origins | [.drain, .drain_handoff, .classes.unknown])}'
ktap_check "RT: CPU 2's 6 interruptions by cause, rcuc/2 inside the ticks ($v_rt_by_cause)" \
	test "$v_rt_counts" = '[6,3,2,1,false]'
ktap_check "RT: one reschedule sent by the drain, the lock hand-off (rt_spin_unlock < drain_pages_zone)" \
	test "$v_rt_remote" = '[["irq_vectors:reschedule",true]]'
ktap_check "... it is the drain's, and a lock hand-off: ($v_rt_handoff_by_cause)" \
	test "$v_rt_handoff" = '[1,1,0]'

# A sender's own frames end where an interrupt, an NMI or a softirq entered:
# a timer interrupt that hit the drainer and woke a task is not the drain's
# (crafted stacks in the shapes a 6.1 guest records: tests/origins-frames.c).
# (its three sources compiled through ccache: tests/ccache-cc.sh)
P="libtracecmd libtraceevent libtracefs"
QC_ROOT=$(pwd)
. scripts/lib/paths.sh
. tests/ccache-cc.sh
# shellcheck disable=SC2046,SC2086 # pkg-config's words; CC's, as make has them
ccache_cc ${CC:-cc} -Wall -Itracing -Icommon $(pkg-config --cflags $P) -o "$tmp/origins-frames" \
	tests/origins-frames.c tracing/origins.c common/qc-util.c $(pkg-config --libs $P) 2>"$tmp/frames.err" ||
	ktap_diag "tests/origins-frames.c does not build: $(head -n 3 "$tmp/frames.err")"
[ ! -x "$tmp/origins-frames" ] || "$tmp/origins-frames" > "$tmp/frames.out"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
	ktap_check "frames: $(sed -n "s/^\(not \)*ok $i //p" "$tmp/frames.out" 2>/dev/null)" grep -q "^ok $i " "$tmp/frames.out"
done
# Matching refuses what it would get silently wrong: a drain call that lost
# its return, an interruption with more senders than are kept (crafted
# records: tests/matching-bounds.c).
# shellcheck disable=SC2046,SC2086
ccache_cc ${CC:-cc} -Wall -Itracing -Icommon $(pkg-config --cflags $P) -o "$tmp/matching-bounds" \
	tests/matching-bounds.c tracing/origins.c tracing/drains.c common/qc-util.c $(pkg-config --libs $P) \
	2>"$tmp/bounds.err" || ktap_diag "tests/matching-bounds.c does not build: $(head -n 3 "$tmp/bounds.err")"
[ ! -x "$tmp/matching-bounds" ] || "$tmp/matching-bounds" > "$tmp/bounds.out"
for i in $(seq 18); do
	ktap_check "bounds: $(sed -n "s/^\(not \)*ok $i //p" "$tmp/bounds.out" 2>/dev/null)" grep -q "^ok $i " "$tmp/bounds.out"
done
# Whose grace period: RCU's request path, not the order of calls, and
# numbers that must add up (crafted sends: tests/gp-requests.c).
# shellcheck disable=SC2046,SC2086
ccache_cc ${CC:-cc} -Wall -Itracing -Icommon $(pkg-config --cflags $P) -o "$tmp/gp-requests" \
	tests/gp-requests.c tracing/origins.c common/qc-util.c $(pkg-config --libs $P) \
	2>"$tmp/gp.err" || ktap_diag "tests/gp-requests.c does not build: $(head -n 3 "$tmp/gp.err")"
[ ! -x "$tmp/gp-requests" ] || "$tmp/gp-requests" > "$tmp/gp.out"
for i in 1 2 3 4 5 6 7 8 9; do
	ktap_check "grace periods: $(sed -n "s/^\(not \)*ok $i //p" "$tmp/gp.out" 2>/dev/null)" grep -q "^ok $i " "$tmp/gp.out"
done
# Deferral followed: what an RCU callback's, a timer's, an hrtimer's or a
# kthread work's handler sends continues whoever armed it (crafted sends:
# tests/deferred-work.c).
# shellcheck disable=SC2046,SC2086
ccache_cc ${CC:-cc} -Wall -Itracing -Icommon $(pkg-config --cflags $P) -o "$tmp/deferred-work" \
	tests/deferred-work.c tracing/origins.c common/qc-util.c $(pkg-config --libs $P) \
	2>"$tmp/dw.err" || ktap_diag "tests/deferred-work.c does not build: $(head -n 3 "$tmp/dw.err")"
[ ! -x "$tmp/deferred-work" ] || "$tmp/deferred-work" > "$tmp/dw.out"
for i in $(seq 19); do
	ktap_check "deferral: $(sed -n "s/^\(not \)*ok $i //p" "$tmp/dw.out" 2>/dev/null)" grep -q "^ok $i " "$tmp/dw.out"
done
ktap_finish
