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
 *   - an irq_work's handler sends one (no event shows who queued it), or
 *     an RCU callback does (no event names which callback ran): the
 *     interruption is unknown, its sender named (before: remote, and so
 *     nobody's: a drain that queued it went unseen);
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
	struct interruption in = { .cpu = 1, .cause = "irq_vectors:reschedule", .pid = -1 };
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
	struct interruption in = { .cpu = 1, .cause = "irq_vectors:reschedule", .pid = -1 };
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
	check("an RCU callback's IPI is unknown likewise: who queued the callback is not traced",
	      out.nsend == 1 && out.cls == ORIGIN_UNKNOWN, got);
}

static void timer_case(void)
{
	struct interruption in = { .cpu = 1, .cause = "workqueue:qc_f", .pid = -1 };
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
	struct interruption in = { .cpu = 1, .cause = "irq_vectors:reschedule", .pid = -1 };
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
	timer_case();
	nested_case();
	kthread_case();
	untraced_case();
	own_sleep_case();
	printf("# %d checks, %d failed\n", n, failed);
	reset();
	return failed ? 1 : 0;
}
