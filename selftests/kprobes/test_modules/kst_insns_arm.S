/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_insns_arm.S - instructions 32-bit ARM kprobes simulate (probes/
 * decode-arm.c), conditional ones, and one they refuse, each in a
 * function of its own: long f(long value). A32 code; a Thumb-2 kernel
 * has none of these cases yet.
 */
#include <linux/linkage.h>

#ifndef CONFIG_THUMB2_KERNEL
	.text
	.arm

SYM_FUNC_START_LOCAL(kst_add1)
	add	r0, r0, #1
	bx	lr
SYM_FUNC_END(kst_add1)

/* bl links: kst_add1() returns after it (+ 101), not to 1: (+ 1001). */
SYM_FUNC_START(kst_insn_bl)
	push	{r4, lr}
	adr	lr, 1f
.Lbl:	bl	kst_add1
	add	r0, r0, #100
	pop	{r4, pc}
1:	add	r0, r0, #1000
	pop	{r4, pc}
SYM_FUNC_END(kst_insn_bl)

/* Exactly one of the two executes; a probe fires only on that one. */
SYM_FUNC_START(kst_insn_cond)
	cmp	r0, #0
.Laddeq:
	addeq	r0, r0, #100
	addne	r0, r0, #1
	bx	lr
SYM_FUNC_END(kst_insn_cond)

/* Never run: what follows bx lr is only probed. */
SYM_FUNC_START(kst_insn_refused)
	bx	lr
.Lsvc:	svc	#0
SYM_FUNC_END(kst_insn_refused)
#endif

/* struct kst_insn: name, func, addr, arg, expected, hits, error. */
	.macro	kst_insn name, func, insn, arg, expected, hits=1, error=0
	.long	9f, \func, \insn, \arg, \expected, \hits, \error
	.pushsection .rodata.kst_insn_names, "a"
9:	.asciz	"\name"
	.popsection
	.endm

	.section .rodata, "a"
	.balign	4
SYM_DATA_START(kst_insns)
#ifndef CONFIG_THUMB2_KERNEL
	kst_insn "bl", kst_insn_bl, .Lbl, 1, 102
	kst_insn "addeq, condition passes", kst_insn_cond, .Laddeq, 0, 100
	kst_insn "addeq, condition fails", kst_insn_cond, .Laddeq, 5, 6, 0
	kst_insn "svc", kst_insn_refused, .Lsvc, 0, 0, 0, -22
#endif
.Lkst_insns_end:
SYM_DATA_END(kst_insns)

SYM_DATA(kst_nr_insns, .long (.Lkst_insns_end - kst_insns) / (7 * 4))
