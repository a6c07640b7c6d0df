// SPDX-License-Identifier: GPL-2.0
/*
 * received-vectors: the trace holds every vector the kernel counted on an
 * isolated CPU between the guest's first and last "qc: RES counts ..."
 * markers (tracing/hwtime.c hwtime_received_all(); tracing/README.md,
 * "What refuses a trace"), on crafted markers and entries, one KTAP-style
 * line per case, exit 1 if any fails. Built and run by
 * tests/test-hwtime-rule.sh.
 *
 *   - CPU 1 receives 3 reschedule IPIs between the markers, and the
 *     kernel's count grows by 3: the trace is complete;
 *   - the kernel's count grows by 4: one entry is missing, and the
 *     refusal names the vector, the CPU and both counts;
 *   - an entry traced before the first marker, counted in it, is no gap;
 *   - a trace with one marker, or none (from before they were written),
 *     says nothing;
 *   - an entry traced after "qc: counts read" and before the counts'
 *     own marker may be in the count or not (the guest read them in
 *     between): 3 or 4 counted with 1 such entry at the start is complete,
 *     each entry numbered when the other count leaves one base, and not
 *     numbered when both are ambiguous; 5 counted is still refused.
 */
#include <stdio.h>
#include <string.h>

#include "hwtime.h"

static int n, failed;

static void check(const char *desc, bool ok, const char *got)
{
	n++;
	failed += !ok;
	printf("%sok %d %s", ok ? "" : "not ", n, desc);
	if (!ok)
		printf(" (got: %s)", got);
	printf("\n");
}

/* @before entries on CPU 1, a marker of @first, @between entries, a marker of @last */
static bool received(int before, const char *first, int between, const char *last, char *err, size_t len)
{
	static struct hwtime h;
	int i;

	memset(&h, 0, sizeof(h));
	err[0] = 0;
	for (i = 0; i < before; i++)
		hwtime_entry(&h, HW_RES, 1);
	if (first)
		hwtime_marker(&h, first);
	for (i = 0; i < between; i++)
		hwtime_entry(&h, HW_RES, 1);
	if (last)
		hwtime_marker(&h, last);
	return hwtime_received_all(&h, 1, err, len);
}

static struct hwtime h;

/*
 * "qc: counts read", 1 entry, the @first counts, @between entries, then
 * (with @race_last, "qc: counts read" and 1 entry first) the @last counts.
 */
static bool read_race(int before, const char *first, int between, const char *last, int race_last,
		      char *err, size_t len)
{
	int i;

	memset(&h, 0, sizeof(h));
	err[0] = 0;
	for (i = 0; i < before; i++)
		hwtime_entry(&h, HW_RES, 1);
	hwtime_marker(&h, HWTIME_READ_MARK);
	hwtime_entry(&h, HW_RES, 1);
	hwtime_marker(&h, first);
	for (i = 0; i < between; i++)
		hwtime_entry(&h, HW_RES, 1);
	if (race_last) {
		hwtime_marker(&h, HWTIME_READ_MARK);
		hwtime_entry(&h, HW_RES, 1);
	}
	hwtime_marker(&h, last);
	return hwtime_received_all(&h, 1, err, len);
}

int main(void)
{
	char err[512];
	bool ok;

	ok = received(0, "qc: RES counts 10 20", 3, "qc: RES counts 10 23", err, sizeof(err));
	check("3 reschedule IPIs traced on CPU 1, 3 counted by the kernel: complete", ok, err);
	ok = received(0, "qc: RES counts 10 20", 3, "qc: RES counts 10 24", err, sizeof(err));
	check("4 counted, 3 traced: refused, naming the vector, the CPU and both counts",
	      !ok && strstr(err, "counted 4 reschedule vectors (RES) on isolated CPU 1") &&
	      strstr(err, "the trace holds 3"), err);
	ok = received(2, "qc: RES counts 10 20", 3, "qc: RES counts 10 23", err, sizeof(err));
	check("2 traced before the first count, which includes them: complete", ok, err);
	ok = received(0, "qc: RES counts 10 20", 3, NULL, err, sizeof(err));
	check("one count only: nothing to check", ok, err);
	ok = received(0, NULL, 3, NULL, err, sizeof(err));
	check("no counts (a trace from before them): nothing to check", ok, err);
	/* the race: one entry came between the read marker and the counts */
	ok = read_race(0, "qc: RES counts 10 20", 3, "qc: RES counts 10 24", 0, err, sizeof(err));
	check("an entry traced as the first counts were read, not in them: complete, and numbered by the last count",
	      ok && h.matched[HW_RES][1] == 1 && h.base[HW_RES][1] == 20, err);
	ok = read_race(0, "qc: RES counts 10 21", 3, "qc: RES counts 10 24", 0, err, sizeof(err));
	check("... in them: complete, the entry numbered 21", ok && h.matched[HW_RES][1] == 1 && h.base[HW_RES][1] == 20, err);
	ok = read_race(0, "qc: RES counts 10 20", 3, "qc: RES counts 10 25", 0, err, sizeof(err));
	check("... and one more counted than the trace can hold: refused, the range named",
	      !ok && strstr(err, "counted 5 reschedule vectors") && strstr(err, "holds 3 to 4"), err);
	ok = read_race(0, "qc: RES counts 10 20", 3, "qc: RES counts 10 24", 1, err, sizeof(err));
	check("one such entry at each count: complete, but no entry numbered (two bases fit)",
	      ok && h.matched[HW_RES][1] == 0, err);
	printf("# %d checks, %d failed\n", n, failed);
	return failed ? 1 : 0;
}
