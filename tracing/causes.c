// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "causes.h"

int causes_load(struct causes *c, const char *file, char *err, int errlen)
{
	char line[512];
	FILE *f = fopen(file, "r");
	int lineno = 0;

	memset(c, 0, sizeof(*c));
	if (!f) {
		snprintf(err, errlen, "cannot read the drain-cause list %s: %s", file, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		lineno++;
		p += strspn(p, " \t");
		end = p + strcspn(p, "\r\n");
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		*end = '\0';
		if (!*p || *p == '#')
			continue;
		c->text = realloc(c->text, (c->n + 1) * sizeof(*c->text));
		c->re = realloc(c->re, (c->n + 1) * sizeof(*c->re));
		if (!c->text || !c->re || !(c->text[c->n] = strdup(p))) {
			snprintf(err, errlen, "out of memory");
			fclose(f);
			return -1;
		}
		if (regcomp(&c->re[c->n], p, REG_EXTENDED | REG_NOSUB)) {
			snprintf(err, errlen, "%s:%d: '%s' is not an extended regular expression",
				 file, lineno, p);
			free(c->text[c->n]);
			fclose(f);
			return -1;
		}
		c->n++;
	}
	fclose(f);
	if (!c->n) {
		snprintf(err, errlen, "the drain-cause list %s holds no pattern: no interruption could be charged to a drain",
			 file);
		return -1;
	}
	return 0;
}

bool causes_match(const struct causes *c, const char *cause)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!regexec(&c->re[i], cause, 0, NULL, 0))
			return true;
	return false;
}

void causes_free(struct causes *c)
{
	int i;

	for (i = 0; i < c->n; i++) {
		free(c->text[i]);
		regfree(&c->re[i]);
	}
	free(c->text);
	free(c->re);
	memset(c, 0, sizeof(*c));
}
