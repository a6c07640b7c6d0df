/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qc_hammer: shared declarations.
 *
 * main.c   module parameters, drain_all_pages() lookup, debugfs directory
 * drain.c  the hammer kthread and its run/stop/state control files
 * stats.c  per-call latency records and the JSON "stats" file
 * plant.c  planted noise: work items and IPIs on a chosen CPU
 * decoy.c  a kthread unrelated to the drain that interrupts CPUs meanwhile
 */
#ifndef QC_HAMMER_H
#define QC_HAMMER_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct dentry;
struct task_struct;
struct work_struct;
struct zone;

#define QC_MAX_RATE_HZ		10000
#define QC_MAX_DURATION_S	86400
#define QC_MAX_STALL_MS		3600000
#define QC_MAX_SAMPLES		2000000
/* Bucket k holds latencies in (2^(k-1), 2^k] us; bucket 0 is <= 1 us. */
#define QC_HIST_BUCKETS		40

/* Settings for the next run (module parameters, also in debugfs). */
extern unsigned int qc_rate_hz;
extern unsigned int qc_cpu;
extern unsigned int qc_stall_threshold_ms;
extern unsigned int qc_max_samples;
extern bool qc_markers;

extern void (*qc_drain_all_pages)(struct zone *zone);

enum qc_run_state {
	QC_IDLE,
	QC_RUNNING,
	QC_DONE,
};

/*
 * One run of the hammer. Settings are written under qc_ctl_lock before the
 * kthread starts and stay unchanged until the next run; results are
 * written by the kthread under @lock. samples[0..nsamples) never change
 * once counted, so a reader may copy them after reading nsamples under
 * @lock, as long as it holds qc_ctl_lock (which keeps the buffer alive).
 */
struct qc_run {
	unsigned int rate_hz;
	unsigned int duration_s;
	unsigned int cpu;
	unsigned int stall_threshold_ms;
	u64 stall_ns;
	u64 total_slots;
	u64 start_ns;		/* 0: no run yet */
	u64 end_ns;
	bool stop_req;

	spinlock_t lock;	/* the results below, and stop_ns */
	u64 stop_ns;		/* when stop was requested, 0 if not */
	u64 finish_ns;		/* when the kthread left its loop, 0 before */
	u64 in_flight_ns;	/* start of the call in flight, 0 if none */
	u64 calls;
	u64 skipped;
	u64 stalls;
	u64 sum_ns;
	u64 max_ns;
	u64 lag_max_ns;		/* latest start of a call after its slot */
	u64 hist[QC_HIST_BUCKETS];
	u64 *samples;
	u64 nsamples;
	u64 max_samples;
};

extern struct qc_run qc_run;
extern struct mutex qc_ctl_lock;

/* drain.c */
int qc_drain_init(struct dentry *dir);
void qc_drain_exit(void);

/* stats.c */
void qc_stats_reset(struct qc_run *r);
void qc_stats_begin(struct qc_run *r, u64 t0, u64 lag_ns);
void qc_stats_end(struct qc_run *r, u64 t0, u64 t1);
enum qc_run_state qc_state_locked(struct qc_run *r, u64 now);
const char *qc_state_name(enum qc_run_state state);
u64 qc_in_flight_ns_locked(struct qc_run *r, u64 now);
int qc_stats_init(struct dentry *dir);

/* plant.c: the callbacks are global and never inlined so traces name them */
void qc_planted_work(struct work_struct *work);
void qc_planted_dwork(struct work_struct *work);
void qc_planted_ipi(void *info);
void qc_planted_iw_ipi(void *info);
void qc_planted_clone_ipi(void *info);
void qc_bare_sent(unsigned int cpu);
int qc_plant_init(struct dentry *dir);
void qc_plant_exit(void);

/* decoy.c: likewise, so that traces name the decoy's callbacks */
void qc_decoy_ipi(void *info);
void qc_decoy_work(struct work_struct *work);
int qc_decoy_init(struct dentry *dir);
void qc_decoy_exit(void);

#endif /* QC_HAMMER_H */
