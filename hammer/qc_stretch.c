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
 *
 * The loop neither sleeps nor calls cond_resched(): on a nohz_full CPU
 * with no other task, nothing but RCU's forcing (or an interrupt) ends
 * the stretch early, and nothing ends it at all: it runs to its end.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
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

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%7s %lu", what, &n) != 2)
		return -EINVAL;
	if (!strcmp(what, "loop")) {
		qc_stretch_loop(n);
	} else if (!strcmp(what, "gp")) {
		for (i = 0; i < n; i++)
			synchronize_rcu();
	} else {
		return -EINVAL;
	}
	return len;
}

static const struct proc_ops qc_stretch_ops = {
	.proc_write = qc_stretch_write,
};

static int __init qc_stretch_init(void)
{
	if (!proc_create("qc_stretch", 0200, NULL, &qc_stretch_ops))
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
