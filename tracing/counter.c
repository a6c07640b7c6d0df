// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter.h"
#include "qc-util.h"

void counter_add(struct counter *c, const char *name, long by)
{
	int i;

	for (i = 0; i < c->n; i++) {
		if (!strcmp(c->v[i].name, name)) {
			c->v[i].count += by;
			return;
		}
	}
	if (c->n == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 16;
		c->v = qc_realloc(c->v, c->alloc * sizeof(*c->v));
	}
	c->v[c->n].name = qc_realloc(NULL, strlen(name) + 1);
	strcpy(c->v[c->n].name, name);
	c->v[c->n].count = by;
	c->n++;
}

long counter_get(const struct counter *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return c->v[i].count;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct counter_entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

void counter_sort(struct counter *c)
{
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), by_count);
}

void counter_free(struct counter *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	c->v = NULL;
	c->n = c->alloc = 0;
}
