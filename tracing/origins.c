// SPDX-License-Identifier: GPL-2.0
/*
 * origins: the send side of a trace and the rules that match each
 * interruption of an isolated CPU to its senders (origins.h says which
 * events; tracing/README.md, "Origins", states the rules in words).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "origins.h"
#include "qc-util.h"

/*
 * Frames kept of a stack: enough to reach an audit trigger's function
 * below the wake-up and IPI machinery (memory offline's sends sit 15
 * frames above offline_pages()); a chain is reported by its top frames.
 */
#define STACK_FRAMES		32
#define CHAIN_FRAMES		10
/*
 * How far back a send may be from what it caused. Under TCG a vCPU can
 * take ~100 ms to take an IPI; a work item can wait behind the measured
 * task; a tick dependency lasts until cleared.
 */
#define HORIZON_NS		2000000000ULL
#define TICK_DEP_HORIZON_NS	30000000000ULL
/*
 * A foreign task runs on its last wake-up: one preempted, or throttled
 * as RT throttling does, resumes without a new one, seconds later.
 */
#define TASK_HORIZON_NS		30000000000ULL

const char *const origin_class_names[ORIGIN_CLASSES] = {
	[ORIGIN_REMOTE] = "remote",
	[ORIGIN_RCU_QS] = "rcu_qs",
	[ORIGIN_INHERITED] = "inherited",
	[ORIGIN_SELF] = "self",
	[ORIGIN_DEVICE] = "device",
	[ORIGIN_BEFORE] = "before_trace",
	[ORIGIN_UNKNOWN] = "unknown",
};

/*
 * The events sends are read from: system, name, what they send, and the
 * fields read, by name (a field the trace lacks refuses the trace).
 */
static const struct send_event {
	const char *system, *name;
	enum send_kind kind;
	const char *frame;	/* its stack's first frame: the function probed */
	const char *target;	/* the target CPU's field, or NULL */
	const char *mask;	/* the target CPUs' mask field, or NULL */
	const char *type;	/* CSD_TYPE or tick dependency bit, or NULL */
	const char *func;	/* the callback's or work's function, or NULL */
	const char *work;	/* the work item or the wakee, or NULL */
	/*
	 * A trace may lack it: what only it would explain stays unknown,
	 * which refuses a PASS and never grants one (traces made before
	 * it was recorded still analyse).
	 */
	bool optional;
	/*
	 * Fields only some traces have, or NULL (traces made before they
	 * were recorded still analyse): smp_call_function_many_cond()'s SCF
	 * flags, read into struct send's wait (without them its entries
	 * stay candidates, as before); an RCU callback's function, read as
	 * func (without it, what a callback sends is unknown).
	 */
	const char *wait, *opt_func;
} send_events[] = {
	{ "qcsend", "resched", SEND_RESCHED, "native_smp_send_reschedule", "target", NULL, NULL, NULL, NULL, .optional = false },
	{ "qcsend", "csd_queue", SEND_CSD, "__smp_call_single_queue", "target", NULL, "type", "func", NULL, .optional = false },
	{ "qcsend", "csd_many", SEND_CSD_MANY, "smp_call_function_many_cond", NULL, "mask", NULL, "func", NULL, false,
	  .wait = "flags" },
	/* (traces made before it was probed lack it: see csd_many's flags) */
	{ "qcsend", "csd_many_ret", SEND_CSD_MANY_RET, NULL, NULL, NULL, NULL, NULL, NULL, .optional = true },
	{ "qcsend", "tick_dep_cpu", SEND_TICK_DEP, "tick_nohz_dep_set_cpu", "target", NULL, "bit", NULL, NULL, .optional = false },
	{ "qcsend", "tick_dep_task", SEND_TICK_DEP_ALL, "tick_nohz_dep_set_task", NULL, NULL, "bit", NULL, NULL, .optional = false },
	{ "qcsend", "tick_dep_signal", SEND_TICK_DEP_ALL, "tick_nohz_dep_set_signal", NULL, NULL, "bit", NULL, NULL, .optional = false },
	{ "qcsend", "tick_dep_all", SEND_TICK_DEP_ALL, "tick_nohz_dep_set", NULL, NULL, "bit", NULL, NULL, .optional = false },
	{ "qcsend", "resched_cpu", SEND_RESCHED_CPU, "resched_cpu", "target", NULL, NULL, NULL, NULL, .optional = false },
	{ "qcsend", "flush_work", SEND_FLUSH, "__flush_work", NULL, NULL, NULL, NULL, "work", .optional = false },
	/* (traces made before it was probed lack it: every flush then stays a
	   candidate for a barrier) */
	{ "qcsend", "flush_work_ret", SEND_FLUSH_RET, NULL, NULL, NULL, "barrier", NULL, NULL,
	  .optional = true },
	/* (likewise: a stolen work item's queueing stays a candidate) */
	{ "qcsend", "grab", SEND_GRAB, NULL, NULL, NULL, NULL, NULL, "work", .optional = true },
	{ "qcsend", "grab_ret", SEND_GRAB_RET, NULL, NULL, NULL, "stolen", NULL, NULL, .optional = true },
	/* the self-test's planter (probes/plant.list): not a send; traces of
	   other scenarios, and older ones, lack it */
	{ "qcplant", "bare_sent", SEND_BARE, NULL, "target", NULL, NULL, NULL, NULL, .optional = true },
	{ "qcsend", "sync_rcu", SEND_SYNC_RCU, NULL, NULL, NULL, NULL, NULL, NULL, .optional = false },
	{ "qcsend", "sync_rcu_ret", SEND_SYNC_RCU_RET, NULL, NULL, NULL, NULL, NULL, NULL, .optional = false },
	{ "qcsend", "gp_init", SEND_GP_INIT, NULL, NULL, NULL, "started", NULL, NULL, .optional = false },
	{ "qcsend", "gp_cleanup", SEND_GP_CLEANUP, NULL, NULL, NULL, NULL, NULL, NULL, .optional = false },
	{ "workqueue", "workqueue_queue_work", SEND_WORK, "__queue_work", "cpu", NULL, NULL, "function", "work", .optional = false },
	{ "sched", "sched_waking", SEND_WAKING, "try_to_wake_up", "target_cpu", NULL, NULL, NULL, "pid", .optional = false },
	/* (traces made before it was probed lack it: delayed work's arming) */
	{ "qcsend", "timer_on", SEND_TIMER_ON, "add_timer_on", "target", NULL, NULL, "func", "timer",
	  .optional = true },
	/* RCU's request path: who made RCU need each grace period (traces
	   made before it was probed lack it: origins.rcu_untraced) */
	{ "qcsend", "rcu_queue", SEND_RCU_QUEUE, NULL, NULL, NULL, NULL, NULL, "list", .optional = true,
	  .opt_func = "func" },
	{ "qcsend", "rcu_accel", SEND_RCU_ACCEL, NULL, NULL, NULL, NULL, NULL, "list", .optional = true },
	{ "qcsend", "gp_request", SEND_GP_REQUEST, "rcu_start_this_gp", NULL, NULL, NULL, NULL, NULL,
	  .optional = true },
	/* a forked task's first wake-up: wake_up_new_task() emits no sched_waking */
	{ "sched", "sched_wakeup_new", SEND_WAKING, "wake_up_new_task", "target_cpu", NULL, NULL, NULL, "pid",
	  .optional = true },
	/* where a task went: a wake-up explains a task's run only on the CPU
	   it woke onto (traces made before it was recorded: on any) */
	{ "sched", "sched_migrate_task", SEND_MIGRATE, NULL, "dest_cpu", NULL, NULL, NULL, "pid",
	  .optional = true },
	/* deferred handlers armed (tracing/README.md, "Deferred work"); traces
	   made before they were recorded lack them: what a handler sent then
	   has no parent, as before */
	{ "timer", "timer_start", SEND_ARM, NULL, NULL, NULL, NULL, "function", "timer", .optional = true },
	{ "timer", "hrtimer_start", SEND_ARM, NULL, NULL, NULL, NULL, "function", "hrtimer",
	  .optional = true },
	{ "sched", "sched_kthread_work_queue_work", SEND_ARM, NULL, NULL, NULL, NULL, "function", "work",
	  .optional = true },
	/* an RCU callback queued on a nocb CPU's bypass list (rcu_queue has
	   the rest); traces made before it was probed lack it, and what a
	   callback sends is then unknown */
	{ "qcsend", "rcu_bypass", SEND_RCU_CB, NULL, NULL, NULL, NULL, "func", NULL, .optional = true },
};
#define NSEND_EVENTS ((int)(sizeof(send_events) / sizeof(send_events[0])))

/*
 * Where a deferred handler's run starts and ends (origins_run()): the
 * event, the field naming its object (the key its arming was recorded
 * under), and whether it starts. An end names no object: it ends the run
 * of its context. (No irq_work: origins_untraced_runners[].)
 */
static const struct run_event {
	const char *system, *name, *obj;
	bool start;
} run_events[] = {
	{ "timer", "timer_expire_entry", "timer", true },
	{ "timer", "timer_expire_exit", NULL, false },
	{ "timer", "hrtimer_expire_entry", "hrtimer", true },
	{ "timer", "hrtimer_expire_exit", NULL, false },
	{ "sched", "sched_kthread_work_execute_start", "work", true },
	{ "sched", "sched_kthread_work_execute_end", NULL, false },
};
#define NRUN_EVENTS ((int)(sizeof(run_events) / sizeof(run_events[0])))

/* The grace-period numbers each kind carries, into struct send's seq[]. */
static const char *const seq_fields[SEND_KINDS][3] = {
	[SEND_GP_INIT] = { NULL, "seq" },	/* the root rcu_node's gp_seq */
	[SEND_RCU_ACCEL] = { "req" },
	[SEND_GP_REQUEST] = { "req", "seq", "needed" },
};

/* ---- recording (pass 1) -------------------------------------------------- */

static struct tep_format_field *field_of(struct tep_event *e, const char *name,
					 bool *ok)
{
	struct tep_format_field *f;

	if (!name)
		return NULL;
	f = tep_find_field(e, name);
	if (!f)
		*ok = false;
	return f;
}

static int id_of(struct tep_handle *tep, const char *sys, const char *name,
		 struct tep_event **e)
{
	*e = tep_find_event_by_name(tep, sys, name);
	return *e ? (*e)->id : -1;
}

/* An array of one @size element per trace CPU (at least one). */
static void *per_cpu(int ncpus, size_t size)
{
	return qc_realloc(NULL, (ncpus > 0 ? ncpus : 1) * size);
}

void origins_init(struct origins *o, struct tep_handle *tep, int ncpus)
{
	struct tep_event *e;
	int i, k;

	memset(o, 0, sizeof(*o));
	o->ncpus = ncpus;
	o->pending = per_cpu(ncpus, sizeof(*o->pending));
	o->npending = per_cpu(ncpus, sizeof(*o->npending));
	o->last = per_cpu(ncpus, sizeof(*o->last));
	o->prev = per_cpu(ncpus, sizeof(*o->prev));
	o->accel = per_cpu(ncpus, sizeof(*o->accel));
	o->grab = per_cpu(ncpus, sizeof(*o->grab));
	o->many = per_cpu(ncpus, sizeof(*o->many));
	o->resched_last = per_cpu(ncpus, sizeof(*o->resched_last));
	o->irq_run = per_cpu(ncpus, sizeof(*o->irq_run));
	for (i = 0; i < ncpus; i++) {
		o->accel[i] = o->grab[i] = o->many[i] = o->irq_run[i][0] = o->irq_run[i][1] = -1;
		o->resched_last[i] = (struct resched_last){ .newest = -1 };
		o->npending[i] = 0;
		memset(&o->last[i], 0, sizeof(o->last[i]));
		o->last[i].cls = ORIGIN_SELF;
		o->prev[i] = o->last[i];
	}
	o->probes = true;
	o->nev = NSEND_EVENTS;
	o->ev = qc_realloc(NULL, NSEND_EVENTS * sizeof(*o->ev));
	for (i = 0; i < NSEND_EVENTS; i++) {
		const struct send_event *se = &send_events[i];
		struct origin_event *oe = &o->ev[i];
		bool ok = true;

		memset(oe, 0, sizeof(*oe));
		oe->id = id_of(tep, se->system, se->name, &e);
		if (e) {
			oe->target = field_of(e, se->target, &ok);
			oe->mask = field_of(e, se->mask, &ok);
			oe->type = field_of(e, se->type, &ok);
			oe->func = field_of(e, se->func, &ok);
			oe->work = field_of(e, se->work, &ok);
			oe->wait = se->wait ? tep_find_field(e, se->wait) : NULL;
			if (se->opt_func)
				oe->func = tep_find_field(e, se->opt_func);
			for (k = 0; k < 3; k++) {
				oe->seq[k] = seq_fields[se->kind][k] ?
					     tep_find_field(e, seq_fields[se->kind][k]) : NULL;
				if (seq_fields[se->kind][k] && !oe->seq[k])
					o->rcu_untraced = true;
			}
		}
		if ((!e || !ok) && se->optional) {
			oe->id = -1;
			if (seq_fields[se->kind][0])
				o->rcu_untraced = true;
			continue;
		}
		if ((!e || !ok) && o->probes) {
			o->probes = false;
			snprintf(o->missing, sizeof(o->missing), "%s%s:%s",
				 e ? "a field of " : "", se->system, se->name);
		}
	}
	i = origins_event("sched", "sched_migrate_task");
	o->migrations = i >= 0 && o->ev[i].id >= 0;
	/* every callback's queueing, with its function */
	i = origins_event("qcsend", "rcu_queue");
	k = origins_event("qcsend", "rcu_bypass");
	o->rcu_cbs = i >= 0 && o->ev[i].id >= 0 && o->ev[i].func && k >= 0 && o->ev[k].id >= 0;
	o->run = qc_realloc(NULL, NRUN_EVENTS * sizeof(*o->run));
	for (i = 0; i < NRUN_EVENTS; i++) {
		const struct run_event *re = &run_events[i];
		struct run_event_id *ri = &o->run[o->nrun];

		ri->id = id_of(tep, re->system, re->name, &e);
		ri->obj = e && re->obj ? tep_find_field(e, re->obj) : NULL;
		ri->start = re->start;
		/* (a start whose object cannot be read would link nothing) */
		if (ri->id >= 0 && (!re->obj || ri->obj))
			o->nrun++;
	}
	o->id_stack = id_of(tep, "ftrace", "kernel_stack", &e);
	o->f_stack_size = e ? tep_find_field(e, "size") : NULL;
	o->f_stack = e ? tep_find_field(e, "caller") : NULL;
	o->id_resched = id_of(tep, "irq_vectors", "reschedule_entry", &e);
	o->id_call = id_of(tep, "irq_vectors", "call_function_entry", &e);
	o->id_call_single = id_of(tep, "irq_vectors", "call_function_single_entry", &e);
	o->id_idle = id_of(tep, "sched", "sched_wake_idle_without_ipi", &e);
	o->f_idle_cpu = e ? tep_find_field(e, "cpu") : NULL;
	o->id_exec_start = id_of(tep, "workqueue", "workqueue_execute_start", &e);
	o->f_exec_work = e ? tep_find_field(e, "work") : NULL;
	o->id_exec_end = id_of(tep, "workqueue", "workqueue_execute_end", &e);
	if (o->probes && (!o->f_stack || !o->f_idle_cpu)) {
		o->probes = false;
		snprintf(o->missing, sizeof(o->missing), "%s",
			 !o->f_stack ? "ftrace:kernel_stack" : "sched:sched_wake_idle_without_ipi");
	}
}

/*
 * Field @f of @r, a record of CPU @cpu; 0 when the event has no such
 * field to read (@f NULL: the send event declares none). A field the
 * event has but that cannot be read (the record too short for it, or a
 * size libtraceevent does not read) is counted in o->unread, which
 * refuses the trace (origins_unread()): never a target CPU 0, bit 0 or a
 * grace period that did not start.
 */
static unsigned long long num(struct origins *o, struct tep_format_field *f,
			      struct tep_record *r, int cpu)
{
	unsigned long long v = 0;

	if (!f)
		return 0;
	if (f->offset + f->size > r->size || tep_read_number_field(f, r->data, &v)) {
		if (!o->unread.n++) {
			o->unread.cpu = cpu;
			snprintf(o->unread.what, sizeof(o->unread.what), "field \"%s\" of %s:%s",
				 f->name, f->event ? f->event->system : "?", f->event ? f->event->name : "?");
		}
		return 0;
	}
	return v;
}

bool origins_overflowed(const struct origins *o, char *err, size_t len)
{
	if (!o->overflow.n)
		return false;
	snprintf(err, len, "%ld send%s matched to interruptions that already had the %d senders kept (ORIGIN_MAX_SENDS), the first on CPU %d at %s: a sender was dropped, so the interruption cannot be charged; raise ORIGIN_MAX_SENDS in tracing/origins.h",
		 o->overflow.n, o->overflow.n == 1 ? " was" : "s were", ORIGIN_MAX_SENDS, o->overflow.cpu,
		 qc_ts(o->overflow.ns).s);
	return true;
}

bool origins_unread(const struct origins *o, char *err, size_t len)
{
	if (!o->unread.n)
		return false;
	snprintf(err, len, "the %s could not be read in %ld record%s, the first on CPU %d (a record shorter than its format, or a field size libtraceevent does not read): its sends cannot be matched; check the probe's fetch arguments in tracing/probes/",
		 o->unread.what, o->unread.n, o->unread.n == 1 ? "" : "s", o->unread.cpu);
	return true;
}

int origins_event(const char *system, const char *name)
{
	int i;

	for (i = 0; i < NSEND_EVENTS; i++)
		if (!strcmp(send_events[i].system, system) && !strcmp(send_events[i].name, name))
			return i;
	return -1;
}

const char *origins_event_field(int ev, bool mask)
{
	return mask ? send_events[ev].mask : send_events[ev].target;
}

void origins_event_name(int ev, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s", send_events[ev].system, send_events[ev].name);
}

static long intern(struct origins *o, const char *s)
{
	long i;

	for (i = o->nstacks - 1; i >= 0; i--)
		if (!strcmp(o->stacks[i], s))
			return i;
	if (o->nstacks == o->stacks_alloc) {
		o->stacks_alloc = o->stacks_alloc ? 2 * o->stacks_alloc : 64;
		o->stacks = qc_realloc(o->stacks, o->stacks_alloc * sizeof(*o->stacks));
	}
	o->stacks[o->nstacks] = strdup(s);
	if (!o->stacks[o->nstacks])
		qc_die(2, "out of memory");
	return o->nstacks++;
}

/* The frames of the probe and of the stacktrace trigger, above the probed function. */
static bool tracing_frame(const char *fn)
{
	static const char *const machinery[] = {
		"trace", "kprobe", "ftrace", "exc_int3", "event_trigger",
		"stack_trace", "arch_stack_walk", "do_int3", "asm_exc_int3",
		"aggr_",	/* two probes on one function: aggr_pre_handler */
	};
	size_t i;

	for (i = 0; i < sizeof(machinery) / sizeof(machinery[0]); i++)
		if (strstr(fn, machinery[i]))
			return true;
	return false;
}

/*
 * A kernel_stack event: the stack of a send on the same CPU, as "fn <
 * caller < caller's caller ...", from the probed function (or the
 * event's) down. It belongs to the newest send still waiting whose probed
 * function is the stack's first frame: a send an interrupt made between
 * another's event and its stack has had its own by then, and a send that
 * gets no stack (its target is not isolated) is passed over.
 */
static void attach_stack(struct origins *o, struct tep_handle *tep,
			 struct tep_record *r, int cpu)
{
	char buf[STACK_FRAMES * 80] = "", first[64] = "";
	unsigned long long size, addr;
	size_t len = 0;
	int i, kept = 0, off;

	if (cpu < 0 || cpu >= o->ncpus || !o->npending[cpu])
		return;
	size = num(o, o->f_stack_size, r, cpu);
	off = o->f_stack->offset;
	for (i = 0; i < (int)size && off + (i + 1) * 8 <= (int)r->size && kept < STACK_FRAMES; i++) {
		const char *fn;

		memcpy(&addr, (char *)r->data + off + i * 8, 8);
		if (!addr || addr == ~0ULL)
			break;
		fn = tep_find_function(tep, addr);
		if (!fn || (!kept && tracing_frame(fn)))
			continue;
		if (!kept)
			snprintf(first, sizeof(first), "%s", fn);
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s", kept ? " < " : "", fn);
		if (len >= sizeof(buf))
			break;
		kept++;
	}
	if (!kept)
		return;
	for (i = o->npending[cpu] - 1; i >= 0; i--) {
		struct send *s = &o->v[o->pending[cpu][i]];
		const char *frame = send_events[s->ev].frame;

		if (frame && !strcmp(frame, first)) {
			s->stack = intern(o, buf);
			s->stack_ns = r->ts;
			o->npending[cpu] = i;	/* it, and what it waited behind */
			return;
		}
	}
}

static void add_flush(struct origins *o, unsigned long long ns, int cpu, int what)
{
	if (o->nfl == o->fl_alloc) {
		o->fl_alloc = o->fl_alloc ? 2 * o->fl_alloc : 1024;
		o->fl = qc_realloc(o->fl, o->fl_alloc * sizeof(*o->fl));
	}
	o->fl[o->nfl].ns = ns;
	o->fl[o->nfl].cpu = cpu;
	o->fl[o->nfl].what = what;
	o->nfl++;
}

/* ---- paths through kworkers ------------------------------------------------ */

static unsigned long slot_of(unsigned long long work, long alloc)
{
	return (unsigned long)((work >> 3) * 0x9e3779b97f4a7c15ULL) & (alloc - 1);
}

static void table_put(struct send_table *t, unsigned long long key, long send)
{
	unsigned long h;

	if (2 * (t->n + 1) > t->alloc) {
		struct work_slot *old = t->v;
		long n = t->alloc, i;

		t->alloc = n ? 2 * n : 1024;
		t->v = calloc(t->alloc, sizeof(*t->v));
		if (!t->v)
			qc_die(2, "out of memory");
		t->n = 0;
		for (i = 0; i < n; i++)
			if (old[i].key)
				table_put(t, old[i].key, old[i].send);
		free(old);
	}
	for (h = slot_of(key, t->alloc); t->v[h].key && t->v[h].key != key; h = (h + 1) & (t->alloc - 1))
		;
	if (!t->v[h].key)
		t->n++;
	t->v[h].key = key;
	t->v[h].send = send;
}

/* The newest send put under @key so far, or -1. */
static long table_get(const struct send_table *t, unsigned long long key)
{
	unsigned long h;

	if (!t->alloc || !key)
		return -1;
	for (h = slot_of(key, t->alloc); t->v[h].key; h = (h + 1) & (t->alloc - 1))
		if (t->v[h].key == key)
			return t->v[h].send;
	return -1;
}

/*
 * A work item queued from a timer's expiry (the timer softirq of its CPU)
 * is a delayed work item's: its queueing's parent is the arming of its
 * timer on that CPU by add_timer_on() (queue_delayed_work_on()), which
 * names who deferred it there. struct delayed_work holds the work item,
 * then its timer: the timer lies just past the work item (LOCKDEP makes
 * struct work_struct longer), and its function is delayed_work_timer_fn.
 */
#define DWORK_TIMER_OFFSET_MAX	256
static bool targets(const struct send *s, int cpu);
static bool fname_is(const struct origins *o, const struct send *s, const char *fn);

static long dwork_arming(const struct origins *o, const struct send *s, int cpu)
{
	unsigned long long off;
	long i;

	for (off = 8; off <= DWORK_TIMER_OFFSET_MAX; off += 8) {
		i = table_get(&o->timers, s->work + off);
		if (i >= 0 && targets(&o->v[i], cpu) && o->v[i].ns <= s->ns &&
		    fname_is(o, &o->v[i], "delayed_work_timer_fn"))
			return i;
	}
	return -1;
}

/*
 * A kworker starts or ends a work item: while it runs, what that kworker
 * sends in task context is the item's doing, and so of whoever queued
 * it. Kept per kworker, not per CPU: a kworker that preempts another on
 * its CPU, or an unbound one that moves, does not overwrite another's link.
 */
static void work_exec(struct origins *o, struct tep_handle *tep, struct tep_record *r,
		      int cpu, bool start)
{
	int pid = tep_data_pid(tep, r);
	long q = start ? table_get(&o->queued, num(o, o->f_exec_work, r, cpu)) : -1;

	if (q >= 0)
		o->v[q].ran = true;
	if (pid > 0)
		table_put(&o->running, (unsigned long long)pid, q);
}

/*
 * The run in the context a send was made in, whose arming it continues
 * (origins_run()): in task context, the kworker's work item or the
 * thread's handler, per task; in a hardirq or a softirq, the handler
 * running there on its CPU (a hardirq that interrupts a softirq has its
 * own). An NMI runs no deferred handler.
 */
/* A CPU's slot in irq_run for interrupt context @flags (not task, not NMI). */
static int irq_slot(unsigned int flags)
{
	return (flags & QC_FLAG_HARDIRQ) ? 0 : 1;
}

static long context_parent(const struct origins *o, const struct send *s, int cpu)
{
	if (send_in_task(s))
		return s->pid > 0 ? table_get(&o->running, (unsigned long long)s->pid) : -1;
	if (!o->irq_run || (s->flags & QC_FLAG_NMI))
		return -1;
	return o->irq_run[cpu][irq_slot(s->flags)];
}

void origins_run(struct origins *o, unsigned long long obj, int cpu, int pid,
		 unsigned int flags, bool start)
{
	long a = start && obj ? table_get(&o->armed, obj) : -1;

	if (cpu < 0 || cpu >= o->ncpus || !o->irq_run || (flags & QC_FLAG_NMI))
		return;
	if (!(flags & (QC_FLAG_HARDIRQ | QC_FLAG_SOFTIRQ))) {
		if (pid > 0)
			table_put(&o->running, (unsigned long long)pid, a);
		return;
	}
	o->irq_run[cpu][irq_slot(flags)] = a;
}

/*
 * RCU's request path, as call_rcu() and rcu_accelerate_cbs() walk it: a
 * callback joins its list's chain of callbacks not yet accelerated; an
 * acceleration of that list takes the whole chain (rcu_segcblist_accelerate()
 * gives every new callback the grace period it needs); the
 * rcu_start_this_gp() that follows on its CPU, in the same task, for the
 * same grace period, is its request, and ends the chain (an acceleration
 * with no request after it found no room and left the callbacks
 * waiting). The list identifies the CPU's callbacks wherever they are
 * accelerated (an offloaded CPU's by its rcuog kthread).
 *
 * A flush_work() is open from its entry to its return in its task; one
 * that returns false found its work item idle and queued no barrier, so
 * it can explain none (its queueing is dropped). A try_to_grab_pending()
 * that returns 1 stole its item's PENDING bit: if the item's newest
 * queueing has not run, it was taken off its queue and never will.
 */
void origins_link(struct origins *o, struct send *s, int cpu)
{
	long a;

	s->chain = -1;
	s->parent = -1;
	if (cpu < 0 || cpu >= o->ncpus)
		return;
	/* (a delayed work item's own add_timer_on() first: it has a stack) */
	if (s->kind == SEND_WORK && (s->flags & QC_FLAG_SOFTIRQ))
		s->parent = dwork_arming(o, s, cpu);
	if (s->parent < 0)
		s->parent = context_parent(o, s, cpu);
	switch (s->kind) {
	case SEND_TIMER_ON:
		table_put(&o->timers, s->work, o->n);
		break;
	case SEND_ARM:
		table_put(&o->armed, s->work, o->n);
		break;
	case SEND_RCU_QUEUE:
		s->chain = table_get(&o->cblists, s->work);
		table_put(&o->cblists, s->work, o->n);
		break;
	case SEND_RCU_ACCEL:
		s->chain = table_get(&o->cblists, s->work);
		o->accel[cpu] = o->n;
		break;
	case SEND_GP_REQUEST:
		a = o->accel[cpu];
		if (a >= 0 && o->v[a].pid == s->pid && o->v[a].seq[0] == s->seq[0]) {
			s->chain = a;
			table_put(&o->cblists, o->v[a].work, -1);
		}
		o->accel[cpu] = -1;
		break;
	case SEND_WORK:
		table_put(&o->queued, s->work, o->n);
		break;
	case SEND_FLUSH:
		/* its work item's last queueing before it */
		s->queueing = table_get(&o->queued, s->work);
		if (s->pid > 0)
			table_put(&o->flushing, (unsigned long long)s->pid, o->n);
		break;
	case SEND_GRAB:
		o->grab[cpu] = o->n;
		break;
	case SEND_CSD_MANY:
		if (o->many)
			o->many[cpu] = o->n;
		break;
	case SEND_CSD_MANY_RET:
		/* (it runs with preemption off, and never from an interrupt) */
		a = o->many ? o->many[cpu] : -1;
		if (a >= 0 && o->v[a].pid == s->pid && o->v[a].wait >= 0 && (o->v[a].wait & QC_SCF_WAIT))
			o->v[a].done_ns = s->ns;
		if (o->many)
			o->many[cpu] = -1;
		break;
	case SEND_GRAB_RET:
		a = o->grab[cpu];
		o->grab[cpu] = -1;
		if (a < 0 || o->v[a].pid != s->pid || s->type != 1)
			break;	/* (an interrupt's grab nested in it: left alone) */
		a = table_get(&o->queued, o->v[a].work);
		if (a >= 0 && !o->v[a].ran)
			o->v[a].matched = ~0ULL;
		break;
	case SEND_BARE:
		o->nbare++;
		break;
	case SEND_FLUSH_RET:
		a = s->pid > 0 ? table_get(&o->flushing, (unsigned long long)s->pid) : -1;
		if (a >= 0 && !s->type)
			o->v[a].queueing = -1;
		if (a >= 0)
			table_put(&o->flushing, (unsigned long long)s->pid, -1);
		break;
	default:
		break;
	}
}

const struct send *origins_parent(const struct origins *o, const struct send *s)
{
	return s->parent >= 0 ? &o->v[s->parent] : NULL;
}

void origins_record(struct origins *o, struct tep_handle *tep,
		    struct tep_record *r, int cpu)
{
	int id = tep_data_type(tep, r), i;
	const struct send_event *se = NULL;
	struct origin_event *oe = NULL;
	struct send *s;

	if (id < 0)
		return;
	if (id == o->id_stack) {
		attach_stack(o, tep, r, cpu);
		return;
	}
	if (id == o->id_resched)
		add_flush(o, r->ts, cpu, FLUSH_RESCHED);
	else if (id == o->id_call || id == o->id_call_single)
		add_flush(o, r->ts, cpu, FLUSH_CALL);
	else if (id == o->id_idle)
		add_flush(o, r->ts, (int)num(o, o->f_idle_cpu, r, cpu), FLUSH_IDLE);
	else if (id == o->id_exec_start || id == o->id_exec_end)
		work_exec(o, tep, r, cpu, id == o->id_exec_start);
	for (i = 0; i < o->nrun; i++)
		if (o->run[i].id == id)
			origins_run(o, o->run[i].start ? num(o, o->run[i].obj, r, cpu) : 0, cpu,
				    tep_data_pid(tep, r), (unsigned int)tep_data_flags(tep, r),
				    o->run[i].start);
	for (i = 0; i < o->nev; i++)
		if (o->ev[i].id == id) {
			oe = &o->ev[i];
			se = &send_events[i];
			break;
		}
	if (!oe)
		return;
	if (o->n == o->alloc) {
		o->alloc = o->alloc ? 2 * o->alloc : 1024;
		o->v = qc_realloc(o->v, o->alloc * sizeof(*o->v));
	}
	s = &o->v[o->n];
	memset(s, 0, sizeof(*s));
	s->ns = r->ts;
	s->kind = se->kind;
	s->cpu = cpu;
	s->pid = tep_data_pid(tep, r);
	s->flags = (unsigned int)tep_data_flags(tep, r);
	s->stack = -1;
	s->fname = -1;
	s->comm = intern(o, tep_data_comm_from_pid(tep, s->pid));
	if (oe->target) {
		unsigned long long t = num(o, oe->target, r, cpu);

		s->targets = t < ORIGIN_MAX_CPUS ? 1ULL << t : 0;
	}
	if (oe->mask)
		s->targets = num(o, oe->mask, r, cpu);
	s->type = (unsigned int)num(o, oe->type, r, cpu);
	s->func = num(o, oe->func, r, cpu);
	s->work = num(o, oe->work, r, cpu);
	s->wait = oe->wait ? (int)num(o, oe->wait, r, cpu) : -1;
	for (i = 0; i < 3; i++)
		s->seq[i] = num(o, oe->seq[i], r, cpu);
	if (s->func) {
		const char *fn = tep_find_function(tep, s->func);

		if (fn)
			s->fname = intern(o, fn);
	}
	s->ev = (int)(se - send_events);
	s->queueing = -1;
	origins_link(o, s, cpu);
	if (se->frame && cpu >= 0 && cpu < o->ncpus) {
		if (o->npending[cpu] == ORIGIN_PENDING) {
			memmove(o->pending[cpu], o->pending[cpu] + 1,
				(ORIGIN_PENDING - 1) * sizeof(o->pending[cpu][0]));
			o->npending[cpu]--;
		}
		o->pending[cpu][o->npending[cpu]++] = o->n;
	}
	o->n++;
}

/* ---- grace periods ---------------------------------------------------------- */

/* Add @s's task, when and whether in task context, to a grace period's @v. */
static void gp_add_task(struct gp_task **v, long *n, long *alloc, const struct send *s)
{
	*v = qc_grow(*v, *n, alloc, sizeof(**v));
	(*v)[*n].pid = s->pid;
	(*v)[*n].ns = s->ns;
	(*v)[*n].in_task = send_in_task(s);
	(*n)++;
}

/* The return of the synchronize_rcu() entered at send @i, or @last_ns. */
static unsigned long long sync_return(const struct origins *o, long i, unsigned long long last_ns)
{
	int pid = o->v[i].pid;

	for (i = i + 1; i < o->n; i++)
		if (o->v[i].kind == SEND_SYNC_RCU_RET && o->v[i].pid == pid)
			return o->v[i].ns;
	return last_ns;
}

/*
 * rcu_state.gp_seq (kernel/rcu/rcu.h): the count of grace periods above
 * two state bits, 1 while one is in progress. A grace period's number is
 * the value it ends with, which is what rcu_seq_snap() asks for.
 */
#define RCU_SEQ_STATE_MASK	3ULL
#define SEQ_GE(a, b)		((long long)((a) - (b)) >= 0)
#define SEQ_GT(a, b)		((long long)((a) - (b)) > 0)

static void gp_bad(struct origins *o, const struct send *s, const char *what)
{
	if (!o->gp_bad[0])
		snprintf(o->gp_bad, sizeof(o->gp_bad), "%s (CPU %d at %s)", what, s->cpu,
			 qc_ts(s->ns).s);
}

/* The grace period numbered @seq, or NULL (not started in the trace). */
static struct grace_period *gp_numbered(struct origins *o, unsigned long long seq)
{
	long k;

	if (!o->ngp || (seq - o->gp[0].seq) % 4 || !SEQ_GE(seq, o->gp[0].seq))
		return NULL;
	k = (long)((seq - o->gp[0].seq) / 4);
	return k < o->ngp ? &o->gp[k] : NULL;
}

/*
 * Who made RCU need each grace period. A request (rcu_start_this_gp())
 * records the need in the rcu_node unless it is there already (its
 * gp_seq_needed reaches the grace period) or that grace period has
 * started: only then did it start the grace period, or extend RCU's work
 * by one more. Its requesters are the tasks that queued the callbacks
 * its acceleration took, or its own task when it took none (polled grace
 * periods: start_poll_synchronize_rcu()). A request that finds the need
 * recorded only joins: the grace period would have run without it.
 */
static void gp_requests(struct origins *o)
{
	long i, q;

	for (i = 0; i < o->n; i++) {
		const struct send *s = &o->v[i];
		struct grace_period *g;
		unsigned long long req = s->seq[0], seq = s->seq[1], needed = s->seq[2];

		if (s->kind != SEND_GP_REQUEST)
			continue;
		if (req & RCU_SEQ_STATE_MASK) {
			gp_bad(o, s, "a request for a grace period whose number has its state bits set: tracing/probes/ reads rcu_start_this_gp()'s arguments wrongly");
			continue;
		}
		if (SEQ_GE(needed, req) || SEQ_GT(seq, (req - 1) & ~RCU_SEQ_STATE_MASK))
			continue;	/* recorded before, or started: it only joins */
		g = gp_numbered(o, req);
		if (!g)
			continue;	/* it starts after the trace ends */
		if (g->start_ns < s->ns) {
			gp_bad(o, s, "a grace period started before the request that first needed it: its rcu_node's gp_seq or gp_seq_needed is misread (tracing/probes/, gp_request)");
			continue;
		}
		g->nrequests++;
		q = s->chain >= 0 ? o->v[s->chain].chain : -1;
		if (s->chain < 0)
			gp_add_task(&g->requested, &g->nrequested, &g->requested_alloc, s);
		for (; q >= 0; q = o->v[q].chain)
			gp_add_task(&g->requested, &g->nrequested, &g->requested_alloc, &o->v[q]);
	}
}

/* A grace period's start @s, numbered @seq, against the one before it. */
static void gp_check_number(struct origins *o, const struct send *s, unsigned long long seq)
{
	if ((s->seq[1] & RCU_SEQ_STATE_MASK) != 1)
		gp_bad(o, s, "a grace period started, but the root rcu_node's gp_seq says none is in progress: tracing/probes/ reads it at the wrong offset (gp_init)");
	else if (o->ngp && seq != o->gp[o->ngp - 1].seq + 4)
		gp_bad(o, s, "a grace period's number does not follow the one before: a grace period started that the trace did not show");
}

void origins_finish(struct origins *o, unsigned long long last_ns)
{
	long i, k;
	bool in_gp = false;

	/* the grace periods, from their start (rcu_gp_init() true) to cleanup */
	for (i = 0; i < o->n; i++) {
		const struct send *s = &o->v[i];

		if (s->kind == SEND_GP_INIT && s->type) {
			unsigned long long seq = (s->seq[1] & ~RCU_SEQ_STATE_MASK) + 4;

			if (!o->rcu_untraced)
				gp_check_number(o, s, seq);
			o->gp = qc_grow(o->gp, o->ngp, &o->gp_alloc, sizeof(*o->gp));
			memset(&o->gp[o->ngp], 0, sizeof(*o->gp));
			o->gp[o->ngp].start_ns = s->ns;
			o->gp[o->ngp].end_ns = last_ns;
			o->gp[o->ngp].seq = seq;
			o->ngp++;
			in_gp = true;
		} else if (s->kind == SEND_GP_CLEANUP && in_gp) {
			o->gp[o->ngp - 1].end_ns = s->ns;
			in_gp = false;
		}
	}
	if (!o->rcu_untraced)
		gp_requests(o);
	/* each synchronize_rcu(): the grace periods it waited on */
	for (i = 0; i < o->n; i++) {
		const struct send *s = &o->v[i];
		unsigned long long ret;

		if (s->kind != SEND_SYNC_RCU)
			continue;
		ret = sync_return(o, i, last_ns);
		for (k = 0; k < o->ngp; k++) {
			struct grace_period *g = &o->gp[k];

			if (g->end_ns < s->ns || g->start_ns > ret)
				continue;
			gp_add_task(&g->waited, &g->nwaited, &g->waited_alloc, s);
		}
	}
}

bool origins_gp_unmapped(const struct origins *o, char *err, size_t len)
{
	if (!o->gp_bad[0])
		return false;
	snprintf(err, len, "RCU's grace periods do not add up: %s; no RCU forcing can be charged", o->gp_bad);
	return true;
}

const struct grace_period *origins_gp_at(const struct origins *o, unsigned long long ns)
{
	long lo = 0, hi = o->ngp;

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (o->gp[mid].start_ns <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || o->gp[lo - 1].end_ns < ns)
		return NULL;
	return &o->gp[lo - 1];
}

/* ---- matching (pass 2) --------------------------------------------------- */

/* The first send after @ns. */
static long sends_after(const struct origins *o, unsigned long long ns)
{
	long lo = 0, hi = o->n;

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (o->v[mid].ns <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The last flush of @cpu of a kind in @what (bits) strictly before @ns, or 0. */
static unsigned long long last_flush(const struct origins *o, int cpu,
				     unsigned int what, unsigned long long ns)
{
	long lo = 0, hi = o->nfl, i;

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (o->fl[mid].ns < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo - 1; i >= 0; i--)
		if (o->fl[i].cpu == cpu && (what >> o->fl[i].what & 1))
			return o->fl[i].ns;
	return 0;
}

static bool targets(const struct send *s, int cpu)
{
	return cpu >= 0 && cpu < ORIGIN_MAX_CPUS && (s->targets >> cpu & 1);
}

static bool unmatched(const struct send *s, int cpu)
{
	return !(s->matched >> cpu & 1);
}

static void take(struct origins *o, struct origin *out, long i, int cpu, bool consume)
{
	if (out->nsend < ORIGIN_MAX_SENDS) {
		out->send[out->nsend++] = i;
	} else if (!o->overflow.n++) {
		/* (a send given to no one would be counted as nobody's) */
		o->overflow.cpu = cpu;
		o->overflow.ns = o->v[i].ns;
	}
	if (consume && cpu < ORIGIN_MAX_CPUS)
		o->v[i].matched |= 1ULL << cpu;
}

/*
 * Where a send came from: itself, or for a send a deferred handler made
 * (a delayed work item's queueing on its timer's expiry, a timer's or an
 * hrtimer's send) the handler's arming, and so on back while the arming
 * was itself a handler's. Its CPU is the send's origin, and its context
 * the class's: a refill task's own nanosleep, armed from its isolated CPU
 * and expiring on a housekeeping CPU, wakes it there for the task itself.
 */
static const struct send *deferral_root(const struct origins *o, const struct send *s)
{
	int hop;

	for (hop = 0; hop < ORIGIN_PATH_DEPTH && s->parent >= 0; hop++) {
		const struct send *p = &o->v[s->parent];

		if (p->kind != SEND_TIMER_ON && p->kind != SEND_ARM)
			break;
		s = p;
	}
	return s;
}

/*
 * A send of one's own CPU is not remote: self when the measured workload
 * made it in its own context, else inherited (from the interrupt it was
 * made in, or from the foreign task's own interruption).
 */
static enum origin_class class_of(const struct origins *o, const struct interruption *in,
				  const struct origin *out)
{
	const struct send *s;
	int i;

	for (i = 0; i < out->nsend; i++)
		if (deferral_root(o, &o->v[out->send[i]])->cpu != in->cpu)
			return ORIGIN_REMOTE;
	if (!out->nsend)
		return ORIGIN_UNKNOWN;
	s = deferral_root(o, &o->v[out->send[0]]);
	if (s->flags & (QC_FLAG_HARDIRQ | QC_FLAG_SOFTIRQ))
		return ORIGIN_INHERITED;
	if (in->foreign && in->foreign(in->ctx, in->cpu, s->pid, o->stacks[s->comm]))
		return ORIGIN_INHERITED;
	return ORIGIN_SELF;
}

static bool fname_is(const struct origins *o, const struct send *s, const char *fn)
{
	return s->fname >= 0 && !strcmp(o->stacks[s->fname], fn);
}

/* The first send after @floor, searched back from send @end. */
static long sends_since(const struct origins *o, long end, unsigned long long floor)
{
	while (end > 0 && o->v[end - 1].ns > floor)
		end--;
	return end;
}

long origins_bare_in(const struct origins *o, int cpu, unsigned long long from,
		     unsigned long long to)
{
	long i, n = 0;

	if (!o->nbare)
		return 0;	/* (only the self-test's window has any) */
	for (i = sends_after(o, to) - 1; i >= 0 && o->v[i].ns > from; i--)
		n += o->v[i].kind == SEND_BARE && targets(&o->v[i], cpu);
	return n;
}

static unsigned long long back(unsigned long long ns, unsigned long long by)
{
	return ns > by ? ns - by : 0;
}

/*
 * How long a send's stack may come after its probe's hit. The stack is
 * unwound inside the probe's handler, before the probed function queues
 * its entry or sends its IPI, and under TCG an unwind interrupted by the
 * tick took 7.8 ms (a TLB flush's csd_many of the Dec 7 audit: its target
 * meanwhile took a call-single vector for a wake-up, which took the
 * csd_many as its own, and the flush_tlb_func vector that followed was
 * left without a sender).
 */
#define STACK_LAG_NS		100000000ULL

/*
 * The sends of @kinds (bits) to @cpu in (@floor, @ns], oldest first: made
 * after @floor, or stacked after it (its entry queued then: STACK_LAG_NS);
 * and not stacked after @ns (its entry was not queued yet: the vector
 * before it, which would otherwise take it, emptied the queue without it).
 */
static void collect(struct origins *o, const struct interruption *in,
		    unsigned int kinds, unsigned long long floor,
		    const char *fn, bool first_only, struct origin *out)
{
	long end = sends_after(o, in->ns), i;

	for (i = sends_since(o, end, back(floor, STACK_LAG_NS)); i < end; i++) {
		struct send *s = &o->v[i];

		if (!(kinds >> s->kind & 1) || !targets(s, in->cpu) || !unmatched(s, in->cpu))
			continue;
		if ((s->ns <= floor && s->stack_ns <= floor) || s->stack_ns > in->ns)
			continue;
		if (s->done_ns && in->vec_ns > s->done_ns + ORIGIN_CLOCK_SKEW_NS)
			continue;	/* every entry it queued ran before this vector */
		if (fn && !fname_is(o, s, fn))
			continue;
		take(o, out, i, in->cpu, true);
		if (first_only)
			return;
	}
}

/* The callback of "irq_vectors:<vector>:<callback>", or NULL. */
static const char *callback_of(const char *cause)
{
	const char *p = strchr(cause, ':');

	p = p ? strchr(p + 1, ':') : NULL;
	return p ? p + 1 : NULL;
}

/*
 * Where a vector's candidates start: the CPU's last flush of @what (bits)
 * before the vector, or HORIZON_NS back, whichever is later.
 */
static unsigned long long flush_floor(const struct origins *o, const struct interruption *in,
				      unsigned int what)
{
	unsigned long long floor = last_flush(o, in->cpu, what, in->vec_ns);

	return floor > back(in->ns, HORIZON_NS) ? floor : back(in->ns, HORIZON_NS);
}

/*
 * A reschedule vector takes every reschedule IPI sent to its CPU since
 * the vector before: pending together, they make one vector entry. But
 * the vector is delivered some way before its traced entry (the entry
 * code runs first), and a send in between sets the vector pending again:
 * a second entry follows. So a vector that finds no send takes the
 * newest send of the vector before it, when that one took more than one
 * and its newest came within RESCHED_ENTRY_LATENCY_NS of its entry (on
 * spinlock-6.12-rt, RCU's forcing IPI 70 us before the entry of a vector
 * that the self-test's IPI had raised: the next vector, with no sender
 * left, read as one without a sender).
 */
#define RESCHED_ENTRY_LATENCY_NS	500000ULL

static void match_resched(struct origins *o, const struct interruption *in, struct origin *out)
{
	struct resched_last *l = o->resched_last && in->cpu >= 0 && in->cpu < o->ncpus ?
				 &o->resched_last[in->cpu] : NULL;

	collect(o, in, 1 << SEND_RESCHED, flush_floor(o, in, 1 << FLUSH_RESCHED), NULL, false, out);
	if (!out->nsend && l && l->nsend > 1 && l->newest >= 0 &&
	    o->v[l->newest].ns + RESCHED_ENTRY_LATENCY_NS >= l->ns)
		take(o, out, l->newest, in->cpu, false);
	if (l) {
		l->ns = in->ns;
		l->nsend = out->nsend;
		l->newest = out->nsend ? out->send[out->nsend - 1] : -1;
	}
}

/*
 * One call-single queue per CPU, emptied by either call-function vector
 * (or by the idle loop, when the send was skipped): a vector serves every
 * entry queued since the queue was last emptied. A callback the function
 * tracer named is matched to its own queueing; a vector counted as one is
 * matched to its whole batch.
 */
static void match_call(struct origins *o, const struct interruption *in, struct origin *out)
{
	unsigned int kinds = 1 << SEND_CSD | 1 << SEND_CSD_MANY;
	const char *cb = callback_of(in->cause);
	unsigned long long floor = flush_floor(o, in, 1 << FLUSH_CALL | 1 << FLUSH_IDLE);

	collect(o, in, kinds, floor, cb, cb != NULL, out);
	/*
	 * An entry queued as the previous flush emptied the queue: vCPU
	 * clocks order events of two CPUs only to a few microseconds, so it
	 * can stand just before that flush and still have sent this vector.
	 * Unmatched entries since the flush before are candidates then.
	 */
	if (!out->nsend && floor)
		collect(o, in, kinds, last_flush(o, in->cpu, 1 << FLUSH_CALL | 1 << FLUSH_IDLE, floor),
			cb, cb != NULL, out);
	/* a queueing the flush points misplaced (an idle flush that missed it) */
	if (!out->nsend && cb)
		collect(o, in, kinds, back(in->ns, HORIZON_NS), cb, true, out);
}

/*
 * A work item: its own queueing (the oldest unmatched one of its function
 * on this CPU). A flush barrier (wq_barrier_func, queued by flush_work()
 * with no event of its own): the oldest unmatched __flush_work() whose
 * work item was last queued on this CPU.
 */
static void match_work(struct origins *o, const struct interruption *in, struct origin *out)
{
	const char *fn = in->cause + strlen("workqueue:");
	long end = sends_after(o, in->ns), i;

	if (strcmp(fn, "wq_barrier_func")) {
		collect(o, in, 1 << SEND_WORK, back(in->ns, HORIZON_NS), fn, true, out);
		return;
	}
	for (i = sends_since(o, end, back(in->ns, HORIZON_NS)); i < end; i++) {
		struct send *s = &o->v[i];

		if (s->kind != SEND_FLUSH || !unmatched(s, in->cpu))
			continue;
		if (s->queueing >= 0 && targets(&o->v[s->queueing], in->cpu)) {
			take(o, out, i, in->cpu, true);
			return;
		}
	}
}

/*
 * A foreign task: the last wake-up of that task onto this CPU. Where the
 * task went is its newest move (sched_migrate_task: the wake-up's own
 * placement, a balancer's, an affinity change), else the CPU the wake-up
 * named; a task last sent elsewhere ran here with no traced cause, and
 * stays without a sender. (A trace without the moves: its last wake-up.)
 */
static void match_task(struct origins *o, const struct interruption *in, struct origin *out)
{
	int went = -1;	/* -1: no move seen yet; 0: moved elsewhere; 1: here */
	long i;

	for (i = sends_after(o, in->ns) - 1; i >= 0 && o->v[i].ns > back(in->ns, TASK_HORIZON_NS); i--) {
		const struct send *s = &o->v[i];

		if ((int)s->work != in->pid)
			continue;
		if (s->kind == SEND_MIGRATE && went < 0)
			went = targets(s, in->cpu);
		if (s->kind != SEND_WAKING)
			continue;
		if (!o->migrations || went == 1 || (went < 0 && targets(s, in->cpu)))
			take(o, out, i, in->cpu, false);
		return;
	}
}

/* The last tick dependency set on this CPU (for RCU, or any). */
static void match_tick(struct origins *o, const struct interruption *in, bool rcu,
		       struct origin *out)
{
	long i;

	for (i = sends_after(o, in->ns) - 1;
	     i >= 0 && o->v[i].ns > back(in->ns, TICK_DEP_HORIZON_NS); i--) {
		const struct send *s = &o->v[i];
		bool is_rcu = s->type == QC_TICK_DEP_BIT_RCU || s->type == QC_TICK_DEP_BIT_RCU_EXP;

		if (s->kind == SEND_TICK_DEP && targets(s, in->cpu) && is_rcu == rcu) {
			take(o, out, i, in->cpu, false);
			return;
		}
	}
}

/*
 * An inherited interruption (a send of its own CPU from interrupt context,
 * a tick restarted on an interrupt's exit, a softirq or timer on an
 * interrupt's way out) takes the origin of the interruption before it on
 * that CPU; every interruption is then the next one's candidate cause.
 * Before it in time: an interrupt's record is counted when it closes, so
 * a work item that started after the interrupt may be matched first (a
 * tick, then drain_local_pages_wq: 652 ticks so on one wq trace); the
 * interrupt then takes the origin before that work item, not the work
 * item's, which came after it. (One older than both takes none.) And
 * within ORIGIN_INHERIT_NS: a tick that comes a second after the last
 * interruption is its CPU's own timer, not that interruption's doing,
 * and takes nothing (it stays inherited, without a sender: never remote).
 */
static void inherit(struct origins *o, int cpu, unsigned long long ns, struct origin *out)
{
	const struct origin *cause;

	if (cpu < 0 || cpu >= o->ncpus)
		return;
	cause = &o->last[cpu];
	if (o->prev && cause->ns > ns)
		cause = o->prev[cpu].ns <= ns ? &o->prev[cpu] : NULL;
	if (cause && ns - cause->ns > ORIGIN_INHERIT_NS)
		cause = NULL;
	if (cause && out->cls == ORIGIN_INHERITED && cause->nsend) {
		memcpy(out->send, cause->send, cause->nsend * sizeof(out->send[0]));
		out->nsend = cause->nsend;
		out->adopted = true;
	}
	/* RCU forcing a quiescent state stays RCU's down the chain */
	if (cause && out->cls == ORIGIN_INHERITED && cause->cls == ORIGIN_RCU_QS)
		out->cls = ORIGIN_RCU_QS;
	out->ns = ns;
	if (!o->prev || ns >= o->last[cpu].ns) {
		if (o->prev)
			o->prev[cpu] = o->last[cpu];
		o->last[cpu] = *out;
	} else if (ns >= o->prev[cpu].ns) {
		o->prev[cpu] = *out;	/* (between the two: the later stays last) */
	}
}

/*
 * The grace-period kthread forcing a quiescent state out of a nohz_full
 * CPU that holds up a grace period (6.1: rcu_implicit_dynticks_qs(), a
 * reschedule IPI by resched_cpu() or rcu_iw's irq_work; 6.12 renamed it
 * rcu_watching_snap_recheck(), which queues rcu_iw, and moved the
 * resched_cpu() call to its caller, force_qs_rnp()).
 */
/*
 * Their caller, the grace-period kthread's forcing loop, is listed too:
 * a build that inlines force_qs_rnp() into rcu_gp_fqs() (itself inlined
 * into rcu_gp_fqs_loop()) would otherwise read its forcing as plain
 * remote sends, and INDIRECT as PASS. Matched as whole frames among the
 * sender's own, as the drain's functions are (origins_stack_has()).
 */
const char *const origins_rcu_forcers[] = {
	"rcu_implicit_dynticks_qs", "rcu_watching_snap_recheck", "force_qs_rnp",
	"rcu_gp_fqs_loop", NULL
};

/*
 * Deferred handlers whose arming no event shows: an irq_work's.
 * kernel/irq_work.c is built without ftrace, and kprobe events refuse a
 * notrace function (without CONFIG_KPROBE_EVENTS_ON_NOTRACE); the ring
 * buffer itself queues an irq_work to wake each waiting reader, so a
 * probe there would trace the tracer. A send from one (these frames
 * among its own) has a sender whose cause the trace cannot follow: a
 * drain may have armed the handler. (An RCU callback's runner,
 * rcu_do_batch(), is followed where the trace can: origins_rcu_runner.)
 */
const char *const origins_untraced_runners[] = {
	"irq_work_single", "irq_work_run_list", NULL
};
const char *const origins_rcu_runner[] = { "rcu_do_batch", NULL };

bool origins_all_senders_have(const struct origins *o, const struct origin *org,
			      const char *const *funcs)
{
	int i;

	for (i = 0; i < org->nsend; i++)
		if (!origins_stack_has(o, &o->v[org->send[i]], funcs))
			return false;
	return org->nsend > 0;
}

static const char *own_frame(const struct origins *o, const struct send *s,
			     const char *const *funcs, const char **callee, size_t *callee_len);

/*
 * The function of the RCU callback @s was sent from: the frame below
 * rcu_do_batch() among its own, by base name, into @buf ("" if none).
 */
static const char *rcu_callback_of(const struct origins *o, const struct send *s,
				   char *buf, size_t len)
{
	const char *callee;
	size_t n;

	buf[0] = 0;
	if (own_frame(o, s, origins_rcu_runner, &callee, &n) && callee)
		snprintf(buf, len, "%.*s", (int)n, callee);
	return buf;
}

/*
 * An RCU callback's send, followed to the call_rcu() that queued it
 * (tracing/README.md, "Deferred work"). No event names the callback
 * rcu_do_batch() runs, and its rcu_head is not on the stack: the
 * callback is known by its function (the frame below rcu_do_batch()
 * among the sender's own), and its queueing is one of that function's
 * queueings before the send (rcu_queue, or rcu_bypass on a nocb CPU's
 * bypass list: call_rcu()'s, in its caller's context); when the frame
 * names no traced callback (one the callback tail-called), any queueing
 * before it. The send continues the newest of them when the drain's path
 * holds all of them or none: whichever it was, the answer is the same. It
 * is refused (false) when they differ, when there is none, when the trace
 * lacks the queueings' functions, or when the callback may have been
 * queued before the trace began (ORIGIN_RCU_INVOKE_LAG_NS).
 */
static bool rcu_callback_followed(struct origins *o, const struct interruption *in,
				  struct send *s)
{
	char fn[128];
	long i, newest = -1, ndrain = 0, n = 0;
	bool named = false;
	int pass;

	if (!o->rcu_cbs || o->ngp < 2 || s->ns < o->gp[1].end_ns + ORIGIN_RCU_INVOKE_LAG_NS)
		return false;
	rcu_callback_of(o, s, fn, sizeof(fn));
	for (pass = 0; pass < 2 && !n; pass++)
		for (i = 0; i < o->n && o->v[i].ns < s->ns; i++) {
			const struct send *q = &o->v[i];

			if (q->kind != SEND_RCU_CB && q->kind != SEND_RCU_QUEUE)
				continue;
			named = fn[0] && q->fname >= 0 && !strcmp(o->stacks[q->fname], fn);
			if (pass == 0 && !named)
				continue;
			n++;
			newest = i;
			ndrain += in->drain_path && in->drain_path(in->ctx, q);
		}
	if (!n || (ndrain && ndrain != n))
		return false;
	if (s->parent < 0)
		s->parent = newest;
	return true;
}

/*
 * May @out, a remote interruption, stand: no sender ran a deferred
 * handler whose arming the trace cannot follow (an irq_work's, or an RCU
 * callback's that rcu_callback_followed() could not follow)?
 */
static bool deferred_senders_followed(struct origins *o, const struct interruption *in,
				      struct origin *out)
{
	int i;

	/* (a sender that ran neither: the interruption stands, as any remote one) */
	for (i = 0; i < out->nsend; i++)
		if (!origins_stack_has(o, &o->v[out->send[i]], origins_untraced_runners) &&
		    !origins_stack_has(o, &o->v[out->send[i]], origins_rcu_runner))
			return true;
	for (i = 0; i < out->nsend; i++) {
		struct send *s = &o->v[out->send[i]];

		if (origins_stack_has(o, s, origins_untraced_runners) || !rcu_callback_followed(o, in, s))
			return false;
	}
	return true;
}

bool origins_rcu_forcing(const struct origins *o, const struct origin *out)
{
	int i;

	for (i = 0; i < out->nsend; i++)
		if (origins_stack_has(o, &o->v[out->send[i]], origins_rcu_forcers))
			return true;
	return false;
}

void origins_match(struct origins *o, const struct interruption *in,
		   struct origin *out)
{
	memset(out, 0, sizeof(*out));
	switch (in->start) {
	case START_TICK:
		/*
		 * The tick of a nohz_full CPU runs because a dependency holds
		 * it: RCU's (the CPU set it itself, on a grace period's
		 * behalf), another (whoever set it: the scheduler's when a
		 * second task was woken there), or none (the tick restarted
		 * on an interrupt's exit: that interrupt's doing).
		 */
		if (in->tick_rcu || in->tick_other)
			match_tick(o, in, in->tick_rcu, out);
		if (in->tick_rcu)
			out->cls = ORIGIN_RCU_QS;
		else
			out->cls = out->nsend ? class_of(o, in, out) : ORIGIN_INHERITED;
		break;
	case START_RESCHED:
		match_resched(o, in, out);
		out->cls = class_of(o, in, out);
		break;
	case START_CALL:
		match_call(o, in, out);
		out->cls = class_of(o, in, out);
		break;
	case START_WORK:
		match_work(o, in, out);
		out->cls = class_of(o, in, out);
		break;
	case START_TASK:
		match_task(o, in, out);
		out->cls = class_of(o, in, out);
		break;
	case START_LOCAL:
		/* armed or raised on this CPU: by the interrupt before, or by the workload */
		out->cls = in->after_interruption ? ORIGIN_INHERITED : ORIGIN_SELF;
		break;
	case START_DEVICE:
		out->cls = ORIGIN_DEVICE;
		break;
	default:
		out->cls = ORIGIN_UNKNOWN;
		break;
	}
	if (out->cls == ORIGIN_REMOTE && origins_rcu_forcing(o, out))
		out->cls = ORIGIN_RCU_QS;
	else if (out->cls == ORIGIN_REMOTE && !deferred_senders_followed(o, in, out))
		out->cls = ORIGIN_UNKNOWN;	/* (its senders stay named) */
	inherit(o, in->cpu, in->ns, out);
}

/* @st's first @frames frames ("fn < caller < ..."), into @buf. */
static const char *top_frames(const char *st, int frames, char *buf, size_t len)
{
	const char *p = st;

	while (frames-- > 0 && p && (p = strstr(p, " < ")))
		if (frames)
			p += 3;
	snprintf(buf, len, "%.*s", p ? (int)(p - st) : (int)strlen(st), st);
	return buf;
}

void origins_chain(const struct origins *o, const struct interruption *in,
		   const struct origin *org, char *buf, size_t len)
{
	const struct send *s = org->nsend ? &o->v[org->send[0]] : NULL;
	char top[CHAIN_FRAMES * 80];

	if (!s) {
		snprintf(buf, len, "%s <- %s", in->cause, origin_class_names[org->cls]);
		return;
	}
	snprintf(buf, len, "%s <- %s: %s%s on CPU %d: %s%s", in->cause,
		 origin_class_names[org->cls], org->adopted ? "as its cause, " : "",
		 o->stacks[s->comm], s->cpu,
		 s->stack >= 0 ? top_frames(o->stacks[s->stack], CHAIN_FRAMES, top, sizeof(top)) :
				 "(no stack)",
		 org->nsend > 1 ? " (+ batch)" : "");
}

/*
 * A frame where an interrupt, an NMI or a softirq entered: the frames
 * below it are the interrupted context's (a timer interrupt on the
 * drainer's CPU that wakes a task is not the drain's doing).
 */
static bool entry_frame(const char *fn, size_t n)
{
	static const char *const entries[] = {
		"asm_sysvec_", "asm_common_interrupt", "asm_exc_nmi",
		"__do_softirq", "handle_softirqs",
	};
	size_t i, m;

	for (i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
		m = strlen(entries[i]);
		if (n >= m && !strncmp(fn, entries[i], m))
			return true;
	}
	return false;
}

/*
 * The length of frame @fn (@n bytes) without the suffixes of the
 * compiler's clones and split parts (GCC's .isra.N, .constprop.N, .part.N
 * and .cold, in any sequence): a clone is still its function, and a
 * drain the compiler clones must not stop counting as the drain. Anything
 * else after a '.' keeps the whole name.
 */
static size_t base_len(const char *fn, size_t n)
{
	static const char *const numbered[] = { ".isra.", ".constprop.", ".part." };
	const char *dot = memchr(fn, '.', n), *p;
	size_t i, m;

	if (!dot)
		return n;
	for (p = dot; p < fn + n;) {
		if ((size_t)(fn + n - p) >= 5 && !strncmp(p, ".cold", 5) &&
		    (p + 5 == fn + n || p[5] == '.')) {
			p += 5;
			continue;
		}
		for (i = 0; i < sizeof(numbered) / sizeof(numbered[0]); i++) {
			m = strlen(numbered[i]);
			if ((size_t)(fn + n - p) > m && !strncmp(p, numbered[i], m) &&
			    p[m] >= '0' && p[m] <= '9')
				break;
		}
		if (i == sizeof(numbered) / sizeof(numbered[0]))
			return n;
		for (p += m; p < fn + n && *p >= '0' && *p <= '9'; p++)
			;
	}
	return dot - fn;
}

/*
 * The first of @s's own frames (those above where its context began)
 * that is one of @funcs, matched whole by base name, or NULL; in
 * *@callee and *@callee_len (when given) the frame before it, the one it
 * called, or NULL and 0.
 */
static const char *own_frame(const struct origins *o, const struct send *s,
			     const char *const *funcs, const char **callee, size_t *callee_len)
{
	const char *p, *end, *prev = NULL;
	size_t n, prev_n = 0;
	int i;

	if (callee) {
		*callee = NULL;
		*callee_len = 0;
	}
	if (s->stack < 0 || !funcs)
		return NULL;
	for (p = o->stacks[s->stack]; *p; p = end + 3) {
		end = strstr(p, " < ");
		if (!end)
			end = p + strlen(p);
		n = end - p;
		if (entry_frame(p, n))
			return NULL;
		n = base_len(p, n);
		/* whole frames only: "drain_pages" is not "drain_pages_zone" */
		for (i = 0; funcs[i]; i++)
			if (strlen(funcs[i]) == n && !strncmp(p, funcs[i], n)) {
				if (callee) {
					*callee = prev;
					*callee_len = prev_n;
				}
				return p;
			}
		prev = p;
		prev_n = n;
		if (!*end)
			break;
	}
	return NULL;
}

bool origins_stack_has(const struct origins *o, const struct send *s,
		       const char *const *funcs)
{
	return own_frame(o, s, funcs, NULL, NULL) != NULL;
}

void origins_free(struct origins *o)
{
	long i;

	for (i = 0; i < o->nstacks; i++)
		free(o->stacks[i]);
	free(o->stacks);
	free(o->v);
	free(o->fl);
	for (i = 0; i < o->ngp; i++) {
		free(o->gp[i].requested);
		free(o->gp[i].waited);
	}
	free(o->gp);
	free(o->ev);
	free(o->pending);
	free(o->npending);
	free(o->last);
	free(o->prev);
	free(o->running.v);
	free(o->flushing.v);
	free(o->queued.v);
	free(o->timers.v);
	free(o->cblists.v);
	free(o->armed.v);
	free(o->irq_run);
	free(o->run);
	free(o->accel);
	free(o->grab);
	free(o->many);
	free(o->resched_last);
	memset(o, 0, sizeof(*o));
}
