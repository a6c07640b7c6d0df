// SPDX-License-Identifier: GPL-2.0
/*
 * qc-entry: a QEMU TCG plugin (API version 4, QEMU 10.0: qemu-plugin-api.h)
 * that says how much work an isolated CPU's kernel entry held when an
 * interrupt that RCU's forcing causes reached it (a reschedule IPI, an
 * irq_work IPI, a local timer tick), in guest instructions: the work
 * hardware would time, where TCG's clock does not (tracing/README.md,
 * "Hardware time").
 *
 *   qemu-system-x86_64 ... -plugin qc-entry.so,map=System.map,out=entry.jsonl,
 *       cpus=1-3,spin=bench/plugin/spin-wait.list[,rates=rates.jsonl]
 *
 * Per vCPU it counts the kernel instructions executed since the vCPU last
 * left an extended quiescent state: since it last ran user code, or left
 * one of the idle functions (do_idle, default_idle, default_idle_call,
 * cpuidle_enter_state: a vCPU there is idle, which RCU's forcing scan
 * sees as quiescent). Instructions in spin-waits, which grow with
 * emulated time and not with the work (spin-wait.list: lock slow paths,
 * csd waits), are counted apart. At the first instruction of
 * the first instruction of sysvec_reschedule_ipi, sysvec_irq_work and
 * sysvec_apic_timer_interrupt it notes the interrupt, and when the
 * stretch ends it writes one line for each that reached it on a vCPU of
 * cpus=:
 *
 *   {"vcpu":3,"vec":"RES","n":57,"kernel":123456,"spin":0,"prev":2345,"stretch":234567}
 *
 * vec and n: that vCPU's interrupts of that vector since boot (from 1),
 * the kernel's own count (/proc/interrupts RES, IWI, LOC) that the guest
 * writes into each trace, so that each traced vector entry is matched to
 * its line by order: the trace and the plugin share no clock. kernel: the
 * stretch so far when it came; stretch: the whole stretch, once it ended
 * (-1: it had not when QEMU exited, or more than MAX_PENDING interrupts
 * came in it); prev: the whole stretch before it (one that reaches a CPU
 * in user mode finds a new stretch, its own entry: the kernel entry the
 * forcing saw had ended). Lines come in the order the stretches end.
 *
 * rates=: how much slower than hardware the guest runs (scripts/time-scale.sh).
 * Without icount, TCG's guest clock is the host's monotonic clock, so the
 * host time a kernel stretch of a vCPU of cpus= took, over its
 * instructions, is its guest ns per instruction: the emulator's speed
 * and the host's scheduling of the vCPU's thread together. At exit, one
 * line per vCPU of cpus= and one for them all ("vcpu":-1), over the
 * stretches of RATE_MIN_INSNS or more:
 *
 *   {"vcpu":2,"stretches":812,"p10":5.1,"median":9.8,"p90":120}
 *
 * Counting is per translation block (one callback each time a block
 * starts, adding its instruction count), not per instruction: a block
 * left early by an exception or interrupt still counts whole, which can
 * only make a stretch longer, never shorter. Each vCPU's counters are
 * written only by its own thread (thread=multi safe).
 *
 * Errors: one "quietcore: error: qc-entry: ..." line on stderr and QEMU
 * exits non-zero: bad arguments, a System.map without the functions named
 * here, or no reschedule IPI ever reached a vCPU of cpus= (at exit).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ksyms.h"
#include "plugin-util.h"
#include "qc-util.h"
#include "qemu-plugin-api.h"

QC_PLUGIN_EXPORT int qemu_plugin_version = QC_PLUGIN_API_VERSION;
const char *const plugin_name = "qc-entry";

enum { MAX_VCPUS = 64, MAX_PENDING = 32 };
/* a shorter stretch's host time is mostly the clock reads' own */
#define RATE_MIN_INSNS 20000

/* The vectors counted: their handlers, and /proc/interrupts' names. */
enum { VEC_RES, VEC_IWI, VEC_LOC, NVEC };
static const char *const vec_fn[NVEC] = {
	"sysvec_reschedule_ipi", "sysvec_irq_work", "sysvec_apic_timer_interrupt"
};
static const char *const vec_name[NVEC] = { "RES", "IWI", "LOC" };
/* A block's class, in the low bits of its callback's userdata. */
enum { USER, KERNEL, SPIN, IDLE, CLASS_BITS = 2 };

static const char *const idle_fns[] = {
	"do_idle", "default_idle", "default_idle_call", "cpuidle_enter_state", NULL
};

/* An interrupt waiting for its stretch to end. */
struct pending {
	int vec;
	unsigned long n;
	uint64_t kernel, spin, prev;
};

struct vcpu {
	int in_kernel;
	uint64_t kernel, spin, prev;	/* this stretch; the one before */
	unsigned long count[NVEC];	/* interrupts of each vector so far */
	struct pending pending[MAX_PENDING];
	int npending;
	uint64_t start_ns;		/* rates=: this stretch's start, host clock */
	double *rate;			/* rates=: each long stretch's ns an insn */
	long nrate, rate_alloc;
} __attribute__((aligned(64)));

static struct ksyms ksyms;
static unsigned char *spin_sym;	/* per System.map index: a spin-wait */
static unsigned char *idle_sym;
static uint64_t vec_addr[NVEC];
static struct vcpu vcpus[MAX_VCPUS];
static unsigned char traced[MAX_VCPUS];
static FILE *out;
static const char *out_path;
static const char *rates_path;
static atomic_ulong lines;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void put_line(unsigned int index, const struct pending *p, long long stretch)
{
	pthread_mutex_lock(&out_lock);
	fprintf(out, "{\"vcpu\":%u,\"vec\":\"%s\",\"n\":%lu,\"kernel\":%llu,\"spin\":%llu,\"prev\":%llu,\"stretch\":%lld}\n",
		index, vec_name[p->vec], p->n, (unsigned long long)p->kernel, (unsigned long long)p->spin,
		(unsigned long long)p->prev, stretch);
	pthread_mutex_unlock(&out_lock);
	atomic_fetch_add(&lines, 1);
}

/* The stretch ended: its IPIs' lines, with its whole length. */
static void flush(unsigned int index, struct vcpu *v, long long stretch)
{
	int i;

	for (i = 0; i < v->npending; i++)
		put_line(index, &v->pending[i], stretch);
	v->npending = 0;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* rates=: the stretch that ends now, if timed and long enough. */
static void rate_note(unsigned int index, struct vcpu *v)
{
	uint64_t insns = v->kernel + v->spin;

	if (v->start_ns && insns >= RATE_MIN_INSNS && traced[index]) {
		v->rate = qc_grow(v->rate, v->nrate, &v->rate_alloc, sizeof(*v->rate));
		v->rate[v->nrate++] = (double)(now_ns() - v->start_ns) / (double)insns;
	}
	v->start_ns = 0;
}

static void on_block(unsigned int index, void *udata)
{
	uintptr_t u = (uintptr_t)udata;
	uint64_t n = u >> CLASS_BITS;
	int cls = (int)(u & ((1 << CLASS_BITS) - 1));
	struct vcpu *v;

	if (index >= MAX_VCPUS)
		return;
	v = &vcpus[index];
	switch (cls) {
	case USER:
	case IDLE:
		if (v->in_kernel || v->kernel || v->spin) {
			rate_note(index, v);
			flush(index, v, (long long)v->kernel);
			v->prev = v->kernel;
			v->kernel = v->spin = 0;
		}
		v->in_kernel = 0;
		break;
	case KERNEL:
	case SPIN:
		/* a stretch begins: rates= times it by the host clock */
		if (!v->in_kernel && rates_path)
			v->start_ns = now_ns();
		v->in_kernel = 1;
		if (cls == SPIN)
			v->spin += n;
		else
			v->kernel += n;
		break;
	}
}

static void on_vector(unsigned int index, void *udata)
{
	int vec = (int)(uintptr_t)udata;
	struct pending p;
	struct vcpu *v;

	if (index >= MAX_VCPUS)
		return;
	v = &vcpus[index];
	v->count[vec]++;
	if (!traced[index])
		return;
	p = (struct pending){ vec, v->count[vec], v->kernel, v->spin, v->prev };
	if (v->npending == MAX_PENDING)
		put_line(index, &p, -1);
	else
		v->pending[v->npending++] = p;
}

/* A block's class: by its first instruction's address (a block lies in one function's page). */
static uintptr_t block_class(uint64_t vaddr)
{
	long i;

	if (!(vaddr >> 63))
		return USER;
	i = ksyms_find(&ksyms, vaddr);
	if (i < 0)
		return KERNEL;	/* module text, or beyond the map */
	return idle_sym[i] ? IDLE : spin_sym[i] ? SPIN : KERNEL;
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	uint64_t vaddr;

	(void)id;
	if (!n)
		return;
	vaddr = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS,
					     (void *)(n << CLASS_BITS | block_class(vaddr)));
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t a = qemu_plugin_insn_vaddr(insn);
		int v;

		for (v = 0; v < NVEC; v++)
			if (a == vec_addr[v])
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_vector, QEMU_PLUGIN_CB_NO_REGS,
								       (void *)(uintptr_t)v);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void put_rates(FILE *f, int vcpu, double *r, long n)
{
	qsort(r, n, sizeof(*r), cmp_double);
	fprintf(f, "{\"vcpu\":%d,\"stretches\":%ld,\"p10\":%.3g,\"median\":%.3g,\"p90\":%.3g}\n", vcpu, n,
		n ? r[(n - 1) / 10] : 0, n ? r[(n - 1) / 2] : 0, n ? r[(n - 1) * 9 / 10] : 0);
}

/* rates=: each vCPU of cpus= (those that ran), then all of them. */
static void write_rates(void)
{
	double *all = NULL;
	long nall = 0, alloc = 0, k;
	unsigned int i;
	FILE *f = fopen(rates_path, "w");

	if (!f) {
		plugin_fail("cannot create '%s': %s", rates_path, strerror(errno));
		return;
	}
	for (i = 0; i < MAX_VCPUS; i++) {
		struct vcpu *v = &vcpus[i];

		if (!traced[i] || !v->nrate)
			continue;
		for (k = 0; k < v->nrate; k++) {
			all = qc_grow(all, nall, &alloc, sizeof(*all));
			all[nall++] = v->rate[k];
		}
		put_rates(f, (int)i, v->rate, v->nrate);
	}
	put_rates(f, -1, all, nall);
	free(all);
	if (fclose(f))
		plugin_fail("cannot write '%s': %s", rates_path, strerror(errno));
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	unsigned int i;

	(void)id;
	(void)udata;
	/* (the vCPUs are stopped: their stretches never ended) */
	for (i = 0; i < MAX_VCPUS; i++)
		flush(i, &vcpus[i], -1);
	if (rates_path)
		write_rates();
	if (!atomic_load(&lines))
		plugin_fail("no counted interrupt reached a vCPU of cpus=: nothing counted in '%s'", out_path);
	if (out && fclose(out))
		plugin_fail("cannot write '%s': %s", out_path, strerror(errno));
	out = NULL;
	if (plugin_failed())
		_exit(1);
}

/* Mark each System.map symbol named in @names (one a line, '#' comments),
   or in the NULL-terminated @fns, in @set; a compiler clone counts as its name. */
static int mark_names(unsigned char *set, const char *path, const char *const *fns)
{
	char line[256];
	size_t i, len;
	FILE *f = NULL;

	if (path && !(f = fopen(path, "r"))) {
		plugin_fail("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		const char *name;

		if (f) {
			if (!fgets(line, sizeof(line), f))
				break;
			line[strcspn(line, "#\r\n")] = '\0';
			len = strcspn(line, " \t");
			line[len] = '\0';
			if (!len)
				continue;
			name = line;
		} else {
			if (!*fns)
				break;
			name = *fns++;
		}
		len = strlen(name);
		for (i = 0; i < ksyms.n; i++)
			if (!strncmp(ksyms.sym[i].name, name, len) &&
			    (!ksyms.sym[i].name[len] || ksyms.sym[i].name[len] == '.'))
				set[i] = 1;
	}
	if (f)
		fclose(f);
	return 0;
}

QC_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					 int argc, char **argv)
{
	const char *map = NULL, *cpus = NULL, *spin = NULL, *v;
	char err[512];
	long r;
	int a;

	for (a = 0; a < argc; a++) {
		if ((v = plugin_arg(argv[a], "map")))
			map = v;
		else if ((v = plugin_arg(argv[a], "out")))
			out_path = v;
		else if ((v = plugin_arg(argv[a], "cpus")))
			cpus = v;
		else if ((v = plugin_arg(argv[a], "spin")))
			spin = v;
		else if ((v = plugin_arg(argv[a], "rates")))
			rates_path = v;
		else {
			plugin_fail("unknown argument '%s': use map=SYSTEM.MAP,out=FILE,cpus=LIST,spin=LIST_FILE[,rates=FILE]", argv[a]);
			return -1;
		}
	}
	if (!map || !out_path || !cpus || !spin) {
		plugin_fail("missing %s: use -plugin qc-entry.so,map=SYSTEM.MAP,out=FILE,cpus=LIST,spin=LIST_FILE",
		     !map ? "map=" : !out_path ? "out=" : !cpus ? "cpus=" : "spin=");
		return -1;
	}
	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		plugin_fail("needs qemu-system-x86_64 (this is %s)", info->target_name);
		return -1;
	}
	if (qc_cpulist_parse(cpus, traced, MAX_VCPUS) < 0) {
		plugin_fail("cpus=%s is not a CPU list below %d", cpus, MAX_VCPUS);
		return -1;
	}
	if (ksyms_load(&ksyms, map, err, sizeof(err))) {
		plugin_fail("%s", err);
		return -1;
	}
	for (a = 0; a < NVEC; a++) {
		r = ksyms_lookup(&ksyms, vec_fn[a]);
		if (r < 0) {
			plugin_fail("%s has no %s: not an x86-64 kernel this plugin knows", map, vec_fn[a]);
			return -1;
		}
		vec_addr[a] = ksyms.sym[r].addr;
	}
	spin_sym = calloc(ksyms.n, 1);
	idle_sym = calloc(ksyms.n, 1);
	if (!spin_sym || !idle_sym) {
		plugin_fail("out of memory");
		return -1;
	}
	if (mark_names(spin_sym, spin, NULL) || mark_names(idle_sym, NULL, idle_fns))
		return -1;
	out = fopen(out_path, "w");
	if (!out) {
		plugin_fail("cannot create '%s': %s", out_path, strerror(errno));
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
