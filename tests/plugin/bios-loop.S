/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bios-loop: a 64 KiB firmware image for qemu-system-x86_64 -bios that
 * checks qc-cost without booting a kernel (tests/test-plugin.sh).  From the
 * reset vector, in real mode:
 *
 *   MODE 0 (-DMODE=0): a warm-up window (its open makes the plugin
 *     instrument everything), a busy loop so the flush is done, then a
 *     window of LOOPS iterations of dec, jnz after one mov: 1 + 2 * LOOPS
 *     instructions, no memory access;
 *   MODE 1: no marker at all (the plugin must refuse: nothing counted);
 *   MODE 2: an open marker and no close (the plugin must refuse).
 *
 * Then it writes 0x10 to the isa-debug-exit port 0xf4: QEMU exits with
 * status (0x10 << 1) | 1 = 33, or 1 when the plugin refused at exit.
 * In 16-bit code xchg %ebx,%ebx is 66 87 db, the plugin's open marker, and
 * xchg %ecx,%ecx is 66 87 c9, its close marker.
 */
	.code16
	.text
start:
#if MODE == 0
	xchg %ebx, %ebx
	xchg %ecx, %ecx
	mov $1000, %cx
1:	dec %cx
	jnz 1b
	.globl counted_loop
counted_loop:
	xchg %ebx, %ebx
	mov $LOOPS, %cx
2:	dec %cx
	jnz 2b
	xchg %ecx, %ecx
	.globl counted_loop_end
counted_loop_end:
#elif MODE == 2
	xchg %ebx, %ebx
#endif
	mov $0xf4, %dx
	mov $0x10, %al
	out %al, %dx
3:	hlt
	jmp 3b

	.org 0xfff0
reset:	jmp start
	.org 0x10000
