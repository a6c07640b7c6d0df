// SPDX-License-Identifier: GPL-2.0
/*
 * hwtime: the qc-entry plugin's counts, numbered as the trace's reschedule
 * IPIs are (hwtime.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtime.h"
#include "qc-util.h"

const char *const hwtime_vector[HW_NVEC] = { "reschedule", "irq_work", "local_timer" };
const char *const hwtime_count[HW_NVEC] = { "RES", "IWI", "LOC" };

int hwtime_vec(const char *name)
{
	int v;

	for (v = 0; v < HW_NVEC; v++)
		if (!strcmp(name, hwtime_vector[v]))
			return v;
	return -1;
}

static int by_vcpu_n(const void *a, const void *b)
{
	const struct entry_count *x = a, *y = b;

	if (x->vec != y->vec)
		return x->vec < y->vec ? -1 : 1;
	if (x->vcpu != y->vcpu)
		return x->vcpu < y->vcpu ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

int hwtime_load(struct hwtime *h, const char *file, const char *thresholds,
		char *err, int errlen)
{
	char line[256], junk;
	long lineno = 0;
	FILE *f;

	if (!thresholds || sscanf(thresholds, "%lu:%lu%c", &h->hz, &h->next_fqs, &junk) != 2 ||
	    !h->hz || !h->next_fqs) {
		snprintf(err, errlen, "--rcu-forcing '%s' is not HZ:JIFFIES_TILL_NEXT_FQS (both from the guest, guest.json's rcu): without them no forcing can be timed",
			 thresholds ? thresholds : "");
		return -1;
	}
	h->ns_per_insn = 1.0;
	h->span_ns = (h->next_fqs - 1) * 1000000000ULL / h->hz;
	f = fopen(file, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read the entry counts %s: %s", file, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct entry_count e;
		char vec[8];

		lineno++;
		if (sscanf(line, "{\"vcpu\":%d,\"vec\":\"%7[A-Z]\",\"n\":%ld,\"kernel\":%llu,\"spin\":%llu,\"prev\":%llu,\"stretch\":%lld}",
			   &e.vcpu, vec, &e.n, &e.kernel, &e.spin, &e.prev, &e.stretch) != 7 || e.vcpu < 0) {
			snprintf(err, errlen, "%s:%ld is not a qc-entry line ({\"vcpu\":..,\"vec\":..,\"n\":..,\"kernel\":..,\"spin\":..,\"prev\":..,\"stretch\":..})",
				 file, lineno);
			fclose(f);
			return -1;
		}
		for (e.vec = 0; e.vec < HW_NVEC && strcmp(vec, hwtime_count[e.vec]); e.vec++)
			;
		if (e.vec == HW_NVEC) {
			snprintf(err, errlen, "%s:%ld counts a vector \"%s\" the analyzer does not know (RES, IWI, LOC)",
				 file, lineno, vec);
			fclose(f);
			return -1;
		}
		h->v = qc_grow(h->v, h->nv, &h->alloc, sizeof(*h->v));
		h->v[h->nv++] = e;
	}
	fclose(f);
	qsort(h->v, h->nv, sizeof(*h->v), by_vcpu_n);
	h->measured = true;
	return 0;
}

void hwtime_entry(struct hwtime *h, int vec, int cpu)
{
	if (vec >= 0 && cpu >= 0 && cpu < HWTIME_CPUS)
		h->traced[vec][cpu]++;
}

/*
 * "qc: RES counts N0 N1 ...": each CPU's count C was read after the last
 * "qc: counts read" (when there was one since the vector's last counts)
 * and before this marker, so the entries it covers number between lo, those
 * traced before the read marker, and hi, those traced before this one:
 * C = base + x with x in [lo, hi], base the number of the one before the
 * first traced. From the first counts to these the kernel counted K; the
 * trace holds every one iff some x_first and x_now give K = x_now - x_first,
 * and each entry's number is known iff the two counts leave one base.
 * Without read markers (a trace from before them) lo = hi: exact.
 */
void hwtime_marker(struct hwtime *h, const char *text)
{
	long counts[HWTIME_CPUS];
	char name[8];
	const char *p;
	int vec, n = 0, cpu, used;

	if (!strcmp(text, HWTIME_READ_MARK)) {
		for (vec = 0; vec < HW_NVEC; vec++) {
			h->reading[vec] = true;
			memcpy(h->at_read[vec], h->traced[vec], sizeof(h->at_read[vec]));
		}
		return;
	}
	if (sscanf(text, "qc: %7[A-Z] counts%n", name, &used) != 1)
		return;
	for (vec = 0; vec < HW_NVEC && strcmp(name, hwtime_count[vec]); vec++)
		;
	if (vec == HW_NVEC)
		return;
	p = text + used;
	while (n < HWTIME_CPUS && sscanf(p, "%ld%n", &counts[n], &used) == 1) {
		p += used;
		n++;
	}
	for (cpu = 0; cpu < n; cpu++) {
		long c = counts[cpu], hi = h->traced[vec][cpu];
		long lo = h->reading[vec] ? h->at_read[vec][cpu] : hi;
		/* the bases the first counts allow, and these */
		long first_bmin, first_bmax, bmin, bmax;

		if (!h->nmarks[vec]) {
			h->first_count[vec][cpu] = c;
			h->first_lo[vec][cpu] = lo;
			h->first_hi[vec][cpu] = hi;
			h->base[vec][cpu] = c - hi;
			continue;
		}
		h->kernel[vec][cpu] = c - h->first_count[vec][cpu];
		h->held_lo[vec][cpu] = lo - h->first_hi[vec][cpu];
		h->held_hi[vec][cpu] = hi - h->first_lo[vec][cpu];
		if (h->kernel[vec][cpu] < h->held_lo[vec][cpu] || h->kernel[vec][cpu] > h->held_hi[vec][cpu]) {
			h->matched[vec][cpu] = -1;
			continue;
		}
		first_bmin = h->first_count[vec][cpu] - h->first_hi[vec][cpu];
		first_bmax = h->first_count[vec][cpu] - h->first_lo[vec][cpu];
		bmin = c - hi > first_bmin ? c - hi : first_bmin;
		bmax = c - lo < first_bmax ? c - lo : first_bmax;
		h->base[vec][cpu] = bmin;
		h->matched[vec][cpu] = bmin == bmax ? 1 : 0;
	}
	h->reading[vec] = false;
	h->nmarks[vec]++;
}

long hwtime_number(const struct hwtime *h, int vec, int cpu, long traced)
{
	if (!h->measured || vec < 0 || cpu < 0 || cpu >= HWTIME_CPUS || h->matched[vec][cpu] != 1 ||
	    traced < 1)
		return -1;
	return h->base[vec][cpu] + traced;
}

const struct entry_count *hwtime_find(const struct hwtime *h, int vec, int cpu, long traced)
{
	struct entry_count key = { .vec = vec, .vcpu = cpu, .n = hwtime_number(h, vec, cpu, traced) };

	if (key.n < 0)
		return NULL;
	return bsearch(&key, h->v, h->nv, sizeof(*h->v), by_vcpu_n);
}

bool hwtime_received_all(const struct hwtime *h, int cpu, char *err, size_t len)
{
	int vec;

	for (vec = 0; vec < HW_NVEC; vec++)
		if (cpu >= 0 && cpu < HWTIME_CPUS && h->matched[vec][cpu] == -1) {
			/* "N", or "N to M" when some came as the counts were read */
			char held[48];
			int n = snprintf(held, sizeof(held), "%ld", h->held_lo[vec][cpu]);

			if (h->held_hi[vec][cpu] != h->held_lo[vec][cpu])
				snprintf(held + n, sizeof(held) - n, " to %ld", h->held_hi[vec][cpu]);
			snprintf(err, len,
				 "the kernel counted %ld %s vectors (%s) on isolated CPU %d between the trace's first and last counts, the trace holds %s: vector entries are missing from it, or more were traced than counted; re-run the variant",
				 h->kernel[vec][cpu], hwtime_vector[vec], hwtime_count[vec], cpu, held);
			return false;
		}
	return true;
}

bool hwtime_numbered(const struct hwtime *h, int cpu)
{
	int vec;

	for (vec = 0; vec < HW_NVEC; vec++)
		if (cpu < 0 || cpu >= HWTIME_CPUS || h->matched[vec][cpu] != 1)
			return false;
	return true;
}

void hwtime_free(struct hwtime *h)
{
	free(h->v);
	h->v = NULL;
	h->nv = 0;
}
