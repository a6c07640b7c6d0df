// SPDX-License-Identifier: GPL-2.0
/*
 * mode: an isolated CPU's user/kernel/idle mode and quiescent-state-less
 * dwell, from its own transitions (mode.h).
 */
#include <stdio.h>
#include <string.h>

#include "mode.h"

const char *const qc_mode_names[MODE_COUNT] = { "unknown", "user", "kernel", "idle" };

void mode_user_enter(struct cpu_mode *m, unsigned long long ts)
{
	m->mode = MODE_USER;
	m->since = ts;
	m->entering = false;
	m->entry[0] = '\0';
}

/*
 * Leaving user mode ends a quiescent state (an extended one on nohz_full):
 * the kernel's QS-less dwell starts here. A syscall or fault that follows
 * names the entry; an interrupt vector that follows first came from user.
 */
void mode_user_exit(struct cpu_mode *m, unsigned long long ts)
{
	m->user_since = m->mode == MODE_USER ? m->since : 0;
	m->mode = MODE_KERNEL;
	m->since = m->qs = ts;
	m->entering = true;
	m->entry[0] = '\0';
}

void mode_entry(struct cpu_mode *m, long long id)
{
	if (!m->entering)
		return;
	m->entering = false;
	if (id < 0)
		snprintf(m->entry, sizeof(m->entry), "page fault");
	else
		snprintf(m->entry, sizeof(m->entry), "syscall %lld", id);
}

/* Idle is an extended quiescent state; leaving it starts a kernel dwell. */
void mode_idle(struct cpu_mode *m, unsigned long long ts, bool enter)
{
	m->mode = enter ? MODE_IDLE : MODE_KERNEL;
	m->since = m->qs = ts;
	m->entering = false;
	snprintf(m->entry, sizeof(m->entry), "%s", enter ? "" : "idle exit");
}

struct mode_at mode_at(const struct cpu_mode *m, unsigned long long ts)
{
	struct mode_at at = { .mode = m->mode, .dwell_ns = -1 };

	if (m->mode == MODE_KERNEL && m->entering) {
		/* its own exit from user mode: it interrupted user code */
		at.mode = MODE_USER;
		if (m->user_since && ts >= m->user_since)
			at.dwell_ns = (long long)(ts - m->user_since);
		return at;
	}
	if (m->mode == MODE_USER || m->mode == MODE_IDLE) {
		if (ts >= m->since)
			at.dwell_ns = (long long)(ts - m->since);
	} else if (m->mode == MODE_KERNEL && m->qs && ts >= m->qs) {
		at.dwell_ns = (long long)(ts - m->qs);
	}
	snprintf(at.entry, sizeof(at.entry), "%s", m->entry);
	return at;
}
