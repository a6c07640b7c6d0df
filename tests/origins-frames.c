// SPDX-License-Identifier: GPL-2.0
/*
 * origins-frames: origins_stack_has() on crafted stacks, one KTAP-style
 * line per case ("ok N desc" / "not ok N desc"), exit 1 if any fails.
 * Built and run by tests/test-origins.sh. The stacks are written as the
 * analyzer interns them ("fn < caller < ..."), in the shapes a 6.1 guest
 * records: a send from a timer interrupt that hit the drainer, from a
 * softirq run on an interrupt's exit, and from the drainer itself.
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
	printf("# %d passed, %d failed\n", n - failed, failed);
	return failed ? 1 : 0;
}
