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

#include <stddef.h>

struct profile {
	int measured;		/* 0: no snapshot file was given: not measured */
	long probes;		/* probes in both snapshots */
	long hits;		/* their hits between the snapshots */
};

/*
 * Read @file (NULL: not measured). 0 when no probe missed a hit between
 * the snapshots; -1 with @err naming the first probe that did and its
 * count (kprobe_profile counts over all CPUs), or what is wrong with the
 * file.
 */
int profile_read(struct profile *p, const char *file, char *err, size_t len);

#endif
