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

static int by_vcpu_n(const void *a, const void *b)
{
	const struct entry_count *x = a, *y = b;

	if (x->vcpu != y->vcpu)
		return x->vcpu < y->vcpu ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

int hwtime_load(struct hwtime *h, const char *file, const char *thresholds,
		char *err, int errlen)
{
	char line[256], junk;
	long alloc = 0, lineno = 0;
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

		lineno++;
		if (sscanf(line, "{\"vcpu\":%d,\"n\":%ld,\"kernel\":%llu,\"spin\":%llu,\"prev\":%llu,\"stretch\":%lld}",
			   &e.vcpu, &e.n, &e.kernel, &e.spin, &e.prev, &e.stretch) != 6 || e.vcpu < 0) {
			snprintf(err, errlen, "%s:%ld is not a qc-entry line ({\"vcpu\":..,\"n\":..,\"kernel\":..,\"spin\":..,\"prev\":..,\"stretch\":..})",
				 file, lineno);
			fclose(f);
			return -1;
		}
		if (h->nv == alloc) {
			alloc = alloc ? 2 * alloc : 256;
			h->v = qc_realloc(h->v, alloc * sizeof(*h->v));
		}
		h->v[h->nv++] = e;
	}
	fclose(f);
	qsort(h->v, h->nv, sizeof(*h->v), by_vcpu_n);
	h->measured = true;
	return 0;
}

void hwtime_resched(struct hwtime *h, int cpu)
{
	if (cpu >= 0 && cpu < HWTIME_CPUS)
		h->traced[cpu]++;
}

/*
 * At the first marker each CPU's count says how many IPIs came before the
 * first traced one (those traced before the marker are in it too); at the
 * last, the trace must hold every IPI counted in between.
 */
void hwtime_marker(struct hwtime *h, const char *text)
{
	long counts[HWTIME_CPUS];
	const char *p = text + strlen(QC_MARK_RESCHED);
	int n = 0, cpu, used;

	if (strncmp(text, QC_MARK_RESCHED, strlen(QC_MARK_RESCHED)))
		return;
	while (n < HWTIME_CPUS && sscanf(p, "%ld%n", &counts[n], &used) == 1) {
		p += used;
		n++;
	}
	for (cpu = 0; cpu < n; cpu++) {
		if (!h->nmarks) {
			h->base[cpu] = counts[cpu] - h->traced[cpu];
			h->first_counts[cpu] = counts[cpu];
			h->matched[cpu] = 0;
		} else {
			h->matched[cpu] = counts[cpu] - h->base[cpu] == h->traced[cpu] ? 1 : -1;
		}
	}
	h->nmarks++;
}

const struct entry_count *hwtime_find(const struct hwtime *h, int cpu, long traced)
{
	struct entry_count key = { .vcpu = cpu };

	if (!h->measured || cpu < 0 || cpu >= HWTIME_CPUS || h->matched[cpu] != 1 || traced < 1)
		return NULL;
	key.n = h->base[cpu] + traced;
	return bsearch(&key, h->v, h->nv, sizeof(*h->v), by_vcpu_n);
}

void hwtime_free(struct hwtime *h)
{
	free(h->v);
	h->v = NULL;
	h->nv = 0;
}
