/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mode: where an isolated CPU was when an interruption reached it (user,
 * kernel or idle), how long it had been there without a quiescent state,
 * and, in the kernel, which entry it was serving (a syscall or a page
 * fault). Read from the events the guest traces on the isolated CPUs only
 * (events.list, "isolated"): context_tracking:user_enter/user_exit (which
 * fire on nohz_full CPUs, for an interrupt from user mode too),
 * power:cpu_idle, raw_syscalls:sys_enter and exceptions:page_fault_user.
 * The quiescent states counted are the extended ones, user mode and idle:
 * the only kind RCU's forcing scan (rcu_implicit_dynticks_qs()) sees on a
 * nohz_full CPU; a context switch in the kernel does not stop it forcing.
 * tracing/README.md, "Mode and dwell", states the rule.
 */
#ifndef QC_MODE_H
#define QC_MODE_H

#include <stdbool.h>

enum qc_mode { MODE_UNKNOWN, MODE_USER, MODE_KERNEL, MODE_IDLE, MODE_COUNT };

extern const char *const qc_mode_names[MODE_COUNT];

#define MODE_ENTRY_LEN 32

/* One CPU's mode as the trace shows it so far. */
struct cpu_mode {
	enum qc_mode mode;
	unsigned long long since;	/* entered the mode */
	unsigned long long qs;		/* its last extended quiescent state
					   left (user or idle), 0: none seen */
	/* left user mode, and no syscall or fault named the entry yet: an
	   interruption now came from user mode (its own user_exit) */
	bool entering;
	unsigned long long user_since;	/* that user stretch's start, 0: unknown */
	char entry[MODE_ENTRY_LEN];	/* the kernel entry served ("" unknown) */
};

/* What an interruption found: the mode, its QS-less dwell, the entry. */
struct mode_at {
	enum qc_mode mode;
	long long dwell_ns;		/* -1: not known (no transition seen) */
	char entry[MODE_ENTRY_LEN];
};

void mode_user_enter(struct cpu_mode *m, unsigned long long ts);
void mode_user_exit(struct cpu_mode *m, unsigned long long ts);
/* a syscall (@id) or a user page fault (@id < 0) names the kernel entry */
void mode_entry(struct cpu_mode *m, long long id);
void mode_idle(struct cpu_mode *m, unsigned long long ts, bool enter);
/* The mode an interruption entering at @ts found. */
struct mode_at mode_at(const struct cpu_mode *m, unsigned long long ts);

#endif
