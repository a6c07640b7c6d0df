#!/bin/sh
# The rthog scenario's host-side parts, with no guest: guest-init/rthog.c
# built as the initramfs builds it and its refusals of bad input (a short
# real run on this machine's CPU 0 at SCHED_FIFO 1, 1 ms of spin: a plain
# userspace program, nothing reaches the host's kernel but system calls);
# scripts/rthog.sh's summary of a fixture guest directory
# (tests/fixtures/rthog/: the hammer's stats, the hog's, and a trace
# instance in which the hog preempts refill once in free_unref_folios()
# and keeps it off for 590 ms, while the drainer's one call blocks 590 ms
# on CPU 3's pcp->lock and 50 us on another lock, then once in user mode
# for 500 ms, after which refill comes back boosted, then after refill
# blocked on an RT lock, its stack stamped after a line of another CPU,
# and it gets its CPU back from a kthread that ran after the hog;
# refill contends once, a kworker twice), and its
# refusals of what cannot decide; run.sh's checks of the hog's settings
# and of --kernel-arg, before anything is built.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
QC_ROOT=$root
. "$root/scripts/lib/paths.sh"
. "$root/scripts/lib/guest-cc.sh"
. "$root/tests/ccache-cc.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fix=$root/tests/fixtures/rthog
hog=$scratch/rthog

ktap_require gcc jq awk
ktap_plan 29
# qc_guest_cc's one compile-and-link, as ccache can cache it (the same
# warnings, replayed on a hit; the same static binary).
QC_GUEST_CC="ccache_cc gcc"

if out=$(qc_guest_cc "$hog" "$root/guest-init/rthog.c" -Werror 2>&1) && [ -z "$out" ]; then
	ktap_ok "rthog.c compiles with the initramfs's qc_guest_cc and no warning"
else
	ktap_not_ok "rthog.c compiles with the initramfs's qc_guest_cc and no warning"
	ktap_diag "$out"
	ktap_bail_out "no rthog to test"
fi

expect_one_error "rthog: a missing option is refused" rthog "give all of -c CPU -p PRIO -P PERIOD_MS -T SPIN_MS" \
	"$hog" -c 0 -p 10 -P 100
expect_one_error "rthog: a spin as long as the period is refused" rthog "--spin-ms 100 must be shorter than --period-ms 100" \
	"$hog" -c 0 -p 10 -P 100 -T 100
expect_one_error "rthog: priority 100 is refused" rthog "--prio '100' is not a whole number from 1 to 99" \
	"$hog" -c 0 -p 100 -P 100 -T 1
expect_one_error "rthog: an unknown option is refused" rthog "unknown option '-x'" "$hog" -x
expect_one_error "rthog: an option without its value is refused" rthog "option '-c' needs a value" "$hog" -c

# A real run: 1 s, a 1 ms spin every 200 ms at SCHED_FIFO 1 (4 wake-ups).
json=$scratch/hog.json
if out=$("$hog" -c 0 -p 1 -P 200 -T 1 -D 1 -j "$json" 2>&1); then
	if jq -e '.tool == "rthog" and .cpu == 0 and .prio == 1 and .wakeups >= 2 and .wakeups <= 4 and .spun_ms >= .wakeups' "$json" > /dev/null; then
		ktap_ok "rthog: a 1 s run wakes 2-4 times and spins 1 ms each time"
	else
		ktap_not_ok "rthog: a 1 s run wakes 2-4 times and spins 1 ms each time"; ktap_diag "$(cat "$json")"
	fi
elif printf '%s\n' "$out" | grep -q "cannot become SCHED_FIFO"; then
	ktap_skip "rthog: a 1 s run (not allowed SCHED_FIFO here: $out)"
else
	ktap_not_ok "rthog: a 1 s run wakes 2-4 times and spins 1 ms each time"; ktap_diag "$out"
fi

# The summary of the fixture.
d=$scratch/guest
mkdir "$d"
cp "$fix"/* "$d/"
if "$root/scripts/rthog.sh" "$d" 1-3 > "$scratch/summary.out" 2>&1; then
	ktap_ok "rthog.sh summarizes the fixture"
else
	ktap_not_ok "rthog.sh summarizes the fixture"; ktap_diag "$(cat "$scratch/summary.out")"
fi
s=$d/$QC_RTHOG_SUMMARY.json
ktap_jq_is "drain: 10 calls, max 590.01 ms, p50 1 ms, 1 at the 450 ms threshold, 2 over 100 ms" \
	'.drain | .calls == 10 and .max_ms == 590.01 and .p50_ms == 1 and .at_threshold == 1 and .over_100ms == 2' .drain
ktap_jq_is "the drainer blocked once on CPU 3's pcp->lock, 590000 us" \
	'.drainer_contention.isolated_pcp_lock | .count == 1 and .max_us == 590000 and (.by_cpu | keys) == ["3"]' \
	.drainer_contention
ktap_jq_is "its contention on a lock that is no pcp's is another lock, 50 us" \
	'.drainer_contention.other_locks | .count == 1 and .max_us == 50' .drainer_contention
ktap_jq_is "no housekeeping pcp->lock; refill's and a kworker's contentions are not the drainer's" \
	'.drainer_contention.housekeeping_pcp_lock.count == 0 and .others_contention == 3' .
ktap_jq_is "three switches to the hog: preempted in free_unref_folios (a pcp path), in user mode, blocked in the rtlock slow path" \
	'.preemptions | .count == 3 and .in_kernel == 2 and .pcp_path == 1 and .blocked == 1
	 and .sites == {"free_unref_folios": 1, "user mode": 1, "rtlock_slowlock_locked": 1}' .preemptions
ktap_jq_is "three spins (the hog's SCHED_OTHER start-up is none): refill held off 500-900 ms, back once at a boosted priority" \
	'.spins | .count == 3 and .held_ms_min == 500 and .held_ms_max == 900 and .boosted == 1 and .in_kernel == 2
	 and .list[2].state == "D" and .list[2].site == "rtlock_slowlock_locked"' .spins
ktap_jq_is "the drain in flight when refill came back took 595.3 ms and ended 10.3 ms after: one spin ended a drain over the threshold" \
	'.spins | .drain_at_threshold == 1 and .list[0].drain == {"ms": 595.3, "ended_after_resume_ms": 10.3} and .list[1].drain == null' .spins
ktap_jq_is "refill blocked once on an RT lock, 30 us" '.refill_contention | .count == 1 and .max_us == 30' .refill_contention
ktap_jq_is "boosting at kthread_prio 1 is not above the hog's 10" \
	'.rcu_boost.kthread_prio == 1 and .rcu_boost.above_hog == false' .rcu_boost
ktap_jq_judge "$s"
# With CPU 3 not isolated, its pcp->lock is a housekeeping CPU's.
"$root/scripts/rthog.sh" "$d" 1-2 > /dev/null 2>&1
ktap_jq_is "with CPU 3 housekeeping, the same wait counts as a housekeeping pcp->lock" \
	'.drainer_contention.isolated_pcp_lock.count == 0 and .drainer_contention.housekeeping_pcp_lock.count == 1' \
	.drainer_contention
ktap_jq_judge "$s"

# Refusals: each leaves no summary.
# refuse DESC TEXT: rthog.sh on $d fails with one error line that holds
# TEXT (ktap_one_error_line: matched by the shell, where wc and grep were
# two processes a refusal) and writes no summary.
refuse() {
	if out=$("$root/scripts/rthog.sh" "$d" 1-3 2>&1); then
		ktap_not_ok "$1"; ktap_diag "exited 0: $out"
		return
	fi
	if ktap_one_error_line "$out" quietcore "$2" && [ ! -e "$d/$QC_RTHOG_SUMMARY.json" ]; then
		ktap_ok "$1"
	else
		ktap_not_ok "$1"; ktap_diag "$out"
	fi
}
# reset: $d a fresh copy of the fixture, in a new directory (one cp; the
# old one goes with scratch: an rm, a mkdir and a cp were three processes
# a refusal).
n_reset=0
reset() { n_reset=$((n_reset + 1)); d=$scratch/guest.$n_reset; cp -r "$fix" "$d"; }
reset; echo "CPU:3 [LOST 12 EVENTS]" >> "$d/$QC_LOCKWATCH"
refuse "a trace instance that lost events is refused" "lost events"
reset; sed -i 's|entries-written: 16/16|entries-written: 16/20|' "$d/$QC_LOCKWATCH"
refuse "a trace instance whose buffer overwrote events is refused" "4 of 20 events written were overwritten"
reset; grep '^#' "$fix/$QC_LOCKWATCH" > "$d/$QC_LOCKWATCH"
refuse "a trace instance with no event is refused" "holds no event"
reset; grep -v 'contention_end: 0xffff88807fffa000' "$fix/$QC_LOCKWATCH" > "$d/$QC_LOCKWATCH"
refuse "a drainer contention with no end is refused" "has no end before the trace stopped"
reset; rm "$d/$QC_LOCKWATCH"
refuse "a missing trace instance is refused" "lockwatch.txt is missing"
reset; head -c 100 "$fix/$QC_HAMMER_JSON" > "$d/$QC_HAMMER_JSON"
refuse "a cut hammer.json is refused" "is not one JSON object"
reset; sed -i 's/^kthread_prio=.*/kthread_prio=none/' "$d/$QC_RTHOG_ENV"
refuse "an unknown kthread_prio is refused" "no numeric kthread_prio"

# run.sh's checks, before anything is built or booted.
expect_error "run.sh: a hog CPU that is not a refill CPU is refused" "rthog_cpu 1 is not a refill CPU (2,3)" \
	"$root/scripts/run.sh" --no-build -V spinlock -s rthog --param rthog_cpu=1
expect_error "run.sh: rthog with no refill CPU is refused" "scenario rthog needs a refill CPU" \
	"$root/scripts/run.sh" --no-build -V spinlock -s rthog --refill none
expect_error "run.sh: a hog spin as long as its period is refused" "rthog_spin_ms 500 is not shorter than rthog_period_ms 500" \
	"$root/scripts/run.sh" --no-build -V spinlock -s rthog --param rthog_period_ms=500 --param rthog_spin_ms=500
expect_error "run.sh: --kernel-arg refuses a qc.* parameter" "qc.\* parameters are the rig's own" \
	"$root/scripts/run.sh" --no-build -V spinlock -s rthog --kernel-arg qc.duration=5

ktap_finish
