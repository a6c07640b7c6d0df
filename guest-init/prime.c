// SPDX-License-Identifier: GPL-2.0
/*
 * prime: fill the per-CPU page lists (pcplists) of the given CPUs.
 *
 *   prime [--kib N] [--cgroup DIR] CPULIST      e.g. prime 1-3
 *
 * A non-forced drain_all_pages() skips CPUs whose pcplists are empty, so an
 * isolated CPU must hold pages there before a run can show anything
 * (docs/design.md, step 3). For each CPU, one child process pins itself there,
 * faults in N KiB of anonymous memory (default 4096) and unmaps it: each
 * freed order-0 page goes to that CPU's pcplist until pcp->high, and the
 * excess goes back to the buddy allocator in batches. The child then exits
 * (its page tables and stack are freed there too), so nothing stays on the
 * CPU. Children run one after another, so each CPU is primed alone.
 *
 * The isolated CPUs are only allowed inside the isolated cpuset partition
 * (cpusets/isolate.sh): if pinning is refused, the child joins DIR
 * (default /sys/fs/cgroup/isolated) and tries again.
 *
 * Prints one line per CPU: "cpu N primed KiB". Exit 0 if every CPU was
 * primed, 1 otherwise, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qc-util.h"

#define MAX_CPUS 1024

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [--kib N] [--cgroup DIR] CPULIST (e.g. 1-3 or 1,2,3)\n", prog);
	exit(2);
}

static int pin(int cpu)
{
	cpu_set_t m;

	CPU_ZERO(&m);
	CPU_SET(cpu, &m);
	return sched_setaffinity(0, sizeof(m), &m);
}

/* Move the calling process into cgroup DIR ("0" means the writer). */
static int join_cgroup(const char *dir)
{
	char path[512];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* The child: runs on @cpu, frees @kib KiB there, exits. */
static int prime_cpu(int cpu, size_t kib, const char *cgroup)
{
	size_t len = kib * 1024, page = (size_t)sysconf(_SC_PAGESIZE), off;
	char *p;

	if (pin(cpu)) {
		int err = errno;

		/* EINVAL: the CPU is outside our cpuset; join the partition. */
		if (err != EINVAL || join_cgroup(cgroup) || pin(cpu)) {
			qc_die(1, "cannot run on cpu %d: %s%s%s", cpu, strerror(err),
			       err == EINVAL ? ", nor after joining " : "",
			       err == EINVAL ? cgroup : "");
		}
	}
	if (sched_getcpu() != cpu) {
		/* sched_setaffinity() migrates before returning; be sure. */
		sched_yield();
		if (sched_getcpu() != cpu)
			qc_die(1, "still not on cpu %d", cpu);
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		qc_die(1, "mmap %zu KiB: %s", kib, strerror(errno));
	/* One write per page: each fault takes an order-0 page on this CPU. */
	for (off = 0; off < len; off += page)
		p[off] = 1;
	/* Freed here, the pages land on this CPU's pcplist. */
	if (munmap(p, len))
		qc_die(1, "munmap: %s", strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char set[MAX_CPUS];
	const char *cgroup = "/sys/fs/cgroup/isolated";
	size_t kib = 4096;
	int i, cpu, failed = 0, any = 0;

	qc_prog = "prime";
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--kib") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);

			if (*end || v < 4 || v > 1024 * 1024)
				usage(argv[0]);
			kib = (size_t)v;
		} else if (!strcmp(argv[i], "--cgroup") && i + 1 < argc) {
			cgroup = argv[++i];
		} else {
			usage(argv[0]);
		}
	}
	if (i != argc - 1 || qc_cpulist_parse(argv[i], set, MAX_CPUS) < 0)
		usage(argv[0]);

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		pid_t pid;
		int status;

		if (!set[cpu])
			continue;
		any = 1;
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			qc_die(1, "fork: %s", strerror(errno));
		if (pid == 0)
			_exit(prime_cpu(cpu, kib, cgroup));
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("cpu %d failed\n", cpu);
			failed = 1;
		} else {
			printf("cpu %d primed %zu\n", cpu, kib);
		}
	}
	if (!any)
		usage(argv[0]);
	return failed;
}
