/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyze-int.h: what the parts of the analyzer share, inside qc-analyze.
 *
 *   analyze.c   the driver: the two passes over the trace, the refusals
 *   handlers.c  the event table: one row per event, and its handlers
 *   evtable.c   the rows matched to the trace's events; fields by name
 *   rule.c      the counting rule's state: interrupt records, nesting,
 *               foreign tasks, and the charging of each interruption
 *
 * As rtla's timerlat_aa.c hooks one handler per event, every event that
 * reaches the analyzer is read through its row in handlers.c. The rule
 * itself is described in tracing/README.md, and only there.
 */
#ifndef QC_ANALYZE_INT_H
#define QC_ANALYZE_INT_H

#include <stdbool.h>

#include <trace-cmd.h>

#include "analyze.h"
#include "drains.h"
#include "origins.h"

#define CAUSE_LEN	160
#define NAME_LEN	64
#define MAX_NEST	32
#define MAX_PIDS	16
/* The most fields a row can declare. */
#define QC_ROW_FIELDS	4

struct ctx;

/* One record, as a handler sees it. */
struct qc_ev {
	struct ctx *c;
	struct tep_record *r;
	const struct ev_info *ei;	/* its event: row, key, fields */
	unsigned long long ts;
	int cpu;			/* the CPU it was recorded on */
	struct cpu_state *s;		/* that CPU's state (s->res is NULL
					   unless it is an isolated CPU) */
};

/* A handler: 0, or -1 with a one-line reason in c->err (no verdict). */
typedef int (*qc_handler_fn)(struct qc_ev *e);

/* Row flags. */
enum {
	/* Counted by no rule: takes the CPU nowhere, or is read in pass 1
	   only. A row without a count handler must say so. */
	QC_NEUTRAL	= 1 << 0,
	/* count() sees this event on every CPU, not only on isolated ones
	   (pass 2 then reads every CPU: use it for the events that matter
	   there, e.g. the send side of an IPI on the housekeeping CPU). */
	QC_ANY_CPU	= 1 << 1,
};

/*
 * A row of the event table (handlers.c). The first row whose system and
 * event pattern (fnmatch(3): "*_entry") match an event of the trace is
 * that event's. Every record must have a row; a row's fields must all be
 * in the trace's format of that event. Either is a refusal otherwise.
 */
struct qc_row {
	const char *system;
	const char *event;
	/* pass 1, every CPU, whole trace: window, liveness, drain calls */
	qc_handler_fn scan;
	/* pass 2, in time order: the counting rule */
	qc_handler_fn count;
	unsigned int flags;
	/* the fields the handlers read, by name (ev_num(e, "irq")) */
	const char *fields[QC_ROW_FIELDS];
	/* where an interruption it counts starts the search for its senders
	   (origins.h): every row with a count handler declares it, START_NONE
	   when it counts none (evtable.c refuses a row that does not) */
	enum origin_start start;
};

extern const struct qc_row qc_rows[];
extern const int qc_nrows;

/* A trace event, indexed by its id. */
struct ev_info {
	char *key;			/* "system:event" */
	const struct qc_row *row;	/* NULL: no row (refused in pass 1) */
	char stem[NAME_LEN];		/* what a leading '*' matched: "local_timer" */
	struct tep_format_field *field[QC_ROW_FIELDS];	/* row->fields[i] */
	const char *missing;		/* a row field the format lacks, or NULL */
	long records;			/* seen in pass 1 */
};

/* How specific the name of an interrupt without callbacks is; higher wins. */
enum rank {
	RANK_NONE,
	RANK_IRQ,		/* irq:<name>, irq_vectors:<vector> */
	RANK_SOFTIRQ,		/* softirq:<NAME> */
	RANK_TIMER,		/* timer:<fn> */
};

/* What a frame of a CPU's interrupt nesting is. */
enum frame_kind {
	FRAME_VECTOR,		/* irq_vectors:<v>_entry; name is <v> */
	FRAME_IRQ,		/* irq:irq_handler_entry; id is the irq */
	FRAME_SOFTIRQ,		/* irq:softirq_entry; id is the vec */
};

struct frame {
	enum frame_kind kind;
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
	enum origin_start best_start;	/* best's row's */
	long callbacks;
	unsigned long long prev_exit;	/* the previous record's return */
	struct mode_at at;		/* the mode its entry found (mode.h) */
	int vec;			/* a vector qc-entry counts (HW_*), or -1 */
	long vec_n;			/* its ordinal on this CPU in the trace (from 1) */
	int rcu_basis;			/* the CPU's rcu_basis at its entry */
};

/*
 * A trace CPU's state in pass 2. Only isolated CPUs (res set) are counted;
 * the other CPUs' entries exist so that a QC_ANY_CPU handler can keep
 * state per CPU, its own (e->s) or a target's (cpu_state(c, target)):
 * add the fields it needs here.
 */
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
	bool stint_irq;		/* an interrupt's thread, part of it (RT) */
	int stint_pid;
	unsigned long long stint_ts;
	char stint_comm[NAME_LEN];
	enum origin_start stint_start;	/* its sched_switch row's */
	/* foreign tasks already counted in this foreign stretch */
	int pids[MAX_PIDS];
	int npids;
	/* the last tick_stop said: cannot stop, RCU needs the tick; or
	   another dependency does */
	bool tick_held_by_rcu, tick_held_other;
	unsigned long long last_res_ns;	/* its last reschedule vector */
	struct cpu_mode mode;	/* user, kernel or idle (mode.h) */
	long vec_seen[HW_NVEC];	/* entries of each counted vector so far */
	/* the timing basis of the RCU forcing that this CPU's current hold
	   of its tick for RCU follows (explain.c rcu_timing), 0: none */
	int rcu_basis;
	unsigned long long rcu_stretch;	/* that forcing's stretch, in instructions */
};

struct ctx {
	struct analysis *a;
	struct tep_handle *tep;
	struct ev_info *ev;	/* indexed by event id */
	int nev;
	struct cpu_state *cs;	/* indexed by trace CPU (pass 2) */
	struct drains drains;	/* the calls the charging rule looks at */
	struct origins origins;	/* every send of the trace (origins.h) */
	/* pass 1 */
	int nstart, nend;
	unsigned long long last_ts;
	long records;
	long *before, *after;	/* per trace CPU: its events before and after the window */
	int lost_cpu;		/* an isolated CPU with lost events, or -1 */
	/* senders of the window's interruptions (and the queueings on their
	   paths) that the stack triggers select but that carry no stack:
	   how many, and the first (explain.c); they refuse the trace */
	struct { long n; const struct send *first; } unstacked;
	bool any_cpu;		/* a QC_ANY_CPU row's event has records */
	/* proof events (QC_PROOF_GROUP) seen in pass 1, counted once the
	   window is known */
	struct proof_hit { unsigned long long ns; const char *key; } *hits;
	long nhits, hits_alloc;
	long marks_alloc;
	char *err;
	int errlen;
};

void __attribute__((format(printf, 3, 4)))
set_err(char *err, int len, const char *fmt, ...);
/* The isolated CPUs of @a as a mask (bit c: CPU c; CPUs from 64 on left out). */
uint64_t isolated_mask(const struct analysis *a);

/* evtable.c */
int evtable_build(struct ctx *c);
void evtable_free(struct ctx *c);
struct ev_info *event_of(struct ctx *c, struct tep_record *r);
/* A field the event's row declares, read from the record: a number (0 if
   the record is short), a string, a kernel symbol ("0x..." if unknown). */
unsigned long long ev_num(const struct qc_ev *e, const char *field);
void ev_str(const struct qc_ev *e, const char *field, char *out, size_t outlen);
void ev_sym(const struct qc_ev *e, const char *field, char *out, size_t outlen);

/* rule.c */
struct cpu_state *cpu_state(struct ctx *c, long long cpu);
bool in_window(struct ctx *c, unsigned long long ts);
bool is_foreign(struct analysis *a, struct cpu_state *s, int pid, const char *comm);
/* @pid: the foreign task of a "sched:" interruption, else -1 */
void count(struct ctx *c, struct cpu_state *s, unsigned long long ts, const char *cause,
	   enum origin_start start, int pid);
void seen(struct ctx *c, struct cpu_state *s, unsigned long long ts,
	  enum rank rank, const char *name, enum origin_start start);
void rec_open(struct ctx *c, struct cpu_state *s, unsigned long long ts);
void rec_close(struct ctx *c, struct cpu_state *s);
bool rec_continues(struct cpu_state *s, unsigned long long ts);
void end_stint(struct ctx *c, struct cpu_state *s, unsigned long long ts);
bool irq_thread_continues(struct cpu_state *s, unsigned long long ts,
			  const char *comm, bool after_irq_thread);
void push(struct cpu_state *s, enum frame_kind kind, long id, const char *name);
void pop(struct cpu_state *s, enum frame_kind kind, long id, const char *name,
	 unsigned long long ts);
void hard_entry(struct ctx *c, struct cpu_state *s, unsigned long long ts,
		enum frame_kind kind, long id, const char *vector, const char *cause,
		enum origin_start start);
void window_opens(struct ctx *c, struct cpu_state *s);

/* explain.c: the window's grace periods, whose each was, and the self-test's
   bare vectors sent in it (struct analysis) */
void explain_window(struct ctx *c);
/* explain.c: an interruption's origin, matched and reported on its CPU */
void explain(struct ctx *c, struct cpu_state *s, unsigned long long ts,
	     const char *cause, enum origin_start start, int pid);

#endif
