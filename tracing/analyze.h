/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyze: read a guest trace.dat with libtracecmd and count the
 * interruptions of isolated CPUs inside the "qc: window start" ..
 * "qc: window end" markers. The counting rule is described in
 * tracing/README.md.
 */
#ifndef QC_ANALYZE_H
#define QC_ANALYZE_H

#include <stdbool.h>
#include <stdio.h>

#include "counter.h"
#include "hwtime.h"
#include "mode.h"
#include "origins.h"
#include "profile.h"
#include "stacks.h"

#define QC_MARK_START	"qc: window start"
#define QC_MARK_END	"qc: window end"

/*
 * How long after an interrupt returns a softirq entry still belongs to it
 * (irq_exit() runs softirqs; under TCG the host may deschedule the vCPU
 * right there). Past this the softirq is an interruption of its own.
 */
#define QC_CONTINUATION_NS	1000000ULL

/* The hammer's thread (hammer/drain.c: kthread_create_on_cpu(..., "qc_hammer/%u")) */
#define QC_HAMMER_COMM		"qc_hammer/"

struct cpu_result {
	int cpu;
	long interruptions;
	struct counter by_cause;	/* sums to interruptions */
	struct counter all_causes;	/* every cause seen, nested ones too */
	struct counter events;		/* raw "system:event" counts */
	/* exposure: drain_all_pages() calls in the window that freed pages
	   from this CPU's pcplists, and the pages they freed */
	long exposure_drains, exposure_pages;
	/* liveness: this CPU's events before the window and after it */
	long events_before, events_after;
	/* origins (origins.h, explain.c): each interruption's class, the
	   chains it is reported under, the remote-type ones with no sender
	   by cause, and those whose senders include the drain */
	long origin_class[ORIGIN_CLASSES];
	struct counter origin_chains;
	struct counter origin_unknown;
	long origin_drain;
	struct counter origin_drain_by_cause;
	/* of those, the ones every sender of which woke a task blocked on a
	   sleeping lock the drain held (explain.c, explain_lock_handoff[]) */
	long origin_drain_handoff;
	struct counter origin_drain_handoff_by_cause;
	/* with --path-functions: those whose senders' path holds one (an
	   audit trigger's own path) */
	long origin_path;
	struct counter origin_path_by_cause;
	/* RCU QS interruptions by their grace period: one a drain made RCU
	   need (origins.c, gp_requests()), one a drain only waited on, one
	   whose request the trace does not hold (made before it began), any
	   other */
	long rcu_drain_requested, rcu_drain_waited, rcu_request_untraced, rcu_other;
	/* the self-test's bare reschedule vectors (origins.h SEND_BARE) sent
	   to this CPU in the window; of those, each the first into a vector
	   counted without a sender, and those that went into a vector shared
	   with a real send (merged: one vector entry for both) */
	long bare_sent, bare_unknown, bare_merged;
	/* the mode each interruption found (mode.h), and of the RCU QS ones
	   also the kernel entry and the QS-less dwell (microseconds, one per
	   interruption in kernel mode, in trace order) */
	long mode_events;	/* its mode transitions in the whole trace */
	long mode_of[MODE_COUNT];
	long rcu_qs_mode[MODE_COUNT];
	struct counter rcu_qs_entries;
	long long *rcu_qs_dwell_us;
	long rcu_qs_ndwell, rcu_qs_dwell_alloc;
	/* the RCU QS reschedule IPIs timed by their stretch's instructions
	   (hwtime.h): emulator-timed, hardware-plausible, or not timed (a
	   tick, or no count); the same for those a drain requested
	   (rcu_drain_requested); and each timed stretch's instructions */
	long rcu_qs_emulator_timed, rcu_qs_hw_plausible, rcu_qs_untimed;
	long indirect_emulator_timed, indirect_hw_plausible, indirect_untimed;
	unsigned long long *rcu_qs_insns;
	long rcu_qs_ninsns, rcu_qs_insns_alloc;
};

/*
 * explain.c: the releases of a sleeping lock that hand it to a waiter,
 * NULL-terminated (qc-analyze --names lists them)
 */
extern const char *const explain_lock_handoff[];

/* A "qc: ..." trace marker (trace-mark.sh), anywhere in the trace. */
struct mark {
	unsigned long long ns;
	char *text;
};

/* Kprobe events of this group prove that an audit trigger's path ran. */
#define QC_PROOF_GROUP	"qcaudit"

struct analysis {
	/* inputs */
	const char *file;
	const char *task;		/* measured tasks' comm prefixes ("a,b"), or NULL */
	int *cpus;			/* isolated CPUs to report, ascending */
	int ncpus;
	/* the drain's own functions, NULL-terminated (NULL: none): a send
	   whose stack holds one is the drain's (origins) */
	const char *const *drain_functions;
	/* an audit trigger's functions, NULL-terminated (NULL: no path is
	   counted): an interruption whose senders' path holds one is its own */
	const char *const *path_functions;
	/* the hammer's own count of its drain_all_pages() calls and its CPU
	   (hammer.json), or calls -1: the trace's calls by its thread must
	   be as many (a probe hit dropped, or a call outside the window,
	   refuses the trace) */
	long hammer_calls;
	int hammer_cpu;
	/* which sends the guest stacked (origin-stacks.list): one without
	   its stack refuses the trace */
	const struct stack_rules *stack_rules;
	struct profile profile;		/* the window's dropped probe hits */
	struct hwtime hw;		/* the kernel stretches' instructions (hwtime.h) */
	bool window_given;		/* start_ns..end_ns given, markers ignored */
	FILE *explain;			/* one JSON line per counted interruption, or NULL */
	/* results */
	unsigned long long start_ns, end_ns;
	int nr_trace_cpus;
	long total, drain_total;	/* interruptions, and of them the drain's (origins) */
	bool probes;			/* the drain calls' trace had the probes */
	bool origin_probes;		/* the trace had the send-side probes */
	/* the grace periods that started in the window: how many, how many a
	   drain made RCU need, how many with no traced request; rcu_traced:
	   the trace has RCU's request path (origins.h, rcu_untraced) */
	bool rcu_traced;
	long gp_started, gp_drain_requested, gp_request_untraced;
	char origin_missing[96];	/* else the first send-side event it lacks */
	long calls, calls_reached;	/* drain calls opened in the window */
	long calls_hammer;		/* ... by the hammer's thread (qc_hammer/N) */
	struct cpu_result *res;		/* one per cpus[] entry */
	/* every "qc: " marker of the trace, in time order */
	struct mark *marks;
	int nmarks;
	/* QC_PROOF_GROUP events in the window, on any CPU, by "group:event" */
	struct counter proof;
};

/*
 * Fill @a's results. Returns 0, or -1 with a one-line reason in @err (the
 * file is not a trace, is truncated or corrupt, has no complete window,
 * lost events, has an isolated CPU with no data before or after the
 * window, or lacks a requested CPU).
 */
int analyze(struct analysis *a, char *err, int errlen);
/*
 * The same for each of @v[0..n-1]: windows (window_given) of one trace,
 * its file opened once. @done, if given, is called with each analysis
 * once filled; the first window refused, or a @done that fails, stops
 * the run: -1, with the reason in @err.
 */
int analyze_windows(struct analysis *const *v, int n, int (*done)(struct analysis *, void *),
		    void *data, char *err, int errlen);
void analysis_free(struct analysis *a);

#endif
