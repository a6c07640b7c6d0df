// SPDX-License-Identifier: GPL-2.0
/*
 * smc-race: cross-modifying code on x86, done as the Intel SDM says
 * (vol. 3, 8.1.3, "Handling Self- and Cross-Modifying Code"): one thread
 * stores new code and then sets a flag; the other waits for the flag,
 * executes a serializing instruction (CPUID), then runs the code. It must
 * run the new code. The code is "mov $imm32, %eax; ret" alone in an RWX
 * page; each round the writer stores two bytes of the immediate, DELAY
 * spins apart, while the reader keeps calling it; then the reader checks
 * the value it returns after the flag and CPUID. A wrong value is a
 * translation made from bytes older than the writer's stores, run after
 * them: under QEMU's multi-threaded TCG, one made while the page had no
 * translations (so no write protection) and linked after the second store
 * landed. docs/int3/README.md.
 *
 *   smc-race [-k] [ROUNDS [DELAY...]]   (writer on CPU 1, reader on CPU 2)
 *
 * -k: the reader also keeps calling a second function in the same page,
 * 2 KiB away, which no store touches, so that the page always holds a
 * translation the stores do not invalidate.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static volatile unsigned char *code;
static int (*fn)(void), (*keeper)(void);
static atomic_uint gen, ack;
static unsigned int expect;
static unsigned long delay, stale, persistent;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
}

static void serialize(void)
{
	unsigned int a = 0, b, c = 0, d;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) : : "memory");
}

static void *reader(void *arg)
{
	unsigned int seen = 0, g, got, prev = 0;

	(void)arg;
	pin(2);
	for (;;) {
		fn();	/* keep the code translated and running */
		if (keeper)
			keeper();
		g = atomic_load_explicit(&gen, memory_order_acquire);
		if (g == seen)
			continue;
		if (g == ~0U)
			return NULL;
		serialize();
		got = (unsigned int)fn();
		if (got != expect) {
			if (stale < 4)
				printf("smc-race: round %u: got %#06x, want %#06x (before it %#06x)\n",
				       g, got, expect, prev);
			stale++;
			serialize();
			if ((unsigned int)fn() != expect)
				persistent++;
		}
		prev = expect;
		seen = g;
		atomic_store_explicit(&ack, g, memory_order_release);
	}
}

int main(int argc, char **argv)
{
	int keep = argc > 1 && !strcmp(argv[1], "-k");
	unsigned long n, r, i;
	static const unsigned long delays[] = { 0, 100, 1000, 10000 };
	unsigned long d_list[16];
	int nd = 0, k;
	pthread_t t;

	argc -= keep;
	argv += keep;
	n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	for (k = 2; k < argc && nd < 16; k++)
		d_list[nd++] = strtoul(argv[k], NULL, 0);
	if (!nd)
		for (nd = 0; nd < 4; nd++)
			d_list[nd] = delays[nd];
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	/* mov $0, %eax; ret */
	memcpy((void *)code, "\xb8\x00\x00\x00\x00\xc3", 6);
	fn = (int (*)(void))code;
	if (keep) {
		memcpy((void *)(code + 2048), "\xb8\x07\x00\x00\x00\xc3", 6);
		keeper = (int (*)(void))(code + 2048);
	}
	expect = 0;
	pin(1);
	if (pthread_create(&t, NULL, reader, NULL))
		return 2;
	for (k = 0; k < nd; k++) {
		delay = d_list[k];
		stale = persistent = 0;
		for (r = 1; r <= n; r++) {
			unsigned int g = (unsigned int)(k * n + r);
			unsigned char b1 = (unsigned char)(g * 7 + 1), b2 = (unsigned char)(g * 13 + 3);

			code[1] = b1;
			for (i = 0; i < delay; i++)
				__asm__ volatile("" ::: "memory");
			code[2] = b2;
			expect = (unsigned int)b1 | (unsigned int)b2 << 8;
			atomic_store_explicit(&gen, g, memory_order_release);
			while (atomic_load_explicit(&ack, memory_order_acquire) != g)
				;
		}
		printf("smc-race%s: delay %lu: rounds %lu, stale %lu, still stale after a second CPUID %lu\n",
		       keep ? " -k" : "", delay, n, stale, persistent);
		fflush(stdout);
	}
	atomic_store_explicit(&gen, ~0U, memory_order_release);
	pthread_join(t, NULL);
	return 0;
}
