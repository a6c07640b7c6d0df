// SPDX-License-Identifier: GPL-2.0
/*
 * rthog -c CPU -p PRIO -P PERIOD_MS -T SPIN_MS [-D SECONDS] [--json FILE] [-q]
 *
 * A SCHED_FIFO hog for the "rthog" scenario: pinned to one CPU, it sleeps
 * until its next period starts (an absolute CLOCK_MONOTONIC deadline, so
 * pacing never drifts), then spins in user space for SPIN_MS and sleeps
 * again. Its wake-up lands wherever the CPU's other task is, now and then
 * inside that task's pcp section: on PREEMPT_RT the pcp lock is a sleeping
 * spinlock_t taken under migrate_disable() (and an RCU reader), so the hog
 * preempts the holder there and keeps it off the CPU for up to SPIN_MS.
 *
 * The hog spins in user space only: on a nohz_full CPU it is then in an
 * extended quiescent state, so it delays a grace period only through the
 * reader it preempted, never by itself.
 *
 * It prints one line at the end and, with --json, what it did: its
 * settings, the periods it woke for, how late each wake-up was (the
 * latest), and the periods it missed (a spin that overran the next start).
 * SIGINT or SIGTERM ends it (the spin in progress is cut short).
 *
 * Errors: one line "rthog: error: ..."; exit 2 for bad usage, 1 when the
 * CPU or the priority cannot be had or a system call fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "qc-util.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static unsigned long parse_num(const char *opt, const char *s, unsigned long min,
			       unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || *s == '-' || *s == '+' || v < min || v > max)
		qc_die(2, "%s '%s' is not a whole number from %lu to %lu", opt, s, min, max);
	return v;
}

static void usage(void)
{
	printf(
"Usage: rthog -c CPU -p PRIO -P PERIOD_MS -T SPIN_MS [OPTIONS]\n"
"A SCHED_FIFO task on CPU that wakes every PERIOD_MS and spins SPIN_MS.\n"
"  -c, --cpu=CPU          the one CPU to hog (required)\n"
"  -p, --prio=PRIO        SCHED_FIFO priority, 1-99 (required)\n"
"  -P, --period-ms=MS     wake-up period in ms, 1-3600000 (required)\n"
"  -T, --spin-ms=MS       spin time after each wake-up in ms, 1 to PERIOD_MS-1\n"
"                         (required: the CPU's other task runs in the rest)\n"
"  -D, --duration=S       run S seconds (default: until SIGINT or SIGTERM)\n"
"  -j, --json=FILE        write what it did as JSON to FILE on exit\n"
"  -q, --quiet            no summary line on stdout\n"
"  -h, --help             this text\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpu",       required_argument, NULL, 'c' },
		{ "prio",      required_argument, NULL, 'p' },
		{ "period-ms", required_argument, NULL, 'P' },
		{ "spin-ms",   required_argument, NULL, 'T' },
		{ "duration",  required_argument, NULL, 'D' },
		{ "json",      required_argument, NULL, 'j' },
		{ "quiet",     no_argument,       NULL, 'q' },
		{ "help",      no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long cpu = -1, prio = -1, period_ms = -1, spin_ms = -1;
	unsigned long duration_s = 0;
	const char *json = NULL;
	uint64_t start, next, end = UINT64_MAX, period, spin, late, late_max = 0;
	uint64_t wakeups = 0, missed = 0, spun_ns = 0;
	struct sched_param sp;
	struct timespec ts;
	cpu_set_t m;
	int c, quiet = 0;

	qc_prog = "rthog";
	opterr = 0;	/* our own one-line message, not getopt's */
	while ((c = getopt_long(argc, argv, ":c:p:P:T:D:j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': cpu = parse_num("--cpu", optarg, 0, CPU_SETSIZE - 1); break;
		case 'p': prio = parse_num("--prio", optarg, 1, 99); break;
		case 'P': period_ms = parse_num("--period-ms", optarg, 1, 3600000); break;
		case 'T': spin_ms = parse_num("--spin-ms", optarg, 1, 3600000); break;
		case 'D': duration_s = parse_num("--duration", optarg, 1, 31536000); break;
		case 'j': json = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': usage(); return 0;
		case ':': qc_die(2, "option '%s' needs a value (see --help)", argv[optind - 1]);
		default: qc_die(2, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		qc_die(2, "unexpected argument '%s' (see --help)", argv[optind]);
	if (cpu < 0 || prio < 0 || period_ms < 0 || spin_ms < 0)
		qc_die(2, "give all of -c CPU -p PRIO -P PERIOD_MS -T SPIN_MS, e.g. -c 3 -p 10 -P 1000 -T 700");
	/* A hog that never sleeps is a different test (scenario fifo). */
	if (spin_ms >= period_ms)
		qc_die(2, "--spin-ms %ld must be shorter than --period-ms %ld: the CPU's other task needs the rest",
		       spin_ms, period_ms);

	CPU_ZERO(&m);
	CPU_SET(cpu, &m);
	if (sched_setaffinity(0, sizeof(m), &m))
		qc_die(1, "cannot run on cpu %ld: %s (is it online and in this cpuset?)",
		       cpu, strerror(errno));
	if (sched_getcpu() != cpu) {
		sched_yield();
		if (sched_getcpu() != cpu)
			qc_die(1, "still not on cpu %ld after pinning", cpu);
	}
	/* No page fault of our own in the spin: it would enter the kernel. */
	mlockall(MCL_CURRENT | MCL_FUTURE);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	sp.sched_priority = (int)prio;
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		qc_die(1, "cannot become SCHED_FIFO %ld: %s", prio, strerror(errno));

	period = (uint64_t)period_ms * 1000000;
	spin = (uint64_t)spin_ms * 1000000;
	start = now_ns();
	if (duration_s)
		end = start + duration_s * 1000000000ull;
	/* The first wake-up one period in: not at once, not in phase with start-up. */
	for (next = start + period; !stop && next < end; next += period) {
		uint64_t t, until;

		ts.tv_sec = next / 1000000000ull;
		ts.tv_nsec = next % 1000000000ull;
		while ((c = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR && !stop)
			;
		if (stop)
			break;
		if (c)
			qc_die(1, "clock_nanosleep: %s", strerror(c));
		t = now_ns();
		late = t - next;
		if (late > late_max)
			late_max = late;
		wakeups++;
		until = t + spin;
		while (!stop && now_ns() < until)
			;
		t = now_ns();
		spun_ns += t - (until - spin);
		/* A spin that ran into the next period(s): skip them, do not burst. */
		while (next + period <= t) {
			next += period;
			missed++;
		}
	}

	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	if (!quiet)
		printf("rthog: cpu %ld prio %ld: %llu wake-ups of %ld ms every %ld ms, latest %.3f ms late, %llu missed\n",
		       cpu, prio, (unsigned long long)wakeups, spin_ms, period_ms, late_max / 1e6,
		       (unsigned long long)missed);
	if (json) {
		char tmp[PATH_MAX];
		FILE *f;

		snprintf(tmp, sizeof(tmp), "%s.tmp", json);
		f = fopen(tmp, "w");
		if (!f)
			qc_die(1, "cannot write %s: %s", tmp, strerror(errno));
		fprintf(f, "{\"tool\": \"rthog\", \"cpu\": %ld, \"prio\": %ld, \"period_ms\": %ld, "
			"\"spin_ms\": %ld, \"wakeups\": %llu, \"missed\": %llu, \"spun_ms\": %.3f, "
			"\"late_max_ms\": %.3f, \"elapsed_ms\": %.3f}\n", cpu, prio, period_ms, spin_ms,
			(unsigned long long)wakeups, (unsigned long long)missed, spun_ns / 1e6,
			late_max / 1e6, (now_ns() - start) / 1e6);
		if (ferror(f) | fclose(f) || rename(tmp, json))
			qc_die(1, "cannot write %s: %s", json, strerror(errno));
	}
	return 0;
}
