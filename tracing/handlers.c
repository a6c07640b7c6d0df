// SPDX-License-Identifier: GPL-2.0
/*
 * handlers: the event table, one row per event the guest records
 * (tracing/events.list, plus ftrace:print, ftrace:function and the kprobe
 * groups), and the handlers that read each event's fields by name.
 * tracing/README.md states the counting rule they implement.
 *
 * Adding an event is one row and one handler:
 *
 *	{ "sys", "event", .count = my_handler, .fields = { "target" },
 *	  .start = START_DEVICE },
 *
 *	static int my_handler(struct qc_ev *e)
 *	{
 *		unsigned long long t = ev_num(e, "target");
 *		...
 *	}
 *
 * .scan runs in pass 1 (every CPU, before the window is known: markers,
 * proofs, drain calls), .count in pass 2 (time order, the isolated CPUs
 * only, or every CPU with QC_ANY_CPU; e->s is then the recording CPU's
 * state, and cpu_state(c, cpu) any other CPU's, e.g. an IPI's target).
 * A row that counts nothing is marked QC_NEUTRAL. A row with a .count
 * handler declares where an interruption it counts starts the search for
 * its senders (.start, enum origin_start in origins.h; START_NONE when
 * its handler only tracks state): evtable.c refuses one that does not,
 * so no counted cause reaches origins.c without a class to start from. A
 * record of an event without a row, or whose format lacks a field its row
 * declares, is refused.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analyze-int.h"
#include "qc-util.h"

/* tick_stop dependency bits of RCU and expedited RCU (TICK_DEP_MASK_RCU*) */
#define QC_TICK_DEP_RCU	0x30

static const char *softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

/* ---- pass 1: markers, proofs, drain calls ------------------------------- */

/* ftrace:print: the window markers; every "qc: " one is kept (audit). */
static int marker_scan(struct qc_ev *e)
{
	struct ctx *c = e->c;
	struct analysis *a = c->a;
	char buf[256];
	size_t n;

	ev_str(e, "buf", buf, sizeof(buf));
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (!strncmp(buf, "qc: ", 4)) {
		a->marks = qc_grow(a->marks, a->nmarks, &c->marks_alloc, sizeof(*a->marks));
		a->marks[a->nmarks].ns = e->ts;
		a->marks[a->nmarks].text = strdup(buf);
		if (!a->marks[a->nmarks].text)
			qc_die(2, "out of memory");
		a->nmarks++;
	}
	hwtime_marker(&a->hw, buf);
	if (!strcmp(buf, QC_MARK_START)) {
		if (!c->nstart++ && !a->window_given)
			a->start_ns = e->ts;
	} else if (!strcmp(buf, QC_MARK_END) && c->nstart) {
		if (!c->nend++ && !a->window_given)
			a->end_ns = e->ts;
	}
	return 0;
}

/* QC_PROOF_GROUP: an audit trigger's path ran (counted once the window is known). */
static int proof_scan(struct qc_ev *e)
{
	struct ctx *c = e->c;

	c->hits = qc_grow(c->hits, c->nhits, &c->hits_alloc, sizeof(*c->hits));
	c->hits[c->nhits].ns = e->ts;
	c->hits[c->nhits].key = e->ei->key;
	c->nhits++;
	return 0;
}

/* qc:*: the exposure probes, read by drains.c (drains.h names them). */
static int drains_scan(struct qc_ev *e)
{
	drains_record(&e->c->drains, e->c->tep, e->r);
	return 0;
}

/*
 * The send side and the receive side's flush points, read by origins.c
 * (origins.h names the events and the fields it reads).
 */
static int origins_scan(struct qc_ev *e)
{
	origins_record(&e->c->origins, e->c->tep, e->r, e->cpu);
	return 0;
}

/* A vector's entry: the send side's (origins), and its number (hwtime.h). */
static int vector_scan(struct qc_ev *e)
{
	if (e->c->before)
		hwtime_entry(&e->c->a->hw, hwtime_vec(e->ei->stem), e->cpu);
	return origins_scan(e);
}

/* ---- pass 2: the counting rule, isolated CPUs --------------------------- */

/*
 * The system vectors whose interruptions start elsewhere than their row's
 * START_DEVICE (the APIC's own: thermal, error, spurious), by the stem
 * "irq_vectors:*_entry" matched. A stem listed here is matched whole.
 */
static const struct vector_start {
	const char *stem;
	enum origin_start start;
} vector_starts[] = {
	{ "local_timer", START_TICK },
	{ "reschedule", START_RESCHED },
	{ "call_function", START_CALL },
	{ "call_function_single", START_CALL },
	{ "irq_work", START_LOCAL },
};

static enum origin_start vector_start(const char *stem, enum origin_start row)
{
	size_t i;

	for (i = 0; i < sizeof(vector_starts) / sizeof(vector_starts[0]); i++)
		if (!strcmp(stem, vector_starts[i].stem))
			return vector_starts[i].start;
	return row;
}

/* The tick's hrtimer, as either tree names it: 6.1's, 6.12's. */
static const char *const tick_timers[] = { "tick_sched_timer", "tick_nohz_handler", NULL };

static enum origin_start hrtimer_start_of(const char *sym, enum origin_start row)
{
	int i;

	for (i = 0; tick_timers[i]; i++)
		if (!strcmp(sym, tick_timers[i]))
			return START_TICK;
	return row;
}

static int vector_entry(struct qc_ev *e)
{
	char buf[CAUSE_LEN];
	int vec = hwtime_vec(e->ei->stem);

	if (vec >= 0)
		e->s->vec_seen[vec]++;
	snprintf(buf, sizeof(buf), "irq_vectors:%s", e->ei->stem);
	hard_entry(e->c, e->s, e->ts, FRAME_VECTOR, -1, e->ei->stem, buf,
		   vector_start(e->ei->stem, e->ei->row->start));
	/* (a top-level vector opened the record: its number is the record's) */
	if (vec >= 0 && e->s->hard == 1) {
		e->s->rec.vec = vec;
		e->s->rec.vec_n = e->s->vec_seen[vec];
	}
	return 0;
}

static int vector_exit(struct qc_ev *e)
{
	pop(e->s, FRAME_VECTOR, -1, e->ei->stem, e->ts);
	return 0;
}

static int irq_entry(struct qc_ev *e)
{
	unsigned long long irq = ev_num(e, "irq");
	char name[NAME_LEN], buf[CAUSE_LEN];

	ev_str(e, "name", name, sizeof(name));
	if (name[0])
		snprintf(buf, sizeof(buf), "irq:%s", name);
	else
		snprintf(buf, sizeof(buf), "irq:%llu", irq);
	hard_entry(e->c, e->s, e->ts, FRAME_IRQ, (long)irq, "", buf, e->ei->row->start);
	return 0;
}

static int irq_exit(struct qc_ev *e)
{
	pop(e->s, FRAME_IRQ, (long)ev_num(e, "irq"), "", e->ts);
	return 0;
}

static int softirq_entry(struct qc_ev *e)
{
	struct cpu_state *s = e->s;
	unsigned long long vec;
	char buf[CAUSE_LEN];

	/*
	 * A softirq on an interrupt's way out is part of it; one that a
	 * foreign task runs (ksoftirqd, or any task's local_bh_enable())
	 * is part of that task's run; any other one, in the measured
	 * task's own context, is an interruption of its own.
	 */
	if (!rec_continues(s, e->ts) && !s->stint)
		rec_open(e->c, s, e->ts);
	vec = ev_num(e, "vec");
	push(s, FRAME_SOFTIRQ, (long)vec, "");
	if (vec < sizeof(softirq_names) / sizeof(softirq_names[0]))
		snprintf(buf, sizeof(buf), "softirq:%s", softirq_names[vec]);
	else
		snprintf(buf, sizeof(buf), "softirq:%llu", vec);
	seen(e->c, s, e->ts, RANK_SOFTIRQ, buf, e->ei->row->start);
	return 0;
}

static int softirq_exit(struct qc_ev *e)
{
	pop(e->s, FRAME_SOFTIRQ, (long)ev_num(e, "vec"), "", e->ts);
	return 0;
}

static int hrtimer_expire(struct qc_ev *e)
{
	char sym[NAME_LEN], buf[CAUSE_LEN];

	ev_sym(e, "function", sym, sizeof(sym));
	snprintf(buf, sizeof(buf), "timer:%s", sym);
	/* In a foreign task's softirq (ksoftirqd's HRTIMER on RT): its run. */
	if (!rec_continues(e->s, e->ts) && e->s->stint && e->s->depth) {
		if (in_window(e->c, e->ts))
			counter_add(&e->s->res->all_causes, buf, 1);
		return 0;
	}
	/* Without its carrier (lost before the trace): a record of its own. */
	if (!rec_continues(e->s, e->ts)) {
		rec_open(e->c, e->s, e->ts);
		e->s->rec.exit_ts = e->ts;
	}
	seen(e->c, e->s, e->ts, RANK_TIMER, buf, hrtimer_start_of(sym, e->ei->row->start));
	return 0;
}

/* ftrace:function of ipi-callbacks.list: an IPI's callback. */
static int ipi_callback(struct qc_ev *e)
{
	struct cpu_state *s = e->s;
	char sym[NAME_LEN], buf[CAUSE_LEN];
	enum origin_start start;

	/* A callback counts only when it ran inside a vector. */
	if (!s->rec.open || !s->depth || s->stack[s->depth - 1].kind != FRAME_VECTOR)
		return 0;
	ev_sym(e, "ip", sym, sizeof(sym));
	snprintf(buf, sizeof(buf), "irq_vectors:%s:%s", s->stack[s->depth - 1].name, sym);
	s->rec.callbacks++;
	/* its vector's start, which for a call-function vector is this row's */
	start = vector_start(s->stack[s->depth - 1].name, START_DEVICE);
	if (start == START_CALL)
		start = e->ei->row->start;
	seen(e->c, s, e->ts, RANK_NONE, buf, start);
	count(e->c, s, e->ts, buf, start, -1);
	return 0;
}

static int work_start(struct qc_ev *e)
{
	struct cpu_state *s = e->s;
	char sym[NAME_LEN], buf[CAUSE_LEN];

	ev_sym(e, "function", sym, sizeof(sym));
	snprintf(buf, sizeof(buf), "workqueue:%s", sym);
	seen(e->c, s, e->ts, RANK_NONE, buf, e->ei->row->start);
	count(e->c, s, e->ts, buf, e->ei->row->start, -1);
	s->work_open = true;
	s->work_pid = tep_data_pid(e->c->tep, e->r);
	if (s->stint && s->stint_pid == s->work_pid)
		s->stint_explained = true;
	return 0;
}

static int work_end(struct qc_ev *e)
{
	e->s->work_open = false;
	return 0;
}

static int nmi(struct qc_ev *e)
{
	char sym[NAME_LEN], buf[CAUSE_LEN];

	ev_sym(e, "handler", sym, sizeof(sym));
	snprintf(buf, sizeof(buf), "nmi:%s", sym);
	seen(e->c, e->s, e->ts, RANK_NONE, buf, e->ei->row->start);
	count(e->c, e->s, e->ts, buf, e->ei->row->start, -1);
	return 0;
}

static int tick_stop(struct qc_ev *e)
{
	bool held = !ev_num(e, "success");

	e->s->tick_held_by_rcu = held && (ev_num(e, "dependency") & QC_TICK_DEP_RCU);
	/* the hold is over: a later one follows a forcing of its own */
	if (!e->s->tick_held_by_rcu)
		e->s->rcu_basis = 0;
	e->s->tick_held_other = held && (ev_num(e, "dependency") & ~QC_TICK_DEP_RCU);
	return 0;
}

static int sched_switch(struct qc_ev *e)
{
	struct ctx *c = e->c;
	struct cpu_state *s = e->s;
	char comm[NAME_LEN];
	bool irq_thread;
	int pid;

	ev_str(e, "next_comm", comm, sizeof(comm));
	/* (asked before the switch ends the interrupt's record) */
	irq_thread = irq_thread_continues(s, e->ts, comm, s->stint && s->stint_irq);
	pid = (int)ev_num(e, "next_pid");
	if (!c->a->task && s->started && s->measured_pid < 0)
		s->measured_pid = (int)ev_num(e, "prev_pid");
	/* A task switch ends any interrupt's return path. */
	if (!s->depth)
		rec_close(c, s);
	end_stint(c, s, e->ts);
	s->cur_pid = pid;
	if (is_foreign(c->a, s, pid, comm)) {
		s->stint = true;
		s->stint_pid = pid;
		s->stint_ts = e->ts;
		s->stint_start = e->ei->row->start;
		snprintf(s->stint_comm, sizeof(s->stint_comm), "%s", comm);
		/* a kworker resuming the work item it was preempted in */
		s->stint_explained = s->work_open && s->work_pid == pid;
		/* an interrupt's thread, woken on its way out (RT) */
		s->stint_irq = irq_thread;
		s->stint_explained |= s->stint_irq;
	} else {
		s->npids = 0;	/* the foreign stretch is over */
	}
	return 0;
}

/*
 * The mode transitions of an isolated CPU (mode.h): they count nothing,
 * they say where each interruption found the CPU.
 */
static int ct_user_enter(struct qc_ev *e)
{
	mode_user_enter(&e->s->mode, e->ts);
	e->s->res->mode_events++;
	return 0;
}

static int ct_user_exit(struct qc_ev *e)
{
	mode_user_exit(&e->s->mode, e->ts);
	e->s->res->mode_events++;
	return 0;
}

/* power:cpu_idle: state (u32)-1 (PWR_EVENT_EXIT) leaves idle */
static int cpu_idle(struct qc_ev *e)
{
	mode_idle(&e->s->mode, e->ts, ev_num(e, "state") != 0xffffffffULL);
	e->s->res->mode_events++;
	return 0;
}

static int sys_enter(struct qc_ev *e)
{
	mode_entry(&e->s->mode, (long long)ev_num(e, "id"));
	return 0;
}

static int fault_user(struct qc_ev *e)
{
	mode_entry(&e->s->mode, -1);
	return 0;
}

/* ---- the table ----------------------------------------------------------- */

const struct qc_row qc_rows[] = {
	/* hard interrupts: system vectors (local_timer, reschedule,
	   call_function(_single), irq_work, ...) and device IRQs */
	{ "irq_vectors", "*_entry", .scan = vector_scan, .count = vector_entry, .start = START_DEVICE },
	{ "irq_vectors", "*_exit", .count = vector_exit, .start = START_NONE },
	/* vector allocation bookkeeping (CPU hotplug, device setup) */
	{ "irq_vectors", "vector_*", .flags = QC_NEUTRAL },
	{ "irq", "irq_handler_entry", .count = irq_entry, .fields = { "irq", "name" }, .start = START_DEVICE },
	{ "irq", "irq_handler_exit", .count = irq_exit, .fields = { "irq" }, .start = START_NONE },
	{ "irq", "softirq_entry", .count = softirq_entry, .fields = { "vec" }, .start = START_LOCAL },
	{ "irq", "softirq_exit", .count = softirq_exit, .fields = { "vec" }, .start = START_NONE },
	{ "irq", "softirq_raise", .flags = QC_NEUTRAL },
	{ "nmi", "nmi_handler", .count = nmi, .fields = { "handler" }, .start = START_DEVICE },
	{ "timer", "hrtimer_expire_entry", .scan = origins_scan, .count = hrtimer_expire,
	  .fields = { "function" }, .start = START_LOCAL },
	{ "timer", "tick_stop", .count = tick_stop, .fields = { "success", "dependency" }, .start = START_NONE },
	/* deferred handlers armed and run: read by origins.c only */
	{ "timer", "timer_start", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "timer", "timer_expire_entry", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "timer", "timer_expire_exit", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "timer", "hrtimer_start", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "timer", "hrtimer_expire_exit", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "sched", "sched_kthread_work_queue_work", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "sched", "sched_kthread_work_execute_start", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "sched", "sched_kthread_work_execute_end", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "ftrace", "function", .count = ipi_callback, .fields = { "ip" }, .start = START_CALL },
	/* work items and tasks */
	{ "workqueue", "workqueue_execute_start", .scan = origins_scan, .count = work_start,
	  .fields = { "function" }, .start = START_WORK },
	{ "workqueue", "workqueue_execute_end", .scan = origins_scan, .count = work_end, .start = START_NONE },
	{ "workqueue", "workqueue_queue_work", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "workqueue", "workqueue_activate_work", .flags = QC_NEUTRAL },
	{ "sched", "sched_switch", .count = sched_switch,
	  .fields = { "next_comm", "next_pid", "prev_pid" }, .start = START_TASK },
	{ "sched", "sched_wakeup", .flags = QC_NEUTRAL },
	{ "sched", "sched_waking", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "sched", "sched_wakeup_new", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "sched", "sched_wake_idle_without_ipi", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "sched", "sched_migrate_task", .scan = origins_scan, .flags = QC_NEUTRAL },
	/* in the fixtures: mixed.dat's capture enables sched_process_exec;
	   events.list had kmem:mm_page_pcpu_drain before the exposure probes */
	{ "sched", "sched_process_exec", .flags = QC_NEUTRAL },
	{ "kmem", "mm_page_pcpu_drain", .flags = QC_NEUTRAL },
	{ "exceptions", "page_fault_kernel", .flags = QC_NEUTRAL },
	/* mode and dwell (mode.h), recorded on the isolated CPUs only */
	{ "context_tracking", "user_enter", .count = ct_user_enter, .start = START_NONE },
	{ "context_tracking", "user_exit", .count = ct_user_exit, .start = START_NONE },
	{ "power", "cpu_idle", .count = cpu_idle, .fields = { "state" }, .start = START_NONE },
	{ "raw_syscalls", "sys_enter", .count = sys_enter, .fields = { "id" }, .start = START_NONE },
	{ "raw_syscalls", "sys_exit", .flags = QC_NEUTRAL },
	{ "exceptions", "page_fault_user", .count = fault_user, .start = START_NONE },
	/* read in pass 1 only */
	{ "ftrace", "print", .scan = marker_scan, .flags = QC_NEUTRAL, .fields = { "buf" } },
	{ "qc", "*", .scan = drains_scan, .flags = QC_NEUTRAL },
	{ QC_PROOF_GROUP, "*", .scan = proof_scan, .flags = QC_NEUTRAL },
	/* the send side (probes/origins.list) and the stack after a send */
	{ "qcsend", "*", .scan = origins_scan, .flags = QC_NEUTRAL },
	/* the self-test's planter (probes/plant.list): when each bare vector went */
	{ "qcplant", "*", .scan = origins_scan, .flags = QC_NEUTRAL },
	{ "ftrace", "kernel_stack", .scan = origins_scan, .flags = QC_NEUTRAL },
};

const int qc_nrows = sizeof(qc_rows) / sizeof(qc_rows[0]);
