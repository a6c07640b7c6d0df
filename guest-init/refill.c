// SPDX-License-Identifier: GPL-2.0
/*
 * refill -c CPULIST [-T MS] [-P PAGES] [-D SECONDS] [--json FILE] [-b N] [-q]
 *
 * An oslat-style latency measurement that keeps its own CPU's per-CPU page
 * lists (pcplists) full. oslat never allocates, so once an isolated CPU's
 * pcplists are drained they stay empty and a non-forced drain_all_pages()
 * skips that CPU. Here each measured CPU, every MS ms and with no help from
 * another CPU, maps PAGES anonymous pages, writes a byte in each (a fault
 * takes an order-0 page from this CPU's pcplist) and unmaps them (they go
 * back to this CPU's pcplist): every drain finds pages there.
 *
 * One child process per CPU, not threads: each has its own mm, so munmap()
 * sends no TLB-shootdown IPI to the other measured CPUs. A child pins
 * itself, locks what it has mapped (MCL_CURRENT only: refills must take real
 * faults), calibrates the TSC against CLOCK_MONOTONIC for 100 ms, then spins
 * reading the TSC. Histogram key k (1-based) counts gaps between two reads
 * in [k-1, k) us; the last key counts every gap >= N-1 us. oslat files a gap
 * under ceil(us) + 1, one key higher for all but whole-us gaps: compare
 * maxima, not keys. Refills stay out of the latency figures (the gap
 * restarts after each) and are reported on their own.
 *
 * The parent sleeps in waitpid() wherever it was started, then prints one
 * line per CPU and writes JSON shaped like oslat --json (.thread[] with cpu,
 * freq, min, avg, max, duration and histogram; only non-zero buckets, as
 * oslat). SIGINT or SIGTERM to the parent alone ends the run.
 *
 * Errors: one line "refill: error: ..."; exit 2 for bad usage, 1 when a
 * CPU cannot be used or a system call fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qc-util.h"

#ifndef __x86_64__
#error "refill reads the TSC: x86_64 only"
#endif

#define MAX_BUCKETS 1024

struct result {
	int cpu;
	double mhz;		/* TSC ticks per us */
	uint64_t count;		/* gaps measured */
	double min_us, avg_us, max_us, sum_us;
	double duration_s;	/* the measured loop, refills included */
	uint64_t refills;
	double refill_max_us, refill_total_us;
	uint64_t hist[MAX_BUCKETS];
} __attribute__((aligned(64)));	/* no two CPUs write one cache line */

/* Mapped MAP_SHARED before fork(): the parent and every child see it. */
struct shared {
	volatile sig_atomic_t stop;	/* written once, read every iteration */
	int error_told;			/* only the first failing child speaks */
	struct result r[];
};

static struct shared *sh;
static unsigned long refill_ms = 20, pages = 64, duration_ms, buckets = 32;

/*
 * One line on stderr and exit. In a child, only the first failure among
 * all children is told, and the others are stopped.
 */
static __attribute__((noreturn)) void die(int code, const char *fmt, ...)
{
	va_list ap;

	if (!sh || !__sync_lock_test_and_set(&sh->error_told, 1)) {
		va_start(ap, fmt);
		qc_verror(fmt, ap);
		va_end(ap);
	}
	if (sh)
		sh->stop = 1;
	exit(code);
}

static void on_signal(int sig)
{
	(void)sig;
	sh->stop = 1;
}

static inline uint64_t rdtsc(void)
{
	/* lfence: do not let the read pass earlier loads (rdtsc_ordered()). */
	__builtin_ia32_lfence();
	return __builtin_ia32_rdtsc();
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Fault in and free @len bytes here; returns the TSC at the end. */
static uint64_t refill(struct result *r, size_t len, size_t page, uint64_t t0)
{
	uint64_t t1;
	double us;
	size_t off;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die(1, "cpu %d: mmap %zu KiB: %s", r->cpu, len >> 10, strerror(errno));
#ifdef MADV_NOHUGEPAGE
	/* A huge page would come from the buddy lists, not the pcplists. */
	madvise(p, len, MADV_NOHUGEPAGE);
#endif
	/* volatile: the store must happen, it is the fault. */
	for (off = 0; off < len; off += page)
		((volatile char *)p)[off] = 1;
	if (munmap(p, len))
		die(1, "cpu %d: munmap: %s", r->cpu, strerror(errno));
	t1 = rdtsc();
	us = (t1 - t0) / r->mhz;
	r->refills++;
	r->refill_total_us += us;
	if (us > r->refill_max_us)
		r->refill_max_us = us;
	return t1;
}

/* The child: measure on @cpu until told to stop, results into @out. */
static int run_cpu(struct result *out, int cpu)
{
	static struct result r;	/* private: written here, copied at the end */
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = pages * page;
	uint64_t t0, ns0, prev, now, start, end = UINT64_MAX, period, next;
	double per_us;
	cpu_set_t m;

	CPU_ZERO(&m);
	CPU_SET(cpu, &m);
	if (sched_setaffinity(0, sizeof(m), &m))
		die(1, "cannot run on cpu %d: %s (is it online and in this cpuset?)",
		    cpu, strerror(errno));
	if (sched_getcpu() != cpu) {
		/* sched_setaffinity() migrates before returning; be sure. */
		sched_yield();
		if (sched_getcpu() != cpu)
			die(1, "still not on cpu %d after pinning", cpu);
	}
	/* A parent killed outright must not leave us spinning (on_signal()). */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* Touch our own result before measuring: its fault is not noise. */
	memset(&r, 0, sizeof(r));
	r.cpu = cpu;
	r.min_us = DBL_MAX;
	/* Best effort: unprivileged, RLIMIT_MEMLOCK may refuse. */
	mlockall(MCL_CURRENT);

	ns0 = now_ns();
	t0 = rdtsc();
	while (now_ns() - ns0 < 100000000)
		;
	r.mhz = (rdtsc() - t0) * 1000.0 / (now_ns() - ns0);
	per_us = 1.0 / r.mhz;
	period = (uint64_t)(refill_ms * 1000 * r.mhz);

	/* Fill the lists once before the first gap is measured. */
	start = refill(&r, len, page, rdtsc());
	if (duration_ms)
		end = start + (uint64_t)(duration_ms * 1e3 * r.mhz);
	next = start + period;
	prev = start;
	while (!sh->stop) {
		double us;
		size_t b;

		now = rdtsc();
		us = (now - prev) * per_us;
		prev = now;
		r.count++;
		r.sum_us += us;
		if (us > r.max_us)
			r.max_us = us;
		if (us < r.min_us)
			r.min_us = us;
		b = us < buckets - 1 ? (size_t)us : buckets - 1;
		r.hist[b]++;
		if (now >= end)
			break;
		if (now >= next) {
			/* Restart the gap after the refill: its time is not noise. */
			prev = refill(&r, len, page, now);
			next += period;
			if (next <= prev)
				next = prev + period;
		}
	}
	r.duration_s = (rdtsc() - start) / (r.mhz * 1e6);
	r.min_us = r.count ? r.min_us : 0;
	r.avg_us = r.count ? r.sum_us / r.count : 0;
	*out = r;
	return 0;
}

static unsigned long parse_num(const char *opt, const char *s, unsigned long min,
			       unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || *s == '-' || *s == '+' || v < min || v > max)
		die(2, "%s '%s' is not a whole number from %lu to %lu", opt, s, min, max);
	return v;
}

/*
 * -D's TIME: a whole number of seconds, or of the unit after it, as
 * oslat's -D (m, h, d) and also ms (a run shorter than a second: the test
 * suite's, whose spin other programs wait for). In ms.
 */
static unsigned long parse_duration(const char *s)
{
	static const struct { const char *unit; unsigned long ms; } units[] = {
		{ "", 1000 }, { "s", 1000 }, { "ms", 1 }, { "m", 60000 },
		{ "h", 3600000 }, { "d", 86400000 },
	};
	const unsigned long max_ms = 31536000000ul;	/* a year */
	char *end;
	unsigned long v;
	size_t i;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!errno && end != s && *s != '-' && *s != '+')
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(end, units[i].unit) && v >= 1 && v <= max_ms / units[i].ms)
				return v * units[i].ms;
	die(2, "--duration '%s' is not a time from 1ms to 365d (seconds, or a whole number with ms, s, m, h or d)", s);
}

/* The inside of a JSON string: quotes, backslashes, control bytes escaped. */
static void json_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
}

static void write_json(const char *path, int n, int argc, char **argv)
{
	char tmp[PATH_MAX];
	unsigned long b;
	int i, comma;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		die(1, "cannot write %s: %s", tmp, strerror(errno));
	fputs("{\n  \"file_version\": 1,\n  \"cmdline:\": \"", f);
	for (i = 0; i < argc; i++) {
		if (i)
			fputc(' ', f);
		json_escape(f, argv[i]);
	}
	fprintf(f, "\",\n  \"tool\": \"refill\",\n  \"refill_ms\": %lu,\n"
		"  \"pages\": %lu,\n  \"bucket_size\": %lu,\n  \"num_threads\": %d,\n"
		"  \"thread\": {\n", refill_ms, pages, buckets, n);
	for (i = 0; i < n; i++) {
		struct result *r = &sh->r[i];

		fprintf(f, "    \"%d\": {\n      \"cpu\": %d,\n      \"freq\": %.0f,\n"
			"      \"min\": %.3f,\n      \"avg\": %.3f,\n      \"max\": %.3f,\n"
			"      \"duration\": %.3f,\n      \"refills\": %llu,\n"
			"      \"refill_max_us\": %.3f,\n      \"refill_total_us\": %.3f,\n"
			"      \"histogram\": {", i, r->cpu, r->mhz, r->min_us,
			r->avg_us, r->max_us, r->duration_s,
			(unsigned long long)r->refills, r->refill_max_us, r->refill_total_us);
		for (b = 0, comma = 0; b < buckets; b++) {
			if (!r->hist[b])
				continue;
			fprintf(f, "%s\n        \"%lu\": %llu", comma ? "," : "", b + 1,
				(unsigned long long)r->hist[b]);
			comma = 1;
		}
		fprintf(f, "%s}\n    }%s\n", comma ? "\n      " : "", i < n - 1 ? "," : "");
	}
	fputs("  }\n}\n", f);
	if (ferror(f) | fclose(f) || rename(tmp, path))
		die(1, "cannot write %s: %s", path, strerror(errno));
}

static void usage(void)
{
	printf(
"Usage: refill -c CPULIST [OPTIONS]\n"
"oslat-style latency on each CPU in CPULIST, refilling its pcplists itself.\n"
"  -c, --cpu-list=LIST    CPUs to run on, e.g. 2-3 or 2,3 (required)\n"
"  -T, --refill-ms=MS     refill period in ms (20)\n"
"  -P, --pages=N          pages faulted in and freed per refill, 1-65536 (64)\n"
"  -D, --duration=TIME    run TIME: seconds, or with a unit: 300ms, 5m, 2h, 1d\n"
"                         (default: until SIGINT or SIGTERM)\n"
"  -j, --json=FILE        write the results as JSON to FILE on exit\n"
"  -b, --bucket-size=N    1 us histogram buckets, 4-1024 (32), the last open\n"
"  -q, --quiet            no per-CPU summary on stdout\n"
"  -h, --help             this text\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpu-list",    required_argument, NULL, 'c' },
		{ "refill-ms",   required_argument, NULL, 'T' },
		{ "pages",       required_argument, NULL, 'P' },
		{ "duration",    required_argument, NULL, 'D' },
		{ "json",        required_argument, NULL, 'j' },
		{ "bucket-size", required_argument, NULL, 'b' },
		{ "quiet",       no_argument,       NULL, 'q' },
		{ "help",        no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cpu_list = NULL, *json = NULL;
	int c, i, n, cpu, status, quiet = 0, failed = 0;
	static unsigned char listed[CPU_SETSIZE];
	pid_t pid;

	qc_prog = "refill";
	opterr = 0;	/* our own one-line message, not getopt's */
	while ((c = getopt_long(argc, argv, ":c:T:P:D:j:b:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': cpu_list = optarg; break;
		case 'T': refill_ms = parse_num("--refill-ms", optarg, 1, 3600000); break;
		case 'P': pages = parse_num("--pages", optarg, 1, 65536); break;
		case 'D': duration_ms = parse_duration(optarg); break;
		case 'j': json = optarg; break;
		case 'b': buckets = parse_num("--bucket-size", optarg, 4, MAX_BUCKETS); break;
		case 'q': quiet = 1; break;
		case 'h': usage(); return 0;
		case ':': die(2, "option '%s' needs a value (see --help)", argv[optind - 1]);
		default: die(2, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(2, "unexpected argument '%s' (see --help)", argv[optind]);
	if (!cpu_list)
		die(2, "no CPUs to run on: give -c CPULIST, e.g. -c 2-3");
	n = qc_cpulist_parse(cpu_list, listed, CPU_SETSIZE);
	if (n < 0)
		die(2, "--cpu-list '%s' is not a CPU list: use e.g. 2-3 or 2,3", cpu_list);

	sh = mmap(NULL, sizeof(*sh) + n * sizeof(struct result), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die(1, "mmap of the results: %s", strerror(errno));
	/* Children inherit this; the parent's waitpid() restarts after it. */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	fflush(stdout);
	for (i = 0, cpu = 0; i < n; cpu++) {
		if (!listed[cpu])
			continue;
		pid = fork();
		if (pid < 0)
			die(1, "fork: %s", strerror(errno));
		if (!pid)
			exit(run_cpu(&sh->r[i], cpu));
		i++;
	}
	/* Until no child is left; a failed one has told why (die()). */
	while (wait(&status) > 0) {
		if (WIFEXITED(status) && !WEXITSTATUS(status))
			continue;
		sh->stop = 1;
		failed = 1;
		if (WIFSIGNALED(status) && !__sync_lock_test_and_set(&sh->error_told, 1))
			fprintf(stderr, "refill: error: a measuring child was killed by signal %d\n",
				WTERMSIG(status));
	}
	if (failed)
		return 1;
	for (i = 0; i < n && !quiet; i++)
		printf("cpu %d: refills %llu, max %.3f us, avg %.3f us\n", sh->r[i].cpu,
		       (unsigned long long)sh->r[i].refills, sh->r[i].max_us, sh->r[i].avg_us);
	if (json)
		write_json(json, n, argc, argv);
	return 0;
}
