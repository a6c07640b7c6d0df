// SPDX-License-Identifier: GPL-2.0
/*
 * analyze: count the interruptions of isolated CPUs in a guest trace.dat,
 * and charge to the drain those it caused.
 *
 * The window is the time between the ftrace:print markers
 * "qc: window start" and "qc: window end" (trace-mark.sh writes them; the
 * first start and the first end after it are used).
 *
 * No verdict without data (pass 1, every CPU)
 * -------------------------------------------
 * A trace is refused when an isolated CPU has no event before the window
 * start or none after its end (its buffer was overwritten, or it was never
 * traced: a window with no events would otherwise read as clean), when the
 * kernel's per-CPU statistics saved in the file report overrun or dropped
 * events on an isolated CPU, or when a record of an isolated CPU at or
 * after the window start carries the lost-events flag.
 *
 * The counting rule (pass 2, each isolated CPU in time order; README.md
 * says the same with examples)
 * -------------------------------------------------------------------
 * Each of these is one interruption, placed in the window by its own
 * timestamp, so that no count depends on the order of other events or on
 * where an edge of the window falls:
 *   - a top-level hard interrupt: an irq_vectors:<v>_entry or
 *     irq:irq_handler_entry with no hard interrupt already in progress on
 *     that CPU, as osnoise counts its interference. A softirq entered
 *     within QC_CONTINUATION_NS of the interrupt's return (irq_exit() runs
 *     them) belongs to it, as does one a foreign task runs to that
 *     task's run (ksoftirqd); a softirq entered in a measured task's own
 *     context at any other time is a top-level interruption of its own.
 *     An interruption is named by its most specific
 *     cause: "timer:<fn>" over "softirq:<NAME>" over "irq:<name>" or
 *     "irq_vectors:<v>". When traced callbacks (ipi-callbacks.list) ran in
 *     it, each callback is one interruption instead, "irq_vectors:<v>:<fn>",
 *     at the callback's time: K batched IPIs count K;
 *   - each work item started, "workqueue:<fn>";
 *   - each NMI handler run, "nmi:<handler>";
 *   - each foreign task (any task but the measured ones and idle) that ran
 *     without starting or resuming a work item, once per task per foreign
 *     stretch (a stretch ends when the measured task or idle runs again),
 *     "sched:<comm>", counted when its run overlaps the window.
 * Events that take the CPU nowhere (sched_wakeup, tick_stop,
 * softirq_raise, workqueue_queue_work, kmem, page faults, the exposure
 * probes, a traced function outside a vector) are neutral.
 *
 * Charged to the drain is an interruption that (first rule that holds):
 *   "named":     has a cause matching tracing/drain-causes.list;
 *   "in_flight": happened while a drain_all_pages() call that reached this
 *                CPU (drains.h) was in flight;
 *   "rcu_tick":  is a tick (timer:tick_sched_timer, irq_vectors:local_timer)
 *                while the CPU's last tick_stop said the tick could not
 *                stop for RCU, during any drain_all_pages() call.
 *
 * Nothing is hidden: "all_causes" counts every cause seen inside counted
 * interruptions, nested ones included, and "events" the raw events per
 * "system:event" on that CPU inside the window.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "analyze.h"
#include "drains.h"

#define CAUSE_LEN	160
#define NAME_LEN	64
#define MAX_NEST	32
#define MAX_PIDS	16
/* tick_stop dependency bits of RCU and expedited RCU (TICK_DEP_MASK_RCU*) */
#define QC_TICK_DEP_RCU	0x30

enum ev_kind {
	EV_OTHER,
	EV_VEC_ENTRY,
	EV_VEC_EXIT,
	EV_IRQ_ENTRY,
	EV_IRQ_EXIT,
	EV_SOFTIRQ_ENTRY,
	EV_SOFTIRQ_EXIT,
	EV_SWITCH,
	EV_WORK_START,
	EV_WORK_END,
	EV_HRTIMER,
	EV_FUNCTION,
	EV_PRINT,
	EV_NMI,
	EV_TICK_STOP,
};

/* How specific the name of an interrupt without callbacks is; higher wins. */
enum rank {
	RANK_NONE,
	RANK_IRQ,		/* irq:<name>, irq_vectors:<vector> */
	RANK_SOFTIRQ,		/* softirq:<NAME> */
	RANK_TIMER,		/* timer:<fn> */
};

struct ev_info {
	enum ev_kind kind;
	char *key;		/* "system:event" */
	char vector[NAME_LEN];	/* irq_vectors: "local_timer", ... */
	struct tep_event *event;
	struct tep_format_field *f[4];
};

struct frame {
	enum ev_kind kind;	/* the entry kind */
	long id;		/* irq number, softirq vec, or -1 */
	char name[NAME_LEN];	/* vector name */
};

/* One top-level interrupt and what it ran. */
struct irq_rec {
	bool open;
	unsigned long long ts;		/* its entry */
	unsigned long long exit_ts;	/* its last return to depth 0, 0 if in it */
	enum rank best_rank;
	char best[CAUSE_LEN];
	long callbacks;
};

struct cpu_state {
	struct cpu_result *res;
	struct frame stack[MAX_NEST];
	int depth;
	int hard;		/* hard interrupt frames on the stack */
	struct irq_rec rec;
	int cur_pid;		/* the task on the CPU, -1 if not known yet */
	int measured_pid;	/* without --task: the task at the window start,
				   -1 until known */
	bool started;		/* the window start has been passed */
	/* the work item in progress on this CPU, and its kworker */
	bool work_open;
	int work_pid;
	/* the current foreign task's run: counts unless it runs work */
	bool stint;
	bool stint_explained;
	int stint_pid;
	unsigned long long stint_ts;
	char stint_comm[NAME_LEN];
	/* foreign tasks already counted in this foreign stretch */
	int pids[MAX_PIDS];
	int npids;
	/* the last tick_stop said: cannot stop, RCU needs the tick */
	bool tick_held_by_rcu;
};

struct ctx {
	struct analysis *a;
	struct tep_handle *tep;
	struct ev_info *ev;	/* indexed by event id */
	int nev;
	struct cpu_state *cs;	/* indexed by trace CPU, NULL if not reported */
	struct drains drains;	/* the calls the charging rule looks at */
	/* pass 1 */
	int nstart, nend;
	unsigned long long last_ts;
	long records;
	long *before, *after;	/* per trace CPU */
	int lost_cpu;		/* an isolated CPU with lost events, or -1 */
	/* proof events (QC_PROOF_GROUP) seen in pass 1, counted once the
	   window is known */
	struct proof_hit { unsigned long long ns; const char *key; } *hits;
	long nhits, hits_alloc;
	long marks_alloc;
	/* pass 2 */
	char *err;
	int errlen;
};

static const char *softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

static void __attribute__((format(printf, 3, 4)))
set_err(char *err, int len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* ---- reading fields ---------------------------------------------------- */

static unsigned long long field_num(struct tep_format_field *f,
				    struct tep_record *r)
{
	unsigned long long v = 0;

	if (!f || f->offset + f->size > r->size ||
	    tep_read_number_field(f, r->data, &v))
		return 0;
	return v;
}

/* A string field (fixed array, __data_loc or __rel_loc) into @out. */
static void field_str(struct tep_format_field *f, struct tep_record *r,
		      char *out, size_t outlen)
{
	unsigned long long loc;
	const char *p;
	int off, len;

	out[0] = '\0';
	if (!f)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (f->offset + f->size > r->size ||
		    tep_read_number_field(f, r->data, &loc))
			return;
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		len = f->size ? f->size : r->size - off;
	}
	if (off < 0 || len < 0 || off > r->size)
		return;
	if (off + len > r->size)
		len = r->size - off;
	p = (const char *)r->data + off;
	if ((size_t)len >= outlen)
		len = outlen - 1;
	memcpy(out, p, len);
	out[len] = '\0';
	out[strnlen(out, len)] = '\0';
}

static void symbol(struct tep_handle *tep, unsigned long long addr,
		   char *out, size_t outlen)
{
	const char *name = tep_find_function(tep, addr);

	if (name)
		snprintf(out, outlen, "%s", name);
	else
		snprintf(out, outlen, "0x%llx", addr);
}

/* ---- event table -------------------------------------------------------- */

static bool ends_with(const char *s, const char *suffix, size_t *stem)
{
	size_t n = strlen(s), m = strlen(suffix);

	if (n <= m || strcmp(s + n - m, suffix))
		return false;
	*stem = n - m;
	return true;
}

static int build_event_table(struct ctx *c)
{
	struct tep_event **list = tep_list_events(c->tep, TEP_EVENT_SORT_ID);
	int i, max = -1;

	if (!list)
		return -1;
	for (i = 0; list[i]; i++)
		if (list[i]->id > max)
			max = list[i]->id;
	c->nev = max + 1;
	c->ev = calloc(c->nev > 0 ? c->nev : 1, sizeof(*c->ev));
	if (!c->ev)
		return -1;
	for (i = 0; list[i]; i++) {
		struct tep_event *e = list[i];
		struct ev_info *ei = &c->ev[e->id];
		const char *sys = e->system, *name = e->name;
		size_t stem;

		ei->event = e;
		if (asprintf(&ei->key, "%s:%s", sys, name) < 0)
			return -1;
		if (!strcmp(sys, "irq_vectors") &&
		    (ends_with(name, "_entry", &stem) || ends_with(name, "_exit", &stem))) {
			ei->kind = name[stem + 2] == 'n' ? EV_VEC_ENTRY : EV_VEC_EXIT;
			snprintf(ei->vector, sizeof(ei->vector), "%.*s", (int)stem, name);
		} else if (!strcmp(sys, "irq") && !strcmp(name, "irq_handler_entry")) {
			ei->kind = EV_IRQ_ENTRY;
			ei->f[0] = tep_find_field(e, "irq");
			ei->f[1] = tep_find_field(e, "name");
		} else if (!strcmp(sys, "irq") && !strcmp(name, "irq_handler_exit")) {
			ei->kind = EV_IRQ_EXIT;
			ei->f[0] = tep_find_field(e, "irq");
		} else if (!strcmp(sys, "irq") && !strcmp(name, "softirq_entry")) {
			ei->kind = EV_SOFTIRQ_ENTRY;
			ei->f[0] = tep_find_field(e, "vec");
		} else if (!strcmp(sys, "irq") && !strcmp(name, "softirq_exit")) {
			ei->kind = EV_SOFTIRQ_EXIT;
			ei->f[0] = tep_find_field(e, "vec");
		} else if (!strcmp(sys, "sched") && !strcmp(name, "sched_switch")) {
			ei->kind = EV_SWITCH;
			ei->f[0] = tep_find_field(e, "next_comm");
			ei->f[1] = tep_find_field(e, "next_pid");
			ei->f[2] = tep_find_field(e, "prev_pid");
		} else if (!strcmp(sys, "workqueue") &&
			   !strcmp(name, "workqueue_execute_start")) {
			ei->kind = EV_WORK_START;
			ei->f[0] = tep_find_field(e, "function");
		} else if (!strcmp(sys, "workqueue") &&
			   !strcmp(name, "workqueue_execute_end")) {
			ei->kind = EV_WORK_END;
		} else if (!strcmp(sys, "timer") && !strcmp(name, "hrtimer_expire_entry")) {
			ei->kind = EV_HRTIMER;
			ei->f[0] = tep_find_field(e, "function");
		} else if (!strcmp(sys, "ftrace") && !strcmp(name, "function")) {
			ei->kind = EV_FUNCTION;
			ei->f[0] = tep_find_field(e, "ip");
		} else if (!strcmp(sys, "ftrace") && !strcmp(name, "print")) {
			ei->kind = EV_PRINT;
			ei->f[0] = tep_find_field(e, "buf");
		} else if (!strcmp(sys, "nmi") && !strcmp(name, "nmi_handler")) {
			ei->kind = EV_NMI;
			ei->f[0] = tep_find_field(e, "handler");
		} else if (!strcmp(sys, "timer") && !strcmp(name, "tick_stop")) {
			ei->kind = EV_TICK_STOP;
			ei->f[0] = tep_find_field(e, "success");
			ei->f[1] = tep_find_field(e, "dependency");
		}
	}
	return 0;
}

static struct ev_info *event_of(struct ctx *c, struct tep_record *r)
{
	int id = tep_data_type(c->tep, r);

	if (id < 0 || id >= c->nev || !c->ev[id].key)
		return NULL;
	return &c->ev[id];
}

/* ---- pass 1: the window, liveness and the drain calls -------------------- */

static bool is_isolated(struct ctx *c, int cpu)
{
	int i;

	for (i = 0; i < c->a->ncpus; i++)
		if (c->a->cpus[i] == cpu)
			return true;
	return false;
}

static void __attribute__((noreturn)) oom(void)
{
	fprintf(stderr, "qc-analyze: error: out of memory\n");
	exit(2);
}

/* @v with room for element @n (of @size bytes), @alloc its capacity. */
static void *grow(void *v, long n, long *alloc, size_t size)
{
	if (n < *alloc)
		return v;
	*alloc = *alloc ? 2 * *alloc : 64;
	v = realloc(v, *alloc * size);
	if (!v)
		oom();
	return v;
}

/* Audit sub-windows are found by their markers: keep every "qc: " one. */
static void add_mark(struct ctx *c, unsigned long long ns, const char *text)
{
	struct analysis *a = c->a;

	a->marks = grow(a->marks, a->nmarks, &c->marks_alloc, sizeof(*a->marks));
	a->marks[a->nmarks].ns = ns;
	a->marks[a->nmarks].text = strdup(text);
	if (!a->marks[a->nmarks].text)
		oom();
	a->nmarks++;
}

static void proof_hit(struct ctx *c, unsigned long long ns, const char *key)
{
	c->hits = grow(c->hits, c->nhits, &c->hits_alloc, sizeof(*c->hits));
	c->hits[c->nhits].ns = ns;
	c->hits[c->nhits].key = key;
	c->nhits++;
}

static int scan_event(struct tracecmd_input *h, struct tep_record *r,
		      int cpu, void *data)
{
	struct ctx *c = data;
	struct ev_info *ei;
	char buf[256];
	size_t n;

	(void)h;
	c->records++;
	c->last_ts = r->ts;
	if (c->before && cpu >= 0 && cpu < c->a->nr_trace_cpus) {
		/* Before the start marker (or the given start), after the end. */
		bool started = c->a->window_given ? r->ts >= c->a->start_ns : c->nstart;
		bool ended = c->a->window_given ? r->ts > c->a->end_ns : c->nend;

		if (!started)
			c->before[cpu]++;
		else if (ended)
			c->after[cpu]++;
		if (started && r->missed_events && c->lost_cpu < 0 && is_isolated(c, cpu))
			c->lost_cpu = cpu;
	}
	drains_record(&c->drains, c->tep, r);
	ei = event_of(c, r);
	if (ei && c->before && !strncmp(ei->key, QC_PROOF_GROUP ":", strlen(QC_PROOF_GROUP ":")))
		proof_hit(c, r->ts, ei->key);
	if (!ei || ei->kind != EV_PRINT)
		return 0;
	field_str(ei->f[0], r, buf, sizeof(buf));
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (c->before && !strncmp(buf, "qc: ", 4))
		add_mark(c, r->ts, buf);
	if (!strcmp(buf, QC_MARK_START)) {
		if (!c->nstart++ && !c->a->window_given)
			c->a->start_ns = r->ts;
	} else if (!strcmp(buf, QC_MARK_END) && c->nstart) {
		if (!c->nend++ && !c->a->window_given)
			c->a->end_ns = r->ts;
	}
	return 0;
}

/* libtracecmd exports this but its public header does not declare it. */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

/*
 * The kernel's per-CPU ring buffer statistics, saved by trace-cmd extract:
 * "CPU: N" then "overrun: X", "dropped events: Y". Returns an isolated CPU
 * that lost events, or -1.
 */
static int stats_lost_cpu(struct ctx *c, struct tracecmd_input *h, long *lost)
{
	const char *p = tracecmd_get_cpustats(h);
	int cpu = -1;

	while (p && *p) {
		long v;

		if (sscanf(p, "CPU: %d", &cpu) == 1)
			;
		else if ((sscanf(p, "overrun: %ld", &v) == 1 ||
			  sscanf(p, "dropped events: %ld", &v) == 1) &&
			 v > 0 && cpu >= 0 && is_isolated(c, cpu)) {
			*lost = v;
			return cpu;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* ---- pass 2: the counting rule ------------------------------------------ */

/* Is the task switched to foreign: neither idle nor a measured task? */
static bool is_foreign(struct analysis *a, struct cpu_state *s, int pid,
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

static bool in_window(struct ctx *c, unsigned long long ts)
{
	return ts >= c->a->start_ns && ts <= c->a->end_ns;
}

static bool is_tick(const char *cause)
{
	return !strcmp(cause, "timer:tick_sched_timer") ||
	       !strcmp(cause, "irq_vectors:local_timer");
}

/* One interruption at @ts, counted if in the window and charged if due. */
static void count(struct ctx *c, struct cpu_state *s, unsigned long long ts,
		  const char *cause)
{
	struct cpu_result *res = s->res;
	const struct causes *dc = c->a->drain_causes;

	if (!in_window(c, ts))
		return;
	res->interruptions++;
	counter_add(&res->by_cause, cause, 1);
	if (dc && causes_match(dc, cause))
		res->charged_named++;
	else if (drains_in_flight(&c->drains, ts, res->cpu))
		res->charged_in_flight++;
	else if (is_tick(cause) && s->tick_held_by_rcu &&
		 drains_in_flight(&c->drains, ts, -1))
		res->charged_rcu_tick++;
	else
		return;
	res->charged++;
	counter_add(&res->charged_by_cause, cause, 1);
}

/* A cause seen: kept in all_causes, a candidate for the record's name. */
static void seen(struct ctx *c, struct cpu_state *s, unsigned long long ts,
		 enum rank rank, const char *name)
{
	if (in_window(c, ts))
		counter_add(&s->res->all_causes, name, 1);
	if (s->rec.open && rank > s->rec.best_rank) {
		s->rec.best_rank = rank;
		snprintf(s->rec.best, sizeof(s->rec.best), "%s", name);
	}
}

static void rec_close(struct ctx *c, struct cpu_state *s)
{
	if (s->rec.open && !s->rec.callbacks)
		count(c, s, s->rec.ts, s->rec.best_rank ? s->rec.best : "unknown");
	s->rec.open = false;
}

static void rec_open(struct ctx *c, struct cpu_state *s, unsigned long long ts)
{
	rec_close(c, s);
	memset(&s->rec, 0, sizeof(s->rec));
	s->rec.open = true;
	s->rec.ts = ts;
}

/* Does a softirq or timer at @ts still belong to the open record? */
static bool rec_continues(struct cpu_state *s, unsigned long long ts)
{
	return s->rec.open &&
	       (s->depth > 0 || ts - s->rec.exit_ts <= QC_CONTINUATION_NS);
}

/* The foreign task running since its switch-in leaves the CPU at @ts. */
static void end_stint(struct ctx *c, struct cpu_state *s, unsigned long long ts)
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
	count(c, s, s->stint_ts > c->a->start_ns ? s->stint_ts : c->a->start_ns, buf);
}

static void push(struct cpu_state *s, enum ev_kind kind, long id,
		 const char *name)
{
	struct frame *f;

	if (s->depth == MAX_NEST)
		return;
	f = &s->stack[s->depth++];
	f->kind = kind;
	f->id = id;
	snprintf(f->name, sizeof(f->name), "%s", name);
	if (kind != EV_SOFTIRQ_ENTRY)
		s->hard++;
}

/* Pop the innermost matching frame and any above it (their exits were lost). */
static void pop(struct cpu_state *s, enum ev_kind entry, long id,
		const char *name, unsigned long long ts)
{
	int i, j;

	for (i = s->depth - 1; i >= 0; i--) {
		struct frame *f = &s->stack[i];

		if (f->kind == entry && f->id == id && !strcmp(f->name, name)) {
			for (j = i; j < s->depth; j++)
				if (s->stack[j].kind != EV_SOFTIRQ_ENTRY)
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
static void hard_entry(struct ctx *c, struct cpu_state *s, unsigned long long ts,
		       enum ev_kind kind, long id, const char *vector,
		       const char *cause)
{
	if (!s->hard)
		rec_open(c, s, ts);
	push(s, kind, id, vector);
	seen(c, s, ts, RANK_IRQ, cause);
}

static void window_opens(struct ctx *c, struct cpu_state *s)
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

static int count_event(struct tracecmd_input *h, struct tep_record *r,
		       int cpu, void *data)
{
	struct ctx *c = data;
	struct analysis *a = c->a;
	struct cpu_state *s;
	struct ev_info *ei;
	char name[NAME_LEN], sym[NAME_LEN], buf[CAUSE_LEN];
	unsigned long long v, ts = r->ts;
	int pid;

	(void)h;
	if (cpu < 0 || cpu >= a->nr_trace_cpus || !(s = &c->cs[cpu])->res)
		return 0;
	if (!s->started && ts >= a->start_ns)
		window_opens(c, s);
	ei = event_of(c, r);
	if (!ei)
		return 0;
	if (in_window(c, ts))
		counter_add(&s->res->events, ei->key, 1);
	/* An interrupt's return path is over: its record is complete. */
	if (s->rec.open && !s->depth && ts - s->rec.exit_ts > QC_CONTINUATION_NS)
		rec_close(c, s);

	switch (ei->kind) {
	case EV_VEC_ENTRY:
		snprintf(buf, sizeof(buf), "irq_vectors:%s", ei->vector);
		hard_entry(c, s, ts, EV_VEC_ENTRY, -1, ei->vector, buf);
		break;
	case EV_VEC_EXIT:
		pop(s, EV_VEC_ENTRY, -1, ei->vector, ts);
		break;
	case EV_IRQ_ENTRY:
		v = field_num(ei->f[0], r);
		field_str(ei->f[1], r, name, sizeof(name));
		if (name[0])
			snprintf(buf, sizeof(buf), "irq:%s", name);
		else
			snprintf(buf, sizeof(buf), "irq:%llu", v);
		hard_entry(c, s, ts, EV_IRQ_ENTRY, (long)v, "", buf);
		break;
	case EV_IRQ_EXIT:
		pop(s, EV_IRQ_ENTRY, (long)field_num(ei->f[0], r), "", ts);
		break;
	case EV_SOFTIRQ_ENTRY:
		/*
		 * A softirq on an interrupt's way out is part of it; one that a
		 * foreign task runs (ksoftirqd, or any task's local_bh_enable())
		 * is part of that task's run; any other one, in the measured
		 * task's own context, is an interruption of its own.
		 */
		if (!rec_continues(s, ts) && !s->stint)
			rec_open(c, s, ts);
		v = field_num(ei->f[0], r);
		push(s, EV_SOFTIRQ_ENTRY, (long)v, "");
		if (v < sizeof(softirq_names) / sizeof(softirq_names[0]))
			snprintf(buf, sizeof(buf), "softirq:%s", softirq_names[v]);
		else
			snprintf(buf, sizeof(buf), "softirq:%llu", v);
		seen(c, s, ts, RANK_SOFTIRQ, buf);
		break;
	case EV_SOFTIRQ_EXIT:
		pop(s, EV_SOFTIRQ_ENTRY, (long)field_num(ei->f[0], r), "", ts);
		break;
	case EV_HRTIMER:
		/* Without its carrier (lost before the trace): a record of its own. */
		if (!rec_continues(s, ts)) {
			rec_open(c, s, ts);
			s->rec.exit_ts = ts;
		}
		symbol(c->tep, field_num(ei->f[0], r), sym, sizeof(sym));
		snprintf(buf, sizeof(buf), "timer:%s", sym);
		seen(c, s, ts, RANK_TIMER, buf);
		break;
	case EV_FUNCTION:
		/* A callback counts only when it ran inside a vector. */
		if (s->rec.open && s->depth && s->stack[s->depth - 1].kind == EV_VEC_ENTRY) {
			symbol(c->tep, field_num(ei->f[0], r), sym, sizeof(sym));
			snprintf(buf, sizeof(buf), "irq_vectors:%s:%s",
				 s->stack[s->depth - 1].name, sym);
			s->rec.callbacks++;
			seen(c, s, ts, RANK_NONE, buf);
			count(c, s, ts, buf);
		}
		break;
	case EV_WORK_START:
		symbol(c->tep, field_num(ei->f[0], r), sym, sizeof(sym));
		snprintf(buf, sizeof(buf), "workqueue:%s", sym);
		seen(c, s, ts, RANK_NONE, buf);
		count(c, s, ts, buf);
		s->work_open = true;
		s->work_pid = tep_data_pid(c->tep, r);
		if (s->stint && s->stint_pid == s->work_pid)
			s->stint_explained = true;
		break;
	case EV_WORK_END:
		s->work_open = false;
		break;
	case EV_NMI:
		symbol(c->tep, field_num(ei->f[0], r), sym, sizeof(sym));
		snprintf(buf, sizeof(buf), "nmi:%s", sym);
		seen(c, s, ts, RANK_NONE, buf);
		count(c, s, ts, buf);
		break;
	case EV_TICK_STOP:
		s->tick_held_by_rcu = !field_num(ei->f[0], r) &&
				      (field_num(ei->f[1], r) & QC_TICK_DEP_RCU);
		break;
	case EV_SWITCH:
		field_str(ei->f[0], r, name, sizeof(name));
		pid = (int)field_num(ei->f[1], r);
		if (!a->task && s->started && s->measured_pid < 0)
			s->measured_pid = (int)field_num(ei->f[2], r);
		/* A task switch ends any interrupt's return path. */
		if (!s->depth)
			rec_close(c, s);
		end_stint(c, s, ts);
		s->cur_pid = pid;
		if (is_foreign(a, s, pid, name)) {
			s->stint = true;
			s->stint_pid = pid;
			s->stint_ts = ts;
			snprintf(s->stint_comm, sizeof(s->stint_comm), "%s", name);
			/* a kworker resuming the work item it was preempted in */
			s->stint_explained = s->work_open && s->work_pid == pid;
		} else {
			s->npids = 0;	/* the foreign stretch is over */
		}
		break;
	default:
		break;
	}
	return 0;
}

/* ---- driver -------------------------------------------------------------- */

/*
 * libtracecmd trusts the sizes in a file's header: a truncated version 6
 * file makes it crash while opening (SIGSEGV in its own clean-up) or touch
 * mmapped pages past the end of the file (SIGBUS). Nothing is printed
 * before the analysis is complete, so such a crash becomes the same
 * one-line error as any other corrupt file.
 */
static char crash_msg[600];
static size_t crash_len;

static void on_crash(int sig)
{
	(void)sig;
	if (write(2, crash_msg, crash_len) < 0)
		_exit(2);
	_exit(2);
}

static void catch_crashes(const char *file)
{
	struct sigaction sa = { .sa_handler = on_crash };

	snprintf(crash_msg, sizeof(crash_msg),
		 "qc-analyze: error: %s is a truncated or corrupt trace.dat: libtracecmd crashed reading it\n",
		 file);
	crash_len = strlen(crash_msg);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

static void unload(struct ctx *c, struct tracecmd_input *h)
{
	int i;

	if (c->ev) {
		for (i = 0; i < c->nev; i++)
			free(c->ev[i].key);
		free(c->ev);
		c->ev = NULL;
	}
	if (h)
		tracecmd_close(h);
}

/* Open @file and index its events; NULL with a reason in @err. */
static struct tracecmd_input *load(struct ctx *c, const char *file)
{
	struct tracecmd_input *h;
	char magic[10] = "";
	FILE *f;
	size_t n;

	f = fopen(file, "r");
	if (!f) {
		set_err(c->err, c->errlen, "cannot read %s: %s", file, strerror(errno));
		return NULL;
	}
	n = fread(magic, 1, sizeof(magic), f);
	fclose(f);
	/* trace-cmd files start with "\027\010\104tracing" */
	if (n < sizeof(magic) || memcmp(magic, "\027\010\104tracing", 10)) {
		set_err(c->err, c->errlen, "%s is not a trace-cmd trace.dat file", file);
		return NULL;
	}
	h = tracecmd_open(file, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		set_err(c->err, c->errlen,
			"%s is a truncated or corrupt trace.dat: libtracecmd cannot open it", file);
		return NULL;
	}
	c->tep = tracecmd_get_tep(h);
	if (build_event_table(c)) {
		set_err(c->err, c->errlen, "%s: cannot index its events", file);
		unload(c, h);
		return NULL;
	}
	return h;
}

/*
 * Pass 1 over @file with @c: the window markers, every CPU's events before
 * and after the window (with c->before set) and the drain calls.
 */
static int scan(struct ctx *c, const char *file)
{
	struct tracecmd_input *h = load(c, file);
	struct analysis *a = c->a;
	int ret = -1;

	if (!h)
		return -1;
	drains_init(&c->drains, c->tep);
	c->lost_cpu = -1;
	if (tracecmd_iterate_events(h, NULL, 0, scan_event, c) < 0) {
		set_err(c->err, c->errlen, "%s: reading its events failed (truncated or corrupt?)", file);
		goto out;
	}
	drains_finish(&c->drains, c->last_ts);
	if (!c->records) {
		set_err(c->err, c->errlen, "%s holds no events: truncated, or tracing never ran", file);
		goto out;
	}
	if (!c->a->window_given && (!c->nstart || !c->nend)) {
		set_err(c->err, c->errlen,
			"%s has no complete measurement window: no \"%s\" marker (tracing/trace-mark.sh writes them)",
			file, !c->nstart ? QC_MARK_START : QC_MARK_END);
		goto out;
	}
	if (!c->a->window_given && (c->nstart > 1 || c->nend > 1))
		fprintf(stderr, "qc-analyze: warning: %s has %d start and %d end markers; using the first window\n",
			file, c->nstart, c->nend);
	if (c->before) {
		long lost = 0;
		int cpu = stats_lost_cpu(c, h, &lost), i;

		if (cpu >= 0) {
			set_err(c->err, c->errlen,
				"%s: the kernel's ring buffer of isolated CPU %d overran or dropped %ld events: its counts would be incomplete (raise trace-start.sh's buffer size)",
				file, cpu, lost);
			goto out;
		}
		if (c->lost_cpu >= 0) {
			set_err(c->err, c->errlen,
				"%s: events were lost on isolated CPU %d at or after the window start: its counts would be incomplete (raise trace-start.sh's buffer size)",
				file, c->lost_cpu);
			goto out;
		}
		for (i = 0; i < a->ncpus; i++) {
			cpu = a->cpus[i];
			if (c->before[cpu] && c->after[cpu])
				continue;
			set_err(c->err, c->errlen,
				"%s: isolated CPU %d has no event %s the window: it was not traced throughout (its buffer overwritten, or the trace cut), so a clean window would prove nothing",
				file, cpu, c->before[cpu] ? "after" : "before");
			goto out;
		}
		/* the keys belong to the event table, freed by unload() */
		for (i = 0; i < c->nhits; i++)
			if (c->hits[i].ns >= a->start_ns && c->hits[i].ns <= a->end_ns)
				counter_add(&a->proof, c->hits[i].key, 1);
	}
	ret = 0;
out:
	free(c->hits);
	c->hits = NULL;
	unload(c, h);
	return ret;
}

/*
 * The drain calls that opened in the window, those that reached an
 * isolated CPU, and each isolated CPU's exposure: the calls that reached it
 * and the pages they freed there. Overlaid calls (--calls-from) are counted
 * the same way; their exposure is not this trace's and is not reported.
 */
static void tally_calls(struct ctx *c)
{
	struct analysis *a = c->a;
	int i, k;

	a->probes = c->drains.probes;
	for (i = 0; i < c->drains.n; i++) {
		const struct drain_call *call = &c->drains.v[i];
		bool any = false;

		if (!in_window(c, call->start_ns))
			continue;
		a->calls++;
		for (k = 0; k < a->ncpus; k++) {
			int cpu = a->cpus[k];

			if (cpu >= QC_DRAIN_MAX_CPUS || !(call->reached >> cpu & 1))
				continue;
			any = true;
			a->res[k].exposure_drains++;
			a->res[k].exposure_pages += call->pages[cpu];
		}
		a->calls_reached += any;
	}
}

/*
 * The drain calls of another trace (the same guest's hammer window, for the
 * quiet control), moved so that its window starts where this one does.
 */
static int overlay_calls(struct ctx *c)
{
	struct analysis other = { .file = c->a->calls_from };
	struct ctx o = { .a = &other, .err = c->err, .errlen = c->errlen };

	if (scan(&o, other.file))
		return -1;
	if (!o.drains.probes) {
		set_err(c->err, c->errlen, "%s (--calls-from) has no exposure probes: no drain calls to overlay",
			other.file);
		drains_free(&o.drains);
		return -1;
	}
	drains_shift(&o.drains, (long long)(c->a->start_ns - other.start_ns));
	drains_free(&c->drains);
	c->drains = o.drains;
	return 0;
}

int analyze(struct analysis *a, char *err, int errlen)
{
	struct tracecmd_input *h = NULL;
	struct ctx c = { .a = a, .err = err, .errlen = errlen };
	cpu_set_t *set = NULL;
	size_t setsize;
	int i, ret = -1;

	err[0] = '\0';
	catch_crashes(a->file);
	h = load(&c, a->file);
	if (!h)
		return -1;
	a->nr_trace_cpus = tep_get_cpus(c.tep);
	unload(&c, h);
	h = NULL;
	for (i = 0; i < a->ncpus; i++) {
		if (a->cpus[i] >= a->nr_trace_cpus) {
			set_err(err, errlen, "CPU %d is not in %s (it has CPUs 0-%d)",
				a->cpus[i], a->file, a->nr_trace_cpus - 1);
			return -1;
		}
	}
	c.before = calloc(a->nr_trace_cpus, sizeof(*c.before));
	c.after = calloc(a->nr_trace_cpus, sizeof(*c.after));
	c.cs = calloc(a->nr_trace_cpus, sizeof(*c.cs));
	a->res = calloc(a->ncpus, sizeof(*a->res));
	set = CPU_ALLOC(a->nr_trace_cpus);
	if (!c.before || !c.after || !c.cs || !a->res || !set) {
		set_err(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < a->ncpus; i++)
		a->res[i].cpu = a->cpus[i];

	/* Pass 1: window, liveness and drain calls, from every CPU. */
	if (scan(&c, a->file))
		goto out;
	for (i = 0; i < a->ncpus; i++) {
		a->res[i].events_before = c.before[a->cpus[i]];
		a->res[i].events_after = c.after[a->cpus[i]];
	}
	if (a->calls_from && overlay_calls(&c))
		goto out;
	tally_calls(&c);

	/* Pass 2: the isolated CPUs only, from the start of the trace. */
	h = load(&c, a->file);
	if (!h)
		goto out;
	setsize = CPU_ALLOC_SIZE(a->nr_trace_cpus);
	CPU_ZERO_S(setsize, set);
	for (i = 0; i < a->ncpus; i++) {
		c.cs[a->cpus[i]].res = &a->res[i];
		c.cs[a->cpus[i]].cur_pid = -1;
		c.cs[a->cpus[i]].measured_pid = -1;
		CPU_SET_S(a->cpus[i], setsize, set);
	}
	if (tracecmd_iterate_events(h, set, setsize, count_event, &c) < 0) {
		if (!err[0])
			set_err(err, errlen, "%s: reading its events failed (truncated or corrupt?)",
				a->file);
		goto out;
	}
	a->total = a->charged_total = 0;
	for (i = 0; i < a->ncpus; i++) {
		struct cpu_state *s = &c.cs[a->cpus[i]];

		end_stint(&c, s, c.last_ts);
		rec_close(&c, s);
		a->total += a->res[i].interruptions;
		a->charged_total += a->res[i].charged;
	}
	ret = 0;
out:
	if (set)
		CPU_FREE(set);
	free(c.cs);
	free(c.before);
	free(c.after);
	drains_free(&c.drains);
	unload(&c, h);
	return ret;
}

void analysis_free(struct analysis *a)
{
	int i;

	for (i = 0; a->res && i < a->ncpus; i++) {
		counter_free(&a->res[i].by_cause);
		counter_free(&a->res[i].all_causes);
		counter_free(&a->res[i].events);
		counter_free(&a->res[i].charged_by_cause);
	}
	free(a->res);
	a->res = NULL;
	for (i = 0; i < a->nmarks; i++)
		free(a->marks[i].text);
	free(a->marks);
	a->marks = NULL;
	counter_free(&a->proof);
}
