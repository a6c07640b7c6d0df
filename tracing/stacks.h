/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacks: which sends the guest's stacktrace triggers stacked
 * (tracing/origin-stacks.list, read here as trace-start.sh reads it), so
 * that a send that should carry its kernel stack and does not refuses
 * the trace: a send without its stack cannot be traced to the drain, and
 * would read as someone else's.
 */
#ifndef QC_STACKS_H
#define QC_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "origins.h"

/* How a line selects the hits its trigger stacks (origin-stacks.list). */
enum stack_select {
	STACK_ALL,		/* every hit */
	STACK_HERE,		/* the event runs on an isolated CPU */
	STACK_MASK,		/* its CPU mask holds an isolated CPU */
	STACK_TARGET,		/* its target is an isolated CPU other than its own */
};

#define STACK_RULES	32

struct stack_rules {
	struct stack_rule { int ev; enum stack_select sel; } v[STACK_RULES];
	int n;
};

/*
 * Read @file's lines that name no scenario (a scenario's line only widens
 * an event's selection, to "all": checked, so the lines read here select
 * no more than any scenario stacked). Each event must be a send event the
 * analyzer reads, its FIELD the one it reads the target from. 0, or -1
 * with @err saying what is wrong.
 */
int stacks_load(struct stack_rules *r, const char *file, char *err, size_t len);
/* Should @s carry a stack: does a line of @r select it, with @isolated (bit c: CPU c)? */
bool stacks_expected(const struct stack_rules *r, const struct send *s, uint64_t isolated);
/*
 * Sends of @o in [@from, @to] that @r selects but that have no stack:
 * 0, or how many, with @err naming the event, the first one's CPU and time.
 */
long stacks_missing(const struct stack_rules *r, const struct origins *o, uint64_t isolated,
		    unsigned long long from, unsigned long long to, char *err, size_t len);

#endif
