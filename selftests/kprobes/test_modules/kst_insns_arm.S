/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_insns_arm.S - instructions 32-bit ARM kprobes simulate or emulate
 * (probes/decode-arm.c, probes/kprobes/actions-thumb.c), conditional
 * ones, and two they refuse, each in a function of its own:
 * long f(long value). A32 code on an ARM kernel, Thumb code on a
 * Thumb-2 kernel.
 */
#include "kst_insns_table.S"

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

/*
 * Never run: what follows bx lr is only probed. A store at sp plus a
 * register may write where the breakpoint handler's frame goes.
 */
SYM_FUNC_START(kst_insn_refused)
	bx	lr
.Lsvc:	svc	#0
.Lstr_sp_reg:
	str	r0, [sp, r1]
SYM_FUNC_END(kst_insn_refused)
#else
	.text
	.syntax unified
	.thumb

	.thumb_func
SYM_FUNC_START_LOCAL(kst_add1)
	adds	r0, r0, #1
	bx	lr
SYM_FUNC_END(kst_add1)

/*
 * 16-bit PUSH and POP, emulated with 32-bit instructions on a copy of
 * sp: one register (r4, lr, pc) and two. The result is value + 1 only
 * if each stored what the next loads and sp comes back where it was.
 */
	.thumb_func
SYM_FUNC_START(kst_insn_push_r4)
.Lpush_r4_lr:
	push.n	{r4, lr}
	adds	r4, r0, #1
.Lpush_r4:
	push.n	{r4}
	movs	r4, #0
.Lpop_r4:
	pop.n	{r4}
	mov	r0, r4
.Lpop_r4_pc:
	pop.n	{r4, pc}
SYM_FUNC_END(kst_insn_push_r4)

/* Module functions built with -pg open with this push {lr}. */
	.thumb_func
SYM_FUNC_START(kst_insn_push_lr)
.Lpush_lr:
	push.n	{lr}
	bl	kst_add1
.Lpop_pc:
	pop.n	{pc}
SYM_FUNC_END(kst_insn_push_lr)

/*
 * In an IT block exactly one of the two executes: a Thumb breakpoint has
 * no condition, so the handler must check the block's condition.
 */
	.thumb_func
SYM_FUNC_START(kst_insn_it)
	cmp	r0, #0
	ite	eq
.Laddeq_it:
	addeq	r0, r0, #100
	addne	r0, r0, #1
	bx	lr
SYM_FUNC_END(kst_insn_it)

/* Never run: what follows bx lr is only probed. */
	.thumb_func
SYM_FUNC_START(kst_insn_refused)
	bx	lr
.Lsvc:	svc	#0
SYM_FUNC_END(kst_insn_refused)
#endif

	kst_insns_start
#ifndef CONFIG_THUMB2_KERNEL
	kst_insn "bl", kst_insn_bl, .Lbl, 1, 102
	kst_insn "addeq, condition passes", kst_insn_cond, .Laddeq, 0, 100
	kst_insn "addeq, condition fails", kst_insn_cond, .Laddeq, 5, 6, 0
	kst_insn "svc", kst_insn_refused, .Lsvc, 0, 0, 0, -22
	kst_insn "str r0, [sp, r1]", kst_insn_refused, .Lstr_sp_reg, 0, 0, 0, -22
#else
	kst_insn "push {r4, lr}", kst_insn_push_r4, .Lpush_r4_lr, 1, 2
	kst_insn "push {r4}", kst_insn_push_r4, .Lpush_r4, 1, 2
	kst_insn "pop {r4}", kst_insn_push_r4, .Lpop_r4, 1, 2
	kst_insn "pop {r4, pc}", kst_insn_push_r4, .Lpop_r4_pc, 1, 2
	kst_insn "push {lr}", kst_insn_push_lr, .Lpush_lr, 1, 2
	kst_insn "pop {pc}", kst_insn_push_lr, .Lpop_pc, 1, 2
	kst_insn "addeq in an IT block, condition passes", kst_insn_it, .Laddeq_it, 0, 100
	kst_insn "addeq in an IT block, condition fails", kst_insn_it, .Laddeq_it, 5, 6, 0
	kst_insn "svc", kst_insn_refused, .Lsvc, 0, 0, 0, -22
#endif
	kst_insns_end
