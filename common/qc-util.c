// SPDX-License-Identifier: GPL-2.0
/* qc-util: see qc-util.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "qc-util.h"

const char *qc_prog = "quietcore";

int qc_cpulist_parse(const char *list, unsigned char *set, int max)
{
	const char *p = list;
	int n = 0, c;

	memset(set, 0, max);
	while (*p) {
		char *end;
		long lo, hi;

		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		lo = hi = strtol(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -1;
			hi = strtol(p, &end, 10);
		}
		if (errno || hi < lo || hi >= max)
			return -1;
		for (c = lo; c <= hi; c++)
			set[c] = 1;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -1;
		p = end;
	}
	for (c = 0; c < max; c++)
		n += set[c];
	return n ? n : -1;
}

void qc_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

void qc_verror(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: error: ", qc_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void qc_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	qc_verror(fmt, ap);
	va_end(ap);
	exit(code);
}

void *qc_realloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		qc_die(2, "out of memory");
	return p;
}

void *qc_grow(void *v, long n, long *alloc, size_t size)
{
	if (n < *alloc)
		return v;
	*alloc = *alloc ? 2 * *alloc : 64;
	return qc_realloc(v, *alloc * size);
}

struct qc_ts qc_ts(unsigned long long ns)
{
	struct qc_ts t;

	snprintf(t.s, sizeof(t.s), "%llu.%06llu", ns / 1000000000ULL, ns / 1000ULL % 1000000ULL);
	return t;
}
