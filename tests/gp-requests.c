// SPDX-License-Identifier: GPL-2.0
/*
 * gp-requests: whose grace period each is, from RCU's request path
 * (tracing/README.md, "Whose grace period"), on crafted sends, one
 * KTAP-style line per case, exit 1 if any fails. Built and run by
 * tests/test-origins.sh.
 *
 *   - a drain's callback taken by the request that first recorded the
 *     need makes the grace period the drain's, even when another CPU's
 *     softirq made the request;
 *   - a drain whose request found the need recorded only joins: the grace
 *     period is someone else's, although it is the first to start after
 *     the drain's synchronize_rcu() call (what the analyzer charged
 *     before: by order);
 *   - an offloaded CPU's callbacks, accelerated by its rcuog kthread on
 *     another CPU, lead back to the task that queued them;
 *   - every synchronize_rcu() in flight is a waiter, with no cap (before:
 *     four, the rest dropped);
 *   - grace periods whose numbers do not add up refuse the trace.
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

#define MS(ms) ((ms) * 1000000ULL)
#define GP0 0xfffffffffffffb50ULL	/* rcu_state.gp_seq at boot: (0 - 300) << 2 */
#define L0 0xffff88807d02a378ULL	/* CPU 0's callback list */
#define L2 0xffff88807d22a378ULL	/* CPU 2's (offloaded) */

enum { DRAIN = 7, OTHER = 9, SOFTIRQ0 = 20, RCUOG = 40 };

static struct send v[256];
static long accel[4];

static void add(struct origins *o, enum send_kind kind, unsigned long long ns, int cpu, int pid,
		unsigned long long list, unsigned long long s0, unsigned long long s1,
		unsigned long long s2)
{
	struct send *s = &o->v[o->n];

	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->ns = ns;
	s->cpu = cpu;
	s->pid = pid;
	s->work = list;
	s->seq[0] = s0;
	s->seq[1] = s1;
	s->seq[2] = s2;
	s->type = kind == SEND_GP_INIT;	/* started */
	s->parent = s->queueing = s->stack = s->comm = s->fname = -1;
	origins_link(o, s, cpu);
	o->n++;
}

static void start(struct origins *o)
{
	memset(o, 0, sizeof(*o));
	memset(accel, -1, sizeof(accel));
	o->v = v;
	o->ncpus = 4;
	o->accel = accel;
}

static bool has_pid(const struct gp_task *t, long nt, int pid)
{
	long i;

	for (i = 0; i < nt; i++)
		if (t[i].pid == pid)
			return true;
	return false;
}

static const char *tasks(const struct grace_period *g, char *buf, size_t len)
{
	size_t off = 0;
	long i;

	if (!g)
		return "no grace period";
	off += snprintf(buf, len, "%ld request(s), requested by", g->nrequests);
	for (i = 0; i < g->nrequested && off < len; i++)
		off += snprintf(buf + off, len - off, " %d", g->requested[i].pid);
	return buf;
}

static void release(struct origins *o)
{
	long i;

	for (i = 0; i < o->ngp; i++) {
		free(o->gp[i].requested);
		free(o->gp[i].waited);
	}
	free(o->gp);
	free(o->cblists.v);
}

/*
 * Grace period A (number GP0 + 4) runs 0-100 ms. During it, the drain
 * (pid 7) calls synchronize_rcu() at 10 ms, its callback joins CPU 0's
 * list at 11 ms, and CPU 0's softirq accelerates and requests B (GP0 +
 * 8) at 20 ms, finding no need recorded: B is the drain's. B runs
 * 110-200 ms. During B, another task (pid 9) needs C first (30... 120
 * ms), then the drain's second call at 130 ms joins C. C runs 210-300
 * ms: the first grace period to start after the drain's second call,
 * and not the drain's.
 */
static void order_cases(void)
{
	struct origins o;
	const struct grace_period *b, *c;
	char got[160];

	start(&o);
	add(&o, SEND_GP_INIT, MS(0), 1, 10, 0, 0, GP0 + 1, 0);
	add(&o, SEND_SYNC_RCU, MS(10), 0, DRAIN, 0, 0, 0, 0);
	add(&o, SEND_RCU_QUEUE, MS(11), 0, DRAIN, L0, 0, 0, 0);
	add(&o, SEND_RCU_ACCEL, MS(20), 0, SOFTIRQ0, L0, GP0 + 8, 0, 0);
	add(&o, SEND_GP_REQUEST, MS(20), 0, SOFTIRQ0, 0, GP0 + 8, GP0 + 1, GP0 + 4);
	add(&o, SEND_GP_CLEANUP, MS(100), 1, 10, 0, 0, 0, 0);
	add(&o, SEND_GP_INIT, MS(110), 1, 10, 0, 0, GP0 + 5, 0);
	add(&o, SEND_SYNC_RCU_RET, MS(112), 0, DRAIN, 0, 0, 0, 0);
	add(&o, SEND_RCU_QUEUE, MS(120), 0, OTHER, L0, 0, 0, 0);
	add(&o, SEND_RCU_ACCEL, MS(121), 0, OTHER, L0, GP0 + 12, 0, 0);
	add(&o, SEND_GP_REQUEST, MS(121), 0, OTHER, 0, GP0 + 12, GP0 + 5, GP0 + 8);
	add(&o, SEND_SYNC_RCU, MS(130), 0, DRAIN, 0, 0, 0, 0);
	add(&o, SEND_RCU_QUEUE, MS(131), 0, DRAIN, L0, 0, 0, 0);
	add(&o, SEND_RCU_ACCEL, MS(140), 0, SOFTIRQ0, L0, GP0 + 12, 0, 0);
	add(&o, SEND_GP_REQUEST, MS(140), 0, SOFTIRQ0, 0, GP0 + 12, GP0 + 5, GP0 + 12);
	add(&o, SEND_GP_CLEANUP, MS(200), 1, 10, 0, 0, 0, 0);
	add(&o, SEND_GP_INIT, MS(210), 1, 10, 0, 0, GP0 + 9, 0);
	add(&o, SEND_SYNC_RCU_RET, MS(212), 0, DRAIN, 0, 0, 0, 0);
	add(&o, SEND_GP_CLEANUP, MS(300), 1, 10, 0, 0, 0, 0);
	origins_finish(&o, MS(400));

	b = origins_gp_at(&o, MS(150));
	check("the drain's callback, requested by CPU 0's softirq as the first need: the grace period is the drain's",
	      b && b->seq == GP0 + 8 && b->nrequests == 1 && has_pid(b->requested, b->nrequested, DRAIN),
	      tasks(b, got, sizeof(got)));
	c = origins_gp_at(&o, MS(250));
	check("a drain whose request found the need recorded only joins: the next grace period is the other task's",
	      c && c->seq == GP0 + 12 && c->nrequests == 1 && has_pid(c->requested, c->nrequested, OTHER) &&
	      !has_pid(c->requested, c->nrequested, DRAIN), tasks(c, got, sizeof(got)));
	check("... and the drain waited on it", c && has_pid(c->waited, c->nwaited, DRAIN), "not a waiter");
	check("a grace period requested before the trace began has no traced request",
	      o.ngp == 3 && o.gp[0].nrequests == 0 && !origins_gp_unmapped(&o, got, sizeof(got)), got);
	release(&o);
}

/* CPU 2 is offloaded: its callbacks are accelerated by rcuog on CPU 0. */
static void offload_case(void)
{
	struct origins o;
	const struct grace_period *g;
	char got[160];

	start(&o);
	add(&o, SEND_RCU_QUEUE, MS(1), 2, OTHER, L2, 0, 0, 0);
	add(&o, SEND_RCU_QUEUE, MS(2), 2, DRAIN, L2, 0, 0, 0);
	add(&o, SEND_RCU_QUEUE, MS(3), 0, SOFTIRQ0, L0, 0, 0, 0);
	add(&o, SEND_RCU_ACCEL, MS(5), 0, RCUOG, L2, GP0 + 4, 0, 0);
	add(&o, SEND_GP_REQUEST, MS(5), 0, RCUOG, 0, GP0 + 4, GP0, GP0);
	add(&o, SEND_GP_INIT, MS(10), 1, 10, 0, 0, GP0 + 1, 0);
	origins_finish(&o, MS(50));
	g = origins_gp_at(&o, MS(20));
	check("an offloaded CPU's callbacks, requested by its rcuog kthread: both queuers, not rcuog, not CPU 0's",
	      g && g->nrequested == 2 && has_pid(g->requested, g->nrequested, DRAIN) &&
	      has_pid(g->requested, g->nrequested, OTHER) && !has_pid(g->requested, g->nrequested, RCUOG) &&
	      !has_pid(g->requested, g->nrequested, SOFTIRQ0), tasks(g, got, sizeof(got)));
	release(&o);
}

/* Six synchronize_rcu() callers, the drain last: all are waiters. */
static void waiters_case(void)
{
	struct origins o;
	const struct grace_period *g;
	int i;

	start(&o);
	add(&o, SEND_GP_INIT, MS(1), 1, 10, 0, 0, GP0 + 1, 0);
	for (i = 0; i < 5; i++)
		add(&o, SEND_SYNC_RCU, MS(2 + i), 0, 100 + i, 0, 0, 0, 0);
	add(&o, SEND_SYNC_RCU, MS(8), 0, DRAIN, 0, 0, 0, 0);
	add(&o, SEND_GP_CLEANUP, MS(20), 1, 10, 0, 0, 0, 0);
	origins_finish(&o, MS(50));
	g = origins_gp_at(&o, MS(10));
	check("six synchronize_rcu() callers in flight are six waiters, the drain, sixth, among them",
	      g && g->nwaited == 6 && has_pid(g->waited, g->nwaited, DRAIN), "dropped");
	release(&o);
}

static void refusal_cases(void)
{
	struct origins o;
	char err[512] = "";

	start(&o);
	add(&o, SEND_GP_INIT, MS(1), 1, 10, 0, 0, GP0 + 1, 0);
	add(&o, SEND_GP_CLEANUP, MS(2), 1, 10, 0, 0, 0, 0);
	add(&o, SEND_GP_INIT, MS(3), 1, 10, 0, 0, GP0 + 9, 0);
	origins_finish(&o, MS(50));
	check("a grace period's number that skips one refuses the trace, naming it",
	      origins_gp_unmapped(&o, err, sizeof(err)) && strstr(err, "did not show") &&
	      strstr(err, "CPU 1 at 0.003000"), err);
	release(&o);

	start(&o);
	add(&o, SEND_GP_INIT, MS(1), 1, 10, 0, 0, GP0, 0);
	origins_finish(&o, MS(50));
	check("a start whose rcu_node reads as idle refuses the trace (the probe's offset is wrong)",
	      origins_gp_unmapped(&o, err, sizeof(err)) && strstr(err, "wrong offset"), err);
	release(&o);

	start(&o);
	add(&o, SEND_GP_INIT, MS(1), 1, 10, 0, 0, GP0 + 1, 0);
	add(&o, SEND_GP_CLEANUP, MS(2), 1, 10, 0, 0, 0, 0);
	add(&o, SEND_GP_INIT, MS(3), 1, 10, 0, 0, GP0 + 5, 0);
	add(&o, SEND_GP_REQUEST, MS(4), 0, OTHER, 0, GP0 + 8, GP0 + 4, GP0 + 4);
	origins_finish(&o, MS(50));
	check("a grace period that started before the request that first needed it refuses the trace",
	      origins_gp_unmapped(&o, err, sizeof(err)) && strstr(err, "misread"), err);
	release(&o);
}

int main(void)
{
	order_cases();
	offload_case();
	waiters_case();
	refusal_cases();
	printf("# %d checks, %d failed\n", n, failed);
	return failed ? 1 : 0;
}
