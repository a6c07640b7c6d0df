// SPDX-License-Identifier: GPL-2.0
/*
 * pft - page-fault / page-allocation microbenchmark, in the spirit of
 * mmtests' pft.
 *
 * Each thread, pinned to one CPU, repeatedly maps an anonymous private
 * region, writes one byte to every page and unmaps it.  Each first write
 * is a fault that allocates a zeroed order-0 page (from the CPU's pcplist,
 * refilled from the buddy lists in batches); munmap() returns the pages
 * to the pcplists.  That is the path whose locking the quietcore variants
 * change, so faults/s is the page-allocator cost a user sees.
 *
 * Each thread's timed loop is bracketed by two marker instructions that do
 * nothing (xchg %bx,%bx on entry, xchg %cx,%cx on exit): under QEMU TCG the
 * qc-cost plugin (bench/plugin/) counts exactly what that thread's CPU
 * executes between them.  Natively they cost a cycle each.
 *
 * Output: one JSON line per run on stdout.  Errors: "pft: error: ..." on
 * stderr, exit 2 for bad usage, 1 for a failed system call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qc-util.h"

struct worker {
	pthread_t tid;
	pid_t pid;		/* --processes: the worker's process */
	int cpu;		/* -1: not pinned */
	uint64_t start_ns;
	uint64_t end_ns;
	int err;		/* errno of a failed mmap, 0 if fine */
};

static size_t region_bytes;
static size_t page_size;
static unsigned int rounds = 4;
static int allow_thp;
/* In shared memory: with --processes the workers are other processes. */
static pthread_barrier_t *start_barrier;

/*
 * --sync-rounds: the workers wait for each other before each round after
 * the first, spinning in user mode (a futex would add kernel work to the
 * count).  gen counts the rounds begun; abort releases everyone when a
 * worker fails.
 */
struct round_barrier {
	unsigned int arrived;
	unsigned int gen;
	int abort;
};
static struct round_barrier *round_barrier;
static unsigned long nworkers;
static int sync_rounds;

static void round_sync(void)
{
	struct round_barrier *b = round_barrier;
	unsigned int gen;

	if (!sync_rounds || nworkers < 2)
		return;
	gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
	if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == nworkers) {
		__atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen &&
	       !__atomic_load_n(&b->abort, __ATOMIC_RELAXED))
#ifdef __x86_64__
		asm volatile("pause" ::: "memory");
#else
		;
#endif
}

static void round_abort(void)
{
	__atomic_store_n(&round_barrier->abort, 1, __ATOMIC_RELAXED);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * The qc-cost plugin's markers (bench/plugin/qc-cost.c defines them): a
 * register exchanged with itself.  volatile and a memory clobber keep the
 * compiler from moving the loop's work across them.
 */
static inline void count_open(void)
{
#ifdef __x86_64__
	asm volatile("xchg %%bx, %%bx" ::: "memory");
#endif
}

static inline void count_close(void)
{
#ifdef __x86_64__
	asm volatile("xchg %%cx, %%cx" ::: "memory");
#endif
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned int r;
	size_t off;

	if (w->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		w->err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	/* Everyone (main included) waits here so the faults overlap. */
	pthread_barrier_wait(start_barrier);
	if (w->err) {
		round_abort();
		return NULL;
	}

	w->start_ns = now_ns();
	count_open();
	for (r = 0; r < rounds; r++) {
		char *p;

		if (r)
			round_sync();
		p = mmap(NULL, region_bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			w->err = errno;
			round_abort();
			break;
		}
		/*
		 * With THP one fault would map 2 MiB from the buddy allocator
		 * directly and bypass the pcplists we want to exercise.
		 */
		if (!allow_thp)
			madvise(p, region_bytes, MADV_NOHUGEPAGE);
		/* volatile: the store must happen, it is the fault. */
		for (off = 0; off < region_bytes; off += page_size)
			((volatile char *)p)[off] = 1;
		munmap(p, region_bytes);
	}
	count_close();
	w->end_ns = now_ns();
	return NULL;
}

static unsigned long parse_num(const char *opt, const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || *s == '-' || v == 0 || v > max)
		qc_die(2, "%s '%s' is not a whole number from 1 to %lu", opt, s, max);
	return v;
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: pft [OPTIONS]\n"
"Page-fault microbenchmark: each thread maps an anonymous region, writes\n"
"every page (one fault and one page allocation each), unmaps it, ROUNDS\n"
"times. One JSON line per run.\n"
"\n"
"  -a, --affinity=LIST  pin threads to these CPUs (e.g. 0,2-3); default:\n"
"                       the CPUs this process may run on (taskset/cpuset)\n"
"  -t, --threads=N      number of threads; default: one per CPU in LIST,\n"
"                       more than that are placed round-robin\n"
"  -m, --mib=N          MiB mapped and touched per thread per round (32)\n"
"  -r, --rounds=N       map/touch/unmap rounds per run (4)\n"
"  -n, --runs=N         independent runs, one JSON line each (1)\n"
"  -P, --processes      each worker a process of its own (its own mm), not\n"
"                       a thread: no worker waits on another's mmap_lock\n"
"  -S, --sync-rounds    the workers start each round together (they wait\n"
"                       for each other spinning in user mode, no syscall)\n"
"      --thp            allow transparent huge pages (default: madvise\n"
"                       MADV_NOHUGEPAGE so every fault is an order-0 page);\n"
"                       faults then counts pages touched, minflt real faults\n"
"  -h, --help           this text\n"
"\n"
"faults = threads * pages * rounds; faults_per_sec = faults / elapsed, where\n"
"elapsed runs from the first thread's start to the last thread's end;\n"
"ns_per_fault is the mean over threads of thread time / thread faults;\n"
"minflt is the kernel's count of minor faults during the run (a check).\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "affinity", required_argument, NULL, 'a' },
		{ "threads",  required_argument, NULL, 't' },
		{ "mib",      required_argument, NULL, 'm' },
		{ "rounds",   required_argument, NULL, 'r' },
		{ "runs",     required_argument, NULL, 'n' },
		{ "thp",      no_argument,       NULL, 'H' },
		{ "processes", no_argument,      NULL, 'P' },
		{ "sync-rounds", no_argument,    NULL, 'S' },
		{ "help",     no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static int cpus[CPU_SETSIZE];
	const char *cpu_list = NULL;
	unsigned long threads = 0, mib = 32, runs = 1, run, i;
	struct worker *w;
	int ncpus, c, processes = 0;
	size_t shared_bytes;
	pthread_barrierattr_t battr;

	qc_prog = "pft";
	while ((c = getopt_long(argc, argv, "a:t:m:r:n:PSh", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': cpu_list = optarg; break;
		case 't': threads = parse_num("--threads", optarg, 4096); break;
		case 'm': mib = parse_num("--mib", optarg, 1 << 20); break;
		case 'r': rounds = parse_num("--rounds", optarg, 1 << 20); break;
		case 'n': runs = parse_num("--runs", optarg, 1 << 20); break;
		case 'H': allow_thp = 1; break;
		case 'P': processes = 1; break;
		case 'S': sync_rounds = 1; break;
		case 'h': usage(stdout); return 0;
		default: qc_die(2, "bad option (see --help)");
		}
	}
	if (optind < argc)
		qc_die(2, "unexpected argument '%s' (see --help)", argv[optind]);

	if (cpu_list) {
		static unsigned char listed[CPU_SETSIZE];

		if (qc_cpulist_parse(cpu_list, listed, CPU_SETSIZE) < 0)
			qc_die(2, "--affinity '%s' is not a CPU list", cpu_list);
		for (ncpus = 0, c = 0; c < CPU_SETSIZE; c++)
			if (listed[c])
				cpus[ncpus++] = c;
	} else {
		cpu_set_t set;

		/*
		 * The allowed set, not every online CPU: under a cpuset or
		 * taskset, pinning outside it would fail.  Unrestricted, it
		 * is every online CPU.
		 */
		if (sched_getaffinity(0, sizeof(set), &set))
			qc_die(1, "sched_getaffinity: %s", strerror(errno));
		for (ncpus = 0, c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cpus[ncpus++] = c;
	}
	if (!threads)
		threads = ncpus;

	page_size = sysconf(_SC_PAGESIZE);
	region_bytes = mib << 20;
	/*
	 * The workers' records and the barrier in memory shared with forked
	 * workers (--processes); threads use it as plain memory.
	 */
	shared_bytes = threads * sizeof(*w) + sizeof(*start_barrier) + sizeof(*round_barrier);
	w = mmap(NULL, shared_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w == MAP_FAILED)
		qc_die(1, "out of memory");
	start_barrier = (pthread_barrier_t *)(w + threads);
	round_barrier = (struct round_barrier *)(start_barrier + 1);
	nworkers = threads;
	if (pthread_barrierattr_init(&battr) ||
	    pthread_barrierattr_setpshared(&battr, processes ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE))
		qc_die(1, "pthread_barrierattr failed");

	for (run = 0; run < runs; run++) {
		uint64_t first = UINT64_MAX, last = 0, faults, per_thread;
		double ns_per_fault = 0, elapsed;
		struct rusage ru0, ru1;

		memset(round_barrier, 0, sizeof(*round_barrier));
		if (pthread_barrier_init(start_barrier, &battr, threads + 1))
			qc_die(1, "pthread_barrier_init failed");
		fflush(stdout);	/* nothing buffered for a forked worker to copy */
		for (i = 0; i < threads; i++) {
			memset(&w[i], 0, sizeof(w[i]));
			w[i].cpu = cpus[i % ncpus];
			if (processes) {
				/* (not fork()'s answer into w[i]: the child shares it) */
				pid_t pid = fork();

				if (pid < 0)
					qc_die(1, "fork: %s", strerror(errno));
				if (!pid) {
					worker_fn(&w[i]);
					_exit(0);
				}
				w[i].pid = pid;
				continue;
			}
			errno = pthread_create(&w[i].tid, NULL, worker_fn, &w[i]);
			if (errno)
				qc_die(1, "pthread_create: %s", strerror(errno));
		}
		/*
		 * Count only the run's own faults, not thread stacks. Forked
		 * workers' faults count once they are reaped (RUSAGE_CHILDREN):
		 * a few more than the run's, their copy-on-write stack pages.
		 */
		getrusage(processes ? RUSAGE_CHILDREN : RUSAGE_SELF, &ru0);
		pthread_barrier_wait(start_barrier);
		for (i = 0; i < threads; i++) {
			int st;

			if (!processes)
				pthread_join(w[i].tid, NULL);
			else if (waitpid(w[i].pid, &st, 0) != w[i].pid || !WIFEXITED(st) || WEXITSTATUS(st))
				qc_die(1, "the worker process on CPU %d did not exit cleanly", w[i].cpu);
		}
		getrusage(processes ? RUSAGE_CHILDREN : RUSAGE_SELF, &ru1);
		pthread_barrier_destroy(start_barrier);

		per_thread = (uint64_t)rounds * (region_bytes / page_size);
		for (i = 0; i < threads; i++) {
			if (w[i].err)
				qc_die(1, "thread %lu on CPU %d: %s", i, w[i].cpu,
				    strerror(w[i].err));
			if (w[i].start_ns < first)
				first = w[i].start_ns;
			if (w[i].end_ns > last)
				last = w[i].end_ns;
			ns_per_fault += (double)(w[i].end_ns - w[i].start_ns) /
					per_thread;
		}
		ns_per_fault /= threads;
		faults = per_thread * threads;
		elapsed = last - first;
		printf("{\"run\":%lu,\"threads\":%lu,\"cpus\":[", run + 1,
		       threads);
		for (i = 0; i < threads; i++)
			printf("%s%d", i ? "," : "", w[i].cpu);
		printf("],\"mib_per_thread\":%lu,\"rounds\":%u,\"page_size\":%zu,"
		       "\"processes\":%s,\"sync_rounds\":%s,\"thp\":%s,\"faults\":%llu,\"minflt\":%ld,"
		       "\"elapsed_ns\":%llu,\"faults_per_sec\":%.1f,"
		       "\"ns_per_fault\":%.1f}\n",
		       mib, rounds, page_size, processes ? "true" : "false",
		       sync_rounds ? "true" : "false",
		       allow_thp ? "true" : "false",
		       (unsigned long long)faults,
		       ru1.ru_minflt - ru0.ru_minflt,
		       (unsigned long long)(last - first),
		       elapsed > 0 ? faults * 1e9 / elapsed : 0.0,
		       ns_per_fault);
		fflush(stdout);
	}
	munmap(w, shared_bytes);
	return 0;
}
