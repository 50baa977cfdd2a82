/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_insns_mips.S - the instructions MIPS kprobes do not single-step as
 * they are (kprobes.c): a branch or jump is evaluated by the kernel and
 * only its delay slot is stepped out of line, or skipped where it is a
 * nop or nullified; and some they refuse. Each is in a function of its
 * own: long f(long value), value in a0, returned in v0. noreorder keeps
 * each delay slot as written.
 */
#include <asm/asm.h>
#include <asm/regdef.h>

#include "kst_insns_table.S"

	.text
	.set	push
	.set	noreorder

SYM_FUNC_START_LOCAL(kst_add1)
	jr	ra
	 LONG_ADDIU v0, a0, 1
SYM_FUNC_END(kst_add1)

/* Its delay slot is a nop, which kprobes skip rather than step. */
SYM_FUNC_START(kst_insn_beq_nop)
.Lbeq_nop:
	beq	a0, zero, 1f
	 nop
	jr	ra
	 LONG_ADDIU v0, a0, 100
1:	jr	ra
	 LONG_ADDIU v0, a0, 1
SYM_FUNC_END(kst_insn_beq_nop)

/* The first instruction after a skipped delay slot: stepped, not skipped. */
SYM_FUNC_START(kst_insn_addiu)
.Laddiu:
	LONG_ADDIU v0, a0, 1
	jr	ra
	 nop
SYM_FUNC_END(kst_insn_addiu)

/* The delay slot runs whether the branch is taken or not. */
SYM_FUNC_START(kst_insn_bne_slot)
	move	v0, a0
.Lbne_slot:
	bne	a0, zero, 1f
	 LONG_ADDIU v0, v0, 10
	jr	ra
	 LONG_ADDIU v0, v0, 100
1:	jr	ra
	 LONG_ADDIU v0, v0, 1
SYM_FUNC_END(kst_insn_bne_slot)

/* A likely branch's delay slot runs only when it is taken. */
SYM_FUNC_START(kst_insn_beql)
	move	v0, a0
.Lbeql:
	beql	a0, zero, 1f
	 LONG_ADDIU v0, v0, 10
	jr	ra
	 LONG_ADDIU v0, v0, 100
1:	jr	ra
	 LONG_ADDIU v0, v0, 1
SYM_FUNC_END(kst_insn_beql)

/* bal links: kst_add1() returns past the delay slot, which runs once. */
SYM_FUNC_START(kst_insn_bal)
	PTR_ADDIU sp, sp, -16
	LONG_S	ra, 0(sp)
.Lbal:
	bal	kst_add1
	 LONG_ADDIU a0, a0, 10
	LONG_ADDIU v0, v0, 100
	LONG_L	ra, 0(sp)
	jr	ra
	 PTR_ADDIU sp, sp, 16
SYM_FUNC_END(kst_insn_bal)

/* A probe on a return, with a nop in its delay slot. */
SYM_FUNC_START(kst_insn_jr)
	LONG_ADDIU v0, a0, 1
.Ljr:
	jr	ra
	 nop
SYM_FUNC_END(kst_insn_jr)

/* Never run: what follows the return is only probed. */
SYM_FUNC_START(kst_insn_refused)
	jr	ra
	 nop
.Lll:
	ll	t0, 0(a0)
	b	1f
.Lslot:
	 nop
1:	jr	ra
	 nop
SYM_FUNC_END(kst_insn_refused)

	.set	pop

	kst_insns_start
	kst_insn "beq taken, nop in the slot", kst_insn_beq_nop, .Lbeq_nop, 0, 1
	kst_insn "addiu after a skipped slot", kst_insn_addiu, .Laddiu, 1, 2
	kst_insn "beq not taken, nop in the slot", kst_insn_beq_nop, .Lbeq_nop, 5, 105
	kst_insn "addiu after a skipped slot, again", kst_insn_addiu, .Laddiu, 2, 3
	kst_insn "bne taken", kst_insn_bne_slot, .Lbne_slot, 5, 16
	kst_insn "bne not taken", kst_insn_bne_slot, .Lbne_slot, 0, 110
	kst_insn "beql taken", kst_insn_beql, .Lbeql, 0, 11
	kst_insn "beql not taken", kst_insn_beql, .Lbeql, 5, 105
	kst_insn "bal", kst_insn_bal, .Lbal, 1, 112
	kst_insn "jr", kst_insn_jr, .Ljr, 1, 2
	kst_insn "ll", kst_insn_refused, .Lll, 0, 0, 0, -22
	kst_insn "a delay slot", kst_insn_refused, .Lslot, 0, 0, 0, -22
	kst_insns_end
