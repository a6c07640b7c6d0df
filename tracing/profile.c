// SPDX-License-Identifier: GPL-2.0
/*
 * profile: missed probe hits in a window, from kprobe_profile snapshots
 * (profile.h).
 */
#include <stdio.h>
#include <string.h>

#include "profile.h"

#define PROFILE_PROBES	256

struct snap {
	char name[PROFILE_PROBES][64];
	unsigned long hit[PROFILE_PROBES], missed[PROFILE_PROBES];
	int n;
};

/* The snapshot named @tag ("start", "end") of @f into @s; -1 with @err. */
static int read_snaps(FILE *f, const char *file, struct snap *start, struct snap *end,
		      char *err, size_t len)
{
	char buf[256], tag[16];
	struct snap *s = NULL;
	int line = 0;

	start->n = end->n = -1;
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (sscanf(buf, "@ %15s", tag) == 1) {
			s = !strcmp(tag, "start") ? start : !strcmp(tag, "end") ? end : NULL;
			if (!s || s->n >= 0) {
				snprintf(err, len, "%s:%d: \"@ %s\": each window has one \"@ start\" and one \"@ end\" snapshot",
					 file, line, tag);
				return -1;
			}
			s->n = 0;
			continue;
		}
		if (buf[strspn(buf, " \t\n")] == '\0')
			continue;
		if (!s || s->n == PROFILE_PROBES ||
		    sscanf(buf, "%63s %lu %lu", s->name[s->n], &s->hit[s->n], &s->missed[s->n]) != 3) {
			snprintf(err, len, "%s:%d: not a kprobe_profile line (\"NAME HITS MISSED\") under \"@ start\" or \"@ end\"",
				 file, line);
			return -1;
		}
		s->n++;
	}
	if (start->n < 0 || end->n < 0) {
		snprintf(err, len, "%s has no \"@ %s\" snapshot: the window's dropped probe hits are not measured; re-run the variant",
			 file, start->n < 0 ? "start" : "end");
		return -1;
	}
	return 0;
}

int profile_read(struct profile *p, const char *file, char *err, size_t len)
{
	static struct snap start, end;
	FILE *f;
	int i, k, ret;

	memset(p, 0, sizeof(*p));
	if (!file)
		return 0;
	f = fopen(file, "r");
	if (!f) {
		snprintf(err, len, "cannot read %s (--kprobe-profile)", file);
		return -1;
	}
	ret = read_snaps(f, file, &start, &end, err, len);
	fclose(f);
	if (ret)
		return -1;
	for (i = 0; i < end.n; i++) {
		for (k = 0; k < start.n && strcmp(start.name[k], end.name[i]); k++)
			;
		if (k == start.n || end.missed[i] < start.missed[k] || end.hit[i] < start.hit[k]) {
			snprintf(err, len, "%s: probe %s %s: the snapshots do not bracket one window (probes redefined?); re-run the variant",
				 file, end.name[i], k == start.n ? "is not in the \"@ start\" snapshot" : "counts down");
			return -1;
		}
		if (end.missed[i] > start.missed[k]) {
			struct profile_miss *m = &p->missed[p->nmissed];

			if (p->nmissed == PROFILE_MISSED_MAX) {
				snprintf(err, len, "%s: more than %d probes missed hits in the window: re-run the variant",
					 file, PROFILE_MISSED_MAX);
				return -1;
			}
			snprintf(m->name, sizeof(m->name), "%s", end.name[i]);
			m->missed = end.missed[i] - start.missed[k];
			p->nmissed++;
		}
		p->hits += end.hit[i] - start.hit[k];
	}
	if (start.n != end.n) {
		snprintf(err, len, "%s: %d probes at the window's start, %d at its end: the snapshots do not bracket one window; re-run the variant",
			 file, start.n, end.n);
		return -1;
	}
	p->probes = end.n;
	p->measured = 1;
	return 0;
}

struct profile_miss *profile_missed(struct profile *p, const char *name)
{
	int i;

	for (i = 0; i < p->nmissed; i++)
		if (!strcmp(p->missed[i].name, name))
			return &p->missed[i];
	return NULL;
}

/*
 * Can a missed hit of @m be an isolated CPU's? Unless every recorded hit
 * of that probe in the window ran on another CPU: a missed hit is a nested
 * one from the same call sites (profile.h). Such a miss does not refuse
 * the window: the verdict weighs it (judge.jq's probe_missed,
 * INCONCLUSIVE unless a FAIL is certain without it).
 */
bool profile_miss_unplaced(const struct profile_miss *m)
{
	return m->isolated_hits || !m->other_hits;
}
