// SPDX-License-Identifier: GPL-2.0
/*
 * explain: each interruption the counting rule counts, matched to its
 * senders by origins.c and reported on its CPU: its class, the chain it
 * is counted under, whether its senders include the drain, and for RCU's
 * quiescent-state forcing, whose grace period it was. tracing/README.md,
 * "Origins", states the rules.
 */
#include <stdio.h>
#include <string.h>

#include "analyze-int.h"
#include "qc-util.h"

/*
 * Is @snd on a path of @funcs: it, or a send up its path through kworkers
 * (the queueing of the work item whose kworker made it, and so on), holds
 * one of @funcs among its own frames, or (@in_call) was made in task
 * context by a task inside its own drain_all_pages() call?
 */
static bool on_path(struct ctx *c, const struct send *snd, const char *const *funcs,
		    bool in_call)
{
	int hop;

	for (hop = 0; snd && hop < ORIGIN_PATH_DEPTH; hop++, snd = origins_parent(&c->origins, snd))
		if (origins_stack_has(&c->origins, snd, funcs) ||
		    (in_call && send_in_task(snd) && drains_in_call(&c->drains, snd->ns, snd->pid)))
			return true;
	return false;
}

/* Is one of @org's senders on a path of @funcs (on_path())? */
static bool origin_on_path(struct ctx *c, const struct origin *org, const char *const *funcs,
			   bool in_call)
{
	int i;

	for (i = 0; i < org->nsend; i++)
		if (on_path(c, &c->origins.v[org->send[i]], funcs, in_call))
			return true;
	return false;
}

/*
 * Does @org hold the drain: the drain's functions (--drain-functions) on
 * its path, or a send by a task inside its own drain_all_pages() call?
 */
static bool origin_is_drain(struct ctx *c, const struct origin *org)
{
	return origin_on_path(c, org, c->a->drain_functions, true);
}

/* For origins.c: is the drain on @snd's path (an RCU callback's queueing)? */
static bool drain_path_of(const void *ctx, const struct send *snd)
{
	struct ctx *c = (struct ctx *)ctx;

	return on_path(c, snd, c->a->drain_functions, true);
}

/*
 * A sleeping lock's release that wakes its next waiter: on PREEMPT_RT every
 * spinlock_t, mutex and rw lock is an rt_mutex and goes through
 * rt_mutex_slowunlock(); elsewhere a mutex, an rwsem or a semaphore wakes
 * its waiter from these. A drain's send from one of them is the wake-up
 * of a task that blocked on a lock the drain held (on RT, zone->lock or a
 * pcp->lock): the task entered the kernel and contended for the lock
 * itself, the drain did not reach into its CPU. Without RT the same
 * contention spins, and sends nothing.
 */
const char *const explain_lock_handoff[] = {
	"rt_mutex_slowunlock", "__mutex_unlock_slowpath", "rwsem_wake", "__up", NULL
};

/*
 * Was one of @n tasks (a grace period's) inside its own drain call then,
 * in task context (an interrupt that queued a callback on top of the
 * drainer is not the drain's doing)?
 */
static bool drain_task_in(struct ctx *c, const struct gp_task *v, long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (v[i].in_task && drains_in_call(&c->drains, v[i].ns, v[i].pid))
			return true;
	return false;
}

/*
 * An RCU QS interruption's grace period: the one in progress when its
 * first sender acted (or when it happened: a tick RCU still holds is held
 * for the grace period this CPU has not yet reported for, which is still
 * in progress), and whether a drain made RCU need it (origins.c,
 * gp_requests(): a callback a drain call queued, whose request first
 * recorded the need), only waited on it, or neither; or that its request
 * was not traced (made before the trace began).
 */
static bool rcu_split(struct ctx *c, struct cpu_result *res, const struct origin *org,
		      unsigned long long ts)
{
	unsigned long long at = org->nsend ? c->origins.v[org->send[0]].ns : ts;
	const struct grace_period *g = origins_gp_at(&c->origins, at);

	if (g && drain_task_in(c, g->requested, g->nrequested)) {
		res->rcu_drain_requested++;
		return true;
	}
	if (g && drain_task_in(c, g->waited, g->nwaited))
		res->rcu_drain_waited++;
	else if (g && !g->nrequests)
		res->rcu_request_untraced++;
	else
		res->rcu_other++;
	return false;
}

void explain_window(struct ctx *c)
{
	struct analysis *a = c->a;
	long k;
	int i;

	for (i = 0; i < a->ncpus; i++)
		a->res[i].bare_sent = origins_bare_in(&c->origins, a->res[i].cpu,
						      a->start_ns ? a->start_ns - 1 : 0, a->end_ns);

	a->rcu_traced = c->origins.probes && !c->origins.rcu_untraced;
	for (k = 0; k < c->origins.ngp; k++) {
		const struct grace_period *g = &c->origins.gp[k];

		if (g->start_ns < a->start_ns || g->start_ns > a->end_ns)
			continue;
		a->gp_started++;
		if (!g->nrequests)
			a->gp_request_untraced++;
		else if (drain_task_in(c, g->requested, g->nrequested))
			a->gp_drain_requested++;
	}
}

/*
 * An RCU QS interruption's timing basis (hwtime.h). One whose stretch the
 * plugin counted is emulator-timed when that many instructions at the
 * stated rate take less than the span a force needs, else
 * hardware-plausible; one without a count is untimed. What follows a
 * forcing on its CPU (the forcing's own IPI entering the kernel sets the
 * RCU tick dependency: its irq_work kick, then the ticks kept for RCU) is
 * that forcing's doing, so it takes the basis of the CPU's last forcing
 * while the tick stays held for RCU (a tick_stop without RCU's dependency
 * ends it). A hold that no forcing began (RCU's urgency after
 * jiffies_to_sched_qs, set from an interrupt the CPU took in the kernel)
 * is timed by the stretch its first counted interrupt hit: the urgency
 * too needs one stretch from a forcing scan's snapshot on, longer than
 * the span. @requested: a drain's grace period.
 */
enum { BASIS_NONE, BASIS_EMULATOR, BASIS_HARDWARE, BASIS_UNTIMED };

static int stretch_basis(struct ctx *c, struct cpu_state *s, const struct mode_at *at,
			 int vec, long vec_n)
{
	struct cpu_result *res = s->res;
	const struct entry_count *e = hwtime_find(&c->a->hw, vec, res->cpu, vec_n);
	unsigned long long insns;

	/* an IPI that found user mode: the stretch the forcing saw had ended */
	if (!e || (at->mode != MODE_USER && e->stretch < 0))
		return BASIS_UNTIMED;
	insns = at->mode == MODE_USER ? e->prev : (unsigned long long)e->stretch;
	s->rcu_stretch = insns;
	res->rcu_qs_insns = qc_grow(res->rcu_qs_insns, res->rcu_qs_ninsns, &res->rcu_qs_insns_alloc,
				    sizeof(*res->rcu_qs_insns));
	res->rcu_qs_insns[res->rcu_qs_ninsns++] = insns;
	return insns * c->a->hw.ns_per_insn < (double)c->a->hw.span_ns ? BASIS_EMULATOR : BASIS_HARDWARE;
}

static const char *const basis_names[] = { NULL, "emulator_timed", "hardware_plausible", "untimed" };

static int rcu_timing(struct ctx *c, struct cpu_state *s, const struct mode_at *at,
		      bool requested)
{
	struct cpu_result *res = s->res;
	int basis;

	/* (the hold as it was when the interruption entered: its own exit
	   may have ended it by now) */
	int held = s->rec.open ? s->rec.rcu_basis : s->rcu_basis;
	int vec = s->rec.open ? s->rec.vec : -1;

	if (vec == HW_RES || (vec >= 0 && !held))
		basis = s->rcu_basis = stretch_basis(c, s, at, vec, s->rec.vec_n);
	else
		basis = held ? held : BASIS_UNTIMED;
	if (basis == BASIS_EMULATOR) {
		res->rcu_qs_emulator_timed++;
		res->indirect_emulator_timed += requested;
	} else if (basis == BASIS_HARDWARE) {
		res->rcu_qs_hw_plausible++;
		res->indirect_hw_plausible += requested;
	} else {
		res->rcu_qs_untimed++;
		res->indirect_untimed += requested;
	}
	return basis;
}

static void json_stack(struct ctx *c, const struct send *snd)
{
	if (snd->stack >= 0)
		qc_json_str(c->a->explain, c->origins.stacks[snd->stack]);
	else
		fprintf(c->a->explain, "null");
}

/*
 * Where @org's interruption found its CPU (mode.h): every one by mode, and
 * an RCU QS one also by kernel entry and with its QS-less dwell.
 */
static void mode_record(struct cpu_result *res, const struct origin *org,
			const struct mode_at *at)
{
	res->mode_of[at->mode]++;
	if (org->cls != ORIGIN_RCU_QS)
		return;
	res->rcu_qs_mode[at->mode]++;
	if (at->mode != MODE_KERNEL)
		return;
	counter_add(&res->rcu_qs_entries, at->entry[0] ? at->entry : "(not seen)", 1);
	res->rcu_qs_dwell_us = qc_grow(res->rcu_qs_dwell_us, res->rcu_qs_ndwell, &res->rcu_qs_dwell_alloc,
				       sizeof(*res->rcu_qs_dwell_us));
	res->rcu_qs_dwell_us[res->rcu_qs_ndwell++] = at->dwell_ns < 0 ? -1 : at->dwell_ns / 1000;
}

/* --explain: one interruption of the window and its senders, one JSON line. */
static void explain_line(struct ctx *c, const struct interruption *in,
			 const struct origin *org, bool drain, bool handoff, bool path,
			 const struct mode_at *at, int vec, long vec_n, int basis,
			 unsigned long long stretch)
{
	FILE *f = c->a->explain;
	int i;

	fprintf(f, "{\"ns\": %llu, \"vector_ns\": %llu, \"cpu\": %d, \"cause\": ",
		in->ns, in->vec_ns, in->cpu);
	qc_json_str(f, in->cause);
	fprintf(f, ", \"mode\": \"%s\", \"dwell_ns\": %lld, \"entry\": ",
		qc_mode_names[at->mode], at->dwell_ns);
	qc_json_str(f, at->entry);
	/* traced: its ordinal in the trace; n: qc-entry's number (-1: none) */
	if (vec >= 0)
		fprintf(f, ", \"counted\": {\"vec\": \"%s\", \"traced\": %ld, \"n\": %ld}", hwtime_count[vec],
			vec_n, hwtime_number(&c->a->hw, vec, in->cpu, vec_n));
	if (basis)
		fprintf(f, ", \"timing\": \"%s\"", basis_names[basis]);
	if (basis == BASIS_EMULATOR || basis == BASIS_HARDWARE)
		fprintf(f, ", \"stretch_insns\": %llu", stretch);
	fprintf(f, ", \"class\": \"%s\", \"adopted\": %s, \"drain\": %s, \"handoff\": %s",
		origin_class_names[org->cls], org->adopted ? "true" : "false", drain ? "true" : "false",
		handoff ? "true" : "false");
	if (c->a->path_functions)
		fprintf(f, ", \"path\": %s", path ? "true" : "false");
	fprintf(f, ", \"senders\": [");
	for (i = 0; i < org->nsend; i++) {
		const struct send *snd = &c->origins.v[org->send[i]];

		fprintf(f, "%s{\"ns\": %llu, \"cpu\": %d, \"pid\": %d, \"comm\": ", i ? ", " : "",
			snd->ns, snd->cpu, snd->pid);
		qc_json_str(f, c->origins.stacks[snd->comm]);
		fprintf(f, ", \"stack\": ");
		json_stack(c, snd);
		/* the queueing of the work item its kworker ran, if any */
		if (origins_parent(&c->origins, snd)) {
			const struct send *q = origins_parent(&c->origins, snd);

			fprintf(f, ", \"via_work\": {\"ns\": %llu, \"cpu\": %d, \"pid\": %d, \"comm\": ",
				q->ns, q->cpu, q->pid);
			qc_json_str(f, c->origins.stacks[q->comm]);
			fprintf(f, ", \"stack\": ");
			json_stack(c, q);
			fprintf(f, "}");
		}
		fprintf(f, "}");
	}
	fprintf(f, "]}\n");
}

/*
 * Count @org's senders, and the queueings on their paths, that the guest's
 * stack triggers select but that carry no stack (a send just before the
 * window is checked here, where it explains one in it): c->unstacked
 * refuses the trace after pass 2.
 */
static void count_unstacked(struct ctx *c, const struct origin *org)
{
	const struct send *snd;
	int i, hop;

	if (!c->a->stack_rules)
		return;
	for (i = 0; i < org->nsend; i++)
		for (hop = 0, snd = &c->origins.v[org->send[i]]; snd && hop < ORIGIN_PATH_DEPTH;
		     hop++, snd = origins_parent(&c->origins, snd))
			if (snd->stack < 0 && stacks_expected(c->a->stack_rules, snd, isolated_mask(c->a)) &&
			    !c->unstacked.n++)
				c->unstacked.first = snd;
}

static bool foreign_to(const void *ctx, int cpu, int pid, const char *comm)
{
	const struct ctx *c = ctx;

	return cpu >= 0 && cpu < c->a->nr_trace_cpus && c->cs[cpu].res &&
	       is_foreign(c->a, &c->cs[cpu], pid, comm);
}

/*
 * A reschedule vector in the window, against the self-test's bare vectors
 * sent to its CPU since the one before: the vector took them all. The
 * first is its own when it has no sender (unknown); one that shares the
 * vector with a real send merged with it (two sends pending at once make
 * one vector entry).
 */
static void bare_vector(struct ctx *c, struct cpu_state *s, const struct origin *org,
			unsigned long long ts)
{
	long n = origins_bare_in(&c->origins, s->res->cpu, s->last_res_ns, ts);

	s->last_res_ns = ts;
	if (!n || !in_window(c, ts))
		return;
	if (org->cls == ORIGIN_UNKNOWN) {
		s->res->bare_unknown++;
		n--;
	}
	s->res->bare_merged += n;
}

void explain(struct ctx *c, struct cpu_state *s, unsigned long long ts,
	     const char *cause, enum origin_start start, int pid)
{
	struct cpu_result *res = s->res;
	struct interruption in = {
		.cpu = res->cpu, .ns = ts, .cause = cause, .start = start, .pid = pid,
		.vec_ns = s->rec.open ? s->rec.ts : ts,
		.tick_rcu = s->tick_held_by_rcu, .tick_other = s->tick_held_other,
		.after_interruption = s->rec.open && s->rec.prev_exit &&
				      s->rec.ts - s->rec.prev_exit <= QC_CONTINUATION_NS,
		.foreign = foreign_to, .drain_path = drain_path_of, .ctx = c,
	};
	char chain[CAUSE_LEN * 4];
	struct origin org;
	bool drain, handoff = false, path = false;
	int basis = BASIS_NONE;
	struct mode_at at = s->rec.open ? s->rec.at : mode_at(&s->mode, ts);
	int vec = s->rec.open ? s->rec.vec : -1;
	long vec_n = s->rec.open ? s->rec.vec_n : 0;

	if (!c->origins.probes)
		return;
	/* Matching consumes sends: interruptions outside the window too. */
	origins_match(&c->origins, &in, &org);
	if (start == START_RESCHED)
		bare_vector(c, s, &org, ts);
	if (!in_window(c, ts))
		return;
	count_unstacked(c, &org);
	res->origin_class[org.cls]++;
	origins_chain(&c->origins, &in, &org, chain, sizeof(chain));
	counter_add(&res->origin_chains, chain, 1);
	if (org.cls == ORIGIN_UNKNOWN)
		counter_add(&res->origin_unknown, cause, 1);
	drain = origin_is_drain(c, &org);
	if (drain) {
		res->origin_drain++;
		counter_add(&res->origin_drain_by_cause, cause, 1);
		/* every sender a sleeping lock's hand-off */
		handoff = origins_all_senders_have(&c->origins, &org, explain_lock_handoff);
	}
	if (handoff) {
		res->origin_drain_handoff++;
		counter_add(&res->origin_drain_handoff_by_cause, cause, 1);
	}
	if (c->a->path_functions && origin_on_path(c, &org, c->a->path_functions, false)) {
		path = true;
		res->origin_path++;
		counter_add(&res->origin_path_by_cause, cause, 1);
	}
	if (org.cls == ORIGIN_RCU_QS)
		basis = rcu_timing(c, s, &at, rcu_split(c, res, &org, ts));
	mode_record(res, &org, &at);
	if (c->a->explain)
		explain_line(c, &in, &org, drain, handoff, path, &at, vec, vec_n, basis, s->rcu_stretch);
}
