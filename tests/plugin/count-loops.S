/* SPDX-License-Identifier: GPL-2.0 */
/*
 * count-loops: the guest program that checks qc-cost in a booted kernel
 * (tests/test-plugin-guest.sh).
 * No libc, so every instruction between the markers is in this file and its
 * disassembly says exactly how many run.  Five windows, in this order:
 *
 *  1. warm-up: the first open marker makes qc-cost instrument everything
 *     (a translation-cache flush); this window is "complete":false.
 *  2. loop: LOOPS iterations of load, store, dec, jnz after one mov:
 *     user insns = 1 + 4 * LOOPS, loads = stores = LOOPS.
 *  3. getppid x CALLS, 4. getppid x 2 * CALLS: the kernel's
 *     __x64_sys_getppid runs CALLS (2 * CALLS) times, each call the same
 *     straight-line path.
 *  5. getppid x CALLS, then a 10 ms nanosleep inside the window: the vCPU
 *     runs something else (idle) while this task sleeps, so the window's
 *     "opener_task" must hold all of getppid and none of what ran meanwhile.
 *  6. one rep stosb of REP_BYTES bytes (a page already faulted in): how
 *     QEMU counts a repeated string instruction, the way clear_page_erms
 *     zeroes every page the allocator hands out: REP_BYTES stores, and
 *     (QEMU 10) one instruction, not one per iteration as QEMU 7.2 did.
 *
 * Between windows it sleeps 10 ms (nanosleep), so the flush of window 1 is
 * done before window 2 opens.  Exit status 0.
 */
#define OPEN	xchg %bx, %bx
#define CLOSE	xchg %cx, %cx
#define SYS_nanosleep	35
#define SYS_getppid	110
#define SYS_exit	60

	.text
	.globl _start
_start:
	OPEN
	mov $1000, %ecx
warm:	dec %ecx
	jnz warm
	CLOSE
	call pause

	lea src(%rip), %rsi
	lea dst(%rip), %rdi
	/* Fault both in now: a faulting access would count its insn twice. */
	mov (%rsi), %eax
	mov %eax, (%rdi)
	.globl counted_loop
counted_loop:
	OPEN
	mov $LOOPS, %ecx
1:	mov (%rsi), %eax
	mov %eax, (%rdi)
	dec %ecx
	jnz 1b
	CLOSE
	.globl counted_loop_end
counted_loop_end:
	call pause

	mov $CALLS, %r12d
	call getppids
	call pause
	mov $(2 * CALLS), %r12d
	call getppids
	call pause

	OPEN
	mov $CALLS, %r12d
3:	mov $SYS_getppid, %eax
	syscall
	dec %r12d
	jnz 3b
	call pause
	CLOSE

	call pause
	lea page(%rip), %rdi
	movb $0, (%rdi)
	mov $REP_BYTES, %ecx
	xor %eax, %eax
	OPEN
	rep stosb
	CLOSE

	mov $SYS_exit, %eax
	xor %edi, %edi
	syscall

/* %r12d getppid() calls in one window. */
getppids:
	OPEN
2:	mov $SYS_getppid, %eax
	syscall
	dec %r12d
	jnz 2b
	CLOSE
	ret

pause:
	mov $SYS_nanosleep, %eax
	lea ten_ms(%rip), %rdi
	xor %esi, %esi
	syscall
	ret

	.data
	.balign 8
ten_ms:	.quad 0, 10000000
src:	.long 42
dst:	.long 0
	.bss
	.balign 4096
page:	.skip 4096
