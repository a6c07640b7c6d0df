// SPDX-License-Identifier: GPL-2.0
/*
 * analyze: count the interruptions of isolated CPUs in a guest trace.dat.
 *
 * The window is the time between the ftrace:print markers
 * "qc: window start" and "qc: window end" (trace-mark.sh writes them; the
 * first start and the first end after it are used).
 *
 * The counting rule (README.md says the same with examples)
 * -----------------------------------------------------------
 * Each isolated CPU is followed through the whole trace (so that its state
 * at the window start is known), one event at a time in time order. The
 * CPU is "away" while it is in interrupt context (between the entry and
 * exit of an irq_vectors:* vector, an irq:irq_handler or an irq:softirq)
 * or while a "foreign" task runs: any task but the measured task and idle.
 * The measured task is --task (a comm prefix) or, without it, the task on
 * the CPU when the window opens. Switching to idle, or from idle back to
 * the task, is not an interruption.
 *
 * An excursion is one continuous period away. It opens on a vector, IRQ
 * or softirq entry, a switch to a foreign task, or (should its carrier be
 * missing) a work item or hrtimer expiry. It stays open while the CPU is
 * away, and also through an interrupt's return path: when the next event
 * that matters after the last exit is a softirq entry (softirqs run on irq
 * exit) or a switch to a foreign task (preemption on irq return, e.g. the
 * IPI that woke a kworker), the same excursion goes on, whatever the time
 * in between (a TCG vCPU may be descheduled by the host right there). Any
 * other entry, or a switch back to the task or to idle, closes it. Events
 * that take the CPU nowhere (sched_wakeup, tick_stop, softirq_raise,
 * workqueue_queue_work, kmem, traced functions outside a vector) are
 * neutral: they neither open nor close an excursion.
 *
 * An excursion counts when it opens inside the window, as one interruption
 * per unit it served:
 *   - each work item started, "workqueue:<fn>";
 *   - each traced callback (ipi-callbacks.list) run inside a vector,
 *     "irq_vectors:<vector>:<fn>";
 *   - each foreign task that ran without starting or resuming a work item,
 *     once per task per excursion, "sched:<comm>";
 * so K planted work items or IPIs count exactly K however the kernel
 * batched them. An excursion without units counts once, for its most
 * specific cause: "timer:<fn>" over "softirq:<NAME>" over "irq:<name>" or
 * "irq_vectors:<vector>"; between equals the first one seen wins. So the
 * local_timer vector that runs tick_sched_timer and then the TIMER and RCU
 * softirqs is one "timer:tick_sched_timer".
 *
 * Nothing is hidden: "all_causes" counts every cause seen inside counted
 * excursions, nested ones included, and "events" the raw events per
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

#define CAUSE_LEN	160
#define NAME_LEN	64
#define MAX_NEST	32
#define MAX_PIDS	16

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
};

/* How specific the cause of an excursion without units is; higher wins. */
enum rank {
	RANK_NONE,
	RANK_IRQ,		/* irq:<name>, irq_vectors:<vector> */
	RANK_SCHED,		/* sched:<comm> */
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

struct cpu_state {
	struct cpu_result *res;
	struct frame stack[MAX_NEST];
	int depth;
	bool foreign;		/* a task other than the measured one and idle */
	int cur_pid;		/* the task on the CPU, -1 if not known yet */
	int measured_pid;	/* without --task: the task at the window start,
				   -1 until known */
	bool started;		/* the window start has been passed */
	/* the work item in progress on this CPU, and its kworker */
	bool work_open;
	int work_pid;
	/* the current foreign task's stint: counts unless it runs work */
	bool stint;
	bool stint_explained;
	int stint_pid;
	char stint_comm[NAME_LEN];
	/* the current excursion */
	bool open;
	bool in_window;
	enum rank best_rank;
	char best[CAUSE_LEN];
	long units;
	int pids[MAX_PIDS];	/* foreign tasks already counted */
	int npids;
};

struct ctx {
	struct analysis *a;
	struct tep_handle *tep;
	struct ev_info *ev;	/* indexed by event id */
	int nev;
	struct cpu_state *cs;	/* indexed by trace CPU, NULL if not reported */
	/* pass 1 */
	int nstart, nend;
	unsigned long long first_ts, last_ts;
	long records;
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

/* ---- pass 1: the window ------------------------------------------------- */

static int find_window(struct tracecmd_input *h, struct tep_record *r,
		       int cpu, void *data)
{
	struct ctx *c = data;
	struct analysis *a = c->a;
	struct ev_info *ei;
	char buf[256];
	size_t n;

	(void)h;
	(void)cpu;
	if (!c->records++)
		c->first_ts = r->ts;
	c->last_ts = r->ts;
	ei = event_of(c, r);
	if (!ei || ei->kind != EV_PRINT)
		return 0;
	field_str(ei->f[0], r, buf, sizeof(buf));
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (!strcmp(buf, QC_MARK_START)) {
		if (!c->nstart++)
			a->start_ns = r->ts;
	} else if (!strcmp(buf, QC_MARK_END) && c->nstart) {
		if (!c->nend++)
			a->end_ns = r->ts;
	}
	return 0;
}

/* ---- pass 2: the counting rule ------------------------------------------ */

/* Is the task switched to foreign: neither idle nor the measured task? */
static bool is_foreign(struct analysis *a, struct cpu_state *s, int pid,
		       const char *comm)
{
	if (pid == 0)
		return false;
	if (a->task)
		return strncmp(comm, a->task, strlen(a->task)) != 0;
	return pid != s->measured_pid;
}

static void close_excursion(struct cpu_state *s)
{
	if (s->open && s->in_window && !s->units) {
		s->res->interruptions++;
		counter_add(&s->res->by_cause, s->best_rank ? s->best : "unknown", 1);
	}
	s->open = false;
}

static void open_excursion(struct ctx *c, struct cpu_state *s,
			   unsigned long long ts)
{
	if (s->open)
		return;
	s->open = true;
	s->in_window = ts >= c->a->start_ns && ts <= c->a->end_ns;
	s->best_rank = RANK_NONE;
	s->best[0] = '\0';
	s->units = 0;
	s->npids = 0;
}

/* A cause seen in an excursion: a candidate for its attribution. */
static void cause(struct cpu_state *s, enum rank rank, const char *name)
{
	if (s->in_window)
		counter_add(&s->res->all_causes, name, 1);
	if (rank > s->best_rank) {
		s->best_rank = rank;
		snprintf(s->best, sizeof(s->best), "%s", name);
	}
}

/* One interruption of its own: a work item, an IPI callback, a task. */
static void unit(struct cpu_state *s, const char *name, bool seen)
{
	if (!s->in_window)
		return;
	if (!seen)
		counter_add(&s->res->all_causes, name, 1);
	counter_add(&s->res->by_cause, name, 1);
	s->res->interruptions++;
	s->units++;
}

/* The foreign task running since the last switch leaves the CPU. */
static void end_stint(struct cpu_state *s)
{
	char buf[CAUSE_LEN];
	int i;

	if (!s->stint)
		return;
	s->stint = false;
	if (s->stint_explained || !s->open)
		return;
	for (i = 0; i < s->npids; i++)
		if (s->pids[i] == s->stint_pid)
			return;	/* preempted and resumed: counted once */
	if (s->npids < MAX_PIDS)
		s->pids[s->npids++] = s->stint_pid;
	snprintf(buf, sizeof(buf), "sched:%s", s->stint_comm);
	unit(s, buf, true);
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
}

/* Pop the innermost matching frame and any above it (their exits were lost). */
static void pop(struct cpu_state *s, enum ev_kind entry, long id,
		const char *name)
{
	int i;

	for (i = s->depth - 1; i >= 0; i--) {
		struct frame *f = &s->stack[i];

		if (f->kind == entry && f->id == id && !strcmp(f->name, name)) {
			s->depth = i;
			return;
		}
	}
	/* An exit whose entry came before the trace: nothing to pop. */
}

static int count_event(struct tracecmd_input *h, struct tep_record *r,
		       int cpu, void *data)
{
	struct ctx *c = data;
	struct analysis *a = c->a;
	struct cpu_state *s;
	struct ev_info *ei;
	char name[NAME_LEN], sym[NAME_LEN], buf[CAUSE_LEN];
	bool in_window = r->ts >= a->start_ns && r->ts <= a->end_ns;
	bool foreign_next = false;
	unsigned long long v;

	(void)h;
	if (cpu < 0 || cpu >= a->nr_trace_cpus || !(s = &c->cs[cpu])->res)
		return 0;
	if (r->missed_events && in_window) {
		snprintf(c->err, c->errlen,
			 "events were lost on CPU %d inside the window: its counts would be incomplete (raise trace-start.sh's buffer size)",
			 cpu);
		return -1;
	}
	if (!s->started && r->ts >= a->start_ns) {
		s->started = true;
		if (!a->task) {
			/*
			 * Without --task the measured task is the one on the
			 * CPU when the window opens (idle if none or unknown).
			 */
			s->measured_pid = s->cur_pid;	/* -1: the next switch's prev */
			if (s->foreign && s->stint_pid == s->measured_pid) {
				s->foreign = false;
				s->stint = false;
				if (s->depth == 0)
					close_excursion(s);
			}
		}
	}
	ei = event_of(c, r);
	if (!ei)
		return 0;
	if (in_window)
		counter_add(&s->res->events, ei->key, 1);

	if (ei->kind == EV_SWITCH) {
		field_str(ei->f[0], r, name, sizeof(name));
		v = field_num(ei->f[1], r);
		if (!a->task && s->started && s->measured_pid < 0)
			s->measured_pid = (int)field_num(ei->f[2], r);
		foreign_next = is_foreign(a, s, (int)v, name);
		s->cur_pid = (int)v;
		end_stint(s);
	}

	/* An excursion whose interrupt returned: does this event go on with it? */
	if (s->open && s->depth == 0 && !s->foreign) {
		switch (ei->kind) {
		case EV_SOFTIRQ_ENTRY:
			break;
		case EV_SWITCH:
			if (!foreign_next)
				close_excursion(s);
			break;
		case EV_VEC_ENTRY:
		case EV_IRQ_ENTRY:
		case EV_WORK_START:
		case EV_HRTIMER:
			close_excursion(s);
			break;
		default:
			break;	/* neutral */
		}
	}

	switch (ei->kind) {
	case EV_VEC_ENTRY:
		open_excursion(c, s, r->ts);
		push(s, EV_VEC_ENTRY, -1, ei->vector);
		snprintf(buf, sizeof(buf), "irq_vectors:%s", ei->vector);
		cause(s, RANK_IRQ, buf);
		break;
	case EV_VEC_EXIT:
		pop(s, EV_VEC_ENTRY, -1, ei->vector);
		break;
	case EV_IRQ_ENTRY:
		open_excursion(c, s, r->ts);
		v = field_num(ei->f[0], r);
		field_str(ei->f[1], r, name, sizeof(name));
		push(s, EV_IRQ_ENTRY, (long)v, "");
		if (name[0])
			snprintf(buf, sizeof(buf), "irq:%s", name);
		else
			snprintf(buf, sizeof(buf), "irq:%llu", v);
		cause(s, RANK_IRQ, buf);
		break;
	case EV_IRQ_EXIT:
		pop(s, EV_IRQ_ENTRY, (long)field_num(ei->f[0], r), "");
		break;
	case EV_SOFTIRQ_ENTRY:
		open_excursion(c, s, r->ts);
		v = field_num(ei->f[0], r);
		push(s, EV_SOFTIRQ_ENTRY, (long)v, "");
		if (v < sizeof(softirq_names) / sizeof(softirq_names[0]))
			snprintf(buf, sizeof(buf), "softirq:%s", softirq_names[v]);
		else
			snprintf(buf, sizeof(buf), "softirq:%llu", v);
		cause(s, RANK_SOFTIRQ, buf);
		break;
	case EV_SOFTIRQ_EXIT:
		pop(s, EV_SOFTIRQ_ENTRY, (long)field_num(ei->f[0], r), "");
		break;
	case EV_SWITCH:
		s->foreign = foreign_next;
		if (foreign_next) {
			open_excursion(c, s, r->ts);
			snprintf(buf, sizeof(buf), "sched:%s", name);
			cause(s, RANK_SCHED, buf);
			s->stint = true;
			s->stint_pid = (int)v;
			snprintf(s->stint_comm, sizeof(s->stint_comm), "%s", name);
			/* a kworker resuming the work item it was preempted in */
			s->stint_explained = s->work_open && s->work_pid == (int)v;
		}
		break;
	case EV_WORK_START:
		open_excursion(c, s, r->ts);
		symbol(c->tep, field_num(ei->f[0], r), sym, sizeof(sym));
		snprintf(buf, sizeof(buf), "workqueue:%s", sym);
		unit(s, buf, false);
		s->work_open = true;
		s->work_pid = tep_data_pid(c->tep, r);
		s->stint_explained = true;
		break;
	case EV_WORK_END:
		s->work_open = false;
		break;
	case EV_HRTIMER:
		open_excursion(c, s, r->ts);
		symbol(c->tep, field_num(ei->f[0], r), sym, sizeof(sym));
		snprintf(buf, sizeof(buf), "timer:%s", sym);
		cause(s, RANK_TIMER, buf);
		break;
	case EV_FUNCTION:
		/* A callback counts only when it ran inside a vector. */
		if (s->open && s->depth && s->stack[s->depth - 1].kind == EV_VEC_ENTRY) {
			symbol(c->tep, field_num(ei->f[0], r), sym, sizeof(sym));
			snprintf(buf, sizeof(buf), "irq_vectors:%s:%s",
				 s->stack[s->depth - 1].name, sym);
			unit(s, buf, false);
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

int analyze(struct analysis *a, char *err, int errlen)
{
	struct tracecmd_input *h;
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
	for (i = 0; i < a->ncpus; i++) {
		if (a->cpus[i] >= a->nr_trace_cpus) {
			set_err(err, errlen, "CPU %d is not in %s (it has CPUs 0-%d)",
				a->cpus[i], a->file, a->nr_trace_cpus - 1);
			goto out;
		}
	}

	/* Pass 1: the window, from the markers on whatever CPU wrote them. */
	if (tracecmd_iterate_events(h, NULL, 0, find_window, &c) < 0) {
		set_err(err, errlen, "%s: reading its events failed (truncated or corrupt?)",
			a->file);
		goto out;
	}
	if (!c.records) {
		set_err(err, errlen, "%s holds no events: truncated, or tracing never ran",
			a->file);
		goto out;
	}
	if (!c.nstart || !c.nend) {
		set_err(err, errlen,
			"%s has no complete measurement window: no \"%s\" marker (tracing/trace-mark.sh writes them)",
			a->file, !c.nstart ? QC_MARK_START : QC_MARK_END);
		goto out;
	}
	if (c.nstart > 1 || c.nend > 1)
		fprintf(stderr, "qc-analyze: warning: %s has %d start and %d end markers; using the first window\n",
			a->file, c.nstart, c.nend);

	/* Pass 2: the isolated CPUs only, from the start of the trace. */
	unload(&c, h);
	h = load(&c, a->file);
	if (!h)
		return -1;
	c.cs = calloc(a->nr_trace_cpus, sizeof(*c.cs));
	a->res = calloc(a->ncpus, sizeof(*a->res));
	set = CPU_ALLOC(a->nr_trace_cpus);
	if (!c.cs || !a->res || !set) {
		set_err(err, errlen, "out of memory");
		goto out;
	}
	setsize = CPU_ALLOC_SIZE(a->nr_trace_cpus);
	CPU_ZERO_S(setsize, set);
	for (i = 0; i < a->ncpus; i++) {
		a->res[i].cpu = a->cpus[i];
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
	a->total = 0;
	for (i = 0; i < a->ncpus; i++) {
		end_stint(&c.cs[a->cpus[i]]);
		close_excursion(&c.cs[a->cpus[i]]);
		a->total += a->res[i].interruptions;
	}
	ret = 0;
out:
	if (set)
		CPU_FREE(set);
	free(c.cs);
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
	}
	free(a->res);
	a->res = NULL;
}
