// SPDX-License-Identifier: GPL-2.0
/*
 * qc_hammer: call drain_all_pages() from a housekeeping CPU at a set rate,
 * measure each call, and plant known noise (work items, IPIs) on a chosen
 * CPU. Part of the quietcore isolation rig; runs in QEMU guests only.
 *
 * Interface: /sys/kernel/debug/qc_hammer/, described in README.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>

#include "qc_hammer.h"

unsigned int qc_rate_hz = 100;
module_param_named(rate_hz, qc_rate_hz, uint, 0644);
MODULE_PARM_DESC(rate_hz, "drain_all_pages() calls per second, 1-10000 (default 100)");

unsigned int qc_cpu;
module_param_named(cpu, qc_cpu, uint, 0644);
MODULE_PARM_DESC(cpu, "CPU the hammer kthread is bound to (default 0)");

unsigned int qc_stall_threshold_ms = 1000;
module_param_named(stall_threshold_ms, qc_stall_threshold_ms, uint, 0644);
MODULE_PARM_DESC(stall_threshold_ms, "a call at least this slow is a stall (default 1000)");

unsigned int qc_max_samples = 200000;
module_param_named(max_samples, qc_max_samples, uint, 0644);
MODULE_PARM_DESC(max_samples, "per-call latencies kept for percentiles (default 200000)");

bool qc_markers;
module_param_named(markers, qc_markers, bool, 0444);
MODULE_PARM_DESC(markers, "bracket each drain_all_pages() call with the qc-cost TCG plugin's window markers (default off)");

void (*qc_drain_all_pages)(struct zone *zone);

static struct dentry *qc_dir;

/*
 * drain_all_pages() is not exported to modules. A kprobe registered by
 * symbol name makes the kprobes core look the symbol up in kallsyms and
 * report its address in kp.addr; the probe is removed at once and never
 * fires. sprint_symbol() then checks that the address is the very start
 * of drain_all_pages.
 */
static int qc_resolve_drain_all_pages(void)
{
	static const char want[] = "drain_all_pages+0x0/";
	struct kprobe kp = { .symbol_name = "drain_all_pages" };
	char name[KSYM_SYMBOL_LEN];
	unsigned long addr;
	int ret;

	/* An IBT kernel seals the ENDBR of functions never called indirectly. */
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT)) {
		pr_err("CONFIG_X86_KERNEL_IBT forbids calling drain_all_pages indirectly\n");
		return -EOPNOTSUPP;
	}

	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("cannot find drain_all_pages through a kprobe (%d): needs CONFIG_KPROBES and CONFIG_KALLSYMS\n",
		       ret);
		return ret;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);

	sprint_symbol(name, addr);
	if (strncmp(name, want, sizeof(want) - 1)) {
		pr_err("kprobe address resolves to %s, not the start of drain_all_pages\n",
		       name);
		return -ENOENT;
	}
	qc_drain_all_pages = (void (*)(struct zone *))addr;
	pr_info("drain_all_pages at %s\n", name);
	return 0;
}

static int __init qc_hammer_init(void)
{
	int ret;

	ret = qc_resolve_drain_all_pages();
	if (ret)
		return ret;

	qc_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(qc_dir)) {
		pr_err("cannot create debugfs directory: is CONFIG_DEBUG_FS set?\n");
		return PTR_ERR(qc_dir);
	}

	ret = qc_drain_init(qc_dir);
	if (!ret)
		ret = qc_stats_init(qc_dir);
	if (!ret)
		ret = qc_plant_init(qc_dir);
	if (!ret)
		ret = qc_decoy_init(qc_dir);
	if (ret) {
		debugfs_remove_recursive(qc_dir);
		qc_decoy_exit();
		qc_plant_exit();
		qc_drain_exit();
		return ret;
	}
	return 0;
}

static void __exit qc_hammer_exit(void)
{
	/* Waits for readers and writers of our files to leave them. */
	debugfs_remove_recursive(qc_dir);
	qc_decoy_exit();
	qc_plant_exit();
	qc_drain_exit();
}

module_init(qc_hammer_init);
module_exit(qc_hammer_exit);

MODULE_AUTHOR("quietcore");
MODULE_DESCRIPTION("drain_all_pages() hammer and planted noise for isolation tests");
MODULE_LICENSE("GPL");
