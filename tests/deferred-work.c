// SPDX-License-Identifier: GPL-2.0
/*
 * deferred-work: what a deferred handler sends continues whoever armed it
 * (tracing/README.md, "Deferred work"), on crafted records, one KTAP-style
 * line per case, exit 1 if any fails. Built and run by tests/test-origins.sh.
 * CPU 0 is a housekeeping CPU, CPU 1 an isolated one; pid 7 arms.
 *
 *   - an hrtimer started by pid 7 expires in CPU 0's hardirq and sends a
 *     reschedule IPI to CPU 1: the send's parent is pid 7's arming, so a
 *     drain that started it is on the send's path (before: no parent, and
 *     the stack above the interrupt's entry names no drain); once the run
 *     ends, the context's next send has none;
 *   - an irq_work's handler sends one (no event shows who queued it): the
 *     interruption is unknown, its sender named (before: remote, and so
 *     nobody's: a drain that queued it went unseen);
 *   - an RCU callback sends one: it continues the call_rcu()s of its
 *     function (the frame below rcu_do_batch) when the drain's path holds
 *     all of them or none, and is unknown when they differ, when the frame
 *     is a tail call's and any call_rcu() differs, when it may run a
 *     callback queued before the trace, or when the trace lacks their
 *     queueings' functions (rcu_queue's func, rcu_bypass);
 *   - a timer armed by CPU 0 expires in CPU 1's softirq and queues work
 *     there: the work's interruption is remote, deferred from CPU 0
 *     (before: inherited, as a softirq of CPU 1's own);
 *   - an hrtimer's run in a hardirq that interrupts a timer's run in a
 *     softirq: each context's send continues its own handler's arming;
 *   - a kthread work queued by pid 7 runs in its worker, pid 30: the
 *     worker's send continues the arming, until the work ends;
 *   - a handler whose arming was not traced gives its context no parent,
 *     not the handler's before it (whose end was lost);
 *   - a task's own sleep: an hrtimer it armed on isolated CPU 1, expiring
 *     in CPU 0's hardirq, whose reschedule IPI wakes it there, is the
 *     task's own doing (self), not inherited from whatever came before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#define HARD	QC_FLAG_HARDIRQ
#define SOFT	QC_FLAG_SOFTIRQ

enum { W = 0xa000, T = 0xb000, H = 0xc000, K = 0xd000, X = 0xe000 };

static struct send v[32];
static long irq_run[2][2];
static struct origin last[2];
static char *names[] = { "qc_f" };
static struct origins o;

static void reset(void)
{
	free(o.running.v);
	free(o.armed.v);
	free(o.queued.v);
	free(o.timers.v);
	memset(&o, 0, sizeof(o));
	memset(last, 0, sizeof(last));
	memset(irq_run, 0xff, sizeof(irq_run));	/* -1: nothing runs */
	o = (struct origins){ .v = v, .ncpus = 2, .last = last, .irq_run = irq_run,
			      .stacks = names, .nstacks = 1 };
}

/* One send of @kind made on @cpu by @pid in @flags' context, to CPU @to (-1: none). */
static long feed(enum send_kind kind, int cpu, int pid, unsigned int flags, int to,
		 unsigned long long obj)
{
	struct send *s = &v[o.n];

	*s = (struct send){ .ns = S(1) + 100 * o.n, .kind = kind, .cpu = cpu, .pid = pid, .flags = flags,
			    .targets = to >= 0 ? 1ULL << to : 0, .work = obj, .parent = -1,
			    .queueing = -1, .stack = -1, .comm = -1, .fname = kind == SEND_WORK ? 0 : -1 };
	origins_link(&o, s, cpu);
	return o.n++;
}

static void hrtimer_case(void)
{
	struct interruption in = { .cpu = 1, .cause = "irq_vectors:reschedule",
					   .start = START_RESCHED, .pid = -1 };
	struct origin out;
	long arm, sent, after;
	char got[64];

	reset();
	arm = feed(SEND_ARM, 0, 7, 0, -1, H);
	origins_run(&o, H, 0, 7, HARD, true);
	sent = feed(SEND_RESCHED, 0, 7, HARD, 1, 0);
	origins_run(&o, 0, 0, 7, HARD, false);
	after = feed(SEND_RESCHED, 0, 7, HARD, 1, 0);
	snprintf(got, sizeof(got), "parent %ld, after the run %ld", v[sent].parent, v[after].parent);
	check("an hrtimer's send from CPU 0's hardirq continues pid 7's hrtimer_start()",
	      v[sent].parent == arm && origins_parent(&o, &v[sent])->pid == 7, got);
	check("... and once its run ended, the hardirq's next send continues nothing",
	      v[after].parent == -1, got);
	in.ns = v[sent].ns + 10;
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders, class %s", out.nsend, origin_class_names[out.cls]);
	check("... CPU 1's reschedule vector is that send's, remote",
	      out.nsend == 1 && out.send[0] == sent && out.cls == ORIGIN_REMOTE, got);
}

/* The irq_work vector on CPU 0: its handler sends CPU 1 a reschedule IPI. */
static void irq_work_case(void)
{
	static char *stacks[] = {
		"qc_f",
		"native_smp_send_reschedule < qc_f < irq_work_single < irq_work_run_list < irq_work_run"
		" < __sysvec_irq_work < sysvec_irq_work < asm_sysvec_irq_work < drain_all_pages",
		"native_smp_send_reschedule < qc_f < rcu_do_batch < rcu_core < handle_softirqs",
	};
	struct interruption in = { .cpu = 1, .cause = "irq_vectors:reschedule",
					   .start = START_RESCHED, .pid = -1 };
	static const char *const drain[] = { "drain_all_pages", NULL };
	struct origin out;
	long sent;
	char got[64];

	reset();
	o.stacks = stacks;
	o.nstacks = 3;
	sent = feed(SEND_RESCHED, 0, 7, HARD, 1, 0);
	v[sent].stack = 1;
	in.ns = v[sent].ns + 10;
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders, class %s", out.nsend, origin_class_names[out.cls]);
	check("an irq_work handler's IPI is unknown, its sender named: who queued the irq_work is not traced",
	      out.nsend == 1 && out.cls == ORIGIN_UNKNOWN, got);
	check("... and the drain below the interrupt's entry is not its sender's",
	      !origins_stack_has(&o, &v[sent], drain), got);

	sent = feed(SEND_RESCHED, 0, 0, SOFT, 1, 0);
	v[sent].stack = 2;
	in.ns = v[sent].ns + 10;
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders, class %s", out.nsend, origin_class_names[out.cls]);
	check("an RCU callback's IPI in a trace without its queueings' functions is unknown: who queued it is not traced",
	      out.nsend == 1 && out.cls == ORIGIN_UNKNOWN, got);
}

static bool drain_is_pid7(const void *ctx, const struct send *s)
{
	(void)ctx;
	return s->pid == 7;
}

/*
 * CPU 0 runs RCU callbacks; pids 7 (the drain) and 8 queue them, qc_cb or
 * qc_other; two grace periods end by 1 s + 2 ns, and each callback's IPI
 * to CPU 1 comes at @at. Returns the interruption's class, its sender's
 * parent in *parent.
 */
static enum origin_class rcu_cb(const char *queuers, int frame, unsigned long long at, long *parent)
{
	static char *stacks[] = {
		"qc_f",
		"native_smp_send_reschedule < qc_cb < rcu_do_batch < rcu_core < handle_softirqs",
		"native_smp_send_reschedule < qc_tail.part.0 < rcu_do_batch < nocb_cb_wait < rcu_nocb_cb_kthread",
		"qc_cb", "qc_other",
	};
	static struct grace_period gp[2] = { { .start_ns = S(1) - 10, .end_ns = S(1) - 5 },
					     { .start_ns = S(1) - 4, .end_ns = S(1) - 1 } };
	struct interruption in = { .cpu = 1, .cause = "irq_vectors:reschedule",
					   .start = START_RESCHED, .pid = -1,
				   .drain_path = drain_is_pid7 };
	struct origin out;
	const char *q;
	long sent;

	reset();
	o.stacks = stacks;
	o.nstacks = 5;
	o.rcu_cbs = true;
	o.gp = gp;
	o.ngp = 2;
	/* "7a": pid 7 queued qc_cb (rcu_queue); "8b": pid 8 queued qc_other;
	   "8A": pid 8 queued qc_cb on a nocb CPU's bypass list (rcu_bypass) */
	for (q = queuers; q[0] && q[1]; q += 2)
		v[feed(q[1] == 'A' ? SEND_RCU_CB : SEND_RCU_QUEUE, 0, q[0] - '0', 0, -1, 0x100 + o.n)].fname =
			q[1] == 'b' ? 4 : 3;
	sent = feed(SEND_RESCHED, 0, 0, frame == 1 ? SOFT : 0, 1, 0);
	v[sent].stack = frame;
	v[sent].ns = at;
	in.ns = at + 10;
	origins_match(&o, &in, &out);
	*parent = v[sent].parent;
	o.gp = NULL;
	return out.cls;
}

static void rcu_callback_case(void)
{
	const unsigned long long late = S(3), early = S(1) + 500000000ULL;
	enum origin_class cls;
	long parent;
	char got[64];

#define RCU_CHECK(desc, queuers, frame, at, want, want_parent)					\
	do {											\
		cls = rcu_cb(queuers, frame, at, &parent);					\
		snprintf(got, sizeof(got), "class %s, parent %ld", origin_class_names[cls], parent);	\
		check(desc, cls == (want) && parent == (want_parent), got);			\
	} while (0)
	RCU_CHECK("an RCU callback queued only by pid 8 sends: remote, continuing pid 8's call_rcu()",
		  "8a8b", 1, late, ORIGIN_REMOTE, 0);
	RCU_CHECK("... and queued on a bypass list by the drain too: unknown",
		  "8a8b7A", 1, late, ORIGIN_UNKNOWN, -1);
	RCU_CHECK("... queued only by the drain (twice): continues the drain's newest call_rcu()",
		  "7a8b7a", 1, late, ORIGIN_REMOTE, 2);
	RCU_CHECK("... queued by the drain and by pid 8: unknown, which one ran is not traced",
		  "7a8a", 1, late, ORIGIN_UNKNOWN, -1);
	RCU_CHECK("a tail call's frame (qc_tail.part.0) names no callback: every call_rcu() counts, none the drain's",
		  "8a8b", 2, late, ORIGIN_REMOTE, 1);
	RCU_CHECK("... and one of them the drain's: unknown",
		  "8a7b", 2, late, ORIGIN_UNKNOWN, -1);
	RCU_CHECK("within 1 s of the second grace period's end, a callback queued before the trace may run: unknown",
		  "8a", 1, early, ORIGIN_UNKNOWN, -1);
	RCU_CHECK("no queueing of any callback before it: unknown",
		  "", 1, late, ORIGIN_UNKNOWN, -1);
#undef RCU_CHECK
}

static void timer_case(void)
{
	struct interruption in = { .cpu = 1, .cause = "workqueue:qc_f",
					   .start = START_WORK, .pid = -1 };
	struct origin out;
	long arm, queued;
	char got[64];

	reset();
	arm = feed(SEND_ARM, 0, 7, 0, -1, T);
	origins_run(&o, T, 1, 0, SOFT, true);
	queued = feed(SEND_WORK, 1, 0, SOFT, 1, W);
	origins_run(&o, 0, 1, 0, SOFT, false);
	in.ns = v[queued].ns + 10;
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders, parent %ld, class %s", out.nsend, v[queued].parent,
		 origin_class_names[out.cls]);
	check("work queued in CPU 1's softirq by a timer CPU 0 armed is remote, deferred from CPU 0",
	      out.nsend == 1 && v[queued].parent == arm && out.cls == ORIGIN_REMOTE, got);
}

static void nested_case(void)
{
	long armt, armh, hard, soft;
	char got[64];

	reset();
	armt = feed(SEND_ARM, 0, 7, 0, -1, T);
	armh = feed(SEND_ARM, 0, 8, 0, -1, H);
	origins_run(&o, T, 0, 0, SOFT, true);
	origins_run(&o, H, 0, 0, HARD | SOFT, true);
	hard = feed(SEND_RESCHED, 0, 0, HARD | SOFT, 1, 0);
	origins_run(&o, 0, 0, 0, HARD | SOFT, false);
	soft = feed(SEND_RESCHED, 0, 0, SOFT, 1, 0);
	snprintf(got, sizeof(got), "hardirq's parent %ld, softirq's %ld", v[hard].parent, v[soft].parent);
	check("a hardirq's hrtimer inside a softirq's timer: each context's send continues its own arming",
	      v[hard].parent == armh && v[soft].parent == armt, got);
}

static void kthread_case(void)
{
	long arm, in_run, other, after;
	char got[64];

	reset();
	arm = feed(SEND_ARM, 0, 7, 0, -1, K);
	origins_run(&o, K, 0, 30, 0, true);
	in_run = feed(SEND_RESCHED, 0, 30, 0, 1, 0);
	other = feed(SEND_RESCHED, 0, 31, 0, 1, 0);
	origins_run(&o, 0, 0, 30, 0, false);
	after = feed(SEND_RESCHED, 0, 30, 0, 1, 0);
	snprintf(got, sizeof(got), "in its run %ld, another task %ld, after %ld", v[in_run].parent,
		 v[other].parent, v[after].parent);
	check("a kthread work's worker sends for its arming while the work runs, and only it",
	      v[in_run].parent == arm && v[other].parent == -1 && v[after].parent == -1, got);
}

static void untraced_case(void)
{
	long sent;
	char got[64];

	reset();
	feed(SEND_ARM, 0, 7, 0, -1, H);
	origins_run(&o, H, 0, 0, HARD, true);
	/* (H's end lost) X was armed before the trace began */
	origins_run(&o, X, 0, 0, HARD, true);
	sent = feed(SEND_RESCHED, 0, 0, HARD, 1, 0);
	snprintf(got, sizeof(got), "parent %ld", v[sent].parent);
	check("a handler armed out of sight gives no parent, not the previous handler's",
	      v[sent].parent == -1, got);
}

static void own_sleep_case(void)
{
	struct interruption in = { .cpu = 1, .cause = "irq_vectors:reschedule",
					   .start = START_RESCHED, .pid = -1 };
	struct origin out;
	long sent;
	char got[64];

	reset();
	feed(SEND_ARM, 1, 40, 0, -1, H);
	origins_run(&o, H, 0, 0, HARD, true);
	sent = feed(SEND_RESCHED, 0, 0, HARD, 1, 0);
	origins_run(&o, 0, 0, 0, HARD, false);
	in.ns = v[sent].ns + 10;
	origins_match(&o, &in, &out);
	snprintf(got, sizeof(got), "%d senders, class %s", out.nsend, origin_class_names[out.cls]);
	check("an hrtimer CPU 1's task armed, expiring on CPU 0, wakes it: its IPI is the task's own (self)",
	      out.nsend == 1 && out.cls == ORIGIN_SELF, got);
}

int main(void)
{
	hrtimer_case();
	irq_work_case();
	rcu_callback_case();
	timer_case();
	nested_case();
	kthread_case();
	untraced_case();
	own_sleep_case();
	printf("# %d checks, %d failed\n", n, failed);
	reset();
	return failed ? 1 : 0;
}
