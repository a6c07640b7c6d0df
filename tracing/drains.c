// SPDX-License-Identifier: GPL-2.0
/*
 * drains: drain_all_pages() calls and the CPUs each reached, read from the
 * exposure probes (drains.h says which events, tracing/probes/ defines
 * them in the guest).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drains.h"
#include "qc-util.h"

static int event_id(struct tep_handle *tep, const char *name,
		    struct tep_event **ev)
{
	*ev = tep_find_event_by_name(tep, "qc", name);
	return *ev ? (*ev)->id : -1;
}

void drains_init(struct drains *d, struct tep_handle *tep)
{
	struct tep_event *e;

	memset(d, 0, sizeof(*d));
	d->id_all = event_id(tep, "drain_all", &e);
	d->id_all_ret = event_id(tep, "drain_all_ret", &e);
	d->id_cpu_ret = event_id(tep, "drain_cpu_ret", &e);
	d->id_cpu = event_id(tep, "drain_cpu", &e);
	d->f_cpu = e ? tep_find_field(e, "cpu") : NULL;
	d->id_bulk = event_id(tep, "drain_bulk", &e);
	d->f_count = e ? tep_find_field(e, "count") : NULL;
	d->probes = d->id_all >= 0 && d->id_all_ret >= 0 && d->id_cpu >= 0 &&
		    d->id_cpu_ret >= 0 && d->id_bulk >= 0 && d->f_cpu && d->f_count;
}

static long long field(struct tep_format_field *f, struct tep_record *r)
{
	unsigned long long v = 0;

	if (f->offset + f->size > r->size || tep_read_number_field(f, r->data, &v))
		return -1;
	if (f->size == 4)
		return (int)v;
	return (long long)v;
}

/* The task's drain_cpu in progress, or NULL. */
static struct drain_task *task_of(struct drains *d, int pid)
{
	int i;

	for (i = 0; i < d->ntasks; i++)
		if (d->tasks[i].pid == pid)
			return &d->tasks[i];
	return NULL;
}

/* Open call @i ends at @ts: no longer in flight. */
static void close_call(struct drains *d, int i, unsigned long long ts)
{
	d->v[d->open_calls[i]].end_ns = ts;
	memmove(&d->open_calls[i], &d->open_calls[i + 1], (d->nopen - i - 1) * sizeof(*d->open_calls));
	d->nopen--;
}

/* Open call @i lost its return: noted, and closed at @ts. */
static void unreturned(struct drains *d, int i, unsigned long long ts)
{
	struct drain_call *c = &d->v[d->open_calls[i]];

	if (!d->unreturned.n++) {
		d->unreturned.pid = c->pid;
		d->unreturned.ns = c->start_ns;
	}
	close_call(d, i, ts);
}

bool drains_unreturned(const struct drains *d, char *err, size_t len)
{
	if (!d->unreturned.n)
		return false;
	snprintf(err, len, "%ld drain_all_pages() call%s never returned in the trace, the first by pid %d at %s (its qc:drain_all_ret hit lost): every later send of its caller would be charged to the drain; re-run the variant",
		 d->unreturned.n, d->unreturned.n == 1 ? "" : "s", d->unreturned.pid,
		 qc_ts(d->unreturned.ns).s);
	return true;
}

void drains_begin(struct drains *d, int pid, unsigned long long ts)
{
	struct drain_call *c;
	int i;

	/* its caller's call still open: that one's return was lost */
	for (i = d->nopen - 1; i >= 0; i--)
		if (d->v[d->open_calls[i]].pid == pid)
			unreturned(d, i, ts);
	d->v = qc_grow(d->v, d->n, &d->alloc, sizeof(*d->v));
	c = &d->v[d->n];
	memset(c, 0, sizeof(*c));
	c->start_ns = c->end_ns = ts;
	c->pid = pid;
	d->open_calls = qc_grow(d->open_calls, d->nopen, &d->open_alloc, sizeof(*d->open_calls));
	d->open_calls[d->nopen++] = d->n++;
}

void drains_return(struct drains *d, int pid, unsigned long long ts)
{
	int i;

	for (i = d->nopen - 1; i >= 0; i--)
		if (d->v[d->open_calls[i]].pid == pid) {
			d->v[d->open_calls[i]].returned = true;
			close_call(d, i, ts);
			return;
		}
}

void drains_record(struct drains *d, struct tep_handle *tep,
		   struct tep_record *r)
{
	int id, pid;
	struct drain_task *t;
	struct drain_call *c;
	long long v;

	if (!d->probes)
		return;
	id = tep_data_type(tep, r);
	pid = tep_data_pid(tep, r);
	if (id == d->id_all) {
		drains_begin(d, pid, r->ts);
	} else if (id == d->id_all_ret) {
		drains_return(d, pid, r->ts);
	} else if (id == d->id_cpu) {
		t = task_of(d, pid);
		if (!t) {
			d->tasks = qc_grow(d->tasks, d->ntasks, &d->task_alloc,
					sizeof(*d->tasks));
			t = &d->tasks[d->ntasks++];
			t->pid = pid;
		}
		t->cpu = (int)field(d->f_cpu, r);
	} else if (id == d->id_cpu_ret) {
		t = task_of(d, pid);
		if (t)
			t->cpu = -1;
	} else if (id == d->id_bulk) {
		t = task_of(d, pid);
		v = field(d->f_count, r);
		/* A bulk free outside a drain (high watermark) is no drain. */
		if (!t || t->cpu < 0 || t->cpu >= QC_DRAIN_MAX_CPUS || v <= 0 || !d->nopen)
			return;
		/* Calls are serialised by pcpu_drain_mutex: the latest is the one. */
		c = &d->v[d->open_calls[d->nopen - 1]];
		c->reached |= 1ULL << t->cpu;
		c->pages[t->cpu] += v;
	}
}

void drains_finish(struct drains *d, unsigned long long last_ns)
{
	int i;

	while (d->nopen) {
		i = d->nopen - 1;
		if (last_ns - d->v[d->open_calls[i]].start_ns > QC_DRAIN_OPEN_MAX_NS)
			unreturned(d, i, last_ns);
		else
			close_call(d, i, last_ns);
	}
	for (i = 0; i < d->n; i++)
		if (d->v[i].end_ns - d->v[i].start_ns > d->longest_ns)
			d->longest_ns = d->v[i].end_ns - d->v[i].start_ns;
}

/* The first call that starts after @ts. */
static int calls_after(const struct drains *d, unsigned long long ts)
{
	int lo = 0, hi = d->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (d->v[mid].start_ns <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A call by task @pid in flight at @ts: back from the first call after @ts
 * through those that could still be in flight.
 */
bool drains_in_call(const struct drains *d, unsigned long long ts, int pid)
{
	int i;

	for (i = calls_after(d, ts) - 1; i >= 0 && ts - d->v[i].start_ns <= d->longest_ns; i--)
		if (ts <= d->v[i].end_ns && d->v[i].pid == pid)
			return true;
	return false;
}

void drains_free(struct drains *d)
{
	free(d->v);
	free(d->open_calls);
	free(d->tasks);
	memset(d, 0, sizeof(*d));
}
