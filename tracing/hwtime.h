/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtime: would hardware have seen this RCU forcing? Under TCG the guest
 * runs tens of times slower than hardware while jiffies follow the host's
 * clock, so one short kernel entry can outlast RCU's forcing interval. The
 * qc-entry plugin (bench/plugin/qc-entry.c) counts, for each reschedule
 * IPI of an isolated vCPU, the kernel instructions of the whole stretch
 * it interrupted; at a stated rate (ns_per_insn) that is the stretch's
 * hardware duration. (The whole stretch, not the part before the IPI: on
 * hardware a stretch long enough is forced later in it, if not as early.) RCU forces a nohz_full CPU only when it saw the CPU
 * inside one stretch at two forcing scans at least jiffies_till_next_fqs
 * jiffies apart, more than (next_fqs - 1) tick periods of real time
 * (span_ns). A forced interruption whose stretch is shorter than that on
 * hardware is emulator-timed. tracing/README.md, "Hardware time".
 *
 * The plugin and the trace share no clock: the plugin numbers each vCPU's
 * reschedule IPIs, irq_work IPIs and local timer ticks from boot, as the
 * kernel's RES, IWI and LOC counts do, and the guest writes those counts
 * into the trace at its start and end ("qc: RES counts N0 N1 ..."), so
 * each traced vector entry's number is known. It writes "qc: counts read"
 * just before it reads them: an entry traced between that marker and the
 * counts' own may be in the counts or not, and the check and the
 * numbering allow for exactly those (hwtime_marker()).
 */
#ifndef QC_HWTIME_H
#define QC_HWTIME_H

#include <stdbool.h>
#include <stddef.h>

#define HWTIME_CPUS 64
/* The guest's marker just before it reads the counts (trace-lib.sh). */
#define HWTIME_READ_MARK "qc: counts read"

/* The vectors counted: the trace's name, the kernel's count's name. */
enum { HW_RES, HW_IWI, HW_LOC, HW_NVEC };
extern const char *const hwtime_vector[HW_NVEC];	/* "reschedule", ... */
extern const char *const hwtime_count[HW_NVEC];		/* "RES", ... */

struct entry_count {
	int vec;
	int vcpu;
	long n;				/* its number of that vector since boot */
	unsigned long long kernel, spin, prev;
	long long stretch;		/* the whole stretch it hit, -1: not known */
};

struct hwtime {
	bool measured;			/* entry counts were given */
	double ns_per_insn;		/* the stated hardware rate */
	unsigned long hz, next_fqs;	/* RCU's forcing interval, from the guest */
	unsigned long long span_ns;	/* the shortest span a force needs */
	struct entry_count *v;		/* sorted by vcpu, then n */
	long nv, alloc;
	/* pass 1, per vector and CPU: traced entries so far, the markers */
	long traced[HW_NVEC][HWTIME_CPUS];
	int nmarks[HW_NVEC];
	/*
	 * The guest reads its counts between a "qc: counts read" marker and
	 * the counts' own: an entry traced between the two may be in a count
	 * or not. reading: a read marker came since the vector's last counts;
	 * at_read: the traced entries at it;
	 * first_*: the first counts, and the traced entries it lies between.
	 */
	bool reading[HW_NVEC];
	long at_read[HW_NVEC][HWTIME_CPUS];
	long first_count[HW_NVEC][HWTIME_CPUS], first_lo[HW_NVEC][HWTIME_CPUS], first_hi[HW_NVEC][HWTIME_CPUS];
	long base[HW_NVEC][HWTIME_CPUS];	/* number of the one before the first traced */
	/* 1 the trace holds every one counted between the markers and each
	   entry's number is known, 0 it holds every one but which an entry
	   read at the same time as a count was is not known (so none is
	   numbered), -1 it does not hold them all; 0 also: no marker yet */
	int matched[HW_NVEC][HWTIME_CPUS];
	/* at the last marker: the kernel's count since the first, and the
	   trace's entries since the first, at most and at least */
	long kernel[HW_NVEC][HWTIME_CPUS], held_lo[HW_NVEC][HWTIME_CPUS], held_hi[HW_NVEC][HWTIME_CPUS];
};

/*
 * Read the plugin's @file and the guest's @thresholds "HZ:NEXT_FQS".
 * 0, or -1 with a one-line reason in @err.
 */
int hwtime_load(struct hwtime *h, const char *file, const char *thresholds,
		char *err, int errlen);
/* The vector HW_* of a trace's vector name ("reschedule"), or -1. */
int hwtime_vec(const char *name);
/* Pass 1: vector @vec entered on @cpu; a "qc: " marker's @text. */
void hwtime_entry(struct hwtime *h, int vec, int cpu);
void hwtime_marker(struct hwtime *h, const char *text);
/* The count of @cpu's @traced-th @vec in the trace (from 1), or NULL. */
const struct entry_count *hwtime_find(const struct hwtime *h, int vec, int cpu, long traced);
/* The number qc-entry gives @cpu's @traced-th @vec in the trace, or -1. */
long hwtime_number(const struct hwtime *h, int vec, int cpu, long traced);
/*
 * Did the trace hold, on @cpu, every vector the kernel counted between the
 * guest's first and last marker (its RES, IWI and LOC lines: the same
 * increments as the traced entries)? false, with a one-line reason in
 * @err, for the first vector it did not. A trace without the markers (from
 * before they were written) says nothing: true.
 */
bool hwtime_received_all(const struct hwtime *h, int cpu, char *err, size_t len);
/* Were @cpu's entries of every vector numbered? */
bool hwtime_numbered(const struct hwtime *h, int cpu);
void hwtime_free(struct hwtime *h);

#endif
