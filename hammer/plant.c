// SPDX-License-Identifier: GPL-2.0
/*
 * Planted noise: a known number of work items or IPIs on a chosen CPU, so
 * that the rig can prove its traces and analyzer see such interruptions.
 *
 *   echo "work CPU K" > plant   K work items on CPU, one at a time
 *   echo "ipi CPU K"  > plant   K IPIs to CPU, one at a time
 *   echo "dwork CPU K" > plant  K delayed work items (1 jiffy) on CPU, one at
 *                               a time: the work runs on CPU, queued from
 *                               its timer's expiry, and is still the
 *                               planter's doing
 *   echo "iwork CPU K" > plant  K IPIs to CPU, each sent from an irq_work the
 *                               planter queued on its own CPU: the IPI goes
 *                               from that CPU's hardirq, where no frame of
 *                               the planter's is the sender's, and no event
 *                               shows who queued an irq_work, so the
 *                               analyzer must count each as unknown, its
 *                               sender named (never as nobody's)
 *   echo "clone CPU K" > plant  K IPIs to CPU, each sent by a work item run on
 *                               the writer's own CPU, whose function bears
 *                               the name a compiler gives a clone of the
 *                               planter's (qc_plant_write.part.0): its
 *                               kworker's stack holds no other frame of the
 *                               planter's, so the IPI is the planter's only
 *                               if clones are matched by their base name
 *   echo "bare CPU K" > plant   K reschedule vectors to CPU straight through
 *                               the APIC: no send probe sees them, so the
 *                               analyzer must count each without a sender
 *                               (unknown), and the verdict INCONCLUSIVE
 *
 * qc_planted_work(), qc_planted_ipi() and qc_planted_iw_ipi() are global
 * and noinline so that
 * workqueue_execute_start and the function tracer name them.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/workqueue.h>
#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/irq_vectors.h>

#include "qc_hammer.h"

#define QC_PLANT_MAX		1000000
/* A work item that has not run after this long ends the plant. */
#define QC_PLANT_TIMEOUT_MS	10000
/* A bare vector not counted by its CPU after this long ends the plant. */
#define QC_BARE_TIMEOUT_MS	2000

struct qc_plant {
	char kind[8];		/* "none", "work", "dwork", "ipi", "iwork", "clone" or "bare" */
	unsigned int cpu;
	unsigned int requested;
	unsigned int sent;	/* queued or IPIs sent */
	unsigned int local;	/* ipi: ran on the writer's own CPU, no IPI */
	int error;
};

/* Serialises plants; protects qc_last. */
static DEFINE_MUTEX(qc_plant_lock);
static struct qc_plant qc_last = { .kind = "none" };

static unsigned int qc_plant_cpu;
static atomic_t qc_plant_ran = ATOMIC_INIT(0);
static atomic_t qc_plant_off_cpu = ATOMIC_INIT(0);
static DECLARE_COMPLETION(qc_plant_done);
static DECLARE_WORK(qc_plant_work, qc_planted_work);
static DECLARE_DELAYED_WORK(qc_plant_dwork, qc_planted_dwork);

/*
 * A planted item ran here: counted, and off its CPU if so. Inlined into
 * each planted function, so that the function tracer and
 * workqueue_execute_start name that one, never a shared callee.
 */
static __always_inline void qc_plant_ran_here(void)
{
	if (raw_smp_processor_id() != READ_ONCE(qc_plant_cpu))
		atomic_inc(&qc_plant_off_cpu);
	atomic_inc(&qc_plant_ran);
}

noinline void qc_planted_work(struct work_struct *work)
{
	qc_plant_ran_here();
	complete(&qc_plant_done);
}

noinline void qc_planted_dwork(struct work_struct *work)
{
	qc_planted_work(work);
}

noinline void qc_planted_ipi(void *info)
{
	qc_plant_ran_here();
}

/* (not through qc_planted_ipi(): the function tracer would name the vector by it) */
noinline void qc_planted_iw_ipi(void *info)
{
	qc_plant_ran_here();
	complete(&qc_plant_done);
}

static call_single_data_t qc_plant_csd = CSD_INIT(qc_planted_iw_ipi, NULL);

/* The irq_work's handler, in the hardirq of the CPU that queued it. */
static void qc_plant_iw_send(struct irq_work *work)
{
	if (smp_call_function_single_async(READ_ONCE(qc_plant_cpu), &qc_plant_csd))
		complete(&qc_plant_done);	/* (counted as not run: the plant fails) */
}

/* Hard: on PREEMPT_RT too it runs in the hardirq, not the irq_work thread. */
static struct irq_work qc_plant_iw = IRQ_WORK_INIT_HARD(qc_plant_iw_send);

noinline void qc_planted_clone_ipi(void *info)
{
	qc_plant_ran_here();
}

static int qc_plant_clone_ret;

/*
 * A work function named as GCC names a part it splits off qc_plant_write()
 * (".part.N"): the symbol, as kallsyms and a stack show it, is a clone's.
 */
static void qc_plant_clone_send(struct work_struct *work) __asm__("qc_plant_write.part.0");
static noinline void qc_plant_clone_send(struct work_struct *work)
{
	qc_plant_clone_ret = smp_call_function_single(READ_ONCE(qc_plant_cpu),
						      qc_planted_clone_ipi, NULL, 1);
}

static DECLARE_WORK(qc_plant_clone_work, qc_plant_clone_send);

/* Each work item runs on the writer's CPU, which must not be the target. */
static int qc_plant_clones(struct qc_plant *p)
{
	unsigned int i, here;

	for (i = 0; i < p->requested; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		here = get_cpu();
		put_cpu();
		if (here == p->cpu)
			return -EINVAL;
		if (!queue_work_on(here, system_wq, &qc_plant_clone_work))
			return -EBUSY;
		p->sent++;
		flush_work(&qc_plant_clone_work);
		if (qc_plant_clone_ret)
			return qc_plant_clone_ret;
	}
	return 0;
}

/*
 * Each IPI is sent only after the one before it ran, so that the csd is
 * free again; the irq_work runs on the writer's CPU, which must not be
 * the target (the IPI would be a local call).
 */
static int qc_plant_irq_works(struct qc_plant *p)
{
	unsigned long timeout = msecs_to_jiffies(QC_PLANT_TIMEOUT_MS);
	unsigned int i;
	long left;

	for (i = 0; i < p->requested; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		reinit_completion(&qc_plant_done);
		if ((unsigned int)get_cpu() == p->cpu) {
			put_cpu();
			return -EINVAL;
		}
		irq_work_queue(&qc_plant_iw);
		put_cpu();
		p->sent++;
		left = wait_for_completion_killable_timeout(&qc_plant_done, timeout);
		if (left <= 0) {
			irq_work_sync(&qc_plant_iw);
			return left ? -EINTR : -ETIMEDOUT;
		}
		if (atomic_read(&qc_plant_ran) != (int)p->sent)
			return -EBUSY;
	}
	return 0;
}

/*
 * Each item is queued only after the previous one has finished (waited for
 * with flush_work()), so none is coalesced with another. The wait is
 * bounded: a CPU monopolised by a SCHED_FIFO task never runs its kworker.
 * @delayed: each deferred by a jiffy through its timer (queue_delayed_work_on).
 */
static int qc_plant_works(struct qc_plant *p, bool delayed)
{
	unsigned long timeout = msecs_to_jiffies(QC_PLANT_TIMEOUT_MS);
	struct work_struct *work = delayed ? &qc_plant_dwork.work : &qc_plant_work;
	unsigned int i;
	long left;
	bool queued;

	for (i = 0; i < p->requested; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		reinit_completion(&qc_plant_done);
		queued = delayed ? queue_delayed_work_on(p->cpu, system_wq, &qc_plant_dwork, 1) :
				   queue_work_on(p->cpu, system_wq, work);
		if (!queued)
			return -EBUSY;
		p->sent++;
		left = wait_for_completion_killable_timeout(&qc_plant_done,
							    timeout);
		if (left <= 0) {
			/* Dequeues it if it has not started; else waits. */
			if (delayed)
				cancel_delayed_work_sync(&qc_plant_dwork);
			else
				cancel_work_sync(work);
			return left ? -EINTR : -ETIMEDOUT;
		}
		flush_work(work);
	}
	return 0;
}

static int qc_plant_ipis(struct qc_plant *p)
{
	unsigned int i;
	int ret;

	for (i = 0; i < p->requested; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		/* On its own CPU the callback runs directly, without an IPI. */
		if ((unsigned int)get_cpu() == p->cpu)
			p->local++;
		ret = smp_call_function_single(p->cpu, qc_planted_ipi, NULL, 1);
		put_cpu();
		if (ret)
			return ret;
		p->sent++;
		cond_resched();
	}
	return 0;
}

/* A reschedule vector to @cpu past smp_send_reschedule() and its probes. */
static void qc_bare_resched(unsigned int cpu)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	__apic_send_IPI_mask(cpumask_of(cpu), RESCHEDULE_VECTOR);
#else
	apic->send_IPI(cpu, RESCHEDULE_VECTOR);
#endif
}

/*
 * Called right before each bare vector is sent (so that its probe's time
 * is never after the vector's entry on the target): the self-test's probe
 * on it (tracing/probes/plant.list) tells the analyzer when, so that a bare
 * vector merged with a real reschedule IPI pending at the same time (one
 * vector entry for both) is seen as merged, not as missing. Not a send:
 * the analyzer never takes it as any interruption's sender.
 */
noinline void qc_bare_sent(unsigned int cpu)
{
	barrier();
}

/*
 * Each vector is sent only once the target's RES count shows the one
 * before it handled: two bare ones pending at once would merge into one.
 */
static int qc_plant_bare(struct qc_plant *p)
{
	unsigned int i, before;
	unsigned long end;

	if (p->cpu == raw_smp_processor_id())
		return -EINVAL;
	for (i = 0; i < p->requested; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		before = READ_ONCE(per_cpu(irq_stat, p->cpu).irq_resched_count);
		qc_bare_sent(p->cpu);
		qc_bare_resched(p->cpu);
		p->sent++;
		end = jiffies + msecs_to_jiffies(QC_BARE_TIMEOUT_MS);
		while (READ_ONCE(per_cpu(irq_stat, p->cpu).irq_resched_count) == before) {
			if (time_after(jiffies, end))
				return -ETIMEDOUT;
			usleep_range(100, 200);
		}
		atomic_inc(&qc_plant_ran);
	}
	return 0;
}

static ssize_t qc_plant_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct qc_plant p = { };
	char buf[64];
	char extra;
	int ret;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%7s %u %u %c", p.kind, &p.cpu, &p.requested,
		   &extra) != 3)
		return -EINVAL;
	if (strcmp(p.kind, "work") && strcmp(p.kind, "dwork") && strcmp(p.kind, "ipi") &&
	    strcmp(p.kind, "iwork") && strcmp(p.kind, "clone") && strcmp(p.kind, "bare"))
		return -EINVAL;
	if (p.requested > QC_PLANT_MAX)
		return -EINVAL;

	if (mutex_lock_interruptible(&qc_plant_lock))
		return -EINTR;
	if (p.cpu >= nr_cpu_ids || !cpu_online(p.cpu)) {
		ret = -EINVAL;
		goto out;
	}
	WRITE_ONCE(qc_plant_cpu, p.cpu);
	atomic_set(&qc_plant_ran, 0);
	atomic_set(&qc_plant_off_cpu, 0);
	if (!strcmp(p.kind, "work") || !strcmp(p.kind, "dwork"))
		ret = qc_plant_works(&p, !strcmp(p.kind, "dwork"));
	else if (!strcmp(p.kind, "ipi"))
		ret = qc_plant_ipis(&p);
	else if (!strcmp(p.kind, "iwork"))
		ret = qc_plant_irq_works(&p);
	else if (!strcmp(p.kind, "clone"))
		ret = qc_plant_clones(&p);
	else
		ret = qc_plant_bare(&p);
	p.error = ret;
	qc_last = p;
out:
	mutex_unlock(&qc_plant_lock);
	return ret ? ret : count;
}

static int qc_plant_show(struct seq_file *m, void *v)
{
	int ran, off_cpu;

	mutex_lock(&qc_plant_lock);
	ran = atomic_read(&qc_plant_ran);
	off_cpu = atomic_read(&qc_plant_off_cpu);
	seq_printf(m, "{\"kind\":\"%s\",\"cpu\":%u,\"requested\":%u,\"sent\":%u,\"ran\":%d,\"off_cpu\":%d,\"local\":%u,\"error\":%d}\n",
		   qc_last.kind, qc_last.cpu, qc_last.requested, qc_last.sent,
		   ran, off_cpu, qc_last.local, qc_last.error);
	mutex_unlock(&qc_plant_lock);
	return 0;
}

static int qc_plant_open(struct inode *inode, struct file *file)
{
	return single_open(file, qc_plant_show, NULL);
}

static const struct file_operations qc_plant_fops = {
	.owner = THIS_MODULE,
	.open = qc_plant_open,
	.read = seq_read,
	.write = qc_plant_write,
	.llseek = seq_lseek,
	.release = single_release,
};

int qc_plant_init(struct dentry *dir)
{
	debugfs_create_file("plant", 0644, dir, NULL, &qc_plant_fops);
	return 0;
}

/* Nothing can be pending after a plant returns; make sure of it anyway. */
void qc_plant_exit(void)
{
	cancel_work_sync(&qc_plant_work);
	cancel_delayed_work_sync(&qc_plant_dwork);
	irq_work_sync(&qc_plant_iw);
	cancel_work_sync(&qc_plant_clone_work);
}
