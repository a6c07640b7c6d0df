// SPDX-License-Identifier: GPL-2.0
/*
 * The hammer kthread: drain_all_pages(NULL) at a fixed rate from one CPU,
 * and the debugfs files that start, stop and watch a run.
 *
 * Call i of a run is due at start + i / rate, computed from the start each
 * time so that pacing never drifts. A call that overruns one or more later
 * slots is followed by one immediate call; the slots in between are counted
 * as skipped, never replayed as a burst. No call is issued at or after
 * start + duration, nor after a stop request.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "qc_hammer.h"

struct qc_run qc_run = {
	.lock = __SPIN_LOCK_UNLOCKED(qc_run.lock),
};

/* Serialises run start/stop/unload and keeps qc_run.samples alive. */
DEFINE_MUTEX(qc_ctl_lock);

/* The current or last run's kthread, under qc_ctl_lock. */
static struct task_struct *qc_task;

/*
 * Sleep until @due (CLOCK_MONOTONIC ns). Returns true when the run must
 * end instead: a stop request or kthread_stop().
 */
static bool qc_sleep_until(struct qc_run *r, u64 due)
{
	ktime_t expires = ns_to_ktime(due);

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop() || READ_ONCE(r->stop_req)) {
			__set_current_state(TASK_RUNNING);
			return true;
		}
		if (ktime_get_ns() >= due) {
			__set_current_state(TASK_RUNNING);
			return false;
		}
		schedule_hrtimeout_range(&expires, 0, HRTIMER_MODE_ABS);
	}
}

/*
 * The qc-cost TCG plugin's window markers (bench/plugin/qc-cost.c): two
 * instructions with no effect that the plugin recognises in module text.
 * With markers=1 each call is one counting window of the hammer's CPU, so
 * that the plugin counts the instructions of one drain_all_pages() call,
 * and everything else that CPU executes while the call waits.
 */
static __always_inline void qc_window_open(void)
{
	if (qc_markers)
		asm volatile("xchg %%bx, %%bx" ::: "memory");
}

static __always_inline void qc_window_close(void)
{
	if (qc_markers)
		asm volatile("xchg %%cx, %%cx" ::: "memory");
}

static int qc_hammer_fn(void *data)
{
	struct qc_run *r = data;
	u64 i = 0;

	while (i < r->total_slots) {
		u64 due = r->start_ns + div_u64(i * NSEC_PER_SEC, r->rate_hz);
		u64 t0, t1, late;

		if (qc_sleep_until(r, due))
			break;
		/*
		 * Hold a module reference across the call: while it is in
		 * flight (possibly stuck in flush_work()), rmmod fails with
		 * EAGAIN instead of waiting for it. Once rmmod has begun,
		 * this fails and the run ends.
		 */
		if (!try_module_get(THIS_MODULE))
			break;
		t0 = ktime_get_ns();
		qc_stats_begin(r, t0, t0 - due);
		qc_window_open();
		qc_drain_all_pages(NULL);
		qc_window_close();
		t1 = ktime_get_ns();
		qc_stats_end(r, t0, t1);
		module_put(THIS_MODULE);
		if (kthread_should_stop() || READ_ONCE(r->stop_req))
			break;

		/* The latest slot already due at t1; merge any missed ones. */
		late = div_u64((t1 - r->start_ns) * r->rate_hz, NSEC_PER_SEC);
		if (late > i + 1) {
			late = min(late, r->total_slots);
			spin_lock(&r->lock);
			r->skipped += late - (i + 1);
			spin_unlock(&r->lock);
			i = late;
		} else {
			i++;
		}
		cond_resched();
	}

	spin_lock(&r->lock);
	r->finish_ns = ktime_get_ns();
	spin_unlock(&r->lock);

	/* Wait for kthread_stop() from the next run or from unload. */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Reap a finished kthread. Caller holds qc_ctl_lock. */
static void qc_reap_locked(void)
{
	if (qc_task) {
		WRITE_ONCE(qc_run.stop_req, true);
		kthread_stop(qc_task);
		put_task_struct(qc_task);
		qc_task = NULL;
	}
}

static int qc_start(unsigned int secs)
{
	struct qc_run *r = &qc_run;
	unsigned int rate = READ_ONCE(qc_rate_hz);
	unsigned int cpu = READ_ONCE(qc_cpu);
	unsigned int stall_ms = READ_ONCE(qc_stall_threshold_ms);
	unsigned int keep = READ_ONCE(qc_max_samples);
	struct task_struct *task;
	u64 total, *samples;
	int ret = 0;

	if (secs > QC_MAX_DURATION_S || !rate || rate > QC_MAX_RATE_HZ ||
	    !stall_ms || stall_ms > QC_MAX_STALL_MS ||
	    !keep || keep > QC_MAX_SAMPLES || cpu >= nr_cpu_ids)
		return -EINVAL;
	total = (u64)rate * secs;

	mutex_lock(&qc_ctl_lock);
	if (qc_task) {
		bool finished;

		spin_lock(&r->lock);
		finished = r->finish_ns != 0;
		spin_unlock(&r->lock);
		if (!finished) {
			ret = -EBUSY;
			goto out;
		}
		qc_reap_locked();
	}
	if (!cpu_online(cpu)) {
		ret = -EINVAL;
		goto out;
	}

	samples = vmalloc(array_size(min_t(u64, total, keep), sizeof(u64)));
	if (!samples) {
		ret = -ENOMEM;
		goto out;
	}
	vfree(r->samples);

	spin_lock(&r->lock);
	r->samples = samples;
	r->max_samples = min_t(u64, total, keep);
	r->rate_hz = rate;
	r->duration_s = secs;
	r->cpu = cpu;
	r->stall_threshold_ms = stall_ms;
	r->stall_ns = (u64)stall_ms * NSEC_PER_MSEC;
	r->total_slots = total;
	r->stop_req = false;
	qc_stats_reset(r);
	spin_unlock(&r->lock);

	task = kthread_create_on_cpu(qc_hammer_fn, r, cpu, "qc_hammer/%u");
	if (IS_ERR(task)) {
		ret = PTR_ERR(task);
		spin_lock(&r->lock);
		r->start_ns = 0;
		spin_unlock(&r->lock);
		goto out;
	}
	get_task_struct(task);
	qc_task = task;

	spin_lock(&r->lock);
	r->start_ns = ktime_get_ns();
	r->end_ns = r->start_ns + (u64)secs * NSEC_PER_SEC;
	spin_unlock(&r->lock);
	wake_up_process(task);
	pr_info("run: %u s at %u calls/s on CPU %u, stall threshold %u ms\n",
		secs, rate, cpu, stall_ms);
out:
	mutex_unlock(&qc_ctl_lock);
	return ret;
}

/* Ask the kthread to stop issuing calls. Never waits for a call. */
static void qc_stop(void)
{
	struct qc_run *r = &qc_run;

	mutex_lock(&qc_ctl_lock);
	if (qc_task) {
		spin_lock(&r->lock);
		if (!r->finish_ns && !r->stop_req) {
			r->stop_ns = ktime_get_ns();
			WRITE_ONCE(r->stop_req, true);
		}
		spin_unlock(&r->lock);
		/*
		 * Ends the kthread's paced sleep at once. If it is inside
		 * drain_all_pages() instead, the kernel's own waits there
		 * treat this as a spurious wakeup and keep waiting.
		 */
		wake_up_process(qc_task);
	}
	mutex_unlock(&qc_ctl_lock);
}

static ssize_t qc_run_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	unsigned int secs;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 10, &secs);
	if (ret)
		return ret;
	if (!secs)
		qc_stop();
	else
		ret = qc_start(secs);
	return ret ? ret : count;
}

static const struct file_operations qc_run_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = qc_run_write,
	.llseek = noop_llseek,
};

static int qc_state_show(struct seq_file *m, void *v)
{
	struct qc_run *r = &qc_run;
	enum qc_run_state state;

	spin_lock(&r->lock);
	state = qc_state_locked(r, ktime_get_ns());
	spin_unlock(&r->lock);
	seq_printf(m, "%s\n", qc_state_name(state));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(qc_state);

static int qc_in_flight_us_show(struct seq_file *m, void *v)
{
	struct qc_run *r = &qc_run;
	u64 ns;

	spin_lock(&r->lock);
	ns = qc_in_flight_ns_locked(r, ktime_get_ns());
	spin_unlock(&r->lock);
	seq_printf(m, "%llu\n", div_u64(ns, NSEC_PER_USEC));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(qc_in_flight_us);

int qc_drain_init(struct dentry *dir)
{
	debugfs_create_file("run", 0200, dir, NULL, &qc_run_fops);
	debugfs_create_file("state", 0444, dir, NULL, &qc_state_fops);
	debugfs_create_file("in_flight_us", 0444, dir, NULL,
			    &qc_in_flight_us_fops);
	debugfs_create_u32("rate_hz", 0644, dir, &qc_rate_hz);
	debugfs_create_u32("cpu", 0644, dir, &qc_cpu);
	debugfs_create_u32("stall_threshold_ms", 0644, dir,
			   &qc_stall_threshold_ms);
	debugfs_create_u32("max_samples", 0644, dir, &qc_max_samples);
	return 0;
}

/*
 * Unload. The module reference taken around each call means rmmod cannot
 * get here while a call is in flight, so the kthread is asleep between
 * calls or about to fail try_module_get(): kthread_stop() returns promptly.
 */
void qc_drain_exit(void)
{
	mutex_lock(&qc_ctl_lock);
	qc_reap_locked();
	vfree(qc_run.samples);
	qc_run.samples = NULL;
	mutex_unlock(&qc_ctl_lock);
}
