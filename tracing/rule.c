// SPDX-License-Identifier: GPL-2.0
/*
 * rule: the counting rule's state per isolated CPU (interrupt records and
 * their nesting, foreign tasks' runs) and the counting of each
 * interruption. The handlers of handlers.c drive it; tracing/README.md
 * states the rule.
 */
#include <stdio.h>
#include <string.h>

#include "analyze-int.h"

/* Is the task switched to foreign: neither idle nor a measured task? */
bool is_foreign(struct analysis *a, struct cpu_state *s, int pid,
		const char *comm)
{
	const char *p, *end;

	if (pid == 0)
		return false;
	if (!a->task)
		return pid != s->measured_pid;
	for (p = a->task; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ",");
		if (end > p && !strncmp(comm, p, end - p))
			return false;
	}
	return true;
}

/* Trace CPU @cpu's state (a target CPU read from a field), or NULL if the
   trace has no such CPU. */
struct cpu_state *cpu_state(struct ctx *c, long long cpu)
{
	return cpu >= 0 && cpu < c->a->nr_trace_cpus ? &c->cs[cpu] : NULL;
}

bool in_window(struct ctx *c, unsigned long long ts)
{
	return ts >= c->a->start_ns && ts <= c->a->end_ns;
}

/*
 * One interruption at @ts: its origin explained (explain.c), and counted
 * if in the window.
 */
void count(struct ctx *c, struct cpu_state *s, unsigned long long ts,
	   const char *cause, enum origin_start start, int pid)
{
	explain(c, s, ts, cause, start, pid);
	if (!in_window(c, ts))
		return;
	s->res->interruptions++;
	counter_add(&s->res->by_cause, cause, 1);
}

/* A cause seen: kept in all_causes, a candidate for the record's name. */
void seen(struct ctx *c, struct cpu_state *s, unsigned long long ts,
	  enum rank rank, const char *name, enum origin_start start)
{
	if (in_window(c, ts))
		counter_add(&s->res->all_causes, name, 1);
	if (s->rec.open && rank > s->rec.best_rank) {
		s->rec.best_rank = rank;
		s->rec.best_start = start;
		snprintf(s->rec.best, sizeof(s->rec.best), "%s", name);
	}
}

void rec_close(struct ctx *c, struct cpu_state *s)
{
	if (s->rec.open && !s->rec.callbacks)
		count(c, s, s->rec.ts, s->rec.best_rank ? s->rec.best : "unknown",
		      s->rec.best_rank ? s->rec.best_start : START_UNKNOWN, -1);
	s->rec.open = false;
}

void rec_open(struct ctx *c, struct cpu_state *s, unsigned long long ts)
{
	unsigned long long prev_exit = s->rec.exit_ts;

	rec_close(c, s);
	memset(&s->rec, 0, sizeof(s->rec));
	s->rec.open = true;
	s->rec.ts = ts;
	s->rec.prev_exit = prev_exit;
	s->rec.at = mode_at(&s->mode, ts);
	s->rec.vec = -1;
	s->rec.rcu_basis = s->rcu_basis;
}

/* Does a softirq or timer at @ts still belong to the open record? */
bool rec_continues(struct cpu_state *s, unsigned long long ts)
{
	return s->rec.open &&
	       (s->depth > 0 || ts - s->rec.exit_ts <= QC_CONTINUATION_NS);
}

/*
 * The kernel threads that run an interrupt's deferred work in task
 * context: softirqs (ksoftirqd/N; ktimers/N where a tree has it), RCU's
 * core (rcuc/N), lazy irq_work (irq_work/N) and threaded handlers
 * (irq/N-name). PREEMPT_RT runs all of these there; without RT only
 * ksoftirqd, under softirq load.
 */
static const char *const irq_threads[] = {
	"ksoftirqd/", "ktimers/", "rcuc/", "irq_work/", "irq/",
};

/*
 * Does the thread @comm, switched to at @ts, belong to the interrupt
 * before it? Asked before the switch closes that interrupt's record. It
 * does when it is one of irq_threads and this switch is the first since
 * the interrupt's return, within QC_CONTINUATION_NS of it, or comes right
 * after another such thread that did (@after_irq_thread): the tick on RT
 * wakes ksoftirqd for its TIMER softirq and rcuc for RCU, one
 * interruption (tracing/README.md, "On PREEMPT_RT").
 */
bool irq_thread_continues(struct cpu_state *s, unsigned long long ts,
			  const char *comm, bool after_irq_thread)
{
	size_t i;

	for (i = 0; i < sizeof(irq_threads) / sizeof(irq_threads[0]); i++)
		if (!strncmp(comm, irq_threads[i], strlen(irq_threads[i])))
			break;
	if (i == sizeof(irq_threads) / sizeof(irq_threads[0]))
		return false;
	return after_irq_thread ||
	       (s->rec.open && !s->depth && s->rec.exit_ts &&
		ts - s->rec.exit_ts <= QC_CONTINUATION_NS);
}

/* The foreign task running since its switch-in leaves the CPU at @ts. */
void end_stint(struct ctx *c, struct cpu_state *s, unsigned long long ts)
{
	char buf[CAUSE_LEN];
	int i;

	if (!s->stint)
		return;
	s->stint = false;
	if (s->stint_explained)
		return;
	for (i = 0; i < s->npids; i++)
		if (s->pids[i] == s->stint_pid)
			return;	/* preempted and resumed: counted once */
	if (s->npids < MAX_PIDS)
		s->pids[s->npids++] = s->stint_pid;
	/* A run that overlaps the window counts, wherever it began. */
	if (ts < c->a->start_ns || s->stint_ts > c->a->end_ns)
		return;
	snprintf(buf, sizeof(buf), "sched:%s", s->stint_comm);
	counter_add(&s->res->all_causes, buf, 1);
	count(c, s, s->stint_ts > c->a->start_ns ? s->stint_ts : c->a->start_ns, buf, s->stint_start,
	      s->stint_pid);
}

void push(struct cpu_state *s, enum frame_kind kind, long id,
	  const char *name)
{
	struct frame *f;

	if (s->depth == MAX_NEST)
		return;
	f = &s->stack[s->depth++];
	f->kind = kind;
	f->id = id;
	snprintf(f->name, sizeof(f->name), "%s", name);
	if (kind != FRAME_SOFTIRQ)
		s->hard++;
}

/* Pop the innermost matching frame and any above it (their exits were lost). */
void pop(struct cpu_state *s, enum frame_kind entry, long id,
	 const char *name, unsigned long long ts)
{
	int i, j;

	for (i = s->depth - 1; i >= 0; i--) {
		struct frame *f = &s->stack[i];

		if (f->kind == entry && f->id == id && !strcmp(f->name, name)) {
			for (j = i; j < s->depth; j++)
				if (s->stack[j].kind != FRAME_SOFTIRQ)
					s->hard--;
			s->depth = i;
			if (!s->depth)
				s->rec.exit_ts = ts;
			return;
		}
	}
	/* An exit whose entry came before the trace: nothing to pop. */
}

/* A hard interrupt enters: top-level ones open a record of their own. */
void hard_entry(struct ctx *c, struct cpu_state *s, unsigned long long ts,
		enum frame_kind kind, long id, const char *vector,
		const char *cause, enum origin_start start)
{
	if (!s->hard)
		rec_open(c, s, ts);
	push(s, kind, id, vector);
	seen(c, s, ts, RANK_IRQ, cause, start);
}

void window_opens(struct ctx *c, struct cpu_state *s)
{
	s->started = true;
	if (c->a->task)
		return;
	/*
	 * Without --task the measured task is the one on the CPU when the
	 * window opens (idle if none or unknown).
	 */
	s->measured_pid = s->cur_pid;	/* -1: the next switch's prev */
	if (s->stint && s->stint_pid == s->measured_pid) {
		s->stint = false;
		s->npids = 0;
	}
}
