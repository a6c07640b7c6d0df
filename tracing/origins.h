/* SPDX-License-Identifier: GPL-2.0 */
/*
 * origins: who caused each interruption of an isolated CPU.
 *
 * The send side of a trace is read in pass 1, from every CPU: the
 * "qcsend" kprobes (tracing/probes/origins.list), workqueue_queue_work
 * and sched_waking, each send with its sender (CPU, task, context) and,
 * where the guest's stacktrace trigger recorded one right after it
 * (origin-stacks.list), its kernel stack; the receive side's flush points
 * (the vectors that empty a CPU's queues, and sends skipped because the
 * target polled in idle); grace periods and who waited for them.
 *
 * Then, for each interruption the analyzer counts, origins_match() finds
 * the sends that explain it and its class. tracing/README.md, "Origins",
 * states the rules; this file and origins.c implement them.
 */
#ifndef QC_ORIGINS_H
#define QC_ORIGINS_H

#include <stdbool.h>
#include <stdint.h>

#include <trace-cmd.h>

/* What a send asked of its target. */
enum send_kind {
	SEND_RESCHED,		/* a reschedule IPI (native_smp_send_reschedule) */
	SEND_CSD,		/* one call-single queue entry (__smp_call_single_queue) */
	SEND_CSD_MANY,		/* entries on a mask (smp_call_function_many_cond) */
	SEND_WORK,		/* a work item queued (workqueue_queue_work) */
	SEND_FLUSH,		/* flush_work(): a barrier work item (__flush_work) */
	SEND_WAKING,		/* a task woken onto the CPU (sched_waking) */
	SEND_TICK_DEP,		/* a tick dependency set on one CPU */
	SEND_TICK_DEP_ALL,	/* ... on a task, a signal or every CPU */
	SEND_RESCHED_CPU,	/* resched_cpu() (RCU forcing a quiescent state) */
	SEND_SYNC_RCU,		/* synchronize_rcu() entered */
	SEND_SYNC_RCU_RET,	/* ... returned */
	SEND_GP_INIT,		/* a grace period starts (rcu_gp_init) */
	SEND_GP_CLEANUP,	/* ... ends (rcu_gp_cleanup) */
	SEND_TIMER_ON,		/* a timer armed on a CPU (add_timer_on): a delayed
				   work item's, queued on its expiry there */
	SEND_RCU_QUEUE,		/* an RCU callback queued on a CPU's list
				   (rcu_segcblist_enqueue: call_rcu()) */
	SEND_RCU_ACCEL,		/* a list's new callbacks given the grace
				   period they need (rcu_segcblist_accelerate) */
	SEND_GP_REQUEST,	/* that grace period asked of RCU (rcu_start_this_gp) */
	SEND_FLUSH_RET,		/* flush_work() returned: type 1 if it queued a barrier */
	SEND_GRAB,		/* try_to_grab_pending(work) entered */
	SEND_GRAB_RET,		/* ... returned: type 1 if it stole a pending item */
	SEND_BARE,		/* the self-test sent a bare reschedule vector: not
				   a send, never a sender (qcplant:bare_sent) */
	SEND_MIGRATE,		/* a task moved to another CPU (sched_migrate_task):
				   not a send, never a sender; where a woken task
				   went (origins.c match_task()) */
	SEND_CSD_MANY_RET,	/* smp_call_function_many_cond() returned: not a
				   send; when its caller waited, every entry
				   it queued has run (struct send's done_ns) */
	SEND_ARM,		/* a deferred handler armed: a timer or an hrtimer
				   started, a kthread work queued;
				   not a send, never a sender: the parent of what
				   its handler sends when it runs (origins_run()) */
	SEND_RCU_CB,		/* an RCU callback queued on a nocb CPU's bypass
				   list (rcu_cblist_enqueue); with RCU_QUEUE's,
				   what a callback sends when rcu_do_batch()
				   runs it is followed to it (origins.c
				   rcu_callback_followed()): not a send, never
				   a sender */
	SEND_KINDS
};

/* Why an interruption happened. */
enum origin_class {
	ORIGIN_REMOTE,		/* sent by another CPU, or another task */
	ORIGIN_RCU_QS,		/* its tick held for RCU: a grace period wanted this CPU */
	ORIGIN_INHERITED,	/* caused by an earlier interruption of this CPU */
	ORIGIN_SELF,		/* the measured workload's own doing */
	ORIGIN_DEVICE,		/* a device interrupt or an NMI */
	ORIGIN_BEFORE,		/* state set before the trace began */
	ORIGIN_UNKNOWN,		/* remote-type, and no candidate sender */
	ORIGIN_CLASSES
};
extern const char *const origin_class_names[ORIGIN_CLASSES];

/* SCF_WAIT (kernel/smp.c): smp_call_function_many_cond() waits for every entry */
#define QC_SCF_WAIT		0x1
/* How far two vCPUs' trace clocks may disagree: a vector's entry on its
   CPU stands before the return of the call that waited for it, to within
   this (TCG's vCPU clocks order two CPUs' events to a few microseconds) */
#define ORIGIN_CLOCK_SKEW_NS	1000000ULL

/* TICK_DEP_BIT_RCU and TICK_DEP_BIT_RCU_EXP (include/linux/tick.h) */
#define QC_TICK_DEP_BIT_RCU	4
#define QC_TICK_DEP_BIT_RCU_EXP	5

#define ORIGIN_MAX_CPUS		64
#define ORIGIN_MAX_SENDS	1024	/* sends kept per interruption (an audit
					   trigger's call-single batch reached 318) */
#define ORIGIN_PENDING		8	/* sends awaiting a stack, per CPU */
#define ORIGIN_PATH_DEPTH	8	/* kworker hops a path is followed back */
/* An inherited interruption takes the origin of one at most this long
   before it on its CPU; an older one is not its cause (tracing/README.md,
   "Inherited"): on this rig's traces, 12,749 of 12,784 inheritances were
   within 100 ms, 33 at 0.94-0.96 s (a tick the CPU's own timer brought),
   2 beyond 10 s (TCG, QEMU 10.0.2, Dec 7) */
#define ORIGIN_INHERIT_NS	100000000ULL
/* An RCU callback queued before the trace began was ready once the second
   grace period that started in the trace ended (the first may have been
   given out before it was accelerated); one that sent within this long
   after that may still be one of them (origins.c rcu_callback_followed()) */
#define ORIGIN_RCU_INVOKE_LAG_NS	1000000000ULL

/*
 * A grace period: when it started and ended, its number (the value
 * rcu_state.gp_seq takes when it ends, which is what a request for it
 * names), who asked for it, who waited. Neither list has a cap.
 */
struct gp_task { int pid; unsigned long long ns; bool in_task; };
struct grace_period {
	unsigned long long start_ns, end_ns;	/* end: the trace's end if it never ended */
	unsigned long long seq;
	/* who made RCU need it: the tasks that queued the callbacks whose
	   request first recorded the need for it in the rcu_node
	   (rcu_start_this_gp() raising gp_seq_needed to it), or that request's
	   own task when it carried no callbacks (a polled grace period) */
	struct gp_task *requested;
	long nrequested, requested_alloc;
	long nrequests;		/* such requests traced (0: asked for out of sight) */
	/* synchronize_rcu() callers in flight while it ran */
	struct gp_task *waited;
	long nwaited, waited_alloc;
};

/* Trace flags of the sender's context (TRACE_FLAG_HARDIRQ, _SOFTIRQ, _NMI). */
#define QC_FLAG_HARDIRQ		0x08
#define QC_FLAG_SOFTIRQ		0x10
#define QC_FLAG_NMI		0x40

struct send {
	unsigned long long ns;
	enum send_kind kind;
	int cpu, pid;			/* the sender */
	unsigned int flags;		/* its trace flags (irq context) */
	uint64_t targets;		/* bit c: sent to CPU c (0: none known) */
	uint64_t matched;		/* bit c: already explained an interruption of c */
	unsigned int type;		/* the CSD_TYPE, or the tick dependency bit */
	unsigned long long func;	/* callback or work function, or 0 */
	unsigned long long work;	/* the work item (WORK, FLUSH), the wakee (WAKING) */
	/* what this send continues, or -1: a path is followed back along
	   it. In task context, the queueing of the work item whose kworker
	   made it (between the item's execute_start and _end), or the
	   arming of the kthread work its thread ran; in a hardirq or
	   softirq, the arming of the timer or hrtimer whose handler ran
	   there (origins_run()); for a delayed work
	   item's queueing from its timer, that timer's add_timer_on() */
	long parent;
	/* a FLUSH: the last queueing of its work item before it, or -1 */
	long queueing;
	long stack;			/* index into origins.stacks, or -1 */
	/* its stack's record time, or 0: the probe's handler ends there, and
	   only then does the probed function go on to queue its entry or
	   send its IPI (origins.c collect()) */
	unsigned long long stack_ns;
	long comm;			/* the sender's comm, likewise */
	long fname;			/* func's name, likewise, or -1 */
	int ev;				/* its event (origins.c send_events[]) */
	/*
	 * RCU's request path: RCU_QUEUE: the callback queued on the same
	 * list before it and not yet accelerated; RCU_ACCEL: the newest
	 * such callback, which it accelerated with all before it; GP_REQUEST:
	 * the acceleration it was made for. -1: none.
	 */
	long chain;
	/* WORK: its item started running (workqueue_execute_start) */
	bool ran;
	/* CSD_MANY: its SCF flags (bit 0, SCF_WAIT: the caller waits for
	   every entry it queued), or -1 when the trace lacks them; and the
	   return of a call that waited, or 0: no entry of it is pending
	   after that, so a CPU its cond_func skipped (its mask still holds
	   it) cannot take it for a later vector */
	int wait;
	unsigned long long done_ns;
	/* GP_REQUEST: the grace period asked for, the rcu_node's gp_seq and
	   gp_seq_needed then; RCU_ACCEL: [0] that grace period; GP_INIT: [1]
	   the root rcu_node's gp_seq when it started one */
	unsigned long long seq[3];
};

/* A point where a CPU's queues were emptied or its IPI skipped. */
enum { FLUSH_RESCHED, FLUSH_CALL, FLUSH_IDLE };
struct flush {
	unsigned long long ns;
	int cpu;
	int what;			/* FLUSH_* */
};

/* The sends that explain an interruption, and its class. */
struct origin {
	enum origin_class cls;
	unsigned long long ns;		/* its interruption's time (set by origins_match()) */
	long send[ORIGIN_MAX_SENDS];	/* indexes into origins.v */
	int nsend;
	bool adopted;			/* inherited: the sends are the cause's */
};

struct origins {
	bool probes;			/* the trace has every send-side event */
	char missing[96];		/* else the first one it lacks */
	struct send *v;			/* in time order */
	long n, alloc;
	struct flush *fl;		/* in time order */
	long nfl, fl_alloc;
	char **stacks;			/* collapsed kernel stacks and comms, interned */
	long nstacks, stacks_alloc;
	/* per trace CPU: its sends still waiting for their stack, newest
	   last (a send made inside another's probe, from an interrupt,
	   records its event and stack between the outer's two) */
	long (*pending)[ORIGIN_PENDING];
	int *npending;
	int ncpus;
	/* per CPU: the origin of its last interruption, which an inherited
	   one takes (pass 2), and of the one before it: the counting rule
	   counts an interrupt's record when it closes, at its start's time,
	   which may come after a work item it preceded was counted (NULL:
	   kept no deeper than last) */
	struct origin *last, *prev;
	/* the events read, and their fields by name */
	struct origin_event {
		int id;		/* -1: not in the trace */
		struct tep_format_field *target, *mask, *type, *func, *work, *seq[3], *wait;
	} *ev;
	int nev;
	struct grace_period *gp;	/* in order, after origins_finish() */
	long ngp, gp_alloc;
	int id_stack, id_resched, id_call, id_call_single, id_idle;
	struct tep_format_field *f_stack_size, *f_stack, *f_idle_cpu;
	/* the work items kworkers run (workqueue_execute_start, _end) */
	int id_exec_start, id_exec_end;
	struct tep_format_field *f_exec_work;
	/* by address (open hashing): the newest queueing of each work item,
	   the newest arming of each timer on a CPU (add_timer_on) */
	struct send_table {
		struct work_slot { unsigned long long key; long send; } *v;
		long n, alloc;
	} queued, timers, cblists, running, flushing, armed;	/* cblists: each RCU
					   callback list's newest callback
					   not yet accelerated; running: by
					   kworker pid, the queueing of the
					   work item it runs, -1 between
					   items; flushing: by pid, its
					   flush_work() not yet returned;
					   armed: each deferred handler's
					   newest arming (SEND_ARM) */
	/* per trace CPU: the arming of the handler running in its hardirq
	   ([0]) and in its softirq ([1]), or -1 (origins_run()) */
	long (*irq_run)[2];
	/* the events a deferred handler's run starts or ends on, and the
	   field naming its timer, hrtimer or kthread work */
	struct run_event_id { int id; struct tep_format_field *obj; bool start; } *run;
	int nrun;
	long *accel;	/* per trace CPU: its last RCU_ACCEL awaiting its request */
	long *grab;	/* per trace CPU: its last GRAB awaiting its return */
	long *many;	/* per trace CPU: its last CSD_MANY awaiting its return */
	/* per trace CPU: its last reschedule vector, how many sends it took
	   and the newest of them (origins.c match_resched()) */
	struct resched_last { unsigned long long ns; int nsend; long newest; } *resched_last;
	long nbare;	/* the self-test's bare vectors (SEND_BARE) in the trace */
	bool migrations;	/* the trace has sched_migrate_task (SEND_MIGRATE) */
	bool rcu_cbs;		/* the trace has every RCU callback's queueing
				   with its function (rcu_queue's func, rcu_bypass) */
	/* fields the trace has but that could not be read: how many, the
	   first one's CPU and name (origins_unread()) */
	struct { long n; int cpu; char what[96]; } unread;
	/* sends matched beyond the ORIGIN_MAX_SENDS an interruption keeps:
	   how many, the first one's CPU and time (origins_overflowed()) */
	struct { long n; int cpu; unsigned long long ns; } overflow;
	/* the grace periods' numbers, when they do not add up
	   (origins_gp_unmapped()) */
	char gp_bad[256];
	/* the trace lacks RCU's request path (made before it was probed):
	   no grace period has a traced request */
	bool rcu_untraced;
};

/* Was @s made in task context (not from an interrupt or a softirq)? */
static inline bool send_in_task(const struct send *s)
{
	return !(s->flags & (QC_FLAG_HARDIRQ | QC_FLAG_SOFTIRQ));
}

/*
 * Where the search for an interruption's senders starts: each event the
 * counting rule counts declares it in its row of the event table
 * (handlers.c qc_rows[]; a vector's and an hrtimer's handler refine it by
 * which one ran), and the record keeps its cause's. The final class
 * depends on the evidence origins_match() finds: a tick may end rcu_qs,
 * inherited or unknown.
 */
enum origin_start {
	START_UNDECLARED,	/* (a row that forgot: evtable.c refuses it) */
	START_NONE,		/* the row counts no interruption (state only) */
	START_TICK,		/* the tick: the dependency that held it, else
				   the interruption before it */
	START_RESCHED,		/* a reschedule vector: the IPIs that raised it */
	START_CALL,		/* a call-function vector or its callback: the
				   entries queued for it */
	START_WORK,		/* a work item: its queueing */
	START_TASK,		/* a foreign task's run: its wake-up */
	START_LOCAL,		/* a timer or softirq armed or raised on this CPU,
				   an irq_work vector: inherited or self */
	START_DEVICE,		/* a device interrupt, an NMI, the APIC's own vectors */
	START_UNKNOWN,		/* a record whose cause no event named */
};

/* One interruption, as the analyzer counted it. */
struct interruption {
	int cpu;
	unsigned long long ns;
	unsigned long long vec_ns;	/* the vector's entry, for a callback in it */
	const char *cause;		/* "irq_vectors:reschedule", "workqueue:fn", ... */
	enum origin_start start;	/* its cause's row's (above) */
	int pid;			/* the foreign task ("sched:"), else -1 */
	bool tick_rcu;			/* the CPU's tick was last held for RCU */
	bool tick_other;		/* ... for another dependency */
	bool after_interruption;	/* within the continuation of another one */
	/* is task @pid (@comm) foreign to this CPU's measured workload? */
	bool (*foreign)(const void *ctx, int cpu, int pid, const char *comm);
	/* is the drain on @s's path (explain.c on_path())? NULL: never */
	bool (*drain_path)(const void *ctx, const struct send *s);
	const void *ctx;
};


/* Find the send-side events in @tep; o->probes says whether all are there. */
void origins_init(struct origins *o, struct tep_handle *tep, int ncpus);
/* Feed every record of the trace, in time order (any CPU). */
void origins_record(struct origins *o, struct tep_handle *tep,
		    struct tep_record *r, int cpu);
/*
 * Link send @s (o->v[o->n], about to be added, made on CPU @cpu) to the
 * sends it continues: its parent (struct send's parent: the kworker's
 * work item, a deferred handler's arming, a delayed work item's
 * add_timer_on()); on RCU's request path, to the callbacks and
 * acceleration before it (struct send's chain); a flush_work() that
 * returned without queueing a barrier, undone (its queueing -1: it
 * explains no barrier); a work item stolen off its queue before it ran,
 * its queueing consumed (matched on every CPU: it explains nothing).
 * origins_record() calls it for every send.
 */
void origins_link(struct origins *o, struct send *s, int cpu);
/*
 * A deferred handler starts (@start) or ends on CPU @cpu, in the context
 * @flags and task @pid say: @obj, its timer, hrtimer or kthread work.
 * Until it ends, what that context sends has the handler's newest arming
 * (SEND_ARM) as its parent: in a hardirq or a softirq, per CPU; in task
 * context (a kthread worker; PREEMPT_RT's timer thread), per task.
 * origins_record() calls it for the run events.
 */
void origins_run(struct origins *o, unsigned long long obj, int cpu, int pid,
		 unsigned int flags, bool start);
/* After the last record: pair up grace periods and their callers. */
void origins_finish(struct origins *o, unsigned long long last_ns);
/* The grace period in progress at @ns, or NULL. */
const struct grace_period *origins_gp_at(const struct origins *o, unsigned long long ns);
/* Explain @in (interruptions of one CPU come in time order). */
void origins_match(struct origins *o, const struct interruption *in,
		   struct origin *out);
/*
 * "<cause> <- <class>[: <sender comm>: <stack>]": the chain an
 * interruption is reported under (top frames of its first send's stack).
 */
void origins_chain(const struct origins *o, const struct interruption *in, const struct origin *org,
		   char *buf, size_t len);
/*
 * Does @s's stack hold one of @funcs (NULL-terminated: the drain's own
 * functions, from the verdict policy, or an audit trigger's path), as a
 * whole frame among the sender's own frames: those above the first
 * interrupt or softirq entry (what lies below it is the interrupted
 * context's, not the sender's doing)? A compiler's clone of a function
 * (.isra.N, .constprop.N, .part.N, .cold) is that function.
 */
bool origins_stack_has(const struct origins *o, const struct send *s,
		       const char *const *funcs);
/*
 * The functions of RCU forcing a quiescent state, NULL-terminated
 * (qc-analyze --names lists them, for scripts/check-names.sh).
 */
extern const char *const origins_rcu_forcers[];
/*
 * The frames of a deferred handler whose arming no event shows, an
 * irq_work's (qc-analyze --names lists them): a remote interruption every
 * sender of which has one among its own frames, or an RCU callback's that
 * cannot be followed, is unknown, its senders named (tracing/README.md,
 * "Deferred work").
 */
extern const char *const origins_untraced_runners[];
/* the function that runs RCU callbacks (origins.c rcu_callback_followed()) */
extern const char *const origins_rcu_runner[];
/*
 * Does every one of @org's senders (at least one) hold one of @funcs among
 * its own frames (origins_stack_has())?
 */
bool origins_all_senders_have(const struct origins *o, const struct origin *org,
			      const char *const *funcs);
/*
 * Is one of @org's senders RCU forcing a quiescent state: its own frames
 * hold one of origins_rcu_forcers[]?
 */
bool origins_rcu_forcing(const struct origins *o, const struct origin *org);
/*
 * The send that queued the work item whose kworker made @s, or NULL:
 * @s's parent on its path (origins.h, struct send's parent).
 */
const struct send *origins_parent(const struct origins *o, const struct send *s);
/*
 * Was a field the trace has unreadable in some record? Then the trace is
 * refused: @err gets one line saying which, how often and where.
 */
bool origins_unread(const struct origins *o, char *err, size_t len);
/*
 * After matching: did an interruption have more senders than
 * ORIGIN_MAX_SENDS keeps? Then the trace is refused, as above.
 */
bool origins_overflowed(const struct origins *o, char *err, size_t len);
/*
 * Do the grace periods fail to add up: a start whose rcu_node does not
 * say so, two consecutive starts whose numbers are not consecutive (one
 * was not traced), or a request for one that started before it? Then
 * the trace is refused, as above.
 */
bool origins_gp_unmapped(const struct origins *o, char *err, size_t len);
/* The self-test's bare vectors sent to @cpu in (@from, @to]. */
long origins_bare_in(const struct origins *o, int cpu, unsigned long long from,
		     unsigned long long to);
/* The send event @system:@name's index (struct send's ev), or -1. */
int origins_event(const char *system, const char *name);
/* Send event @ev's target CPU field, or (@mask) its CPU mask field, or NULL. */
const char *origins_event_field(int ev, bool mask);
/* "system:name" of send event @ev. */
void origins_event_name(int ev, char *buf, size_t len);
void origins_free(struct origins *o);

#endif
