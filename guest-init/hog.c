// SPDX-License-Identifier: GPL-2.0
/*
 * hog --mib N: fault in N MiB of anonymous memory, one page at a time,
 * then exit. Sized past free memory it drives the kernel through direct
 * reclaim into the OOM killer: the "direct reclaim" drain trigger.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "qc-util.h"

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t mib, len, off;
	char *p;

	qc_prog = "hog";
	if (argc != 3 || strcmp(argv[1], "--mib") != 0 || atol(argv[2]) <= 0)
		qc_die(2, "give the MiB to fault in: hog --mib N");
	/* Be the OOM killer's first choice, never oslat or the rig. */
	FILE *adj = fopen("/proc/self/oom_score_adj", "w");

	if (adj) {
		fputs("1000", adj);
		fclose(adj);
	}
	mib = (size_t)atol(argv[2]);
	len = mib << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		qc_die(1, "mmap %zu MiB: %s", mib, strerror(errno));
	for (off = 0; off < len; off += page)
		p[off] = 1;
	printf("hog: touched %zu MiB\n", mib);
	return 0;
}
