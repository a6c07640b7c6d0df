// SPDX-License-Identifier: GPL-2.0
/*
 * evtable: the rows of handlers.c matched to the events of one trace, and
 * the fields a handler reads, by name. A field is found once per trace
 * (tep_find_field), so that reading it per record costs an index.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze-int.h"
#include "qc-util.h"

/* The first row for @e, and in @stem what a leading '*' matched. */
static const struct qc_row *row_of(struct tep_event *e, char *stem, size_t len)
{
	int i;

	for (i = 0; i < qc_nrows; i++) {
		const struct qc_row *row = &qc_rows[i];

		if (strcmp(row->system, e->system) || fnmatch(row->event, e->name, 0))
			continue;
		stem[0] = '\0';
		if (row->event[0] == '*' && !strpbrk(row->event + 1, "*?["))
			snprintf(stem, len, "%.*s",
				 (int)(strlen(e->name) - strlen(row->event + 1)), e->name);
		return row;
	}
	return NULL;
}

/*
 * A row that counts nothing must say so: no event is neutral by omission.
 * A row that counts must say where its interruptions' senders are sought
 * (.start): no cause reaches origins.c without a class to start from.
 */
static int rows_check(struct ctx *c)
{
	int i;

	for (i = 0; i < qc_nrows; i++) {
		const struct qc_row *row = &qc_rows[i];

		if (!row->count == !(row->flags & QC_NEUTRAL)) {
			set_err(c->err, c->errlen,
				"tracing/handlers.c: the row of %s:%s %s", row->system, row->event,
				row->count ? "has a count handler but is marked QC_NEUTRAL"
					   : "has no count handler and is not marked QC_NEUTRAL");
			return -1;
		}
		if (row->count && row->start == START_UNDECLARED) {
			set_err(c->err, c->errlen,
				"tracing/handlers.c: the row of %s:%s has a count handler but declares no .start (where its interruptions' senders are sought, origins.h; START_NONE if it counts none)",
				row->system, row->event);
			return -1;
		}
	}
	return 0;
}

int evtable_build(struct ctx *c)
{
	struct tep_event **list = tep_list_events(c->tep, TEP_EVENT_SORT_ID);
	int i, k, max = -1;

	if (!list || rows_check(c))
		return -1;
	for (i = 0; list[i]; i++)
		if (list[i]->id > max)
			max = list[i]->id;
	c->nev = max + 1;
	c->ev = calloc(c->nev > 0 ? c->nev : 1, sizeof(*c->ev));
	if (!c->ev)
		return -1;
	for (i = 0; list[i]; i++) {
		struct tep_event *e = list[i];
		struct ev_info *ei = &c->ev[e->id];

		if (asprintf(&ei->key, "%s:%s", e->system, e->name) < 0)
			return -1;
		ei->row = row_of(e, ei->stem, sizeof(ei->stem));
		for (k = 0; ei->row && k < QC_ROW_FIELDS && ei->row->fields[k]; k++) {
			ei->field[k] = tep_find_field(e, ei->row->fields[k]);
			if (!ei->field[k] && !ei->missing)
				ei->missing = ei->row->fields[k];
		}
	}
	return 0;
}

void evtable_free(struct ctx *c)
{
	int i;

	if (!c->ev)
		return;
	for (i = 0; i < c->nev; i++)
		free(c->ev[i].key);
	free(c->ev);
	c->ev = NULL;
}

struct ev_info *event_of(struct ctx *c, struct tep_record *r)
{
	int id = tep_data_type(c->tep, r);

	if (id < 0 || id >= c->nev || !c->ev[id].key)
		return NULL;
	return &c->ev[id];
}

/*
 * The field named @name of @e's event. Rows declare their fields so that a
 * trace lacking one is refused before any handler runs; a handler reading
 * a field its row does not declare is a bug of handlers.c.
 */
static struct tep_format_field *field(const struct qc_ev *e, const char *name)
{
	const struct qc_row *row = e->ei->row;
	int i;

	/* the handlers' literals are the rows' own: usually equal pointers */
	for (i = 0; i < QC_ROW_FIELDS && row->fields[i]; i++)
		if (row->fields[i] == name || !strcmp(row->fields[i], name))
			return e->ei->field[i];
	qc_die(2, "tracing/handlers.c: a handler of %s reads the field \"%s\", which its row does not declare",
	       e->ei->key, name);
}

unsigned long long ev_num(const struct qc_ev *e, const char *name)
{
	struct tep_format_field *f = field(e, name);
	struct tep_record *r = e->r;
	unsigned long long v = 0;

	if (f->offset + f->size > r->size || tep_read_number_field(f, r->data, &v))
		return 0;
	return v;
}

/* A string field (fixed array, __data_loc or __rel_loc) into @out. */
void ev_str(const struct qc_ev *e, const char *name, char *out, size_t outlen)
{
	struct tep_format_field *f = field(e, name);
	struct tep_record *r = e->r;
	unsigned long long loc;
	const char *p;
	int off, len;

	out[0] = '\0';
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (f->offset + f->size > r->size ||
		    tep_read_number_field(f, r->data, &loc))
			return;
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		len = f->size ? f->size : r->size - off;
	}
	if (off < 0 || len < 0 || off > r->size)
		return;
	if (off + len > r->size)
		len = r->size - off;
	p = (const char *)r->data + off;
	if ((size_t)len >= outlen)
		len = outlen - 1;
	memcpy(out, p, len);
	out[len] = '\0';
	out[strnlen(out, len)] = '\0';
}

/* A kernel address field as its symbol, "0x..." where kallsyms lacks it. */
void ev_sym(const struct qc_ev *e, const char *name, char *out, size_t outlen)
{
	unsigned long long addr = ev_num(e, name);
	const char *sym = tep_find_function(e->c->tep, addr);

	if (sym)
		snprintf(out, outlen, "%s", sym);
	else
		snprintf(out, outlen, "0x%llx", addr);
}
