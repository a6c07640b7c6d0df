/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drains: the drain_all_pages() calls of a trace, from the exposure probes
 * that tracing/probes/<variant>.kprobes defines in the guest:
 *
 *   qc:drain_all, qc:drain_all_ret    drain_all_pages() entry and return
 *   qc:drain_cpu, qc:drain_cpu_ret    the function that drains one CPU's
 *                                     pcplists of one zone; field "cpu"
 *   qc:drain_bulk                     free_pcppages_bulk(); field "count"
 *
 * A call "reached" CPU c when, while it was in flight, a drain of CPU c's
 * lists freed at least one page (a drain_bulk between a drain_cpu for c and
 * its return, by the same task). Which CPU runs that drain differs by
 * variant (the target's kworker for wq, the caller itself for rcu and
 * spinlock); pairing by task makes one rule serve all three.
 */
#ifndef QC_DRAINS_H
#define QC_DRAINS_H

#include <stdbool.h>
#include <stdint.h>

#include <trace-cmd.h>

/* CPUs a call can be seen to reach: one bit each. */
#define QC_DRAIN_MAX_CPUS	64

struct drain_call {
	unsigned long long start_ns, end_ns;	/* end: last event if it never returned */
	int pid;				/* the caller */
	bool returned;
	uint64_t reached;			/* bit c: freed pages of CPU c */
	unsigned int pages[QC_DRAIN_MAX_CPUS];
};

struct drains {
	bool probes;		/* the trace defines the exposure probes */
	struct drain_call *v;	/* in order of start_ns */
	long n, alloc;
	unsigned long long longest_ns;	/* of all calls: bounds the search */
	/* pairing state while reading */
	int *open_calls;	/* indexes into v[] of calls in flight */
	long nopen, open_alloc;
	struct drain_task { int pid, cpu; } *tasks;	/* drain_cpu in progress */
	/* calls whose drain_all_ret the trace lacks: how many, the first's
	   caller and start (drains_unreturned()) */
	struct { long n; int pid; unsigned long long ns; } unreturned;
	long ntasks, task_alloc;
	/* event ids, -1 where absent */
	int id_all, id_all_ret, id_cpu, id_cpu_ret, id_bulk;
	struct tep_format_field *f_cpu, *f_count;
};

/* Find the probes' events in @tep; d->probes says whether all are there. */
void drains_init(struct drains *d, struct tep_handle *tep);
/* Feed every record of the trace, in time order (any CPU). */
void drains_record(struct drains *d, struct tep_handle *tep,
		   struct tep_record *r);
/* A drain_all (drain_all_ret) record of @pid at @ts: drains_record()'s pairing. */
void drains_begin(struct drains *d, int pid, unsigned long long ts);
void drains_return(struct drains *d, int pid, unsigned long long ts);
/*
 * After the last record: calls still in flight end at @last_ns. One that
 * began more than QC_DRAIN_OPEN_MAX_NS before it lost its return, as
 * does one whose caller began another (drain_all_pages() does not nest).
 */
#define QC_DRAIN_OPEN_MAX_NS	1000000000ULL
void drains_finish(struct drains *d, unsigned long long last_ns);
/*
 * Did a call lose its return (a missed drain_all_ret)? Then every later
 * send of its caller would be the drain's: the trace is refused, @err
 * says which call.
 */
bool drains_unreturned(const struct drains *d, char *err, size_t len);
/* Was a call by task @pid in flight at @ts (its own drain_all_pages())? */
bool drains_in_call(const struct drains *d, unsigned long long ts, int pid);
void drains_free(struct drains *d);

#endif
