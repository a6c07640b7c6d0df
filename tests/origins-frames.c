// SPDX-License-Identifier: GPL-2.0
/*
 * origins-frames: origins_stack_has() on crafted stacks, one KTAP-style
 * line per case ("ok N desc" / "not ok N desc"), exit 1 if any fails.
 * Built and run by tests/test-origins.sh. The stacks are written as the
 * analyzer interns them ("fn < caller < ..."), in the shapes a 6.1 guest
 * records: a send from a timer interrupt that hit the drainer, from a
 * softirq run on an interrupt's exit, and from the drainer itself; the
 * compiler's clones of a drain function; RCU's forcing
 * (origins_rcu_forcing()).
 */
#include <stdio.h>
#include <string.h>

#include "origins.h"

static const char *const drain[] = { "drain_pages_zone", "__drain_all_pages", "drain_pages", NULL };

static int n, failed;

static void expect(const char *desc, const char *stack, unsigned int flags, bool want_has,
		   bool want_task)
{
	char *stacks[2] = { (char *)stack, (char *)"comm" };
	struct send s = { .stack = 0, .comm = 1, .flags = flags, .parent = -1 };
	struct origins o = { .stacks = stacks, .nstacks = 2 };
	bool has = origins_stack_has(&o, &s, drain), task = send_in_task(&s);
	bool ok = has == want_has && task == want_task;

	n++;
	failed += !ok;
	printf("%sok %d %s", ok ? "" : "not ", n, desc);
	if (!ok)
		printf(" (holds the drain: %d, in task context: %d)", has, task);
	printf("\n");
}

/* Is a send with @stack RCU forcing a quiescent state (origins_rcu_forcing())? */
static void forcing(const char *desc, const char *stack, bool want)
{
	char *stacks[2] = { (char *)stack, (char *)"rcu_preempt" };
	struct send s = { .stack = 0, .comm = 1, .parent = -1 };
	struct origins o = { .stacks = stacks, .nstacks = 2, .v = &s, .n = 1 };
	struct origin org = { .cls = ORIGIN_REMOTE, .send = { 0 }, .nsend = 1 };
	bool got = origins_rcu_forcing(&o, &org);

	n++;
	failed += got != want;
	printf("%sok %d %s", got == want ? "" : "not ", n, desc);
	if (got != want)
		printf(" (forcing: %d)", got);
	printf("\n");
}

int main(void)
{
	expect("the drainer's own send holds the drain",
	       "__queue_work < queue_work_on < __drain_all_pages < qc_hammer_fn < kthread",
	       0, true, true);
	expect("a timer interrupt's wake-up on the drainer's CPU does not",
	       "try_to_wake_up < hrtimer_wakeup < __hrtimer_run_queues < hrtimer_interrupt < "
	       "__sysvec_apic_timer_interrupt < sysvec_apic_timer_interrupt < "
	       "asm_sysvec_apic_timer_interrupt < drain_pages_zone < __drain_all_pages < qc_hammer_fn",
	       QC_FLAG_HARDIRQ, false, false);
	expect("a softirq run on an interrupt's exit does not",
	       "native_smp_send_reschedule < resched_curr < check_preempt_curr < rcu_core < "
	       "__do_softirq < __irq_exit_rcu < sysvec_apic_timer_interrupt < "
	       "asm_sysvec_apic_timer_interrupt < drain_pages < __drain_all_pages",
	       QC_FLAG_SOFTIRQ, false, false);
	expect("a device interrupt's send does not",
	       "try_to_wake_up < handle_irq_event < handle_edge_irq < __common_interrupt < "
	       "common_interrupt < asm_common_interrupt < drain_pages_zone",
	       QC_FLAG_HARDIRQ, false, false);
	expect("whole frames only: drain_pages_zone_foo is not drain_pages_zone",
	       "__queue_work < drain_pages_zone_foo < kthread", 0, false, true);
	expect("the drain below a kworker's own frames still counts (task context)",
	       "__smp_call_single_queue < irq_work_queue_on < drain_pages < process_one_work < worker_thread",
	       0, true, true);
	/* a compiler's clone or split part is its function, by base name */
	expect("a clone of a drain function (.isra.N) is the drain",
	       "__queue_work < queue_work_on < drain_pages.isra.0 < __drain_all_pages.constprop.0 < kthread",
	       0, true, true);
	expect("its split cold part (.part.N.cold) is the drain",
	       "__smp_call_single_queue < drain_pages_zone.part.0.cold < kthread", 0, true, true);
	expect("a suffix that is no clone's (.llvm.N) keeps the whole name",
	       "__queue_work < drain_pages.llvm.123 < kthread", 0, false, true);
	expect("a clone's base is still a whole frame: drain_pages_zone_foo.isra.0 is not drain_pages_zone",
	       "__queue_work < drain_pages_zone_foo.isra.0 < kthread", 0, false, true);
	/* RCU's forcing, by its functions among the sender's own frames */
	forcing("resched_cpu() from force_qs_rnp's clone is RCU forcing",
		"resched_cpu < force_qs_rnp.constprop.0 < rcu_gp_fqs_loop < rcu_gp_kthread < kthread", true);
	forcing("with force_qs_rnp inlined, rcu_gp_fqs_loop still names the forcing",
		"resched_cpu < rcu_gp_fqs_loop < rcu_gp_kthread < kthread", true);
	forcing("a frame that only contains a forcer's name is not one",
		"resched_cpu < my_force_qs_rnp_helper < kthread", false);
	printf("# %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}
