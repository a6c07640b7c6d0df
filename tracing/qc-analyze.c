// SPDX-License-Identifier: GPL-2.0
/*
 * qc-analyze: interruptions of isolated CPUs in a quietcore guest trace.
 *
 *   qc-analyze --cpus 1-3 [--task oslat,refill] [--drain-functions LIST]
 *              [--json out.json] [--expect CPU:CAUSE=K]... [--quiet] trace.dat
 *
 * Prints a table (per isolated CPU: the drains that reached it, the
 * interruptions in total, those the drain sent, and by cause) and writes
 * the same as JSON. The counting rule is in tracing/README.md. Exit
 * status: 0 counted; 1 counted but an --expect did not hold; 2 no verdict:
 * bad usage, or a file that is not a complete trace with a measurement
 * window, or that the event table cannot read (one line on stderr says
 * why).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "analyze.h"
#include "qc-util.h"

struct expect {
	int cpu;
	char *cause;
	long count;
};

/* "@list NAME" for each name of @names (NULL-terminated). */
static void print_names(const char *list, const char *const *names)
{
	for (; *names; names++)
		printf("%s %s\n", list, *names);
}

/* @name in the directory of this program (/proc/self/exe), into @buf. */
static const char *beside_self(const char *name, char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		qc_die(2, "cannot find qc-analyze's own directory (/proc/self/exe) for %s: give --stack-list", name);
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash || (size_t)(slash - buf) + 2 + strlen(name) > len)
		qc_die(2, "qc-analyze's path %s is too long for %s: give --stack-list", buf, name);
	strcpy(slash + 1, name);
	return buf;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: qc-analyze --cpus LIST [options] TRACE.dat\n"
		"  -c, --cpus LIST        isolated CPUs to report, e.g. 1-3 or 1,3\n"
		"  -t, --task COMM[,COMM] the measured tasks (comm prefixes, e.g. oslat,refill):\n"
		"                         a switch to one or to idle is not an interruption;\n"
		"                         without it, the task on each CPU at the window start\n"
		"  -f, --drain-functions L  the drain's own functions, comma-separated: an\n"
		"                         interruption whose senders' stacks hold one is the\n"
		"                         drain's (verdict-policy.json's drain_functions)\n"
		"  -p, --path-functions L  an audit trigger's functions, comma-separated: count\n"
		"                         the interruptions whose senders' path holds one\n"
		"                         (followed through kworkers; tracing/README.md)\n"
		"  -H, --hammer-calls N@C the hammer counted N drain calls on CPU C (hammer.json):\n"
		"                         the window's calls by its thread must be as many\n"
		"  -w, --window S:E       count from S to E (trace ns, as the JSON's window)\n"
		"                         instead of between the markers\n"
		"  -W, --windows FILE     count each window FILE (\"-\": stdin) lists, a line\n"
		"                         \"S:E FUNCTIONS JSON\", into its own JSON file, as\n"
		"                         --window S:E --path-functions FUNCTIONS (\"-\": none)\n"
		"                         --json JSON would, the trace read once; the first\n"
		"                         window refused stops the run (no JSON for it)\n"
		"  -j, --json FILE        write the result as JSON (\"-\": stdout, no table)\n"
		"  -x, --explain FILE     one JSON line per interruption in the window: its\n"
		"                         origin's class and senders (tracing/README.md, Origins)\n"
		"  -e, --expect C:CAUSE=K require exactly K interruptions by CAUSE on CPU C\n"
		"                         (repeatable; exit 1 if one does not hold)\n"
		"  -K, --kprobe-profile F the guest's kprobe_profile at the window's start and\n"
		"                         end (common/contract.sh QC_KPROBE_PROFILE): each probe\n"
		"                         that missed hits is reported, placed or unplaced;\n"
		"                         without it, dropped hits are reported as not measured\n"
		"  -E, --entry-counts F   the qc-entry plugin's counts (QC_ENTRY_COUNTS): time\n"
		"                         each RCU-forced reschedule IPI by the instructions of\n"
		"                         the kernel stretch it hit (tracing/README.md,\n"
		"                         \"Hardware time\"); needs --rcu-forcing\n"
		"  -R, --rcu-forcing HZ:NEXT_FQS  the guest's tick rate and jiffies_till_next_fqs\n"
		"  -S, --stack-list F     which sends the guest stacked (default: origin-stacks.list\n"
		"                         beside qc-analyze); one selected without its stack\n"
		"                         refuses the trace\n"
		"  -q, --quiet            no table\n"
		"  -N, --names            list the functions the analyzer matches in stacks,\n"
		"                         \"LIST NAME\" a line, and exit (scripts/check-names.sh)\n"
		"The window lies between the trace markers \"%s\" and \"%s\".\n"
		"Exit: 0 counted, 1 an --expect failed, 2 bad input (no verdict).\n",
		QC_MARK_START, QC_MARK_END);
}

/* "1-3,5" -> ascending, unique CPU numbers (qc_cpulist_parse's syntax). */
static int parse_cpus(const char *list, int **out)
{
	static unsigned char seen[4096];
	int n = qc_cpulist_parse(list, seen, sizeof(seen)), i, *v;

	if (n < 0)
		return -1;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0, n = 0; i < (int)sizeof(seen); i++)
		if (seen[i])
			v[n++] = i;
	*out = v;
	return n;
}

static int parse_expect(const char *arg, struct expect *e)
{
	const char *colon = strchr(arg, ':'), *eq = strrchr(arg, '=');
	char *end;

	if (!colon || !eq || eq < colon + 2)
		return -1;
	e->cpu = strtol(arg, &end, 10);
	if (end != colon || e->cpu < 0)
		return -1;
	e->count = strtol(eq + 1, &end, 10);
	if (!eq[1] || *end || e->count < 0)
		return -1;
	e->cause = strndup(colon + 1, eq - colon - 1);
	return e->cause ? 0 : -1;
}

static void json_counter(FILE *f, const char *key, struct counter *c,
			 const char *indent)
{
	int i;

	fprintf(f, "%s", indent);
	qc_json_str(f, key);
	fprintf(f, ": {");
	for (i = 0; i < c->n; i++) {
		fprintf(f, "%s", i ? ", " : "");
		qc_json_str(f, c->v[i].name);
		fprintf(f, ": %ld", c->v[i].count);
	}
	fprintf(f, "}");
}

/*
 * Where the window's interruptions found the CPU (mode.h), measured only
 * when the trace holds its mode transitions ("transitions" > 0).
 */
static void json_mode(FILE *f, struct cpu_result *r)
{
	int k;
	long i;

	fprintf(f, ",\n      \"mode\": {\"transitions\": %ld, \"of_interruptions\": {", r->mode_events);
	for (k = 0; k < MODE_COUNT; k++)
		fprintf(f, "%s\"%s\": %ld", k ? ", " : "", qc_mode_names[k], r->mode_of[k]);
	fprintf(f, "},\n        \"rcu_qs\": {\"modes\": {");
	for (k = 0; k < MODE_COUNT; k++)
		fprintf(f, "%s\"%s\": %ld", k ? ", " : "", qc_mode_names[k], r->rcu_qs_mode[k]);
	fprintf(f, "},\n");
	json_counter(f, "kernel_entries", &r->rcu_qs_entries, "          ");
	fprintf(f, ",\n          \"kernel_dwell_us\": [");
	for (i = 0; i < r->rcu_qs_ndwell; i++)
		fprintf(f, "%s%lld", i ? ", " : "", r->rcu_qs_dwell_us[i]);
	fprintf(f, "]}},\n      \"rcu_qs_timing\": {\"emulator_timed\": %ld, \"hardware_plausible\": %ld, \"untimed\": %ld,\n"
		"        \"indirect\": {\"emulator_timed\": %ld, \"hardware_plausible\": %ld, \"untimed\": %ld},\n"
		"        \"stretch_insns\": [",
		r->rcu_qs_emulator_timed, r->rcu_qs_hw_plausible, r->rcu_qs_untimed,
		r->indirect_emulator_timed, r->indirect_hw_plausible, r->indirect_untimed);
	for (i = 0; i < r->rcu_qs_ninsns; i++)
		fprintf(f, "%s%llu", i ? ", " : "", r->rcu_qs_insns[i]);
	fprintf(f, "]}");
}

/*
 * The hardware-time basis of the window (hwtime.h): measured only with
 * the plugin's counts, and per CPU whether its IPIs could be numbered.
 */
static void json_hwtime(FILE *f, const struct analysis *a)
{
	int i, cpu;

	if (!a->hw.measured) {
		fprintf(f, ",\n  \"hardware_time\": {\"measured\": false}");
		return;
	}
	fprintf(f, ",\n  \"hardware_time\": {\"measured\": true, \"ns_per_insn\": %.3g, \"hz\": %lu, "
		"\"jiffies_till_next_fqs\": %lu, \"span_ns\": %llu, \"counts\": %ld, \"numbered\": {",
		a->hw.ns_per_insn, a->hw.hz, a->hw.next_fqs, a->hw.span_ns, a->hw.nv);
	for (i = 0; i < a->ncpus; i++) {
		cpu = a->cpus[i];
		fprintf(f, "%s\"%d\": %s", i ? ", " : "", cpu,
			hwtime_numbered(&a->hw, cpu) ? "true" : "false");
	}
	fprintf(f, "}}");
}

static void write_json(FILE *f, struct analysis *a)
{
	int i;

	fprintf(f, "{\n  \"trace\": ");
	qc_json_str(f, a->file);
	fprintf(f, ",\n  \"task\": ");
	if (a->task)
		qc_json_str(f, a->task);
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"window\": {\"start_ns\": %llu, \"end_ns\": %llu, \"duration_ns\": %llu},\n",
		a->start_ns, a->end_ns, a->end_ns - a->start_ns);
	fprintf(f, "  \"policy\": {\"drain_functions\": [");
	for (i = 0; a->drain_functions && a->drain_functions[i]; i++) {
		fprintf(f, "%s", i ? ", " : "");
		qc_json_str(f, a->drain_functions[i]);
	}
	fprintf(f, "]");
	if (a->path_functions) {
		fprintf(f, ", \"path_functions\": [");
		for (i = 0; a->path_functions[i]; i++) {
			fprintf(f, "%s", i ? ", " : "");
			qc_json_str(f, a->path_functions[i]);
		}
		fprintf(f, "]");
	}
	fprintf(f, ", \"continuation_ns\": %llu}", QC_CONTINUATION_NS);
	/* the send side: complete, or the first event it lacks */
	fprintf(f, ",\n  \"origin_probes\": {\"complete\": %s, \"missing\": ",
		a->origin_probes ? "true" : "false");
	if (a->origin_probes)
		fprintf(f, "null");
	else
		qc_json_str(f, a->origin_missing);
	fprintf(f, "}");
	/* the window's grace periods, by whose request (explain.c) */
	if (a->rcu_traced)
		fprintf(f, ",\n  \"grace_periods\": {\"requests_traced\": true, \"started\": %ld, \"drain_requested\": %ld, \"request_untraced\": %ld}",
			a->gp_started, a->gp_drain_requested, a->gp_request_untraced);
	else
		fprintf(f, ",\n  \"grace_periods\": {\"requests_traced\": false, \"started\": %ld, \"drain_requested\": null, \"request_untraced\": null}",
			a->gp_started);
	/* dropped probe hits: measured (none, or the trace was refused), or not */
	if (a->profile.measured) {
		unsigned long missed = 0, unplaced = 0;

		for (i = 0; i < a->profile.nmissed; i++) {
			missed += a->profile.missed[i].missed;
			if (profile_miss_unplaced(&a->profile.missed[i]))
				unplaced += a->profile.missed[i].missed;
		}
		fprintf(f, ",\n  \"probe_misses\": {\"measured\": true, \"probes\": %ld, \"hits\": %ld, \"missed\": %lu, \"unplaced\": %lu, \"placed\": [",
			a->profile.probes, a->profile.hits, missed, unplaced);
		/* each probe that missed, with where its recorded hits ran */
		for (i = 0; i < a->profile.nmissed; i++) {
			const struct profile_miss *m = &a->profile.missed[i];

			fprintf(f, "%s{\"probe\": ", i ? ", " : "");
			qc_json_str(f, m->name);
			fprintf(f, ", \"missed\": %lu, \"recorded_isolated\": %ld, \"recorded_other\": %ld, \"unplaced\": %s}",
				m->missed, m->isolated_hits, m->other_hits,
				profile_miss_unplaced(m) ? "true" : "false");
		}
		fprintf(f, "]}");
	} else
		fprintf(f, ",\n  \"probe_misses\": {\"measured\": false, \"missed\": null}");
	json_hwtime(f, a);
	fprintf(f, ",\n  \"drains\": {\"calls\": %ld, \"reached\": %ld, \"probes\": %s",
		a->calls, a->calls_reached, a->probes ? "true" : "false");
	/* checked against the hammer's own count (--hammer-calls) */
	if (a->hammer_calls >= 0)
		fprintf(f, ", \"hammer_calls\": %ld", a->calls_hammer);
	fprintf(f, "},\n");
	fprintf(f, "  \"cpus\": {");
	for (i = 0; i < a->ncpus; i++) {
		struct cpu_result *r = &a->res[i];

		fprintf(f, "%s\n    \"%d\": {\n      \"interruptions\": %ld,\n",
			i ? "," : "", r->cpu, r->interruptions);
		json_counter(f, "by_cause", &r->by_cause, "      ");
		fprintf(f, ",\n");
		json_counter(f, "all_causes", &r->all_causes, "      ");
		fprintf(f, ",\n");
		json_counter(f, "events", &r->events, "      ");
		fprintf(f, ",\n      \"exposure\": ");
		if (a->probes)
			fprintf(f, "{\"drains\": %ld, \"pages\": %ld}",
				r->exposure_drains, r->exposure_pages);
		else
			fprintf(f, "null");
		fprintf(f, ",\n      \"liveness\": {\"before\": %ld, \"after\": %ld}",
			r->events_before, r->events_after);
		json_mode(f, r);
		if (a->origin_probes) {
			int k;

			fprintf(f, ",\n      \"origins\": {\"classes\": {");
			for (k = 0; k < ORIGIN_CLASSES; k++)
				fprintf(f, "%s\"%s\": %ld", k ? ", " : "", origin_class_names[k],
					r->origin_class[k]);
			fprintf(f, "}, \"drain\": %ld,\n", r->origin_drain);
			json_counter(f, "drain_by_cause", &r->origin_drain_by_cause, "        ");
			fprintf(f, ",\n        \"drain_handoff\": %ld,\n", r->origin_drain_handoff);
			json_counter(f, "drain_handoff_by_cause", &r->origin_drain_handoff_by_cause, "        ");
			if (a->path_functions) {
				fprintf(f, ",\n        \"path\": %ld,\n", r->origin_path);
				json_counter(f, "path_by_cause", &r->origin_path_by_cause, "        ");
			}
			fprintf(f, ",\n        \"rcu_qs_by_grace_period\": {\"drain_requested\": %ld, \"drain_waited\": %ld, \"request_untraced\": %ld, \"other\": %ld},\n",
				r->rcu_drain_requested, r->rcu_drain_waited, r->rcu_request_untraced, r->rcu_other);
			fprintf(f, "        \"bare\": {\"sent\": %ld, \"unknown\": %ld, \"merged\": %ld},\n",
				r->bare_sent, r->bare_unknown, r->bare_merged);
			json_counter(f, "unknown_by_cause", &r->origin_unknown, "        ");
			fprintf(f, ",\n");
			json_counter(f, "chains", &r->origin_chains, "        ");
			fprintf(f, "}");
		} else {
			fprintf(f, ",\n      \"origins\": null");
		}
		fprintf(f, "\n    }");
	}
	fprintf(f, "\n  },\n  \"total\": %ld,\n", a->total);
	/* the audit's evidence: its sub-windows' markers, its paths' probes */
	json_counter(f, "proof", &a->proof, "  ");
	fprintf(f, ",\n  \"markers\": [");
	for (i = 0; i < a->nmarks; i++) {
		fprintf(f, "%s\n    {\"ns\": %llu, \"text\": ", i ? "," : "", a->marks[i].ns);
		qc_json_str(f, a->marks[i].text);
		fprintf(f, "}");
	}
	fprintf(f, "\n  ]\n}\n");
}

static void print_table(FILE *f, struct analysis *a)
{
	int i, j;

	fprintf(f, "window: %.3f ms (trace time %s .. %s s), measured task: %s\n",
		(a->end_ns - a->start_ns) / 1e6, qc_ts(a->start_ns).s, qc_ts(a->end_ns).s,
		a->task ? a->task : "(none: every task switch counts)");
	if (a->probes)
		fprintf(f, "drain_all_pages() calls in the window: %ld, %ld reached an isolated CPU\n",
			a->calls, a->calls_reached);
	else
		fprintf(f, "drain_all_pages() calls: not traced (no exposure probes)\n");
	fprintf(f, "%4s %8s %13s %8s  %s\n", "CPU", "reached", "interruptions", "sent", "by cause");
	for (i = 0; i < a->ncpus; i++) {
		struct cpu_result *r = &a->res[i];
		char reached[24] = "-", sent[24] = "-";

		if (a->probes)
			snprintf(reached, sizeof(reached), "%ld", r->exposure_drains);
		if (a->origin_probes)
			snprintf(sent, sizeof(sent), "%ld", r->origin_drain);
		fprintf(f, "%4d %8s %13ld %8s", r->cpu, reached, r->interruptions, sent);
		if (!r->by_cause.n)
			fprintf(f, "  -\n");
		for (j = 0; j < r->by_cause.n; j++)
			fprintf(f, "%s%7ld %s%s\n", j ? "                                    " : "  ",
				r->by_cause.v[j].count, r->by_cause.v[j].name,
				counter_get(&r->origin_drain_by_cause, r->by_cause.v[j].name) ? " (sent by the drain)" : "");
	}
	fprintf(f, "total: %ld interruptions", a->total);
	if (a->origin_probes)
		fprintf(f, ", %ld sent by the drain", a->drain_total);
	fprintf(f, "\n");
}

/*
 * Is @path a regular file or not there yet? Only then is it written whole
 * beside and renamed over: renamed over /dev/null, run as root, a file
 * would replace the machine's device.
 */
static int regular_or_new(const char *path)
{
	struct stat st;

	return stat(path, &st) != 0 || S_ISREG(st.st_mode);
}

/* The counters in the order the JSON and the table list them. */
static void sort_counters(struct analysis *a)
{
	int i;

	for (i = 0; i < a->ncpus; i++) {
		counter_sort(&a->res[i].by_cause);
		counter_sort(&a->res[i].all_causes);
		counter_sort(&a->res[i].events);
	}
	counter_sort(&a->proof);
}

/* @a as JSON into @json ("-": stdout), written whole beside and renamed. */
static void write_json_file(const char *json, struct analysis *a)
{
	if (!strcmp(json, "-")) {
		write_json(stdout, a);
	} else if (!regular_or_new(json)) {
		/* a device or a pipe (/dev/null): written in place, never replaced */
		FILE *f = fopen(json, "w");

		if (!f)
			qc_die(2, "cannot write %s", json);
		write_json(f, a);
		if (fclose(f))
			qc_die(2, "cannot write %s", json);
	} else {
		char *tmp;
		FILE *f;

		if (asprintf(&tmp, "%s.tmp", json) < 0)
			qc_die(2, "out of memory");
		f = fopen(tmp, "w");
		if (!f)
			qc_die(2, "cannot write %s", tmp);
		write_json(f, a);
		if (fclose(f) || rename(tmp, json))
			qc_die(2, "cannot write %s", json);
		free(tmp);
	}
}

/*
 * "a,b,c" -> {"a", "b", "c", NULL}; a name must be a C identifier. One
 * block, the names copied after the pointers: free() of it frees all
 * (--windows frees a window's list with its window).
 */
static const char *const *split_functions(const char *list)
{
	size_t len = strlen(list), most = 2;
	const char *c;
	const char **v;
	char *copy, *p, *save = NULL;
	size_t n = 0;

	for (c = list; *c; c++)
		most += *c == ',';
	v = qc_realloc(NULL, most * sizeof(*v) + len + 1);
	copy = memcpy(v + most, list, len + 1);
	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (!p[0] || strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != strlen(p))
			qc_die(2, "--drain-functions: '%s' is not a function name", p);
		v[n++] = p;
	}
	if (!n)
		qc_die(2, "--drain-functions '%s' names no function", list);
	v[n] = NULL;
	return v;
}

/*
 * The heap, grown to 30 MiB at once and advised into transparent huge
 * pages, as glibc's tunable glibc.malloc.hugetlb=1 has it (which only the
 * environment can set): a fault a 2 MiB page, not one a 4 KiB page, for
 * the ~10 MiB libtracecmd fills parsing a file's kallsyms and event
 * formats. A run on a fixture trace took 2,300 page faults, ~600 with
 * this, and a third less CPU time on a virtualised host. The growth is
 * one block (below M_MMAP_THRESHOLD), freed again untouched: its header
 * and the top's beyond it are all malloc writes before the advice, and a
 * 2 MiB range with a 4 KiB page in it already stays in 4 KiB pages.
 * Where the kernel has no huge pages to give (transparent_hugepage
 * "never"), madvise() fails and nothing else changes; a run that outgrows
 * this heap grows it in ordinary pages.
 */
static void heap_in_huge_pages(void)
{
	const uintptr_t huge = 2 << 20;
	uintptr_t lo, hi;
	void *p = malloc(30 << 20);

	if (!p)
		return;
	lo = (uintptr_t)p & ~(huge - 1);
	hi = (uintptr_t)sbrk(0) & ~(huge - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	free(p);
}

/* --windows: a JSON file each, in the list's order */
struct window_out {
	char **json;
	int done;
};

static int window_done(struct analysis *a, void *data)
{
	struct window_out *w = data;

	sort_counters(a);
	write_json_file(w->json[w->done++], a);
	analysis_free(a);
	return 0;
}

/*
 * Each window of the list @file ("-": stdin), "START:END FUNCTIONS JSON"
 * a line, counted as @base's options and --window START:END
 * --path-functions FUNCTIONS ("-": none) --json JSON would, from one
 * open of the trace: an open is most of a short run's time, and an
 * audit counts a dozen windows of one trace.
 */
static void count_windows(const struct analysis *base, const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	struct analysis **v = NULL;
	struct window_out w = { 0 };
	char *line = NULL, err[512], junk;
	size_t cap = 0;
	int n = 0, i;

	if (!f)
		qc_die(2, "cannot read %s", file);
	while (getline(&line, &cap, f) > 0) {
		char span[64], fns[4096];
		int end = 0;
		struct analysis *a;

		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		a = qc_realloc(NULL, sizeof(*a));
		*a = *base;
		if (sscanf(line, "%63s %4095s %n", span, fns, &end) != 2 || !line[end] ||
		    sscanf(span, "%llu:%llu%c", &a->start_ns, &a->end_ns, &junk) != 2 ||
		    a->end_ns <= a->start_ns)
			qc_die(2, "--windows %s: '%s' is not START_NS:END_NS FUNCTIONS JSON with START < END",
			       file, line);
		a->window_given = true;
		a->path_functions = strcmp(fns, "-") ? split_functions(fns) : NULL;
		v = qc_realloc(v, (n + 1) * sizeof(*v));
		w.json = qc_realloc(w.json, (n + 1) * sizeof(*w.json));
		v[n] = a;
		w.json[n++] = strdup(line + end);
	}
	if (f != stdin)
		fclose(f);
	free(line);
	if (!n)
		qc_die(2, "--windows %s lists no window", file);
	if (analyze_windows(v, n, window_done, &w, err, sizeof(err)))
		qc_die(2, "%s", err);
	for (i = 0; i < n; i++) {
		free((void *)v[i]->path_functions);
		free(v[i]);
		free(w.json[i]);
	}
	free(v);
	free(w.json);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "task", required_argument, NULL, 't' },
		{ "drain-functions", required_argument, NULL, 'f' },
		{ "path-functions", required_argument, NULL, 'p' },
		{ "hammer-calls", required_argument, NULL, 'H' },
		{ "window", required_argument, NULL, 'w' },
		{ "windows", required_argument, NULL, 'W' },
		{ "json", required_argument, NULL, 'j' },
		{ "explain", required_argument, NULL, 'x' },
		{ "expect", required_argument, NULL, 'e' },
		{ "stack-list", required_argument, NULL, 'S' },
		{ "kprobe-profile", required_argument, NULL, 'K' },
		{ "entry-counts", required_argument, NULL, 'E' },
		{ "rcu-forcing", required_argument, NULL, 'R' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "names", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct analysis a = { .hammer_calls = -1 };
	struct expect *exp = NULL;
	const char *json = NULL, *cpus = NULL, *explain = NULL, *windows = NULL;
	const char *stack_list = NULL, *profile = NULL, *entry_counts = NULL, *rcu_forcing = NULL;
	char *explain_tmp = NULL, beside[4096];
	struct stack_rules sr;
	char junk;
	int nexp = 0, quiet = 0, opt, i, j, bad = 0;
	char err[512];

	qc_prog = "qc-analyze";
	/*
	 * A run is short: what it frees is kept for its next allocations,
	 * not given back (no block of its own mmap()ed and unmapped again,
	 * the heap never trimmed). libtracecmd allocates and frees a buffer
	 * per section and per page it decompresses, and each page first
	 * touched is a page fault, dear on a virtualised host: a run on a
	 * fixture trace took 4,400 of them, 1,900 with this. (32 MiB is the
	 * most M_MMAP_THRESHOLD takes.)
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	heap_in_huge_pages();
	while ((opt = getopt_long(argc, argv, "c:t:f:p:H:w:W:j:x:e:S:K:E:R:qNh", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cpus = optarg;
			break;
		case 't':
			a.task = optarg[0] ? optarg : NULL;
			break;
		case 'f':
			a.drain_functions = split_functions(optarg);
			break;
		case 'p':
			a.path_functions = split_functions(optarg);
			break;
		case 'H':
			if (sscanf(optarg, "%ld@%d%c", &a.hammer_calls, &a.hammer_cpu, &junk) != 2 ||
			    a.hammer_calls < 0 || a.hammer_cpu < 0)
				qc_die(2, "--hammer-calls '%s' is not CALLS@CPU (hammer.json's calls and cpu)", optarg);
			break;
		case 'w':
			if (sscanf(optarg, "%llu:%llu%c", &a.start_ns, &a.end_ns, &junk) != 2 ||
			    a.end_ns <= a.start_ns)
				qc_die(2, "--window '%s' is not START_NS:END_NS with START < END", optarg);
			a.window_given = true;
			break;
		case 'W':
			windows = optarg;
			break;
		case 'x':
			explain = optarg;
			break;
		case 'j':
			json = optarg;
			break;
		case 'e':
			exp = realloc(exp, (nexp + 1) * sizeof(*exp));
			if (!exp || parse_expect(optarg, &exp[nexp]))
				qc_die(2, "--expect '%s' is not CPU:CAUSE=COUNT (e.g. 1:workqueue:qc_planted_work=5)",
				     optarg);
			nexp++;
			break;
		case 'S':
			stack_list = optarg;
			break;
		case 'K':
			profile = optarg;
			break;
		case 'E':
			entry_counts = optarg;
			break;
		case 'R':
			rcu_forcing = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'N':
			print_names("rcu_forcers", origins_rcu_forcers);
			print_names("untraced_runners", origins_untraced_runners);
			print_names("rcu_runner", origins_rcu_runner);
			print_names("lock_handoff", explain_lock_handoff);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	a.file = argv[optind];
	if (!cpus)
		qc_die(2, "%s: which CPUs are isolated? pass --cpus, e.g. --cpus 1-3", a.file);
	a.ncpus = parse_cpus(cpus, &a.cpus);
	if (a.ncpus < 0)
		qc_die(2, "--cpus '%s' is not a CPU list like 1-3 or 1,3", cpus);
	for (i = 0; i < nexp; i++) {
		for (j = 0; j < a.ncpus && a.cpus[j] != exp[i].cpu; j++)
			;
		if (j == a.ncpus)
			qc_die(2, "--expect names a CPU that is not in --cpus %s", cpus);
	}

	/* the guest's triggers are set from the list in the analyzer's own directory */
	if (!stack_list)
		stack_list = beside_self("origin-stacks.list", beside, sizeof(beside));
	if (stacks_load(&sr, stack_list, err, sizeof(err)))
		qc_die(2, "%s", err);
	a.stack_rules = &sr;
	if (profile_read(&a.profile, profile, err, sizeof(err)))
		qc_die(2, "%s", err);
	if (rcu_forcing && !entry_counts)
		qc_die(2, "--rcu-forcing times the plugin's counts: give --entry-counts too");
	if (entry_counts && hwtime_load(&a.hw, entry_counts, rcu_forcing, err, sizeof(err)))
		qc_die(2, "%s", err);
	if (windows) {
		if (a.window_given || json || a.path_functions || explain || nexp)
			qc_die(2, "--windows gives each window its --window, --path-functions and --json: no other of these, --explain or --expect");
		count_windows(&a, windows);
		free(a.cpus);
		return 0;
	}
	/* Written beside, renamed once the analysis is complete (a device
	   such as /dev/null is written in place, never replaced). */
	if (explain && !regular_or_new(explain)) {
		a.explain = fopen(explain, "w");
		if (!a.explain)
			qc_die(2, "cannot write %s", explain);
		explain = NULL;
	} else if (explain) {
		if (asprintf(&explain_tmp, "%s.tmp", explain) < 0)
			qc_die(2, "out of memory");
		a.explain = fopen(explain_tmp, "w");
		if (!a.explain)
			qc_die(2, "cannot write %s", explain_tmp);
	}
	if (analyze(&a, err, sizeof(err))) {
		if (explain_tmp)
			unlink(explain_tmp);
		qc_die(2, "%s", err);
	}
	if (explain && (fclose(a.explain) || rename(explain_tmp, explain)))
		qc_die(2, "cannot write %s", explain);
	free(explain_tmp);
	sort_counters(&a);
	if (json)
		write_json_file(json, &a);
	if (json && !strcmp(json, "-"))
		quiet = 1;
	if (!quiet)
		print_table(stdout, &a);

	for (i = 0; i < nexp; i++) {
		long got;

		for (j = 0; a.cpus[j] != exp[i].cpu; j++)
			;
		got = counter_get(&a.res[j].by_cause, exp[i].cause);
		if (got != exp[i].count) {
			fprintf(stderr, "qc-analyze: expected %ld x %s on CPU %d, counted %ld\n",
				exp[i].count, exp[i].cause, exp[i].cpu, got);
			bad = 1;
		}
		free(exp[i].cause);
	}
	free(exp);
	analysis_free(&a);
	hwtime_free(&a.hw);
	free(a.cpus);
	return bad;
}
