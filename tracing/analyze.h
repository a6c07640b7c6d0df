/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyze: read a guest trace.dat with libtracecmd and count the
 * interruptions of isolated CPUs inside the "qc: window start" ..
 * "qc: window end" markers. The counting rule is described in analyze.c
 * and README.md.
 */
#ifndef QC_ANALYZE_H
#define QC_ANALYZE_H

#include <stdbool.h>

#include "counter.h"

#define QC_MARK_START	"qc: window start"
#define QC_MARK_END	"qc: window end"

struct cpu_result {
	int cpu;
	long interruptions;
	struct counter by_cause;	/* sums to interruptions */
	struct counter all_causes;	/* every cause seen, nested ones too */
	struct counter events;		/* raw "system:event" counts */
};

struct analysis {
	/* inputs */
	const char *file;
	const char *task;		/* measured task's comm prefix, or NULL */
	int *cpus;			/* isolated CPUs to report, ascending */
	int ncpus;
	/* results */
	unsigned long long start_ns, end_ns;
	int nr_trace_cpus;
	long total;
	struct cpu_result *res;		/* one per cpus[] entry */
};

/*
 * Fill @a's results. Returns 0, or -1 with a one-line reason in @err (the
 * file is not a trace, is truncated or corrupt, has no complete window,
 * lost events inside the window, or lacks a requested CPU).
 */
int analyze(struct analysis *a, char *err, int errlen);
void analysis_free(struct analysis *a);

#endif
