// SPDX-License-Identifier: GPL-2.0
/*
 * The decoy: a kthread with nothing to do with the drain that interrupts
 * isolated CPUs while the hammer drains, so that the rig can prove it
 * names each interruption's sender rather than whatever was in flight.
 *
 *   echo "MASK ROUNDS INTERVAL_MS" > decoy   start: ROUNDS rounds, each
 *                                            one IPI and one work item to
 *                                            every CPU in MASK (hex), then
 *                                            a sleep of INTERVAL_MS
 *   echo stop > decoy                        stop it, and wait for its work
 *   cat decoy                                what it sent and what ran
 *
 * qc_decoy_ipi() and qc_decoy_work() are global and noinline so that the
 * function tracer and workqueue_execute_start name them; the kthread is
 * "qc_decoy", bound to the CPU that wrote the command (a housekeeping CPU).
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "qc_hammer.h"

#define QC_DECOY_CPUS	64

static DEFINE_MUTEX(qc_decoy_lock);
static struct task_struct *qc_decoy_task;
static unsigned long qc_decoy_mask;
static unsigned int qc_decoy_rounds, qc_decoy_interval_ms;
static atomic_t qc_decoy_ipis_sent, qc_decoy_works_queued;
static atomic_t qc_decoy_ipis_ran, qc_decoy_works_ran;
static struct work_struct qc_decoy_works[QC_DECOY_CPUS];

noinline void qc_decoy_ipi(void *info)
{
	atomic_inc(&qc_decoy_ipis_ran);
}

noinline void qc_decoy_work(struct work_struct *work)
{
	atomic_inc(&qc_decoy_works_ran);
}

static int qc_decoy_fn(void *unused)
{
	unsigned int round;
	int cpu;

	for (round = 0; round < qc_decoy_rounds && !kthread_should_stop(); round++) {
		for_each_set_bit(cpu, &qc_decoy_mask, QC_DECOY_CPUS) {
			if (!cpu_online(cpu) || cpu == raw_smp_processor_id())
				continue;
			/* No wait: the decoy must not depend on the target. */
			if (!smp_call_function_single(cpu, qc_decoy_ipi, NULL, 0))
				atomic_inc(&qc_decoy_ipis_sent);
			/* A work item still pending is not queued twice. */
			if (queue_work_on(cpu, system_wq, &qc_decoy_works[cpu]))
				atomic_inc(&qc_decoy_works_queued);
		}
		msleep_interruptible(qc_decoy_interval_ms);
	}
	while (!kthread_should_stop())
		msleep_interruptible(20);
	return 0;
}

static void qc_decoy_stop_locked(void)
{
	int cpu;

	if (qc_decoy_task) {
		kthread_stop(qc_decoy_task);
		qc_decoy_task = NULL;
	}
	for (cpu = 0; cpu < QC_DECOY_CPUS; cpu++)
		flush_work(&qc_decoy_works[cpu]);
}

static ssize_t qc_decoy_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	unsigned long mask;
	unsigned int rounds, interval;
	struct task_struct *t;
	char buf[64], extra;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (!strncmp(buf, "stop", 4)) {
		mutex_lock(&qc_decoy_lock);
		qc_decoy_stop_locked();
		mutex_unlock(&qc_decoy_lock);
		return count;
	}
	if (sscanf(buf, "%lx %u %u %c", &mask, &rounds, &interval, &extra) != 3 ||
	    !mask || !rounds || rounds > 1000000 || interval > 60000)
		return -EINVAL;

	mutex_lock(&qc_decoy_lock);
	qc_decoy_stop_locked();
	qc_decoy_mask = mask;
	qc_decoy_rounds = rounds;
	qc_decoy_interval_ms = interval;
	atomic_set(&qc_decoy_ipis_sent, 0);
	atomic_set(&qc_decoy_works_queued, 0);
	atomic_set(&qc_decoy_ipis_ran, 0);
	atomic_set(&qc_decoy_works_ran, 0);
	t = kthread_create(qc_decoy_fn, NULL, "qc_decoy");
	if (IS_ERR(t)) {
		mutex_unlock(&qc_decoy_lock);
		return PTR_ERR(t);
	}
	kthread_bind(t, raw_smp_processor_id());
	qc_decoy_task = t;
	wake_up_process(t);
	mutex_unlock(&qc_decoy_lock);
	return count;
}

static int qc_decoy_show(struct seq_file *m, void *v)
{
	mutex_lock(&qc_decoy_lock);
	seq_printf(m, "{\"mask\":\"%lx\",\"rounds\":%u,\"interval_ms\":%u,\"ipis_sent\":%d,\"works_queued\":%d,\"ipis_ran\":%d,\"works_ran\":%d}\n",
		   qc_decoy_mask, qc_decoy_rounds, qc_decoy_interval_ms,
		   atomic_read(&qc_decoy_ipis_sent), atomic_read(&qc_decoy_works_queued),
		   atomic_read(&qc_decoy_ipis_ran), atomic_read(&qc_decoy_works_ran));
	mutex_unlock(&qc_decoy_lock);
	return 0;
}

static int qc_decoy_open(struct inode *inode, struct file *file)
{
	return single_open(file, qc_decoy_show, NULL);
}

static const struct file_operations qc_decoy_fops = {
	.owner = THIS_MODULE,
	.open = qc_decoy_open,
	.read = seq_read,
	.write = qc_decoy_write,
	.llseek = seq_lseek,
	.release = single_release,
};

int qc_decoy_init(struct dentry *dir)
{
	int cpu;

	for (cpu = 0; cpu < QC_DECOY_CPUS; cpu++)
		INIT_WORK(&qc_decoy_works[cpu], qc_decoy_work);
	debugfs_create_file("decoy", 0644, dir, NULL, &qc_decoy_fops);
	return 0;
}

void qc_decoy_exit(void)
{
	mutex_lock(&qc_decoy_lock);
	qc_decoy_stop_locked();
	mutex_unlock(&qc_decoy_lock);
}
