/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile: the probe hits the kernel dropped in a window, from the
 * guest's two snapshots of kprobe_profile (QC_KPROBE_PROFILE in
 * common/contract.sh states the file and its format). A kprobe hit while
 * another probe's handler runs, or a return probe past its maxactive, is
 * not recorded: a lost send would read as unknown, or as another sender's.
 */
#ifndef QC_PROFILE_H
#define QC_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#define PROFILE_MISSED_MAX 16

/*
 * A probe that missed hits in the window. kprobe_profile counts over all
 * CPUs, so the trace places them: a missed hit is a nested one (a hit in
 * an interrupt or softirq that came while another probe's handler ran on
 * that CPU), from the same call sites as the probe's recorded hits. The
 * analysis (analyze.c) counts the probe's recorded hits in the window made
 * in such a context on the isolated CPUs and on the others; the misses
 * are placed off the isolated CPUs only when all of them were on the
 * others.
 */
struct profile_miss {
	char name[64];
	unsigned long missed;
	long isolated_hits, other_hits;	/* recorded in the window */
};

struct profile {
	int measured;		/* 0: no snapshot file was given: not measured */
	long probes;		/* probes in both snapshots */
	long hits;		/* their hits between the snapshots */
	int nmissed;		/* probes that missed hits in the window */
	struct profile_miss missed[PROFILE_MISSED_MAX];
};

/*
 * Read @file (NULL: not measured): each probe that missed a hit between
 * the snapshots goes to @p->missed, for the trace to place. -1 with @err
 * when the file is not two snapshots of one window, or more than
 * PROFILE_MISSED_MAX probes missed.
 */
int profile_read(struct profile *p, const char *file, char *err, size_t len);
/* The miss entry of probe @name (an event's name without its group), or NULL. */
struct profile_miss *profile_missed(struct profile *p, const char *name);

/*
 * May a missed hit of @m have been an isolated CPU's: some recorded hit of
 * that probe in the window ran on one, or none was recorded at all?
 */
bool profile_miss_unplaced(const struct profile_miss *m);

#endif
