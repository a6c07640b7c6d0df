// SPDX-License-Identifier: GPL-2.0
/*
 * analyze: count the interruptions of isolated CPUs in a guest trace.dat,
 * and charge to the drain those it caused. The counting and charging rule
 * is stated in tracing/README.md; handlers.c holds the table of events
 * that implements it (analyze-int.h says which file does what).
 *
 * The window is the time between the ftrace:print markers
 * "qc: window start" and "qc: window end" (trace-mark.sh writes them; the
 * first start and the first end after it are used).
 *
 * Pass 1 reads every CPU: the window, each CPU's events before and after
 * it, the drain calls, the audit's proof events. It refuses the trace when
 * a record's event has no row in handlers.c or lacks a field its row
 * declares, when an isolated CPU has no event before the window start or
 * none after its end (its buffer was overwritten, or it was never traced:
 * a window with no events would otherwise read as clean), and, for any
 * trace it reads, when the kernel's per-CPU
 * statistics saved in the file report overrun, commit overrun or dropped
 * events on any CPU, or when any record carries the lost-events flag. Loss anywhere is
 * refused, housekeeping CPU 0 included: the drain calls and the sends to
 * the isolated CPUs are recorded there, and the statistics cover the
 * whole trace, so the rule does too.
 *
 * Pass 2 reads the isolated CPUs (every CPU when a QC_ANY_CPU row's event
 * is in the trace) in time order and hands each record to its row's count
 * handler.
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

#include "analyze-int.h"
#include "qc-util.h"

void set_err(char *err, int len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* ---- pass 1: the window, liveness and the drain calls -------------------- */

/*
 * A handler's refusal (c->err set) stops the reading of records, but not
 * the iteration: libtracecmd, stopped early, complains on stderr while
 * closing the file, and the refusal must be one line.
 */
static bool refused(struct ctx *c)
{
	return c->err[0];
}

/* Hand @e to @fn; a handler that fails without saying why still refuses. */
static void run(qc_handler_fn fn, struct qc_ev *e)
{
	if (fn(e) < 0 && !refused(e->c))
		set_err(e->c->err, e->c->errlen, "%s: the handler of %s failed on CPU %d at %llu ns",
			e->c->a->file, e->ei->key, e->cpu, e->ts);
}

/* A record the table cannot read: no row, or a field its row needs missing. */
static void refuse_record(struct ctx *c, const struct ev_info *ei,
			  struct tep_record *r, int cpu)
{
	if (!ei->row)
		set_err(c->err, c->errlen,
			"%s: CPU %d has a record of %s (at %llu ns), an event the analyzer has no row for: give it a handler, or mark it QC_NEUTRAL, in tracing/handlers.c",
			c->a->file, cpu, ei->key, r->ts);
	else
		set_err(c->err, c->errlen,
			"%s: the format of %s in this trace has no field \"%s\", which its row in tracing/handlers.c reads",
			c->a->file, ei->key, ei->missing);
}

/*
 * A record of a probe that missed hits in the window (profile.h): counted,
 * in the window, on an isolated CPU or on another, if it was made in an
 * interrupt, a softirq or an NMI. A missed hit is one nested in another
 * probe's handler, so in an interrupt that came while the handler ran:
 * only the probe's recorded hits in such a context show where its
 * missed ones can have been (a drainer's call_rcu() in task context never
 * can).
 */
static void place_misses(struct ctx *c, struct ev_info *ei, struct tep_record *r, int cpu)
{
	bool started = c->a->window_given ? r->ts >= c->a->start_ns : c->nstart;
	bool ended = c->a->window_given ? r->ts > c->a->end_ns : c->nend;
	const char *name = strchr(ei->key, ':');
	struct profile_miss *m;

	if (!started || ended || !name ||
	    !(tep_data_flags(c->tep, r) & (QC_FLAG_HARDIRQ | QC_FLAG_SOFTIRQ | QC_FLAG_NMI)))
		return;
	m = profile_missed(&c->a->profile, name + 1);
	if (!m)
		return;
	if (cpu < 64 && isolated_mask(c->a) >> cpu & 1)
		m->isolated_hits++;
	else
		m->other_hits++;
}

static int scan_event(struct tracecmd_input *h, struct tep_record *r,
		      int cpu, void *data)
{
	struct ctx *c = data;
	struct ev_info *ei;
	struct qc_ev e;

	(void)h;
	if (refused(c))
		return 0;
	c->records++;
	c->last_ts = r->ts;
	if (cpu >= 0 && cpu < c->a->nr_trace_cpus) {
		/* Before the start marker (or the given start), after the end. */
		bool started = c->a->window_given ? r->ts >= c->a->start_ns : c->nstart;
		bool ended = c->a->window_given ? r->ts > c->a->end_ns : c->nend;

		if (!started)
			c->before[cpu]++;
		else if (ended)
			c->after[cpu]++;
	}
	if (r->missed_events && c->lost_cpu < 0)
		c->lost_cpu = cpu;
	ei = event_of(c, r);
	if (!ei)
		return 0;
	if (c->a->profile.nmissed)
		place_misses(c, ei, r, cpu);
	if (!ei->row || ei->missing) {
		refuse_record(c, ei, r, cpu);
		return 0;
	}
	ei->records++;
	if (!ei->row->scan)
		return 0;
	e = (struct qc_ev){ .c = c, .r = r, .ei = ei, .ts = r->ts, .cpu = cpu };
	run(ei->row->scan, &e);
	return 0;
}

/* libtracecmd exports this but its public header does not declare it. */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

/*
 * The kernel's per-CPU ring buffer statistics, saved by trace-cmd extract:
 * "CPU: N" then "overrun: X", "commit overrun: Y", "dropped events: Z"
 * (events overwritten by the writer, lost while a commit was nested too
 * deep, refused on a full buffer). Returns a CPU that lost events (any
 * CPU: see the top of this file), with how many in @lost and which count
 * said so in @kind, or -1.
 */
static int stats_lost_cpu(struct tracecmd_input *h, long *lost, const char **kind)
{
	static const char *const kinds[] = { "overrun", "commit overrun", "dropped events" };
	const char *p = tracecmd_get_cpustats(h);
	int cpu = -1;
	size_t k;

	while (p && *p) {
		long v;

		if (sscanf(p, "CPU: %d", &cpu) != 1 && cpu >= 0)
			/* whole names: "overrun" is not "commit overrun" */
			for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
				size_t n = strlen(kinds[k]);

				if (!strncmp(p, kinds[k], n) && sscanf(p + n, ": %ld", &v) == 1 && v > 0) {
					*lost = v;
					*kind = kinds[k];
					return cpu;
				}
			}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* ---- pass 2: each record to its row's count handler ---------------------- */

static int count_event(struct tracecmd_input *h, struct tep_record *r,
		       int cpu, void *data)
{
	struct ctx *c = data;
	struct analysis *a = c->a;
	struct ev_info *ei = event_of(c, r);
	struct cpu_state *s;
	struct qc_ev e;

	(void)h;
	if (cpu < 0 || cpu >= a->nr_trace_cpus || refused(c))
		return 0;
	s = &c->cs[cpu];
	if (!s->res) {
		/* Another CPU's record: only QC_ANY_CPU rows see it. */
		if (!ei || !ei->row || !(ei->row->flags & QC_ANY_CPU))
			return 0;
	} else {
		if (!s->started && r->ts >= a->start_ns)
			window_opens(c, s);
		if (!ei)
			return 0;
		if (in_window(c, r->ts))
			counter_add(&s->res->events, ei->key, 1);
		/* An interrupt's return path is over: its record is complete. */
		if (s->rec.open && !s->depth && r->ts - s->rec.exit_ts > QC_CONTINUATION_NS)
			rec_close(c, s);
	}
	if (!ei->row || !ei->row->count)
		return 0;
	e = (struct qc_ev){ .c = c, .r = r, .ei = ei, .ts = r->ts, .cpu = cpu, .s = s };
	run(ei->row->count, &e);
	return 0;
}

/* Does a QC_ANY_CPU row's event have records (pass 1)? Then pass 2 reads every CPU. */
static bool any_cpu_events(struct ctx *c)
{
	int i;

	for (i = 0; i < c->nev; i++)
		if (c->ev[i].records && c->ev[i].row && (c->ev[i].row->flags & QC_ANY_CPU))
			return true;
	return false;
}

/*
 * Pass 2 over the handle pass 1 read to its end: the CPUs of @set (of the
 * trace's @ncpus) each from its first record again, in time order, as
 * tracecmd_iterate_events hands them (the lowest CPU first among records
 * of the same time), which goes on from where each CPU was left. Reading
 * the file again costs nothing like opening it again.
 */
static int iterate_again(struct tracecmd_input *h, int ncpus, cpu_set_t *set, size_t setsize,
			 int (*fn)(struct tracecmd_input *, struct tep_record *, int, void *),
			 void *data)
{
	struct tep_record **next = calloc(ncpus, sizeof(*next));
	int cpu, first, ret = 0;

	if (!next)
		return -1;
	for (cpu = 0; cpu < ncpus; cpu++)
		if (CPU_ISSET_S(cpu, setsize, set))
			next[cpu] = tracecmd_read_cpu_first(h, cpu);
	for (;;) {
		first = -1;
		for (cpu = 0; cpu < ncpus; cpu++)
			if (next[cpu] && (first < 0 || next[cpu]->ts < next[first]->ts))
				first = cpu;
		if (first < 0)
			break;
		ret = fn(h, next[first], first, data);
		tracecmd_free_record(next[first]);
		next[first] = tracecmd_read_data(h, first);
		if (ret < 0)
			break;
	}
	for (cpu = 0; cpu < ncpus; cpu++)
		tracecmd_free_record(next[cpu]);
	free(next);
	return ret;
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
	evtable_free(c);
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
	if (evtable_build(c)) {
		if (!c->err[0])
			set_err(c->err, c->errlen, "%s: cannot index its events", file);
		unload(c, h);
		return NULL;
	}
	return h;
}

/* Pass 1 over every CPU of @h: as read the first time, or again from the start. */
static int iterate_all(struct tracecmd_input *h, struct ctx *c, bool again)
{
	int ncpus = tep_get_cpus(c->tep), cpu, ret;
	size_t setsize;
	cpu_set_t *set;

	if (!again)
		return tracecmd_iterate_events(h, NULL, 0, scan_event, c);
	set = CPU_ALLOC(ncpus);
	if (!set)
		return -1;
	setsize = CPU_ALLOC_SIZE(ncpus);
	CPU_ZERO_S(setsize, set);
	for (cpu = 0; cpu < ncpus; cpu++)
		CPU_SET_S(cpu, setsize, set);
	ret = iterate_again(h, ncpus, set, setsize, scan_event, c);
	CPU_FREE(set);
	return ret;
}

uint64_t isolated_mask(const struct analysis *a)
{
	uint64_t m = 0;
	int i;

	for (i = 0; i < a->ncpus; i++)
		if (a->cpus[i] < 64)
			m |= 1ULL << a->cpus[i];
	return m;
}

/*
 * Is the send side of this trace incomplete?
 * A field it has that could not be read, grace periods whose numbers do
 * not add up, or a send in the window that
 * the guest's stack triggers select (origin-stacks.list) without its
 * stack: either refuses the trace (c->err says which), since a send read
 * as 0 or without its stack would be given to no one, or to another.
 */
static bool send_side_incomplete(struct ctx *c, const char *file)
{
	struct analysis *a = c->a;
	char why[512];

	if (origins_unread(&c->origins, why, sizeof(why)) ||
	    origins_gp_unmapped(&c->origins, why, sizeof(why))) {
		set_err(c->err, c->errlen, "%s: %s", file, why);
		return true;
	}
	if (!c->origins.probes || !a->stack_rules)
		return false;
	if (stacks_missing(a->stack_rules, &c->origins, isolated_mask(a), a->start_ns, a->end_ns,
			   why, sizeof(why))) {
		set_err(c->err, c->errlen, "%s: %s", file, why);
		return true;
	}
	return false;
}

/*
 * Pass 1 over @file, loaded in @h, with @c: the window markers, every CPU's
 * events before and after the window and the drain
 * calls. @again: @h was read through before (an earlier window of the run).
 */
static int scan(struct ctx *c, struct tracecmd_input *h, const char *file, bool again)
{
	struct analysis *a = c->a;
	long lost = 0;
	const char *kind = NULL;
	char why[512];
	int ret = -1, lost_cpu, cpu, i;

	drains_init(&c->drains, c->tep);
	origins_init(&c->origins, c->tep, tep_get_cpus(c->tep));
	c->lost_cpu = -1;
	if (iterate_all(h, c, again) < 0 || refused(c)) {
		if (!refused(c))
			set_err(c->err, c->errlen, "%s: reading its events failed (truncated or corrupt?)", file);
		goto out;
	}
	c->any_cpu = any_cpu_events(c);
	drains_finish(&c->drains, c->last_ts);
	origins_finish(&c->origins, c->last_ts);
	if (drains_unreturned(&c->drains, why, sizeof(why))) {
		set_err(c->err, c->errlen, "%s: %s", file, why);
		goto out;
	}
	if (!c->records) {
		set_err(c->err, c->errlen, "%s holds no events: truncated, or tracing never ran", file);
		goto out;
	}
	if (!c->a->window_given && (!c->nstart || !c->nend)) {
		set_err(c->err, c->errlen,
			"%s has no complete measurement window: no \"%s\" marker (tracing/guest/trace-mark.sh writes them)",
			file, !c->nstart ? QC_MARK_START : QC_MARK_END);
		goto out;
	}
	if (!c->a->window_given && (c->nstart > 1 || c->nend > 1))
		fprintf(stderr, "qc-analyze: warning: %s has %d start and %d end markers; using the first window\n",
			file, c->nstart, c->nend);
	lost_cpu = stats_lost_cpu(h, &lost, &kind);
	if (lost_cpu >= 0) {
		set_err(c->err, c->errlen,
			"%s: the kernel's ring buffer of CPU %d lost %ld events (%s): its counts would be incomplete (raise trace-arm.sh's buffer size and re-run the variant)",
			file, lost_cpu, lost, kind);
		goto out;
	}
	if (c->lost_cpu >= 0) {
		set_err(c->err, c->errlen,
			"%s: events were lost on CPU %d: its counts would be incomplete (raise trace-arm.sh's buffer size and re-run the variant)",
			file, c->lost_cpu);
		goto out;
	}
	if (send_side_incomplete(c, file))
		goto out;
	for (i = 0; i < a->ncpus; i++) {
		cpu = a->cpus[i];
		if (c->before[cpu] && c->after[cpu])
			continue;
		set_err(c->err, c->errlen,
			"%s: isolated CPU %d has no event %s the window: it was not traced throughout (its buffer overwritten, or the trace cut), so a clean window would prove nothing",
			file, cpu, c->before[cpu] ? "after" : "before");
		goto out;
	}
	/* what the kernel counted against what the trace holds */
	for (i = 0; i < a->ncpus; i++)
		if (!hwtime_received_all(&a->hw, a->cpus[i], why, sizeof(why))) {
			set_err(c->err, c->errlen, "%s: %s", file, why);
			goto out;
		}
	/* the keys belong to the event table, freed by unload() */
	for (i = 0; i < c->nhits; i++)
		if (c->hits[i].ns >= a->start_ns && c->hits[i].ns <= a->end_ns)
			counter_add(&a->proof, c->hits[i].key, 1);
	ret = 0;
out:
	free(c->hits);
	c->hits = NULL;
	return ret;
}

/*
 * The drain calls that opened in the window, those that reached an
 * isolated CPU, and each isolated CPU's exposure: the calls that reached it
 * and the pages they freed there.
 */
static void tally_calls(struct ctx *c)
{
	struct analysis *a = c->a;
	int i, k;

	a->probes = c->drains.probes;
	for (i = 0; i < c->drains.n; i++) {
		const struct drain_call *call = &c->drains.v[i];
		bool any = false;

		if (!in_window(c, call->start_ns))
			continue;
		a->calls++;
		if (!strncmp(tep_data_comm_from_pid(c->tep, call->pid), QC_HAMMER_COMM,
					       strlen(QC_HAMMER_COMM)))
			a->calls_hammer++;
		for (k = 0; k < a->ncpus; k++) {
			int cpu = a->cpus[k];

			if (cpu >= QC_DRAIN_MAX_CPUS || !(call->reached >> cpu & 1))
				continue;
			any = true;
			a->res[k].exposure_drains++;
			a->res[k].exposure_pages += call->pages[cpu];
		}
		a->calls_reached += any;
	}
}

/*
 * One window of the trace loaded in @h, into @a, with @c (its event table
 * built, c->tep set). @again: @h was read before, by an earlier window.
 */
static int analyze_loaded(struct analysis *a, struct ctx *c, struct tracecmd_input *h, bool again)
{
	cpu_set_t *set = NULL;
	size_t setsize;
	char *err = c->err;
	int i, errlen = c->errlen, ret = -1;
	char why[512];

	a->nr_trace_cpus = tep_get_cpus(c->tep);
	for (i = 0; i < a->ncpus; i++) {
		if (a->cpus[i] >= a->nr_trace_cpus) {
			set_err(err, errlen, "CPU %d is not in %s (it has CPUs 0-%d)",
				a->cpus[i], a->file, a->nr_trace_cpus - 1);
			goto out;
		}
	}
	c->before = calloc(a->nr_trace_cpus, sizeof(*c->before));
	c->after = calloc(a->nr_trace_cpus, sizeof(*c->after));
	c->cs = calloc(a->nr_trace_cpus, sizeof(*c->cs));
	a->res = calloc(a->ncpus, sizeof(*a->res));
	set = CPU_ALLOC(a->nr_trace_cpus);
	if (!c->before || !c->after || !c->cs || !a->res || !set) {
		set_err(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < a->ncpus; i++)
		a->res[i].cpu = a->cpus[i];

	/* Pass 1: window, liveness and drain calls, from every CPU. */
	if (scan(c, h, a->file, again))
		goto out;
	a->origin_probes = c->origins.probes;
	snprintf(a->origin_missing, sizeof(a->origin_missing), "%s", c->origins.missing);
	for (i = 0; i < a->ncpus; i++) {
		a->res[i].events_before = c->before[a->cpus[i]];
		a->res[i].events_after = c->after[a->cpus[i]];
	}
	tally_calls(c);
	if (a->hammer_calls >= 0 && a->calls_hammer != a->hammer_calls) {
		set_err(err, errlen,
			"%s: the hammer counted %ld drain_all_pages() calls on CPU %d, the window holds %ld by its thread (%s*, probe qc:drain_all): a probe hit was dropped, or the hammer ran outside the window; re-run the variant",
			a->file, a->hammer_calls, a->hammer_cpu, a->calls_hammer, QC_HAMMER_COMM);
		goto out;
	}
	explain_window(c);

	/* Pass 2: the isolated CPUs (or every CPU), from the start of the trace. */
	setsize = CPU_ALLOC_SIZE(a->nr_trace_cpus);
	CPU_ZERO_S(setsize, set);
	for (i = 0; i < a->nr_trace_cpus; i++) {
		c->cs[i].cur_pid = -1;
		c->cs[i].measured_pid = -1;
		if (c->any_cpu)
			CPU_SET_S(i, setsize, set);
	}
	for (i = 0; i < a->ncpus; i++) {
		c->cs[a->cpus[i]].res = &a->res[i];
		CPU_SET_S(a->cpus[i], setsize, set);
	}
	if (iterate_again(h, a->nr_trace_cpus, set, setsize, count_event, c) < 0 || refused(c)) {
		if (!err[0])
			set_err(err, errlen, "%s: reading its events failed (truncated or corrupt?)",
				a->file);
		goto out;
	}
	if (c->unstacked.n) {
		const struct send *s = c->unstacked.first;
		char name[96];

		origins_event_name(s->ev, name, sizeof(name));
		set_err(err, errlen, "%s: %ld sender%s of the window's interruptions that a stack trigger selects carr%s no kernel stack, the first a %s on CPU %d at %llu ns (sent before the triggers were set, or its stack lost): who sent %s cannot be shown; re-run the variant",
			a->file, c->unstacked.n, c->unstacked.n == 1 ? "" : "s",
			c->unstacked.n == 1 ? "ies" : "y", name, s->cpu, s->ns,
			c->unstacked.n == 1 ? "it" : "them");
		goto out;
	}
	a->total = a->drain_total = 0;
	for (i = 0; i < a->ncpus; i++) {
		struct cpu_state *s = &c->cs[a->cpus[i]];

		end_stint(c, s, c->last_ts);
		rec_close(c, s);
		a->total += a->res[i].interruptions;
		a->drain_total += a->res[i].origin_drain;
	}
	if (origins_overflowed(&c->origins, why, sizeof(why))) {
		set_err(err, errlen, "%s: %s", a->file, why);
		goto out;
	}
	ret = 0;
out:
	if (set)
		CPU_FREE(set);
	free(c->cs);
	free(c->before);
	free(c->after);
	drains_free(&c->drains);
	origins_free(&c->origins);
	return ret;
}

int analyze(struct analysis *a, char *err, int errlen)
{
	return analyze_windows(&a, 1, NULL, NULL, err, errlen);
}

int analyze_windows(struct analysis *const *v, int n, int (*done)(struct analysis *, void *),
		    void *data, char *err, int errlen)
{
	struct ctx c = { .a = v[0], .err = err, .errlen = errlen };
	struct tracecmd_input *h;
	int i, ret = 0;

	err[0] = '\0';
	catch_crashes(v[0]->file);
	/* Opened once for both passes of every window: an open parses every
	   event format and the kallsyms the file holds, most of a short
	   run's time. */
	h = load(&c, v[0]->file);
	if (!h)
		return -1;
	for (i = 0; i < n && !ret; i++) {
		if (i) {
			/* a window's own table: its events' records counted afresh */
			evtable_free(&c);
			c = (struct ctx){ .a = v[i], .tep = c.tep, .err = err, .errlen = errlen };
			if (evtable_build(&c)) {
				if (!err[0])
					set_err(err, errlen, "%s: cannot index its events", v[i]->file);
				ret = -1;
				break;
			}
		}
		ret = analyze_loaded(v[i], &c, h, i > 0);
		if (!ret && done)
			ret = done(v[i], data);
	}
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
		counter_free(&a->res[i].origin_chains);
		counter_free(&a->res[i].origin_unknown);
		counter_free(&a->res[i].origin_drain_by_cause);
		counter_free(&a->res[i].origin_drain_handoff_by_cause);
		counter_free(&a->res[i].origin_path_by_cause);
		counter_free(&a->res[i].rcu_qs_entries);
		free(a->res[i].rcu_qs_dwell_us);
		free(a->res[i].rcu_qs_insns);
	}
	free(a->res);
	a->res = NULL;
	for (i = 0; i < a->nmarks; i++)
		free(a->marks[i].text);
	free(a->marks);
	a->marks = NULL;
	counter_free(&a->proof);
}
