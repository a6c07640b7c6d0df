/* SPDX-License-Identifier: GPL-2.0 */
/*
 * causes: the drain-cause patterns of tracing/drain-causes.list, one POSIX
 * extended regular expression per line ('#' comments and blank lines are
 * skipped: a blank pattern would match every cause).
 */
#ifndef QC_CAUSES_H
#define QC_CAUSES_H

#include <regex.h>
#include <stdbool.h>

struct causes {
	char **text;
	regex_t *re;
	int n;
};

/* Load @file into @c. Returns 0, or -1 with a one-line reason in @err. */
int causes_load(struct causes *c, const char *file, char *err, int errlen);
bool causes_match(const struct causes *c, const char *cause);
void causes_free(struct causes *c);

#endif
