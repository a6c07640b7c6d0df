// SPDX-License-Identifier: GPL-2.0
/*
 * qc-cost: a QEMU TCG plugin (API version 4, QEMU 10.0; built for version 1
 * too, QEMU 7.2: qemu-plugin-api.h) that counts what a
 * guest x86-64 CPU executes between two marker instructions its program
 * runs: instructions, memory loads and memory stores, each split into
 * kernel and user, and the kernel's share attributed to the function of the
 * kernel's System.map it lies in.
 *
 *   qemu-system-x86_64 ... -plugin qc-cost.so,map=System.map,out=cost.jsonl[,entry=FUNCTION...]
 *
 * Markers (no effect on the guest; nothing else in a kernel or libc emits
 * them):  open  xchg %bx,%bx  (66 87 db)
 *         close xchg %cx,%cx  (66 87 c9)
 * They count in user mode (pft) and in kernel text beyond System.map, that
 * is module text (qc_hammer markers=1 brackets each drain_all_pages() call
 * with them); never in the kernel image, whose bytes could decode to them
 * only by accident.
 * Windows are per vCPU: a vCPU counts from the open marker it executes to
 * the close marker it executes, exclusive of both, and only its own
 * instructions (an interrupt or another task on that vCPU in between
 * counts; other vCPUs do not).  Each vCPU's counters are written only by
 * that vCPU's own thread (its callbacks, with its vcpu_index), so under
 * thread=multi nothing is lost or torn; they are read at close by the same
 * thread.  That is why this plugin uses per-instruction callbacks and not
 * inline ops, which in API v1 add to one shared counter without atomics.
 *
 * Kernel or user: by the instruction's address, the upper (kernel) half of
 * x86-64's address space or the lower.  An instruction counts once each
 * time it starts executing: one that faults and is restarted counts twice
 * (pft's store counts once for the fault and once when it completes), and
 * a `rep` string instruction counts once per iteration, as QEMU executes
 * it.  A load or store counts when the access is made.
 *
 * Speed: counting every instruction makes the guest several times slower,
 * so until the first open marker only the markers are instrumented.  The
 * first open flushes QEMU's translation cache (qemu_plugin_reset) so that
 * everything is instrumented from then on; a window that opened before that
 * flush completed is marked "complete":false and must not be used (the
 * guest runs a warm-up window first).
 *
 * Output: one JSON line per closed window, appended to out=FILE:
 *   {"vcpu":1,"window":2,"complete":true,
 *    "kernel":{"insns":N,"loads":N,"stores":N},"user":{...},
 *    "functions":{"name":[insns,loads,stores],...}}
 * ("functions": kernel functions with any count; "(outside System.map)"
 * collects module text and anything else beyond the map.)  With entry=F
 * (up to MAX_ENTRIES of them), each line also has "entries":{"F":N}: how
 * often the window executed F's first instruction, i.e. how often F was
 * entered (a recursive or looping jump back to its first byte would count
 * too; kernel functions do not do that).  "opener":"user"|"module" says
 * which kind of code executed the open marker.
 *
 * The opener's task: when System.map has __switch_to_asm, each line also
 * has "opener_task":{"kernel":{...},"switches":N,"entries":{...},
 * "functions":{...}}, the kernel counts of the task that executed the open
 * marker alone (interrupts taken while it ran included), so that a window
 * in which that task sleeps (a drain waiting for its grace period or its
 * work items) separates its own work from whatever the vCPU ran meanwhile.
 * Which task runs is read off the context switch itself: __switch_to_asm
 * stores the outgoing task's stack pointer with movq %rsp, TASK_threadsp(%rdi)
 * and loads the incoming one's with movq TASK_threadsp(%rsi), %rsp, so the
 * address of those two accesses is &task->thread.sp, one per task.  The
 * opener is the outgoing task of the window's first switch (it ran from the
 * marker until then); "switches" counts the switches the window saw.  A
 * window in which not every entry of __switch_to_asm showed both accesses
 * is refused: this kernel's switch is not the one the plugin knows.
 * Interrupts: "opener_task" also has "irq":{insns,loads,stores} and
 * "irq_functions":{...}, what the opener's task ran inside interrupts, whose
 * number follows the wall clock (which TCG stretches with the host's load),
 * not the guest's work.  Each vCPU keeps a stack of what the running task
 * is inside: an interrupt from the first instruction of its entry stub
 * (asm_sysvec_*, asm_common_interrupt, asm_spurious_interrupt), an
 * exception from asm_exc_*'s (not asm_exc_nmi's, whose iretq is its own),
 * each popped by the iretq at native_irq_return_iret they all return by.
 * An instruction counts in "irq" when any level is an interrupt (a page
 * fault inside the tick is the tick's).  A user instruction empties the
 * stack (an iretq with nothing entered is a syscall's return: ignored); at
 * a context switch the opener's stack is kept for its return and another
 * task starts with none (a fault that sleeps, a tick that preempts).
 * Errors: one "quietcore: error: qc-cost: ..." line on stderr and QEMU
 * exits non-zero: bad arguments or System.map (at load), a marker out of
 * order, or no window ever closed (at exit) -- never an empty or zero
 * result passed off as a count.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksyms.h"
#include "plugin-util.h"
#include "qc-util.h"
#include "qemu-plugin-api.h"

QC_PLUGIN_EXPORT int qemu_plugin_version = QC_PLUGIN_API_VERSION;
const char *const plugin_name = "qc-cost";

static const unsigned char open_marker[] = { 0x66, 0x87, 0xdb };
static const unsigned char close_marker[] = { 0x66, 0x87, 0xc9 };

enum { USER, KERNEL };
enum { INSNS, LOADS, STORES, NCOUNT };
enum { MAX_ENTRIES = 8 };

struct vcpu {
	int open;		/* in a window */
	int complete;		/* fully instrumented since the open */
	int by_module;		/* the open marker was in module text */
	uint64_t entries[MAX_ENTRIES];	/* entries of each entry= function */
	unsigned long window;	/* windows opened so far */
	uint64_t count[2][NCOUNT];	/* [USER|KERNEL][INSNS|LOADS|STORES] */
	uint64_t *fn;		/* per function: NCOUNT counters, the opener's NCOUNT, the opener's in interrupts */
	/* The opener's task (see the top comment). */
	uint64_t opener;	/* &thread.sp of the opener, 0 until its first switch out */
	int in_opener;		/* the opener's task is running */
	uint64_t task_count[NCOUNT];	/* its kernel counts */
	uint64_t task_entries[MAX_ENTRIES];
	uint64_t switch_entries;	/* entries of __switch_to_asm */
	uint64_t switches_out, switches_in;	/* its two stack-pointer accesses */
	/*
	 * The exceptions and interrupts the running task is inside (see
	 * "Interrupts" at the top): bit i of ctx_kinds set when level i (of
	 * ctx_depth) is an interrupt; saved_*: the opener's, while another
	 * task runs.
	 */
	uint64_t ctx_kinds, saved_kinds;
	unsigned int ctx_depth, saved_depth;
	uint64_t irq_count[NCOUNT];	/* the opener's kernel counts inside interrupts */
} __attribute__((aligned(64)));	/* one vCPU per cache line: no false sharing */

static qemu_plugin_id_t self;
static struct ksyms ksyms;
static size_t nfn;		/* ksyms.n + 1: the last is "outside the map" */
static struct vcpu *vcpus;
static unsigned int nvcpus;
static FILE *out;
static const char *out_path;
/* entry=FUNCTION arguments: the name and its System.map index. */
static const char *entry_name[MAX_ENTRIES];
static long entry_sym[MAX_ENTRIES];
static unsigned int nentries;
/* __switch_to_asm's System.map index, or -1: no opener_task in the output. */
static long switch_sym = -1;
/* Per System.map symbol: what its first instruction is (CTX_*), or 0. */
enum { CTX_IRQ = 1, CTX_EXC, CTX_IRET };
static unsigned char *ctx_kind;
enum { FN_SETS = 3 };	/* per function: the window's, the opener's, the opener's in interrupts */

/* 0: only markers instrumented; 1: flush requested; 2: all instrumented. */
static atomic_int instrumented;
static atomic_ulong windows_closed;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
static void on_qemu_exit(qemu_plugin_id_t id, void *udata);

/*
 * What an instrumented instruction is: 0 for user, 1 + the index of its
 * kernel function otherwise (nfn - 1: outside System.map).  Passed as the
 * callbacks' userdata so that they need no lookup.
 */
static uintptr_t insn_class(uint64_t vaddr)
{
	long i;

	if (!(vaddr >> 63))
		return 0;
	i = ksyms_find(&ksyms, vaddr);
	return 1 + (i < 0 ? nfn - 1 : (size_t)i);
}

static struct vcpu *vcpu_of(unsigned int index)
{
	return index < nvcpus ? &vcpus[index] : NULL;
}

/* Inside an interrupt: any level of the stack is one. */
static int in_irq(const struct vcpu *c)
{
	return c->ctx_depth && (c->ctx_kinds & ((c->ctx_depth >= 64 ? 0 : 1ull << c->ctx_depth) - 1));
}

/*
 * A kernel instruction or access (@what) in System.map function @k (from
 * 1): in the window's counts and the function's, and, while the opener's
 * task runs, in its counts too, and inside an interrupt in those of that.
 */
static inline void count_kernel(struct vcpu *c, uintptr_t k, int what)
{
	uint64_t *fn = &c->fn[(k - 1) * FN_SETS * NCOUNT];

	c->count[KERNEL][what]++;
	fn[what]++;
	if (!c->in_opener)
		return;
	c->task_count[what]++;
	fn[NCOUNT + what]++;
	if (in_irq(c)) {
		c->irq_count[what]++;
		fn[2 * NCOUNT + what]++;
	}
}

static void on_insn(unsigned int index, void *udata)
{
	struct vcpu *c = vcpu_of(index);
	uintptr_t k = (uintptr_t)udata;

	if (!c || !c->open)
		return;
	if (!k) {
		c->count[USER][INSNS]++;
		/* user mode: inside no exception or interrupt */
		c->ctx_depth = 0;
		c->ctx_kinds = 0;
		return;
	}
	count_kernel(c, k, INSNS);
}

static void on_mem(unsigned int index, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	struct vcpu *c = vcpu_of(index);
	uintptr_t k = (uintptr_t)udata;
	int what = qemu_plugin_mem_is_store(info) ? STORES : LOADS;

	(void)vaddr;
	if (!c || !c->open)
		return;
	if (!k) {
		c->count[USER][what]++;
		return;
	}
	count_kernel(c, k, what);
}

/*
 * An exception's or interrupt's entry (udata: CTX_EXC or CTX_IRQ) or its
 * return (CTX_IRET, the iretq at native_irq_return_iret). A return with
 * nothing entered is a syscall's that could not use sysret: ignored.
 */
static void on_ctx(unsigned int index, void *udata)
{
	struct vcpu *c = vcpu_of(index);

	if (!c || !c->open)
		return;
	if ((uintptr_t)udata == CTX_IRET) {
		if (c->ctx_depth) {
			c->ctx_depth--;
			c->ctx_kinds &= ~(1ull << (c->ctx_depth < 64 ? c->ctx_depth : 63));
		}
		return;
	}
	if (c->ctx_depth < 64 && (uintptr_t)udata == CTX_IRQ)
		c->ctx_kinds |= 1ull << c->ctx_depth;
	if (c->ctx_depth < 64)
		c->ctx_depth++;
}

/* __switch_to_asm entered: a context switch begins on this vCPU. */
static void on_switch_enter(unsigned int index, void *udata)
{
	struct vcpu *c = vcpu_of(index);

	(void)udata;
	if (c && c->open)
		c->switch_entries++;
}

/*
 * One of __switch_to_asm's two stack-pointer accesses (udata: SWITCH_OUT
 * or SWITCH_IN).  Out, movq %rsp, TASK_threadsp(%rdi): VADDR is
 * &prev->thread.sp, and the window's first switch out is its opener's,
 * which ran from the open marker to here.  In, movq TASK_threadsp(%rsi),
 * %rsp: VADDR is &next->thread.sp.
 */
enum { SWITCH_OUT = 1, SWITCH_IN };

static void on_switch(unsigned int index, qemu_plugin_meminfo_t info,
		      uint64_t vaddr, void *udata)
{
	struct vcpu *c = vcpu_of(index);

	(void)info;
	if (!c || !c->open)
		return;
	if ((uintptr_t)udata == SWITCH_OUT) {
		c->switches_out++;
		if (!c->opener)
			c->opener = vaddr;
		if (vaddr == c->opener) {
			/* what it is inside, for its switch back in */
			c->saved_kinds = c->ctx_kinds;
			c->saved_depth = c->ctx_depth;
		}
	} else {
		c->switches_in++;
		c->in_opener = vaddr == c->opener;
		/* another task's levels are not known: none */
		c->ctx_kinds = c->in_opener ? c->saved_kinds : 0;
		c->ctx_depth = c->in_opener ? c->saved_depth : 0;
	}
}

static void on_reset_done(qemu_plugin_id_t id)
{
	/* The reset dropped every callback: put ours back. */
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	atomic_store(&instrumented, 2);
}

static void on_open(unsigned int index, void *udata)
{
	struct vcpu *c = vcpu_of(index);
	int want = 0;

	if (!c) {
		plugin_fail("open marker on vCPU %u, beyond the %u vCPUs QEMU announced", index, nvcpus);
		return;
	}
	if (c->open) {
		plugin_fail("vCPU %u executed the open marker twice without a close marker in between (window %lu)",
		     index, c->window);
		return;
	}
	memset(c->count, 0, sizeof(c->count));
	memset(c->entries, 0, sizeof(c->entries));
	c->by_module = udata != NULL;
	memset(c->fn, 0, nfn * FN_SETS * NCOUNT * sizeof(*c->fn));
	memset(c->task_count, 0, sizeof(c->task_count));
	memset(c->irq_count, 0, sizeof(c->irq_count));
	/* the open marker is a user instruction: inside nothing */
	c->ctx_kinds = c->saved_kinds = 0;
	c->ctx_depth = c->saved_depth = 0;
	memset(c->task_entries, 0, sizeof(c->task_entries));
	c->opener = 0;
	c->in_opener = 1;
	c->switch_entries = c->switches_out = c->switches_in = 0;
	c->window++;
	c->complete = atomic_load(&instrumented) == 2;
	c->open = 1;
	if (atomic_compare_exchange_strong(&instrumented, &want, 1))
		qemu_plugin_reset(self, on_reset_done);
}

/* udata: the index into entry_name[] of the function this insn starts. */
static void on_entry(unsigned int index, void *udata)
{
	struct vcpu *c = vcpu_of(index);

	if (c && c->open) {
		c->entries[(uintptr_t)udata]++;
		if (c->in_opener)
			c->task_entries[(uintptr_t)udata]++;
	}
}

static void put_counts(const uint64_t *n)
{
	fprintf(out, "{\"insns\":%llu,\"loads\":%llu,\"stores\":%llu}",
		(unsigned long long)n[INSNS], (unsigned long long)n[LOADS],
		(unsigned long long)n[STORES]);
}

static void put_entries(const uint64_t *n)
{
	unsigned int i;

	fputs(",\"entries\":{", out);
	for (i = 0; i < nentries; i++)
		fprintf(out, "%s\"%s\":%llu", i ? "," : "", entry_name[i],
			(unsigned long long)n[i]);
	fputc('}', out);
}

/* ",KEY":{name:[insns,loads,stores],...}: counter set SET of each. */
static void put_functions(const struct vcpu *c, int set, const char *key)
{
	const char *sep = "";
	size_t i;

	fprintf(out, ",\"%s\":{", key);
	for (i = 0; i < nfn; i++) {
		const uint64_t *n = &c->fn[i * FN_SETS * NCOUNT + set * NCOUNT];

		if (!n[INSNS] && !n[LOADS] && !n[STORES])
			continue;
		fputs(sep, out);
		qc_json_str(out, i < ksyms.n ? ksyms.sym[i].name : "(outside System.map)");
		fprintf(out, ":[%llu,%llu,%llu]", (unsigned long long)n[INSNS],
			(unsigned long long)n[LOADS], (unsigned long long)n[STORES]);
		sep = ",";
	}
	fputc('}', out);
}

static void on_close(unsigned int index, void *udata)
{
	struct vcpu *c = vcpu_of(index);

	(void)udata;
	if (!c || !c->open) {
		plugin_fail("vCPU %u executed the close marker with no window open", index);
		return;
	}
	c->open = 0;
	if (switch_sym >= 0 && c->complete &&
	    (c->switches_out != c->switch_entries || c->switches_in != c->switch_entries)) {
		plugin_fail("vCPU %u window %lu entered __switch_to_asm %llu times but saw %llu stack switches out and %llu in: this kernel's context switch is not the one the plugin reads (movq %%rsp, TASK_threadsp(%%rdi); movq TASK_threadsp(%%rsi), %%rsp)",
		     index, c->window, (unsigned long long)c->switch_entries,
		     (unsigned long long)c->switches_out, (unsigned long long)c->switches_in);
		return;
	}
	pthread_mutex_lock(&out_lock);
	fprintf(out, "{\"vcpu\":%u,\"window\":%lu,\"complete\":%s,\"opener\":\"%s\",\"kernel\":",
		index, c->window, c->complete ? "true" : "false",
		c->by_module ? "module" : "user");
	put_counts(c->count[KERNEL]);
	fputs(",\"user\":", out);
	put_counts(c->count[USER]);
	if (nentries)
		put_entries(c->entries);
	put_functions(c, 0, "functions");
	if (switch_sym >= 0) {
		fputs(",\"opener_task\":{\"kernel\":", out);
		put_counts(c->task_count);
		fprintf(out, ",\"switches\":%llu", (unsigned long long)c->switches_in);
		if (nentries)
			put_entries(c->task_entries);
		put_functions(c, 1, "functions");
		fputs(",\"irq\":", out);
		put_counts(c->irq_count);
		put_functions(c, 2, "irq_functions");
		fputc('}', out);
	}
	fputs("}\n", out);
	if (fflush(out))
		plugin_fail("cannot write '%s': %s", out_path, strerror(errno));
	pthread_mutex_unlock(&out_lock);
	atomic_fetch_add(&windows_closed, 1);
}

/*
 * The first N (at most 4) bytes of an instruction into B; 0 when it is
 * shorter or its bytes cannot be read. API version 3 copies them out; 1
 * hands out a pointer.
 */
static int insn_bytes(const struct qemu_plugin_insn *insn, unsigned char *b, size_t n)
{
	if (qemu_plugin_insn_size(insn) < n)
		return 0;
#if QC_PLUGIN_API_VERSION >= 3
	return qemu_plugin_insn_data(insn, b, n) == n;
#else
	memcpy(b, qemu_plugin_insn_data(insn), n);
	return 1;
#endif
}

static int is_marker(const struct qemu_plugin_insn *insn, const unsigned char *m)
{
	unsigned char b[3];

	return qemu_plugin_insn_size(insn) == 3 && insn_bytes(insn, b, 3) && !memcmp(b, m, 3);
}

/*
 * REX.W OPCODE with a ModRM of %rsp and a displacement from register RM:
 * 48 89 67/a7 is movq %rsp, disp(%rdi); 48 8b 66/a6 is movq disp(%rsi), %rsp.
 */
static int is_rsp_move(const struct qemu_plugin_insn *insn, unsigned char opcode, int rm)
{
	unsigned char b[4];
	int mod;

	if (!insn_bytes(insn, b, 4) || b[0] != 0x48 || b[1] != opcode)
		return 0;
	mod = b[2] >> 6;
	return (mod == 1 || mod == 2) && ((b[2] >> 3) & 7) == 4 && (b[2] & 7) == rm;
}

/* Where a marker may be: user code, or kernel text beyond System.map. */
static int marker_place(uint64_t vaddr)
{
	return !(vaddr >> 63) || ksyms_find(&ksyms, vaddr) < 0;
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	int all = atomic_load(&instrumented) == 2;
	unsigned int e;

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
		void *k;

		if (is_marker(insn, open_marker) && marker_place(vaddr)) {
			/* userdata non-NULL: opened by module text */
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_open, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)(vaddr >> 63));
			continue;
		}
		if (is_marker(insn, close_marker) && marker_place(vaddr)) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_close,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
			continue;
		}
		if (!all)
			continue;
		k = (void *)insn_class(vaddr);
		/* (before on_insn: an entry counts in its interrupt, an iretq too) */
		if ((uintptr_t)k > 1 && (uintptr_t)k - 1 < ksyms.n && ctx_kind[(uintptr_t)k - 1] &&
		    vaddr == ksyms.sym[(uintptr_t)k - 1].addr) {
			unsigned char kind = ctx_kind[(uintptr_t)k - 1];

			if (kind == CTX_IRET)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS, k);
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_ctx, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)kind);
			if (kind == CTX_IRET) {
				qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
								 QEMU_PLUGIN_MEM_RW, k);
				continue;
			}
		}
		if (switch_sym >= 0 && (uintptr_t)k == 1 + (uintptr_t)switch_sym) {
			if (vaddr == ksyms.sym[switch_sym].addr)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_switch_enter,
								       QEMU_PLUGIN_CB_NO_REGS, NULL);
			/*
			 * Each of the two makes one access, so MEM_RW: QEMU 7.2
			 * matches a load against a callback's W bit and never
			 * against an R-only one (seen here: an R callback on the
			 * load never ran).
			 */
			if (is_rsp_move(insn, 0x89, 7))
				qemu_plugin_register_vcpu_mem_cb(insn, on_switch, QEMU_PLUGIN_CB_NO_REGS,
								 QEMU_PLUGIN_MEM_RW, (void *)SWITCH_OUT);
			if (is_rsp_move(insn, 0x8b, 6))
				qemu_plugin_register_vcpu_mem_cb(insn, on_switch, QEMU_PLUGIN_CB_NO_REGS,
								 QEMU_PLUGIN_MEM_RW, (void *)SWITCH_IN);
		}
		for (e = 0; e < nentries; e++)
			if (vaddr >> 63 && ksyms.sym[entry_sym[e]].addr == vaddr)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_entry,
								       QEMU_PLUGIN_CB_NO_REGS,
								       (void *)(uintptr_t)e);
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn,
						       QEMU_PLUGIN_CB_NO_REGS, k);
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, k);
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	unsigned int i;

	(void)id;
	(void)udata;
	for (i = 0; i < nvcpus; i++)
		if (vcpus[i].open)
			plugin_fail("vCPU %u opened window %lu and never closed it (no close marker, xchg %%cx,%%cx)",
			     i, vcpus[i].window);
	if (!atomic_load(&windows_closed))
		plugin_fail("no counting window: the guest never executed the markers (open xchg %%bx,%%bx, close xchg %%cx,%%cx); nothing counted in '%s'",
		     out_path);
	if (out && fclose(out))
		plugin_fail("cannot write '%s': %s", out_path, strerror(errno));
	out = NULL;
	if (plugin_failed())
		_exit(1);
}

QC_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					 const qemu_info_t *info,
					 int argc, char **argv)
{
	const char *map = NULL;
	char err[512];
	unsigned int i;
	int a;

	self = id;
	for (a = 0; a < argc; a++) {
		const char *v;

		if ((v = plugin_arg(argv[a], "map")))
			map = v;
		else if ((v = plugin_arg(argv[a], "out")))
			out_path = v;
		else if ((v = plugin_arg(argv[a], "entry"))) {
			if (nentries == MAX_ENTRIES) {
				plugin_fail("more than %d entry= functions", MAX_ENTRIES);
				return -1;
			}
			entry_name[nentries++] = v;
		} else {
			plugin_fail("unknown argument '%s': use map=SYSTEM.MAP,out=FILE[,entry=FUNCTION]", argv[a]);
			return -1;
		}
	}
	if (!map || !out_path) {
		plugin_fail("missing %s: use -plugin qc-cost.so,map=SYSTEM.MAP,out=FILE",
		     !map ? "map=SYSTEM.MAP" : "out=FILE");
		return -1;
	}
	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		plugin_fail("needs qemu-system-x86_64 (this is %s%s)", info->target_name,
		     info->system_emulation ? "" : " user mode");
		return -1;
	}
	if (ksyms_load(&ksyms, map, err, sizeof(err))) {
		plugin_fail("%s", err);
		return -1;
	}
	nfn = ksyms.n + 1;
	for (i = 0; i < nentries; i++) {
		entry_sym[i] = ksyms_lookup(&ksyms, entry_name[i]);
		if (entry_sym[i] < 0) {
			plugin_fail("entry=%s: no such function in %s", entry_name[i], map);
			return -1;
		}
	}
	/* The index insn_class() gives its address, whatever its aliases. */
	switch_sym = ksyms_lookup(&ksyms, "__switch_to_asm");
	if (switch_sym >= 0)
		switch_sym = ksyms_find(&ksyms, ksyms.sym[switch_sym].addr);
	/*
	 * Interrupts: the first instruction of every IDT entry stub of an
	 * interrupt (asm_sysvec_*, asm_common_interrupt,
	 * asm_spurious_interrupt) or exception (asm_exc_*, but the NMI's,
	 * which returns by an iretq of its own), and the iretq every one of
	 * them returns by.
	 */
	ctx_kind = calloc(ksyms.n ? ksyms.n : 1, 1);
	if (!ctx_kind) {
		plugin_fail("out of memory");
		return -1;
	}
	for (i = 0; i < ksyms.n; i++) {
		const char *nm = ksyms.sym[i].name;

		if (!strncmp(nm, "asm_sysvec_", 11) || !strcmp(nm, "asm_common_interrupt") ||
		    !strcmp(nm, "asm_spurious_interrupt"))
			ctx_kind[i] = CTX_IRQ;
		else if (!strncmp(nm, "asm_exc_", 8) && strcmp(nm, "asm_exc_nmi"))
			ctx_kind[i] = CTX_EXC;
		else if (!strcmp(nm, "native_irq_return_iret"))
			ctx_kind[i] = CTX_IRET;
	}
	nvcpus = info->system.max_vcpus;
	vcpus = aligned_alloc(64, nvcpus * sizeof(*vcpus));
	if (!vcpus) {
		plugin_fail("out of memory");
		return -1;
	}
	memset(vcpus, 0, nvcpus * sizeof(*vcpus));
	for (i = 0; i < nvcpus; i++) {
		vcpus[i].fn = calloc(nfn * FN_SETS * NCOUNT, sizeof(*vcpus[i].fn));
		if (!vcpus[i].fn) {
			plugin_fail("out of memory");
			return -1;
		}
	}
	out = fopen(out_path, "w");
	if (!out) {
		plugin_fail("cannot create '%s': %s", out_path, strerror(errno));
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
