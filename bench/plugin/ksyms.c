// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms: System.map's text symbols, sorted, looked up by binary search.
 * A symbol covers the addresses from its own up to the next symbol's; the
 * last one ends at _etext (module text and anything else beyond it is
 * "outside", the caller's unknown bucket).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->marker != y->marker)
		return x->marker - y->marker;
	if (x->local != y->local)
		return x->local - y->local;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The linker's section boundaries, which share an address with a function. */
static int is_marker(const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(name, "_text") || !strcmp(name, "_stext") || !strcmp(name, "_etext"))
		return 1;
	return !strncmp(name, "__", 2) &&
	       ((n > 6 && !strcmp(name + n - 6, "_start")) ||
		(n > 4 && !strcmp(name + n - 4, "_end")));
}

static int is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

int ksyms_load(struct ksyms *ks, const char *path, char *err, size_t errlen)
{
	char line[512], name[256], type;
	unsigned long long addr;
	size_t cap = 0, lineno = 0;
	FILE *f;

	memset(ks, 0, sizeof(*ks));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read System.map '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3) {
			snprintf(err, errlen,
				 "'%s' line %zu is not 'ADDRESS TYPE NAME': not a System.map",
				 path, lineno);
			goto fail;
		}
		if (!strcmp(name, "_etext"))
			ks->end = addr;
		if (!is_text(type))
			continue;
		if (ks->n == cap) {
			struct ksym *s;

			cap = cap ? 2 * cap : 4096;
			s = realloc(ks->sym, cap * sizeof(*s));
			if (!s) {
				snprintf(err, errlen, "out of memory reading '%s'", path);
				goto fail;
			}
			ks->sym = s;
		}
		ks->sym[ks->n].addr = addr;
		ks->sym[ks->n].local = type == 't' || type == 'w';
		ks->sym[ks->n].marker = is_marker(name);
		ks->sym[ks->n].line = lineno;
		ks->sym[ks->n].name = strdup(name);
		if (!ks->sym[ks->n].name) {
			snprintf(err, errlen, "out of memory reading '%s'", path);
			goto fail;
		}
		ks->n++;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "error reading '%s'", path);
		goto fail;
	}
	fclose(f);
	if (!ks->n) {
		snprintf(err, errlen, "'%s' has no text symbols: not a kernel's System.map", path);
		ksyms_free(ks);
		return -1;
	}
	qsort(ks->sym, ks->n, sizeof(*ks->sym), by_addr);
	/* Without _etext, the last symbol covers its own address only. */
	if (!ks->end)
		ks->end = ks->sym[ks->n - 1].addr + 1;
	return 0;
fail:
	fclose(f);
	ksyms_free(ks);
	return -1;
}

long ksyms_lookup(const struct ksyms *ks, const char *name)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		if (!ks->sym[i].marker && !strcmp(ks->sym[i].name, name))
			return i;
	return -1;
}

long ksyms_find(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->n;

	if (!ks->n || addr < ks->sym[0].addr || addr >= ks->end)
		return -1;
	/* The last symbol at or below addr... */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->sym[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* ...and the first of its aliases. */
	while (lo > 0 && ks->sym[lo - 1].addr == ks->sym[lo].addr)
		lo--;
	return lo;
}

void ksyms_free(struct ksyms *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		free(ks->sym[i].name);
	free(ks->sym);
	memset(ks, 0, sizeof(*ks));
}
