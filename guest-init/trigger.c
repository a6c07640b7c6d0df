// SPDX-License-Identifier: GPL-2.0
/*
 * trigger: the audit's housekeeping operations that need more than a
 * write to /proc or /sys (guest-init/housekeeping-triggers.sh runs them).
 * Each one reaches its kernel path for real, through the kernel's own interface:
 *
 *   trigger tlb CPU MS CGROUP_PROCS
 *                             a task sharing this process's mm joins the
 *                             cgroup of CGROUP_PROCS and spins in user space
 *                             on CPU (an isolated one) while this process,
 *                             on a housekeeping CPU, mprotect()s the mm's
 *                             memory for MS ms: flush_tlb_mm_range() IPIs
 *   trigger membarrier N      N x membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED)
 *   trigger lru N WRITE_CPU SEAL_CPU
 *                             N x: write 64 pages to a memfd on WRITE_CPU,
 *                             seal it with F_SEAL_WRITE on SEAL_CPU:
 *                             lru_add_drain_all() (mm/memfd.c)
 *   trigger flushbufs DEV     reads 1 MiB of DEV through the page cache, then
 *                             ioctl(BLKFLSBUF): invalidate_bdev() ->
 *                             invalidate_bh_lrus() (blockdev --flushbufs)
 *   trigger migrate PID FROM TO
 *                             migrate_pages(2) of PID's pages from NUMA node
 *                             FROM to TO (mm/mempolicy.c: lru_add_drain_all()
 *                             and migrate_pages())
 *
 * Bad input: one line "trigger: error: ..." on stderr, exit 2. A kernel
 * that refuses the operation: one line naming the call, exit 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qc-util.h"

#define PAGES 64

/* A whole number in [lo, hi], or a one-line error naming @what. */
static long number(const char *s, const char *what, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		qc_die(2, "%s '%s' is not a whole number in %ld..%ld", what, s, lo, hi);
	return v;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- tlb ------------------------------------------------------------ */

/*
 * The isolated CPU may only run tasks of the isolated cgroup, and cgroups
 * hold whole thread groups: so the spinner is not a thread but a process
 * that shares this one's mm (clone(CLONE_VM) without CLONE_THREAD), moved
 * alone into CGROUP. The kernel flushes an mm's TLB entries on every CPU
 * that runs it, whichever task there does.
 */
static volatile int spin_stop, spin_running;
static volatile char *shared_page;
static long spin_cpu;
static const char *spin_cgroup;

static int spin(void *arg)
{
	char pid[24];
	cpu_set_t set;
	int fd;

	(void)arg;
	snprintf(pid, sizeof(pid), "%ld\n", (long)syscall(SYS_getpid));
	fd = open(spin_cgroup, O_WRONLY);
	if (fd < 0 || write(fd, pid, strlen(pid)) < 0) {
		spin_running = -1;
		return 1;
	}
	close(fd);
	CPU_ZERO(&set);
	CPU_SET(spin_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		spin_running = -2;
		return 1;
	}
	spin_running = 1;
	/* User space only: this CPU stays in the mm's cpumask, never lazy. */
	while (!spin_stop)
		(void)shared_page[0];
	return 0;
}

static int tlb(long cpu, long ms, const char *cgroup_procs)
{
	static char stack[64 << 10];
	long page = sysconf(_SC_PAGESIZE), n = 0;
	double end;
	int child;

	spin_cpu = cpu;
	spin_cgroup = cgroup_procs;
	if (access(cgroup_procs, W_OK))
		qc_die(2, "'%s' is not a writable cgroup.procs file", cgroup_procs);
	shared_page = mmap(NULL, page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (shared_page == MAP_FAILED)
		qc_die(1, "mmap: %s", strerror(errno));
	child = clone(spin, stack + sizeof(stack), CLONE_VM | SIGCHLD, NULL);
	if (child < 0)
		qc_die(1, "clone(CLONE_VM): %s", strerror(errno));
	while (!spin_running)
		usleep(1000);
	if (spin_running < 0) {
		waitpid(child, NULL, 0);
		qc_die(1, "the spinner could not %s", spin_running == -1 ?
		    "join the cgroup" : "be pinned to its CPU (not in the cgroup's cpuset?)");
	}
	usleep(20000);
	end = now_ms() + ms;
	/* Each protection change of a present page flushes it everywhere the
	   mm runs: flush_tlb_mm_range() -> an IPI to the spinner's CPU. */
	while (now_ms() < end) {
		if (mprotect((void *)shared_page, page, (n & 1) ? PROT_READ | PROT_WRITE : PROT_READ))
			qc_die(1, "mprotect: %s", strerror(errno));
		n++;
		usleep(1000);
	}
	mprotect((void *)shared_page, page, PROT_READ | PROT_WRITE);
	spin_stop = 1;
	waitpid(child, NULL, 0);
	printf("tlb: %ld mprotect() calls while a task of the same mm spun on CPU %ld\n", n, cpu);
	return 0;
}

/* ---- membarrier ----------------------------------------------------- */

static int membarrier(long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0))
			qc_die(1, "membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED): %s (CONFIG_MEMBARRIER?)",
			    strerror(errno));
	printf("membarrier: %ld global expedited barriers\n", n);
	return 0;
}

/* ---- lru: memfd sealing --------------------------------------------- */

static void pin_to(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		qc_die(1, "cannot run on CPU %ld: %s (not in this cgroup's cpuset?)", cpu, strerror(errno));
}

/*
 * F_SEAL_WRITE waits for pages with references beyond the page cache's
 * and mappings' (mm/memfd.c, memfd_wait_for_pins()). It drains this CPU's
 * LRU batch first; a page still in another CPU's batch holds such a
 * reference, so the kernel then calls lru_add_drain_all(): every CPU
 * whose batches hold pages is drained. Hence the pages are written on
 * WRITE_CPU and the seal is set from SEAL_CPU. (posix_fadvise(DONTNEED)
 * reaches lru_add_drain_all() too, but the guest's tinyconfig has no
 * CONFIG_ADVISE_SYSCALLS.)
 */
static int lru(long n, long write_cpu, long seal_cpu)
{
	static char page[4096];
	long i, k;

	if (write_cpu == seal_cpu)
		qc_die(2, "lru: WRITE_CPU and SEAL_CPU are the same CPU %ld: the seal would drain the batch locally", write_cpu);
	memset(page, 0x5a, sizeof(page));
	for (i = 0; i < n; i++) {
		int fd = memfd_create("qc-lru", MFD_ALLOW_SEALING);

		if (fd < 0)
			qc_die(1, "memfd_create: %s (CONFIG_MEMFD_CREATE?)", strerror(errno));
		pin_to(write_cpu);
		for (k = 0; k < PAGES; k++)
			if (write(fd, page, sizeof(page)) != sizeof(page))
				qc_die(1, "writing the memfd: %s", strerror(errno));
		pin_to(seal_cpu);
		if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE))
			qc_die(1, "fcntl(F_ADD_SEALS, F_SEAL_WRITE): %s", strerror(errno));
		close(fd);
	}
	printf("lru: %ld memfds of %d pages written on CPU %ld, sealed with F_SEAL_WRITE on CPU %ld\n",
	       n, PAGES, write_cpu, seal_cpu);
	return 0;
}

/* ---- flushbufs: a block device's buffer cache ------------------------ */

static int open_bdev(const char *dev)
{
	int fd = open(dev, O_RDONLY);
	unsigned long long size;

	if (fd < 0)
		qc_die(2, "cannot open block device '%s': %s", dev, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &size))
		qc_die(2, "'%s' is not a block device", dev);
	if (size < (1 << 20))
		qc_die(2, "block device '%s' is smaller than 1 MiB", dev);
	return fd;
}

static int flushbufs(const char *dev)
{
	static char buf[1 << 20];
	int fd = open_bdev(dev);

	if (read(fd, buf, sizeof(buf)) != sizeof(buf))
		qc_die(1, "cannot read 1 MiB of %s", dev);
	if (ioctl(fd, BLKFLSBUF, 0))
		qc_die(1, "ioctl(%s, BLKFLSBUF): %s", dev, strerror(errno));
	close(fd);
	printf("flushbufs: read 1 MiB of %s, BLKFLSBUF\n", dev);
	return 0;
}

/* ---- migrate -------------------------------------------------------- */

static int migrate(long pid, long from, long to)
{
	unsigned long old = 1UL << from, new = 1UL << to;
	long left;

	if (from == to)
		qc_die(2, "migrate: FROM and TO are the same node %ld", from);
	if (kill(pid, 0))
		qc_die(2, "migrate: no process %ld", pid);
	left = syscall(__NR_migrate_pages, pid, 8 * sizeof(old), &old, &new);
	if (left < 0)
		qc_die(1, "migrate_pages(%ld, node %ld -> %ld): %s (a guest with one NUMA node?)",
		    pid, from, to, strerror(errno));
	printf("migrate: pid %ld node %ld -> %ld, %ld pages not moved\n", pid, from, to, left);
	return 0;
}

static void __attribute__((noreturn)) usage(void)
{
	qc_die(2, "usage: trigger tlb CPU MS CGROUP_PROCS | membarrier N | lru N WRITE_CPU SEAL_CPU | flushbufs DEV | migrate PID FROM TO");
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	qc_prog = "trigger";

	if (!strcmp(op, "tlb") && argc == 5)
		return tlb(number(argv[2], "CPU", 0, ncpu - 1), number(argv[3], "MS", 1, 60000), argv[4]);
	if (!strcmp(op, "membarrier") && argc == 3)
		return membarrier(number(argv[2], "N", 1, 1000000));
	if (!strcmp(op, "lru") && argc == 5)
		return lru(number(argv[2], "N", 1, 1000000), number(argv[3], "WRITE_CPU", 0, ncpu - 1),
			   number(argv[4], "SEAL_CPU", 0, ncpu - 1));
	if (!strcmp(op, "flushbufs") && argc == 3)
		return flushbufs(argv[2]);
	if (!strcmp(op, "migrate") && argc == 5)
		return migrate(number(argv[2], "PID", 1, 1 << 22), number(argv[3], "FROM", 0, 63),
			       number(argv[4], "TO", 0, 63));
	usage();
}
