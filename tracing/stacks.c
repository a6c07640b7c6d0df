// SPDX-License-Identifier: GPL-2.0
/*
 * stacks: which sends should carry a kernel stack (stacks.h), and which
 * of those lack one.
 */
#include <stdio.h>
#include <string.h>

#include "stacks.h"

/* One line's SELECT for send event @ev, or -1 with @err set. */
static int parse_select(const char *sel, int ev, const char *file, int line,
			enum stack_select *out, char *err, size_t len)
{
	const char *field = sel;
	bool mask = false;
	const char *want;
	char name[96];

	if (!strcmp(sel, "all") || !strcmp(sel, "here")) {
		*out = !strcmp(sel, "all") ? STACK_ALL : STACK_HERE;
		return 0;
	}
	if (!strncmp(sel, "mask:", 5)) {
		field = sel + 5;
		mask = true;
	}
	/* the trigger filters on FIELD; the analyzer reads the target from its own field */
	want = origins_event_field(ev, mask);
	if (!want || strcmp(want, field)) {
		origins_event_name(ev, name, sizeof(name));
		snprintf(err, len, "%s:%d: %s is stacked by %s \"%s\", but the analyzer reads its target from %s: make them the same field (tracing/origins.c send_events[])",
			 file, line, name, mask ? "mask field" : "field", field, want ? want : "no field");
		return -1;
	}
	*out = mask ? STACK_MASK : STACK_TARGET;
	return 0;
}

int stacks_load(struct stack_rules *r, const char *file, char *err, size_t len)
{
	char buf[256], ev[128], sel[64], scenario[64], *hash, *slash;
	FILE *f = fopen(file, "r");
	int line = 0, n, i;

	r->n = 0;
	if (!f) {
		snprintf(err, len, "cannot read the stack trigger list %s: give it with --stack-list (tracing/origin-stacks.list)", file);
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		n = sscanf(buf, "%127s %63s %63s", ev, sel, scenario);
		if (n <= 0)
			continue;
		slash = strchr(ev, '/');
		if (n < 2 || !slash)
			goto bad;
		*slash = '\0';
		i = origins_event(ev, slash + 1);
		if (i < 0) {
			snprintf(err, len, "%s:%d: %s/%s is not a send event the analyzer reads (tracing/origins.c send_events[])",
				 file, line, ev, slash + 1);
			goto fail;
		}
		if (n == 3) {
			/* a scenario's own line: checked to widen only, then not read */
			if (strcmp(sel, "all")) {
				snprintf(err, len, "%s:%d: a scenario's line selects \"%s\": only \"all\" (a widening) is checked by the analyzer, which reads the lines that name no scenario",
					 file, line, sel);
				goto fail;
			}
			continue;
		}
		if (r->n == STACK_RULES) {
			snprintf(err, len, "%s: more than %d lines (stacks.h STACK_RULES)", file, STACK_RULES);
			goto fail;
		}
		r->v[r->n].ev = i;
		if (parse_select(sel, i, file, line, &r->v[r->n].sel, err, len))
			goto fail;
		r->n++;
	}
	fclose(f);
	if (!r->n) {
		snprintf(err, len, "%s names no stacked send event", file);
		return -1;
	}
	return 0;
bad:
	snprintf(err, len, "%s:%d: not \"system/event SELECT [SCENARIO]\"", file, line);
fail:
	fclose(f);
	return -1;
}

bool stacks_expected(const struct stack_rules *r, const struct send *s, uint64_t isolated)
{
	uint64_t self = s->cpu >= 0 && s->cpu < 64 ? 1ULL << s->cpu : 0;
	int i;

	for (i = 0; i < r->n; i++) {
		if (r->v[i].ev != s->ev)
			continue;
		switch (r->v[i].sel) {
		case STACK_ALL:
			return true;
		case STACK_HERE:
			return (isolated & self) != 0;
		case STACK_MASK:
			return (s->targets & isolated) != 0;
		case STACK_TARGET:
			return (s->targets & isolated & ~self) != 0;
		}
	}
	return false;
}

long stacks_missing(const struct stack_rules *r, const struct origins *o, uint64_t isolated,
		    unsigned long long from, unsigned long long to, char *err, size_t len)
{
	const struct send *first = NULL;
	char name[96];
	long i, n = 0;

	for (i = 0; i < o->n; i++) {
		const struct send *s = &o->v[i];

		if (s->ns < from || s->ns > to || s->stack >= 0 || !stacks_expected(r, s, isolated))
			continue;
		if (!n++)
			first = s;
	}
	if (!n)
		return 0;
	origins_event_name(first->ev, name, sizeof(name));
	snprintf(err, len, "%ld send%s that a stack trigger selects carr%s no kernel stack, the first a %s on CPU %d at %llu ns: the trace cannot show who sent %s (stack triggers not set, or their events lost): re-run the variant",
		 n, n == 1 ? "" : "s", n == 1 ? "ies" : "y", name, first->cpu, first->ns, n == 1 ? "it" : "them");
	return n;
}
