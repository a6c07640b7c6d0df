/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter: a small map from a name to a count, kept in insertion order and
 * sorted only for output. The maps here hold tens of names, so a linear
 * search is the simplest thing that is fast enough.
 */
#ifndef QC_COUNTER_H
#define QC_COUNTER_H

struct counter_entry {
	char *name;
	long count;
};

struct counter {
	struct counter_entry *v;
	int n, alloc;
};

/* Add @by to @name's count (creating it at 0). Exits on out of memory. */
void counter_add(struct counter *c, const char *name, long by);
long counter_get(const struct counter *c, const char *name);
/* Sort by count, highest first, then by name: stable, readable output. */
void counter_sort(struct counter *c);
void counter_free(struct counter *c);

#endif
