/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_insns_arm.S - instructions 32-bit ARM kprobes simulate or emulate,
 * conditional ones, and some they refuse, each in a function of its own:
 * long f(long value).
 * A32 code on an ARM kernel (probes/decode-arm.c, kprobes/actions-arm.c).
 * Thumb code on a Thumb-2 kernel (probes/decode-thumb.c,
 * kprobes/actions-thumb.c).
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
 * Each condition but al on the flags of the argument's top four bits
 * (N, Z, C, V): bit k of the value is set when condition k (eq, ne, cs,
 * ..., le, as encoded) holds. The breakpoint takes the condition of the
 * instruction it replaces, so a probe traps only where that holds; its
 * check must agree, or the instruction is skipped.
 */
SYM_FUNC_START(kst_insn_a32_conds)
	msr	cpsr_f, r0
	mov	r0, #0
.La32_eq:	orreq	r0, r0, #1 << 0
.La32_ne:	orrne	r0, r0, #1 << 1
.La32_cs:	orrcs	r0, r0, #1 << 2
.La32_cc:	orrcc	r0, r0, #1 << 3
.La32_mi:	orrmi	r0, r0, #1 << 4
.La32_pl:	orrpl	r0, r0, #1 << 5
.La32_vs:	orrvs	r0, r0, #1 << 6
.La32_vc:	orrvc	r0, r0, #1 << 7
.La32_hi:	orrhi	r0, r0, #1 << 8
.La32_ls:	orrls	r0, r0, #1 << 9
.La32_ge:	orrge	r0, r0, #1 << 10
.La32_lt:	orrlt	r0, r0, #1 << 11
.La32_gt:	orrgt	r0, r0, #1 << 12
.La32_le:	orrle	r0, r0, #1 << 13
	bx	lr
SYM_FUNC_END(kst_insn_a32_conds)

/* b skips two adds of 1, which a wrong offset lands on. */
SYM_FUNC_START(kst_insn_a32_b)
.La32_b:
	b	1f
	add	r0, r0, #1
	add	r0, r0, #1
1:	add	r0, r0, #100
	bx	lr
SYM_FUNC_END(kst_insn_a32_b)

/* blx r3 calls kst_add1() (+ 101); bx lr returns. */
SYM_FUNC_START(kst_insn_a32_blx)
	push	{r4, lr}
	adr	r3, kst_add1
.La32_blx:
	blx	r3
	add	r0, r0, #100
	pop	{r4, pc}
SYM_FUNC_END(kst_insn_a32_blx)

/*
 * A Thumb function at an address of 2 mod 4, which blx reaches with its
 * H bit: + 100, and + 50 more where a branch ignores H. NOALIGN: ARM's
 * SYM_FUNC_START_LOCAL() aligns to 4, where a branch without H lands too.
 */
	.thumb
	.balign	4
	adds	r0, r0, #50
	.thumb_func
SYM_FUNC_START_LOCAL_NOALIGN(kst_thumb_add100)
	adds	r0, r0, #100
	bx	lr
SYM_FUNC_END(kst_thumb_add100)
	.arm
	.balign	4

/* blx to Thumb code, by its address and by a register (+ 101). */
SYM_FUNC_START(kst_insn_a32_blx_thumb)
	push	{r4, lr}
.La32_blx_imm:
	blx	kst_thumb_add100
	adr	r3, kst_thumb_add100
	orr	r3, r3, #1
.La32_blx_thumb:
	blx	r3
	sub	r0, r0, #99
	pop	{r4, pc}
SYM_FUNC_END(kst_insn_a32_blx_thumb)

/*
 * Hints: pld and wfe are simulated as nops, sev is run as it is; the
 * event sev sets ends wfe at once (+ 11).
 */
SYM_FUNC_START(kst_insn_a32_hints)
.La32_pld:
	pld	[sp]
	add	r0, r0, #1
.La32_sev:
	sev
.La32_wfe:
	wfe
	add	r0, r0, #10
	bx	lr
SYM_FUNC_END(kst_insn_a32_hints)

SYM_FUNC_START(kst_insn_a32_bx_lr)
	add	r0, r0, #1
.La32_bx_lr:
	bx	lr
SYM_FUNC_END(kst_insn_a32_bx_lr)

/*
 * mrs after cmp r0, r0 (Z and C: 6 in the top 4 bits), and mov ip, sp,
 * which a function's prologue uses: value + 7.
 */
SYM_FUNC_START(kst_insn_a32_mrs)
	cmp	r0, r0
.La32_mrs:
	mrs	r1, apsr
	add	r0, r0, r1, lsr #28
	mov	r2, sp
.La32_mov_ip_sp:
	mov	ip, sp
	sub	r1, ip, r2
	add	r0, r0, r1
	add	r0, r0, #1
	bx	lr
SYM_FUNC_END(kst_insn_a32_mrs)

/*
 * Loads, stores and data processing emulated on a copy of the registers:
 * ldr from pc, str and ldr at sp, strd and ldrd, an add with a shift by
 * a register, mla, umull, and push and pop with pc (ldm and stm).
 * For 1: 1001, 2002, 3003, 3011, 3021, 30210.
 */
SYM_FUNC_START(kst_insn_a32_emulated)
.La32_push:
	push	{r4, r5, lr}
.La32_ldr_lit:
	ldr	r1, 2f
	add	r0, r0, r1
	sub	sp, sp, #8
.La32_str:
	str	r0, [sp, #4]
.La32_ldr:
	ldr	r1, [sp, #4]
	add	r0, r0, r1
	mov	r1, r0, lsr #1
.La32_strd:
	strd	r0, r1, [sp]
.La32_ldrd:
	ldrd	r4, r5, [sp]
	add	r0, r4, r5
	mov	r1, #1
	mov	r2, #3
.La32_add_lsl_reg:
	add	r0, r0, r1, lsl r2
	mov	r1, #5
	mov	r2, #2
.La32_mla:
	mla	r0, r1, r2, r0
	mov	r1, #10
.La32_umull:
	umull	r4, r5, r0, r1
	add	r0, r4, r5
	add	sp, sp, #8
.La32_pop:
	pop	{r4, r5, pc}
2:	.word	1000
SYM_FUNC_END(kst_insn_a32_emulated)

/*
 * Emulated on copies of r0 and r3, and of r0, r2 and r3 with the flags:
 * clz (31 for 1, 0 if lost) and qadd. For 1: 1 + 31 + 100 = 132.
 */
SYM_FUNC_START(kst_insn_a32_clz_qadd)
	mov	r1, #0
.La32_clz:
	clz	r1, r0
	add	r0, r0, r1
	mov	r1, #100
.La32_qadd:
	qadd	r0, r0, r1
	bx	lr
SYM_FUNC_END(kst_insn_a32_clz_qadd)

/* An ALU result written to pc: pc reads 8 ahead, + 4 skips two adds of 1. */
SYM_FUNC_START(kst_insn_a32_add_pc)
	mov	r1, #4
.La32_add_pc:
	add	pc, pc, r1
	add	r0, r0, #1
	add	r0, r0, #1
	add	r0, r0, #100
	bx	lr
SYM_FUNC_END(kst_insn_a32_add_pc)

/*
 * Loads and stores that write their base back, at sp: ldr pc pops the
 * address of 1: (+ 100), strd and ldrd store and load value and 1000.
 * Each function adds how far sp moved, 0 when every writeback happened,
 * and puts sp back.
 */
SYM_FUNC_START(kst_insn_a32_ldr_pc)
	mov	r2, sp
	adr	r1, 1f
	str	r1, [sp, #-4]!
.La32_ldr_pc:
	ldr	pc, [sp], #4
	add	r0, r0, #1
1:	sub	r1, sp, r2
	add	r0, r0, r1
	mov	sp, r2
	add	r0, r0, #100
	bx	lr
SYM_FUNC_END(kst_insn_a32_ldr_pc)

SYM_FUNC_START(kst_insn_a32_ldrd_wb)
	push	{r4, r5}
	mov	r2, sp
	mov	r1, #1000
.La32_strd_wb:
	strd	r0, r1, [sp, #-8]!
.La32_ldrd_wb:
	ldrd	r4, r5, [sp], #8
	add	r0, r4, r5
	sub	r1, sp, r2
	add	r0, r0, r1
	mov	sp, r2
	pop	{r4, r5}
	bx	lr
SYM_FUNC_END(kst_insn_a32_ldrd_wb)

/*
 * stm and ldm of pc and a low register, which kprobes simulate instead
 * of emulating: push {r0, pc} stores its own address + 8 (or + 12, as
 * the CPU does: bit 2 is cleared), pop {r0, pc} loads value + 108 and
 * the address of 1:. For 1: 109.
 */
SYM_FUNC_START(kst_insn_a32_ldm_pc)
	push	{r4, lr}
.La32_stm_pc:
	stmdb	sp!, {r0, pc}
	ldmia	sp!, {r0, r1}
	adr	r2, .La32_stm_pc
	sub	r1, r1, r2
	bic	r1, r1, #4
	add	r0, r0, r1
	add	r1, r0, #100
	adr	r2, 1f
	stmdb	sp!, {r1, r2}
.La32_ldm_pc:
	ldmia	sp!, {r0, pc}
	add	r0, r0, #1
1:	pop	{r4, pc}
SYM_FUNC_END(kst_insn_a32_ldm_pc)

/*
 * Never run: what follows bx lr is only probed. A store at sp plus a
 * register may write where the breakpoint handler's frame goes.
 */
SYM_FUNC_START(kst_insn_refused)
	bx	lr
.Lsvc:	svc	#0
.Lstr_sp_reg:
	str	r0, [sp, r1]
.Lclz_pc:
	.inst	0xe16fff10	/* clz pc, r0, which gas does not assemble */
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

/*
 * Branches, 16-bit and 32-bit: b skips two adds of 1, which a wrong
 * offset lands on; beq is taken for 0, and its probe fires only when it
 * is; bl goes back to kst_add1() (a negative offset) and links.
 */
	.macro	kst_thumb_b name, b
	.thumb_func
SYM_FUNC_START(kst_insn_\name)
.L\name:
	\b	1f
	adds	r0, r0, #1
	adds	r0, r0, #1
1:	adds	r0, r0, #100
	bx	lr
SYM_FUNC_END(kst_insn_\name)
	.endm

	.macro	kst_thumb_beq name, beq
	.thumb_func
SYM_FUNC_START(kst_insn_\name)
	cmp	r0, #0
.L\name:
	\beq	1f
	adds	r0, r0, #100
	bx	lr
1:	adds	r0, r0, #1
	bx	lr
SYM_FUNC_END(kst_insn_\name)
	.endm

	kst_thumb_b	t16_b, b.n
	kst_thumb_b	t32_b, b.w
	kst_thumb_beq	t16_beq, beq.n
	kst_thumb_beq	t32_beq, beq.w

	.thumb_func
SYM_FUNC_START(kst_insn_t32_bl)
	push	{r4, lr}
.Lt32_bl:
	bl	kst_add1
	adds	r0, r0, #100
	pop	{r4, pc}
SYM_FUNC_END(kst_insn_t32_bl)

/* cbz and cbnz; cbnz's target is past 64 bytes (the i bit). */
	.thumb_func
SYM_FUNC_START(kst_insn_cbz)
.Lcbz:	cbz	r0, 1f
	adds	r0, r0, #100
	bx	lr
1:	adds	r0, r0, #1
	bx	lr
SYM_FUNC_END(kst_insn_cbz)

	.thumb_func
SYM_FUNC_START(kst_insn_cbnz)
.Lcbnz:	cbnz	r0, 1f
	.rept	40
	adds	r0, r0, #1
	.endr
	bx	lr
1:	adds	r0, r0, #100
	bx	lr
SYM_FUNC_END(kst_insn_cbnz)

/*
 * Literal loads: the 16-bit ldr from a word-aligned pc and from one that
 * is not (the base is the pc rounded down to a word), and the 32-bit
 * ones: ldr from before the instruction (a subtracted offset), and the
 * signed and unsigned halfword and byte. Each value is added: 21001 for
 * 1, and 61780 for 1 from the second function.
 */
	.balign	4
	.thumb_func
SYM_FUNC_START(kst_insn_t16_ldr_lit)
.Lt16_ldr_lit:
	ldr.n	r1, 2f
.Lt16_ldr_odd:
	ldr.n	r2, 3f
.Lt16_adds:
	adds	r0, r0, r1
	adds	r0, r0, r2
	bx	lr
	.balign	4
2:	.word	1000
3:	.word	20000
SYM_FUNC_END(kst_insn_t16_ldr_lit)

	.balign	4
0:	.word	-3
	.thumb_func
SYM_FUNC_START(kst_insn_t32_ldr_lit)
.Lt32_ldr_lit:
	ldr.w	r1, 0b
	adds	r0, r0, r1
.Lt32_ldrsh_lit:
	ldrsh.w	r1, 2f
	adds	r0, r0, r1
.Lt32_ldrh_lit:
	ldrh.w	r1, 2f
	adds	r0, r0, r1
.Lt32_ldrsb_lit:
	ldrsb.w	r1, 3f
	adds	r0, r0, r1
.Lt32_ldrb_lit:
	ldrb.w	r1, 3f
	adds	r0, r0, r1
	bx	lr
	.balign	4
2:	.hword	-2000
	.hword	0
3:	.byte	-5
	.balign	4
SYM_FUNC_END(kst_insn_t32_ldr_lit)

/*
 * sp and pc-relative 16-bit instructions: adr (at a pc that is not
 * word-aligned), sub and add of sp, str and ldr at sp, add of sp to
 * another register: 2 * (value + 300), with sp checked and put back
 * where it was, so that a wrong one changes the result.
 */
	.balign	4
	.thumb_func
SYM_FUNC_START(kst_insn_t16_sp)
	nop.n
.Lt16_adr:
	adr.n	r1, 2f
	ldr	r1, [r1]
	adds	r0, r0, r1
	mov	r3, sp
.Lt16_sub_sp:
	sub	sp, #8
.Lt16_str_sp:
	str	r0, [sp, #4]
.Lt16_add_rd_sp:
	add	r1, sp, #4
	ldr	r2, [r1]
.Lt16_ldr_sp:
	ldr	r0, [sp, #4]
	adds	r0, r0, r2
.Lt16_add_sp:
	add	sp, #8
	mov	r2, sp
	subs	r2, r2, r3
	adds	r0, r0, r2
	mov	sp, r3
	bx	lr
	.balign	4
2:	.word	300
SYM_FUNC_END(kst_insn_t16_sp)

/* blx r3 calls kst_add1() (+ 101); bx lr returns. */
	.thumb_func
SYM_FUNC_START(kst_insn_t16_blx)
	push	{r4, lr}
	ldr	r3, =kst_add1
	orr	r3, r3, #1
.Lt16_blx:
	blx	r3
	adds	r0, r0, #100
	pop	{r4, pc}
	.ltorg
SYM_FUNC_END(kst_insn_t16_blx)

	.thumb_func
SYM_FUNC_START(kst_insn_t16_bx_lr)
	adds	r0, r0, #1
.Lt16_bx_lr:
	bx	lr
SYM_FUNC_END(kst_insn_t16_bx_lr)

/* mov and add with a high register, and mov from pc: value + 7. */
	.thumb_func
SYM_FUNC_START(kst_insn_hiregs)
	mov	r2, r8
	movs	r1, #7
.Lmov_hi:
	mov	r8, r1
.Ladd_hi:
	add	r0, r8
	mov	r8, r2
.Lmov_from_pc:
	mov	r1, pc
	ldr	r3, =.Lmov_from_pc + 4
	bic	r3, r3, #1
	subs	r1, r1, r3
	adds	r0, r0, r1
	bx	lr
	.ltorg
SYM_FUNC_END(kst_insn_hiregs)

/* After cmp r0, r0 the flags are Z and C: 6 in the top 4 bits. */
	.thumb_func
SYM_FUNC_START(kst_insn_mrs)
	cmp	r0, r0
.Lmrs:	mrs	r1, apsr
	lsrs	r1, r1, #28
	adds	r0, r0, r1
	bx	lr
SYM_FUNC_END(kst_insn_mrs)

/* tbb and tbh branch by a table after them, indexed by the value (0, 1). */
	.thumb_func
SYM_FUNC_START(kst_insn_tbb)
.Ltbb:	tbb	[pc, r0]
1:	.byte	(2f - 1b) / 2, (3f - 1b) / 2
2:	adds	r0, r0, #10
	bx	lr
3:	adds	r0, r0, #20
	bx	lr
SYM_FUNC_END(kst_insn_tbb)

	.thumb_func
SYM_FUNC_START(kst_insn_tbh)
.Ltbh:	tbh	[pc, r0, lsl #1]
1:	.hword	(2f - 1b) / 2, (3f - 1b) / 2
2:	adds	r0, r0, #10
	bx	lr
3:	adds	r0, r0, #20
	bx	lr
SYM_FUNC_END(kst_insn_tbh)

/*
 * 32-bit instructions emulated on a copy of the registers: push and pop,
 * str and ldr at sp, add, strd and ldrd, umull, addw, adr. For 1: 2,
 * then 3, 30, 1030 and 6030.
 */
	.thumb_func
SYM_FUNC_START(kst_insn_t32_emulated)
.Lt32_push:
	push.w	{r4, r5, lr}
	sub	sp, #8
.Lt32_str:
	str.w	r0, [sp, #4]
.Lt32_ldr:
	ldr.w	r1, [sp, #4]
.Lt32_add:
	add.w	r0, r0, r1
.Lt32_strd:
	strd	r0, r1, [sp]
.Lt32_ldrd:
	ldrd	r4, r5, [sp]
	adds	r0, r4, r5
	movs	r1, #10
.Lt32_umull:
	umull	r4, r5, r0, r1
	adds	r0, r4, r5
.Lt32_addw:
	addw	r0, r0, #1000
.Lt32_adr:
	adr.w	r1, 2f
	ldr	r1, [r1]
	add	r0, r1
	add	sp, #8
.Lt32_pop:
	pop.w	{r4, r5, pc}
	.balign	4
2:	.word	5000
SYM_FUNC_END(kst_insn_t32_emulated)

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
	kst_insn "orreq, Z", kst_insn_a32_conds, .La32_eq, 0x40000000, 0x26a9
	kst_insn "orrne, no flag", kst_insn_a32_conds, .La32_ne, 0x0, 0x16aa
	kst_insn "orrcs, C", kst_insn_a32_conds, .La32_cs, 0x20000000, 0x15a6
	kst_insn "orrcc, no flag", kst_insn_a32_conds, .La32_cc, 0x0, 0x16aa
	kst_insn "orrmi, N", kst_insn_a32_conds, .La32_mi, 0x80000000, 0x2a9a
	kst_insn "orrpl, no flag", kst_insn_a32_conds, .La32_pl, 0x0, 0x16aa
	kst_insn "orrvs, V", kst_insn_a32_conds, .La32_vs, 0x10000000, 0x2a6a
	kst_insn "orrvc, no flag", kst_insn_a32_conds, .La32_vc, 0x0, 0x16aa
	kst_insn "orrhi, C", kst_insn_a32_conds, .La32_hi, 0x20000000, 0x15a6
	kst_insn "orrls, no flag", kst_insn_a32_conds, .La32_ls, 0x0, 0x16aa
	kst_insn "orrls, Z and C", kst_insn_a32_conds, .La32_ls, 0x60000000, 0x26a5
	kst_insn "orrge, no flag", kst_insn_a32_conds, .La32_ge, 0x0, 0x16aa
	kst_insn "orrge, N and V", kst_insn_a32_conds, .La32_ge, 0x90000000, 0x165a
	kst_insn "orrlt, N", kst_insn_a32_conds, .La32_lt, 0x80000000, 0x2a9a
	kst_insn "orrlt, V", kst_insn_a32_conds, .La32_lt, 0x10000000, 0x2a6a
	kst_insn "orrgt, no flag", kst_insn_a32_conds, .La32_gt, 0x0, 0x16aa
	kst_insn "orrgt, N and V", kst_insn_a32_conds, .La32_gt, 0x90000000, 0x165a
	kst_insn "orrle, Z", kst_insn_a32_conds, .La32_le, 0x40000000, 0x26a9
	kst_insn "orrle, N", kst_insn_a32_conds, .La32_le, 0x80000000, 0x2a9a
	kst_insn "orrle, V", kst_insn_a32_conds, .La32_le, 0x10000000, 0x2a6a
	kst_insn "b", kst_insn_a32_b, .La32_b, 1, 101
	kst_insn "blx r3", kst_insn_a32_blx, .La32_blx, 1, 102
	kst_insn "blx to Thumb code", kst_insn_a32_blx_thumb, .La32_blx_imm, 1, 102
	kst_insn "blx r3 to Thumb code", kst_insn_a32_blx_thumb, .La32_blx_thumb, 1, 102
	kst_insn "pld [sp]", kst_insn_a32_hints, .La32_pld, 1, 12
	kst_insn "sev", kst_insn_a32_hints, .La32_sev, 1, 12
	kst_insn "wfe", kst_insn_a32_hints, .La32_wfe, 1, 12
	kst_insn "bx lr", kst_insn_a32_bx_lr, .La32_bx_lr, 1, 2
	kst_insn "mrs r1, apsr", kst_insn_a32_mrs, .La32_mrs, 1, 8
	kst_insn "mov ip, sp", kst_insn_a32_mrs, .La32_mov_ip_sp, 1, 8
	kst_insn "push {r4, r5, lr}", kst_insn_a32_emulated, .La32_push, 1, 30210
	kst_insn "ldr r1, [pc, #imm]", kst_insn_a32_emulated, .La32_ldr_lit, 1, 30210
	kst_insn "str r0, [sp, #imm]", kst_insn_a32_emulated, .La32_str, 1, 30210
	kst_insn "ldr r1, [sp, #imm]", kst_insn_a32_emulated, .La32_ldr, 1, 30210
	kst_insn "strd r0, r1, [sp]", kst_insn_a32_emulated, .La32_strd, 1, 30210
	kst_insn "ldrd r4, r5, [sp]", kst_insn_a32_emulated, .La32_ldrd, 1, 30210
	kst_insn "add r0, r0, r1, lsl r2", kst_insn_a32_emulated, .La32_add_lsl_reg, 1, 30210
	kst_insn "mla r0, r1, r2, r0", kst_insn_a32_emulated, .La32_mla, 1, 30210
	kst_insn "umull r4, r5, r0, r1", kst_insn_a32_emulated, .La32_umull, 1, 30210
	kst_insn "pop {r4, r5, pc}", kst_insn_a32_emulated, .La32_pop, 1, 30210
	kst_insn "clz r1, r0", kst_insn_a32_clz_qadd, .La32_clz, 1, 132
	kst_insn "qadd r0, r0, r1", kst_insn_a32_clz_qadd, .La32_qadd, 1, 132
	kst_insn "add pc, pc, r1", kst_insn_a32_add_pc, .La32_add_pc, 1, 101
	kst_insn "ldr pc, [sp], #4", kst_insn_a32_ldr_pc, .La32_ldr_pc, 1, 101
	kst_insn "strd r0, r1, [sp, #-8]!", kst_insn_a32_ldrd_wb, .La32_strd_wb, 1, 1001
	kst_insn "ldrd r4, r5, [sp], #8", kst_insn_a32_ldrd_wb, .La32_ldrd_wb, 1, 1001
	kst_insn "stmdb sp!, {r0, pc}", kst_insn_a32_ldm_pc, .La32_stm_pc, 1, 109
	kst_insn "ldmia sp!, {r0, pc}", kst_insn_a32_ldm_pc, .La32_ldm_pc, 1, 109
	kst_insn "svc", kst_insn_refused, .Lsvc, 0, 0, 0, -22
	kst_insn "str r0, [sp, r1]", kst_insn_refused, .Lstr_sp_reg, 0, 0, 0, -22
	kst_insn "clz pc, r0", kst_insn_refused, .Lclz_pc, 0, 0, 0, -22
#else
	kst_insn "push {r4, lr}", kst_insn_push_r4, .Lpush_r4_lr, 1, 2
	kst_insn "push {r4}", kst_insn_push_r4, .Lpush_r4, 1, 2
	kst_insn "pop {r4}", kst_insn_push_r4, .Lpop_r4, 1, 2
	kst_insn "pop {r4, pc}", kst_insn_push_r4, .Lpop_r4_pc, 1, 2
	kst_insn "push {lr}", kst_insn_push_lr, .Lpush_lr, 1, 2
	kst_insn "pop {pc}", kst_insn_push_lr, .Lpop_pc, 1, 2
	kst_insn "addeq in an IT block, condition passes", kst_insn_it, .Laddeq_it, 0, 100
	kst_insn "addeq in an IT block, condition fails", kst_insn_it, .Laddeq_it, 5, 6, 0
	kst_insn "b.n", kst_insn_t16_b, .Lt16_b, 1, 101
	kst_insn "beq.n taken", kst_insn_t16_beq, .Lt16_beq, 0, 1
	kst_insn "beq.n not taken", kst_insn_t16_beq, .Lt16_beq, 5, 105, 0
	kst_insn "b.w", kst_insn_t32_b, .Lt32_b, 1, 101
	kst_insn "beq.w taken", kst_insn_t32_beq, .Lt32_beq, 0, 1
	kst_insn "beq.w not taken", kst_insn_t32_beq, .Lt32_beq, 5, 105, 0
	kst_insn "bl, backwards", kst_insn_t32_bl, .Lt32_bl, 1, 102
	kst_insn "cbz taken", kst_insn_cbz, .Lcbz, 0, 1
	kst_insn "cbz not taken", kst_insn_cbz, .Lcbz, 5, 105
	kst_insn "cbnz taken, past 64 bytes", kst_insn_cbnz, .Lcbnz, 5, 105
	kst_insn "cbnz not taken", kst_insn_cbnz, .Lcbnz, 0, 40
	kst_insn "ldr r1, [pc, #imm]", kst_insn_t16_ldr_lit, .Lt16_ldr_lit, 1, 21001
	kst_insn "ldr r2, [pc, #imm], unaligned pc", kst_insn_t16_ldr_lit, .Lt16_ldr_odd, 1, 21001
	kst_insn "adds r0, r0, r1", kst_insn_t16_ldr_lit, .Lt16_adds, 1, 21001
	kst_insn "ldr.w r1, [pc, #-imm]", kst_insn_t32_ldr_lit, .Lt32_ldr_lit, 1, 61780
	kst_insn "ldrsh.w r1, [pc, #imm]", kst_insn_t32_ldr_lit, .Lt32_ldrsh_lit, 1, 61780
	kst_insn "ldrh.w r1, [pc, #imm]", kst_insn_t32_ldr_lit, .Lt32_ldrh_lit, 1, 61780
	kst_insn "ldrsb.w r1, [pc, #imm]", kst_insn_t32_ldr_lit, .Lt32_ldrsb_lit, 1, 61780
	kst_insn "ldrb.w r1, [pc, #imm]", kst_insn_t32_ldr_lit, .Lt32_ldrb_lit, 1, 61780
	kst_insn "adr, pc not word-aligned", kst_insn_t16_sp, .Lt16_adr, 1, 602
	kst_insn "sub sp, #imm", kst_insn_t16_sp, .Lt16_sub_sp, 1, 602
	kst_insn "str r0, [sp, #imm]", kst_insn_t16_sp, .Lt16_str_sp, 1, 602
	kst_insn "add r1, sp, #imm", kst_insn_t16_sp, .Lt16_add_rd_sp, 1, 602
	kst_insn "ldr r0, [sp, #imm]", kst_insn_t16_sp, .Lt16_ldr_sp, 1, 602
	kst_insn "add sp, #imm", kst_insn_t16_sp, .Lt16_add_sp, 1, 602
	kst_insn "blx r3", kst_insn_t16_blx, .Lt16_blx, 1, 102
	kst_insn "bx lr", kst_insn_t16_bx_lr, .Lt16_bx_lr, 1, 2
	kst_insn "mov r8, r1", kst_insn_hiregs, .Lmov_hi, 1, 8
	kst_insn "add r0, r8", kst_insn_hiregs, .Ladd_hi, 1, 8
	kst_insn "mov r1, pc", kst_insn_hiregs, .Lmov_from_pc, 1, 8
	kst_insn "mrs r1, apsr", kst_insn_mrs, .Lmrs, 1, 7
	kst_insn "tbb, index 0", kst_insn_tbb, .Ltbb, 0, 10
	kst_insn "tbb, index 1", kst_insn_tbb, .Ltbb, 1, 21
	kst_insn "tbh, index 0", kst_insn_tbh, .Ltbh, 0, 10
	kst_insn "tbh, index 1", kst_insn_tbh, .Ltbh, 1, 21
	kst_insn "push.w {r4, r5, lr}", kst_insn_t32_emulated, .Lt32_push, 1, 6030
	kst_insn "str.w r0, [sp, #imm]", kst_insn_t32_emulated, .Lt32_str, 1, 6030
	kst_insn "ldr.w r1, [sp, #imm]", kst_insn_t32_emulated, .Lt32_ldr, 1, 6030
	kst_insn "add.w r0, r0, r1", kst_insn_t32_emulated, .Lt32_add, 1, 6030
	kst_insn "strd r0, r1, [sp]", kst_insn_t32_emulated, .Lt32_strd, 1, 6030
	kst_insn "ldrd r4, r5, [sp]", kst_insn_t32_emulated, .Lt32_ldrd, 1, 6030
	kst_insn "umull r4, r5, r0, r1", kst_insn_t32_emulated, .Lt32_umull, 1, 6030
	kst_insn "addw r0, r0, #imm", kst_insn_t32_emulated, .Lt32_addw, 1, 6030
	kst_insn "adr.w r1, label", kst_insn_t32_emulated, .Lt32_adr, 1, 6030
	kst_insn "pop.w {r4, r5, pc}", kst_insn_t32_emulated, .Lt32_pop, 1, 6030
	kst_insn "svc", kst_insn_refused, .Lsvc, 0, 0, 0, -22
#endif
	kst_insns_end
