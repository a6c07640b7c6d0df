// SPDX-License-Identifier: GPL-2.0
/*
 * qc_textpoke: a module whose load and unload patch kernel text, for the
 * quietcore isolation audit's "text patching" trigger. Loading it flips
 * one static key on and unloading flips it off: with CONFIG_JUMP_LABEL
 * each flip rewrites the branch through text_poke_queue() and
 * text_poke_finish(), i.e. text_poke_bp_batch() with its int3 and
 * sync-core IPIs to every CPU; loading and unloading a module also change
 * page permissions of its memory (set_memory_*() TLB flushes). Nothing
 * else: it has no parameters and no interface. Guests only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jump_label.h>
#include <linux/module.h>

static DEFINE_STATIC_KEY_FALSE(qc_textpoke_key);

/* A branch on the key, so that the key has a jump entry to patch. */
static noinline bool qc_textpoke_branch(void)
{
	return static_branch_unlikely(&qc_textpoke_key);
}

static int __init qc_textpoke_init(void)
{
	static_branch_enable(&qc_textpoke_key);
	pr_info("static key on: branch %d\n", qc_textpoke_branch());
	return 0;
}

static void __exit qc_textpoke_exit(void)
{
	static_branch_disable(&qc_textpoke_key);
	pr_info("static key off: branch %d\n", qc_textpoke_branch());
}

module_init(qc_textpoke_init);
module_exit(qc_textpoke_exit);
MODULE_AUTHOR("quietcore");
MODULE_DESCRIPTION("patches kernel text on load and unload (isolation audit)");
MODULE_LICENSE("GPL");
