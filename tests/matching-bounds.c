// SPDX-License-Identifier: GPL-2.0
/*
 * matching-bounds: the analyzer's matching refuses what it would
 * otherwise get silently wrong (tracing/README.md, "Matching an
 * interruption to its senders"), on crafted records, one KTAP-style line
 * per case, exit 1 if any fails. Built and run by tests/test-origins.sh.
 *
 *   - a drain call whose return was lost (its caller began another, or it
 *     was still open long before the trace ended) is unreturned: the
 *     trace is refused, where before the call stayed open to the trace's
 *     end and every later send of its caller was the drain's;
 *   - a call still open at the trace's end, begun just before it, is
 *     only cut short; two callers' calls may overlap;
 *   - an interruption that answers more sends than ORIGIN_MAX_SENDS keeps
 *     is refused, where before the senders past the eighth were dropped
 *     and still marked as matched;
 *   - a flush_work() that returned without queueing a barrier (its work
 *     item was idle) explains no barrier: before, as the oldest unmatched
 *     flush, it took the next barrier run on its item's CPU, another
 *     flush's;
 *   - a work item stolen off its queue before it ran (try_to_grab_pending()
 *     returned 1) explains no run: before, its queueing, the oldest
 *     unmatched one of its function, took the next queueing's run;
 *   - a reschedule IPI sent after its vector was delivered but before the
 *     vector's traced entry explains the next vector, not this one (the
 *     next read as one without a sender); a vector after one that took a
 *     single send stays without a sender;
 *   - a foreign task's wake-up explains its run only on the CPU the task
 *     went to (its newest move, sched_migrate_task, else the CPU the
 *     wake-up named): before, its last wake-up anywhere did;
 *   - an inherited interruption matched after a later one (the counting
 *     rule counts an interrupt's record when it closes) takes the origin
 *     before it in time: before, it took the later one's;
 *   - a tick ORIGIN_INHERIT_NS or more after the interruption before it
 *     on its CPU inherits nothing (its CPU's own timer): before, a tick a
 *     second after an IPI took the IPI's sender, and after RCU's forcing,
 *     its class; one within the bound still inherits;
 *   - a csd_many whose caller waited (SCF_WAIT) and returned has no entry
 *     pending: a CPU its cond_func skipped (its mask still holds it) does
 *     not take it for a vector after the return; before, as the oldest
 *     unmatched entry of its callback, it took another sender's;
 *   - a send whose stack came after a vector (its unwind outlasted the
 *     vector: the entry was queued after it) is not that vector's, and
 *     stays the next one's: before, the earlier vector took it, and the
 *     one it sent was left without a sender.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drains.h"
#include "origins.h"

static int n, failed;

static void check(const char *desc, bool ok, const char *got)
{
	n++;
	failed += !ok;
	printf("%sok %d %s", ok ? "" : "not ", n, desc);
	if (!ok)
		printf(" (got: %s)", got);
	printf("\n");
}

#define S(ns) ((ns) * 1000000000ULL)

static void drain_cases(void)
{
	struct drains d;
	char err[256] = "", got[64];

	/* pid 7's first call loses its return; pid 8 overlaps it legitimately */
	memset(&d, 0, sizeof(d));
	drains_begin(&d, 7, S(1));
	drains_begin(&d, 8, S(1) + 500);
	drains_return(&d, 8, S(1) + 900);
	drains_begin(&d, 7, S(2));
	drains_return(&d, 7, S(2) + 100);
	drains_finish(&d, S(3));
	snprintf(got, sizeof(got), "unreturned %ld, first pid %d, its end %llu", d.unreturned.n,
		 d.unreturned.pid, d.v[0].end_ns);
	check("a caller's second call: its first lost its return, and ends where the second began",
	      d.unreturned.n == 1 && d.unreturned.pid == 7 && d.v[0].end_ns == S(2), got);
	check("... the trace is refused, the call named",
	      drains_unreturned(&d, err, sizeof(err)) && strstr(err, "by pid 7 at 1.000000"), err);
	check("another caller's overlapping call is not unreturned", d.v[1].returned, "pid 8 open");
	free(d.v);
	free(d.open_calls);

	/* open at the trace's end: under a second old, cut short; older, lost */
	memset(&d, 0, sizeof(d));
	drains_begin(&d, 7, S(5));
	drains_begin(&d, 9, S(10) - 300000000ULL);
	drains_finish(&d, S(10));
	snprintf(got, sizeof(got), "unreturned %ld (pid %d), ends %llu %llu", d.unreturned.n,
		 d.unreturned.pid, d.v[0].end_ns, d.v[1].end_ns);
	check("a call open 5 s before the trace's end lost its return; one begun 0.3 s before is cut short",
	      d.unreturned.n == 1 && d.unreturned.pid == 7 && d.v[1].end_ns == S(10), got);
	free(d.v);
	free(d.open_calls);
}

static void overflow_case(void)
{
	enum { SENDS = ORIGIN_MAX_SENDS + 44 };
	static struct send v[SENDS];
	struct origin last[2], out;
	struct origins o = { .v = v, .n = SENDS, .ncpus = 2, .last = last };
	struct interruption in = { .cpu = 1, .ns = S(1) + SENDS + 1, .cause = "irq_vectors:reschedule",
					   .start = START_RESCHED, .pid = -1 };
	char err[256] = "", got[64];
	int i;

	memset(last, 0, sizeof(last));
	for (i = 0; i < SENDS; i++)
		v[i] = (struct send){ .ns = S(1) + i, .kind = SEND_RESCHED, .cpu = 0, .targets = 1 << 1,
				      .parent = -1, .queueing = -1, .stack = -1, .comm = -1, .fname = -1 };
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "kept %d, overflow %ld", out.nsend, o.overflow.n);
	check("a reschedule vector answering ORIGIN_MAX_SENDS + 44 sends keeps the maximum, counts 44 over",
	      out.nsend == ORIGIN_MAX_SENDS && o.overflow.n == 44, got);
	check("... and the trace is refused, naming the CPU",
	      origins_overflowed(&o, err, sizeof(err)) && strstr(err, "on CPU 1"), err);
}

/*
 * Work-side sends, crafted as origins_record() keeps them and linked
 * (origins_link()): made on CPU 0, 100 ns apart from 1 s on; a queueing
 * (WORK) targets CPU 1 and, when @o has names, is named by the first.
 */
struct work_send { enum send_kind kind; int pid; unsigned long long work; unsigned int type; };

static void feed(struct origins *o, const struct work_send *f, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct send *s = &o->v[o->n];

		*s = (struct send){ .ns = S(1) + 100 * i, .kind = f[i].kind, .cpu = 0, .pid = f[i].pid,
				    .targets = f[i].kind == SEND_WORK ? 1 << 1 : 0, .work = f[i].work,
				    .type = f[i].type, .parent = -1, .queueing = -1, .stack = -1, .comm = -1,
				    .fname = f[i].kind == SEND_WORK && o->nstacks ? 0 : -1 };
		origins_link(o, s, 0);
		o->n++;
	}
}

/*
 * pid 5 flushes work item A (last queued on CPU 1) while A is idle: no
 * barrier (returns false). pid 6 then queues B on CPU 1 and flushes it:
 * a barrier, whose run on CPU 1 is pid 6's doing.
 */
static void flush_case(void)
{
	enum { A = 0xa000, B = 0xb000 };
	static struct send v[8];
	struct origin last[2], out;
	struct origins o = { .v = v, .ncpus = 2, .last = last };
	struct interruption in = { .cpu = 1, .ns = S(1) + 600, .cause = "workqueue:wq_barrier_func",
					   .start = START_WORK, .pid = -1 };
	const struct work_send f[] = {
		{ SEND_WORK, 4, A, 0 }, { SEND_FLUSH, 5, A, 0 }, { SEND_FLUSH_RET, 5, 0, 0 },
		{ SEND_WORK, 6, B, 0 }, { SEND_FLUSH, 6, B, 0 },
	};
	char got[64];

	memset(last, 0, sizeof(last));
	feed(&o, f, sizeof(f) / sizeof(f[0]));
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders, the first pid %d", out.nsend,
		 out.nsend ? v[out.send[0]].pid : -1);
	check("a barrier is explained by the flush that queued it, not by an earlier one that queued none",
	      out.nsend == 1 && v[out.send[0]].pid == 6, got);
	free(o.flushing.v);
	free(o.queued.v);
}

/*
 * pid 4 queues work item A (function qc_f) on CPU 1 and cancels it
 * before it runs; pid 9 queues A again, and it runs on CPU 1.
 */
static void stolen_case(void)
{
	enum { A = 0xa000 };
	static struct send v[8];
	static char *names[] = { "qc_f" };
	long grab[2] = { -1, -1 };
	struct origin last[2], out;
	struct origins o = { .v = v, .ncpus = 2, .last = last, .grab = grab, .stacks = names, .nstacks = 1 };
	struct interruption in = { .cpu = 1, .ns = S(1) + 600, .cause = "workqueue:qc_f",
					   .start = START_WORK, .pid = -1 };
	const struct work_send f[] = {
		{ SEND_WORK, 4, A, 0 }, { SEND_GRAB, 4, A, 0 }, { SEND_GRAB_RET, 4, A, 1 }, { SEND_WORK, 9, A, 0 },
	};
	char got[64];

	memset(last, 0, sizeof(last));
	feed(&o, f, sizeof(f) / sizeof(f[0]));
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders, the first pid %d", out.nsend,
		 out.nsend ? v[out.send[0]].pid : -1);
	check("a work item's run is explained by the queueing that ran, not by one cancelled before it",
	      out.nsend == 1 && v[out.send[0]].pid == 9, got);
	free(o.queued.v);
}

/*
 * CPU 1: IPIs at 1.000 s (pid 4) and 1.011930 s (pid 5); vectors enter
 * at 1.012000 s and 1.012400 s. Then pid 6's IPI at 1.100 s, vectors at
 * 1.100100 s and 1.100500 s (a bare one: no send).
 */
static void late_resched_case(void)
{
	static struct send v[4];
	struct resched_last rl[2] = { { .newest = -1 }, { .newest = -1 } };
	struct origin last[2], out;
	struct origins o = { .v = v, .ncpus = 2, .last = last, .resched_last = rl };
	const unsigned long long sent[] = { S(1), S(1) + 11930000, S(1) + 100000000 };
	const unsigned long long entered[] = { S(1) + 12000000, S(1) + 12400000, S(1) + 100100000,
					       S(1) + 100500000 };
	int got_pid[4], got_n[4];
	char got[96];
	int i;

	memset(last, 0, sizeof(last));
	for (i = 0; i < 3; i++)
		v[i] = (struct send){ .ns = sent[i], .kind = SEND_RESCHED, .cpu = 0, .pid = 4 + i,
				      .targets = 1 << 1, .parent = -1, .queueing = -1, .stack = -1,
				      .comm = -1, .fname = -1 };
	o.n = 3;
	for (i = 0; i < 4; i++) {
		struct interruption in = { .cpu = 1, .ns = entered[i], .cause = "irq_vectors:reschedule",
						   .start = START_RESCHED,
					   .pid = -1 };

		origins_match(&o, &in, &out);
		got_n[i] = out.nsend;
		got_pid[i] = out.nsend ? v[out.send[out.nsend - 1]].pid : -1;
	}
	snprintf(got, sizeof(got), "senders %d %d %d %d, newest pids %d %d %d %d", got_n[0], got_n[1],
		 got_n[2], got_n[3], got_pid[0], got_pid[1], got_pid[2], got_pid[3]);
	check("an IPI sent 70 us before a vector's traced entry also explains the vector after it",
	      got_n[1] == 1 && got_pid[1] == 5, got);
	check("... and a vector after one that took a single IPI stays without a sender",
	      got_n[2] == 1 && got_pid[2] == 6 && got_n[3] == 0, got);
}

/*
 * pid 40 is woken naming CPU 0 and runs on CPU 1: moved there by its
 * wake-up, it is that wake-up's; not moved, it has no sender; in a trace
 * without the moves, its last wake-up is taken as before.
 */
static void task_case(void)
{
	static struct send v[4];
	struct origin last[2], out;
	struct origins o = { .v = v, .ncpus = 2, .last = last, .migrations = true };
	struct interruption in = { .cpu = 1, .ns = S(2), .cause = "sched:kworker/u8:1",
					   .start = START_TASK, .pid = 40 };
	char got[64];

	memset(last, 0, sizeof(last));
	v[0] = (struct send){ .ns = S(1), .kind = SEND_WAKING, .cpu = 0, .pid = 9, .targets = 1 << 0,
			      .work = 40, .parent = -1, .queueing = -1, .stack = -1, .comm = -1, .fname = -1 };
	v[1] = (struct send){ .ns = S(1) + 100, .kind = SEND_MIGRATE, .cpu = 0, .pid = 9, .targets = 1 << 1,
			      .work = 40, .parent = -1, .queueing = -1, .stack = -1, .comm = -1, .fname = -1 };
	o.n = 2;
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders", out.nsend);
	check("a task woken naming CPU 0 and moved to CPU 1 by its wake-up: its run on CPU 1 is that wake-up's",
	      out.nsend == 1 && out.send[0] == 0, got);
	o.n = 1;
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders, class %s", out.nsend, origin_class_names[out.cls]);
	check("... not moved, its run on CPU 1 has no sender (before: the wake-up onto CPU 0 explained it)",
	      out.nsend == 0, got);
	o.migrations = false;
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders", out.nsend);
	check("... in a trace without sched_migrate_task, its last wake-up, as before", out.nsend == 1, got);
}

/*
 * CPU 1: a reschedule IPI from pid 5 at 1 s + 100, a work item queued by
 * pid 6 that starts at 1 s + 300, and a tick at 1 s + 200 restarted by
 * the IPI's exit, matched last (its record closed after the work began).
 */
static void inherit_order_case(void)
{
	static struct send v[2];
	static char *names[] = { "qc_f" };
	struct origin last[2], prev[2], out;
	struct origins o = { .v = v, .n = 2, .ncpus = 2, .last = last, .prev = prev,
			     .stacks = names, .nstacks = 1 };
	struct interruption ipi = { .cpu = 1, .ns = S(1) + 100, .vec_ns = S(1) + 100,
				    .cause = "irq_vectors:reschedule", .start = START_RESCHED, .pid = -1 };
	struct interruption work = { .cpu = 1, .ns = S(1) + 300, .cause = "workqueue:qc_f",
					   .start = START_WORK, .pid = -1 };
	struct interruption tick = { .cpu = 1, .ns = S(1) + 200, .cause = "timer:tick_sched_timer",
					   .start = START_TICK, .pid = -1 };
	char got[64];

	memset(last, 0, sizeof(last));
	memset(prev, 0, sizeof(prev));
	v[0] = (struct send){ .ns = S(1) + 50, .kind = SEND_RESCHED, .cpu = 0, .pid = 5, .targets = 1 << 1,
			      .parent = -1, .queueing = -1, .stack = -1, .comm = -1, .fname = -1 };
	v[1] = (struct send){ .ns = S(1) + 60, .kind = SEND_WORK, .cpu = 0, .pid = 6, .targets = 1 << 1,
			      .parent = -1, .queueing = -1, .stack = -1, .comm = -1, .fname = 0 };
	origins_match(&o, &ipi, &out);
	origins_match(&o, &work, &out);
	origins_match(&o, &tick, &out);
	snprintf(got, sizeof(got), "class %s, %d senders, the first pid %d", origin_class_names[out.cls],
		 out.nsend, out.nsend ? v[out.send[0]].pid : -1);
	check("a tick matched after a later work item inherits the IPI before it, not the work item",
	      out.cls == ORIGIN_INHERITED && out.nsend == 1 && v[out.send[0]].pid == 5, got);
}

/*
 * CPU 1: a reschedule IPI from RCU's forcing (pid 5, resched_cpu() from
 * force_qs_rnp) at 1 s + 100, then a tick @after later with no tick
 * dependency held.
 */
static enum origin_class tick_after(unsigned long long after, int *nsend)
{
	static struct send v[1];
	static char *names[] = { "qc_f", "native_smp_send_reschedule < resched_curr < resched_cpu < force_qs_rnp < rcu_gp_fqs_loop" };
	struct origin last[2], prev[2], out;
	struct origins o = { .v = v, .n = 1, .ncpus = 2, .last = last, .prev = prev,
			     .stacks = names, .nstacks = 2 };
	struct interruption ipi = { .cpu = 1, .ns = S(1) + 100, .vec_ns = S(1) + 100,
				    .cause = "irq_vectors:reschedule", .start = START_RESCHED, .pid = -1 };
	struct interruption tick = { .cpu = 1, .ns = S(1) + 100 + after, .cause = "irq_vectors:local_timer",
					   .start = START_TICK,
				     .pid = -1 };

	memset(last, 0, sizeof(last));
	memset(prev, 0, sizeof(prev));
	v[0] = (struct send){ .ns = S(1) + 50, .kind = SEND_RESCHED, .cpu = 0, .pid = 5, .targets = 1 << 1,
			      .parent = -1, .queueing = -1, .stack = 1, .comm = -1, .fname = -1 };
	origins_match(&o, &ipi, &out);
	origins_match(&o, &tick, &out);
	*nsend = out.nsend;
	return out.cls;
}

static void inherit_bound_case(void)
{
	enum origin_class near, far;
	int nnear, nfar;
	char got[96];

	near = tick_after(ORIGIN_INHERIT_NS, &nnear);
	far = tick_after(ORIGIN_INHERIT_NS + 1, &nfar);
	snprintf(got, sizeof(got), "at the bound: %s, %d senders; past it: %s, %d senders",
		 origin_class_names[near], nnear, origin_class_names[far], nfar);
	check("a tick at the inherit bound after RCU's forcing IPI inherits it; one past the bound inherits nothing",
	      near == ORIGIN_RCU_QS && nnear == 1 && far == ORIGIN_INHERITED && nfar == 0, got);
}

/*
 * CPU 0: pid 5's csd_many to CPUs 1 and 2 (callback qc_f, SCF_WAIT, CPU 2
 * skipped by its cond_func) at 1 s + 100, CPU 1's vector at 1 s + 200,
 * the call's return at 1 s + 300; pid 6's csd_many to CPU 2 at 1 s + 5 ms
 * and CPU 2's vector 100 ns later. @ret: whether the return was traced.
 */
static int skipped_cpu_sender(bool ret)
{
	static struct send v[3];
	static char *names[] = { "qc_f" };
	long many[2] = { -1, -1 };
	struct origin last[3], out;
	struct origins o = { .v = v, .ncpus = 3, .last = last, .many = many, .stacks = names, .nstacks = 1 };
	struct interruption one = { .cpu = 1, .ns = S(1) + 200, .vec_ns = S(1) + 200,
				    .cause = "irq_vectors:call_function:qc_f", .start = START_CALL, .pid = -1 };
	struct interruption two = { .cpu = 2, .ns = S(1) + 5000100, .vec_ns = S(1) + 5000100,
				    .cause = "irq_vectors:call_function_single:qc_f", .start = START_CALL, .pid = -1 };
	const struct send f[3] = {
		{ .ns = S(1) + 100, .kind = SEND_CSD_MANY, .pid = 5, .targets = 6, .wait = QC_SCF_WAIT, .fname = 0 },
		{ .ns = S(1) + 300, .kind = SEND_CSD_MANY_RET, .pid = 5, .wait = -1, .fname = -1 },
		{ .ns = S(1) + 5000000, .kind = SEND_CSD_MANY, .pid = 6, .targets = 4, .wait = QC_SCF_WAIT, .fname = 0 },
	};
	int i;

	memset(last, 0, sizeof(last));
	for (i = 0; i < 3; i++) {
		if (i == 1 && !ret)
			continue;
		v[o.n] = f[i];
		v[o.n].parent = v[o.n].queueing = v[o.n].stack = v[o.n].comm = -1;
		origins_link(&o, &v[o.n], 0);
		o.n++;
	}
	origins_match(&o, &one, &out);
	origins_match(&o, &two, &out);
	return out.nsend ? v[out.send[0]].pid : -1;
}

static void skipped_cpu_case(void)
{
	int traced = skipped_cpu_sender(true), untraced = skipped_cpu_sender(false);
	char got[64];

	snprintf(got, sizeof(got), "with the return: pid %d; without: pid %d", traced, untraced);
	check("a vector after a waited csd_many returned is not that call's (a CPU its cond_func skipped)",
	      traced == 6, got);
	check("... in a trace without the return, the oldest unmatched entry of its callback, as before",
	      untraced == 5, got);
}

/*
 * CPU 0's csd_many to CPU 1 (callback qc_f) is probed at 1 s + 100 and its
 * stack recorded at 1 s + 500; CPU 1 takes a call-single vector at
 * 1 s + 200 (a wake-up's: no callback) and qc_f's at 1 s + 600.
 */
static void late_stack_case(void)
{
	static struct send v[1];
	static char *names[] = { "qc_f", "smp_call_function_many_cond < qc_caller" };
	static struct flush fl[2];
	struct origin last[2], out;
	struct origins o = { .v = v, .n = 1, .ncpus = 2, .last = last, .fl = fl, .nfl = 2,
			     .stacks = names, .nstacks = 2 };
	struct interruption wake = { .cpu = 1, .ns = S(1) + 200, .vec_ns = S(1) + 200,
				     .cause = "irq_vectors:call_function_single", .start = START_CALL, .pid = -1 };
	struct interruption call = { .cpu = 1, .ns = S(1) + 600, .vec_ns = S(1) + 600,
				     .cause = "irq_vectors:call_function_single:qc_f", .start = START_CALL, .pid = -1 };
	char got[64];
	int first;

	memset(last, 0, sizeof(last));
	v[0] = (struct send){ .ns = S(1) + 100, .kind = SEND_CSD_MANY, .cpu = 0, .pid = 5, .targets = 1 << 1,
			      .parent = -1, .queueing = -1, .stack = 1, .stack_ns = S(1) + 500, .comm = -1,
			      .fname = 0 };
	fl[0] = (struct flush){ .ns = S(1) + 200, .cpu = 1, .what = FLUSH_CALL };
	fl[1] = (struct flush){ .ns = S(1) + 600, .cpu = 1, .what = FLUSH_CALL };
	origins_match(&o, &wake, &out);
	first = out.nsend;
	origins_match(&o, &call, &out);
	snprintf(got, sizeof(got), "the wake-up's vector took %d, qc_f's %d (class %s)", first, out.nsend,
		 origin_class_names[out.cls]);
	check("a csd_many stacked after a wake-up's vector is not that vector's; qc_f's vector takes it",
	      first == 0 && out.nsend == 1 && out.cls == ORIGIN_REMOTE, got);
}

int main(void)
{
	drain_cases();
	overflow_case();
	flush_case();
	stolen_case();
	late_resched_case();
	task_case();
	inherit_order_case();
	inherit_bound_case();
	skipped_cpu_case();
	late_stack_case();
	return failed ? 1 : 0;
}
