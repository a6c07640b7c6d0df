// SPDX-License-Identifier: GPL-2.0
/*
 * qc_stretch: holds the CPU of the task that writes to /proc/qc_stretch in
 * one kernel entry for a known number of instructions, while another task
 * keeps RCU grace periods going: the known stretch that RCU's forcing of a
 * nohz_full CPU hits, for the hardware-time check (tests/guest/stretch.sh,
 * tracing/README.md, "Hardware time"). Guests only.
 *
 *   echo "loop N" > /proc/qc_stretch   N rounds of the loop in this write:
 *                                      a stretch of about
 *                                      QC_STRETCH_INSNS * N instructions
 *   echo "gp N" > /proc/qc_stretch     N synchronize_rcu() calls in a row
 *   echo "reset 0" > /proc/qc_stretch  forget the loops' guest times
 *   cat /proc/qc_stretch               "loops N shortest_us A longest_us B":
 *                                      the loops since the last reset, in
 *                                      guest time (TCG's, not hardware's)
 *
 * The loop neither sleeps nor calls cond_resched(): on a nohz_full CPU
 * with no other task, nothing but RCU's forcing (or an interrupt) ends
 * the stretch early, and nothing ends it at all: it runs to its end.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate.h>
#include <linux/uaccess.h>

/*
 * One round: 8 increments of a word in memory, and the loop's own
 * increment, compare and branch. Memory operands, not nops: TCG runs each
 * through its software TLB, so a stretch takes long enough in guest time
 * for RCU to force it even when it is short in instructions.
 */
#define QC_STRETCH_INSNS 11

/* The loops' guest times since the last reset: whether RCU could force them. */
static DEFINE_MUTEX(qc_stretch_lock);
static unsigned long loops;
static u64 shortest_ns, longest_ns;

static void qc_stretch_note(u64 ns)
{
	mutex_lock(&qc_stretch_lock);
	if (!loops || ns < shortest_ns)
		shortest_ns = ns;
	if (ns > longest_ns)
		longest_ns = ns;
	loops++;
	mutex_unlock(&qc_stretch_lock);
}

static noinline void qc_stretch_loop(unsigned long n)
{
	unsigned long i, word = 0;

	for (i = 0; i < n; i++)
		asm volatile("incq %0; incq %0; incq %0; incq %0; incq %0; incq %0; incq %0; incq %0"
			     : "+m"(word));
}

static ssize_t qc_stretch_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	char buf[48], what[8];
	unsigned long n, i;
	u64 t0;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%7s %lu", what, &n) != 2)
		return -EINVAL;
	if (!strcmp(what, "loop")) {
		t0 = ktime_get_ns();
		qc_stretch_loop(n);
		qc_stretch_note(ktime_get_ns() - t0);
	} else if (!strcmp(what, "reset")) {
		mutex_lock(&qc_stretch_lock);
		loops = shortest_ns = longest_ns = 0;
		mutex_unlock(&qc_stretch_lock);
	} else if (!strcmp(what, "gp")) {
		for (i = 0; i < n; i++)
			synchronize_rcu();
	} else {
		return -EINVAL;
	}
	return len;
}

static ssize_t qc_stretch_read(struct file *file, char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char buf[96];
	int n;

	mutex_lock(&qc_stretch_lock);
	n = scnprintf(buf, sizeof(buf), "loops %lu shortest_us %llu longest_us %llu\n",
		      loops, shortest_ns / NSEC_PER_USEC, longest_ns / NSEC_PER_USEC);
	mutex_unlock(&qc_stretch_lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct proc_ops qc_stretch_ops = {
	.proc_read = qc_stretch_read,
	.proc_write = qc_stretch_write,
};

static int __init qc_stretch_init(void)
{
	if (!proc_create("qc_stretch", 0600, NULL, &qc_stretch_ops))
		return -ENOMEM;
	pr_info("loop round %d instructions\n", QC_STRETCH_INSNS);
	return 0;
}

static void __exit qc_stretch_exit(void)
{
	remove_proc_entry("qc_stretch", NULL);
}

module_init(qc_stretch_init);
module_exit(qc_stretch_exit);
MODULE_AUTHOR("quietcore");
MODULE_DESCRIPTION("a kernel stretch of known length, for RCU forcing's hardware time");
MODULE_LICENSE("GPL");
