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

/*
 * A branch or jump over a return, whose delay slot adds 10 to a0: the
 * function adds 1 more where it is taken and 100 where it is not. A
 * likely branch's slot runs only where it is taken. \branch is the
 * instruction up to its target, 1f.
 */
	.macro	kst_branch name, branch:vararg
SYM_FUNC_START(kst_insn_\name)
	move	v0, a0
.L\name:
	\branch 1f
	 LONG_ADDIU v0, v0, 10
	jr	ra
	 LONG_ADDIU v0, v0, 100
1:	jr	ra
	 LONG_ADDIU v0, v0, 1
SYM_FUNC_END(kst_insn_\name)
	.endm

	kst_branch bne_slot, bne a0, zero,
	kst_branch beql, beql a0, zero,
	kst_branch bltz, bltz a0,
	kst_branch bgez, bgez a0,
	kst_branch blez, blez a0,
	kst_branch bgtz, bgtz a0,
	kst_branch bltzl, bltzl a0,
	kst_branch bgezl, bgezl a0,
	kst_branch blezl, blezl a0,
	kst_branch bgtzl, bgtzl a0,
	kst_branch bnel, bnel a0, zero,
	kst_branch j, j

/*
 * A call whose return address is past the delay slot: the slot adds 10
 * to a0 once, and a0 is added to what kst_add1() returns. \load, if
 * any, comes before the call.
 */
	.macro	kst_call name, target, load:vararg
SYM_FUNC_START(kst_insn_\name)
	PTR_ADDIU sp, sp, -16
	LONG_S	ra, 0(sp)
	\load
.L\name:
	\name	\target
	 LONG_ADDIU a0, a0, 10
	LONG_ADDU v0, v0, a0
	LONG_L	ra, 0(sp)
	jr	ra
	 PTR_ADDIU sp, sp, 16
SYM_FUNC_END(kst_insn_\name)
	.endm

	kst_call jal, kst_add1
	kst_call jalr, t9, PTR_LA t9, kst_add1

/*
 * A branch and link on a register (not bal's zero): it links whether
 * taken or not. Taken, kst_add1() returns the slot's a0 + 1; not, v0
 * keeps the argument. Then 100 is added.
 */
	.macro	kst_branch_link name, branch:vararg
SYM_FUNC_START(kst_insn_\name)
	PTR_ADDIU sp, sp, -16
	LONG_S	ra, 0(sp)
	move	v0, a0
.L\name:
	\branch, kst_add1
	 LONG_ADDIU a0, a0, 10
	LONG_ADDIU v0, v0, 100
	LONG_L	ra, 0(sp)
	jr	ra
	 PTR_ADDIU sp, sp, 16
SYM_FUNC_END(kst_insn_\name)
	.endm

	kst_branch_link bltzal, bltzal a0
	kst_branch_link bgezal, bgezal a0

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
	kst_insn "bltz taken", kst_insn_bltz, .Lbltz, -5, 6
	kst_insn "bltz not taken", kst_insn_bltz, .Lbltz, 5, 115
	kst_insn "bgez taken, equal", kst_insn_bgez, .Lbgez, 0, 11
	kst_insn "bgez not taken", kst_insn_bgez, .Lbgez, -5, 105
	kst_insn "blez taken, equal", kst_insn_blez, .Lblez, 0, 11
	kst_insn "blez not taken", kst_insn_blez, .Lblez, 5, 115
	kst_insn "bgtz taken", kst_insn_bgtz, .Lbgtz, 5, 16
	kst_insn "bgtz not taken, equal", kst_insn_bgtz, .Lbgtz, 0, 110
	kst_insn "bltzl taken", kst_insn_bltzl, .Lbltzl, -5, 6
	kst_insn "bltzl not taken", kst_insn_bltzl, .Lbltzl, 5, 105
	kst_insn "bgezl taken, equal", kst_insn_bgezl, .Lbgezl, 0, 11
	kst_insn "bgezl not taken", kst_insn_bgezl, .Lbgezl, -5, 95
	kst_insn "blezl taken, equal", kst_insn_blezl, .Lblezl, 0, 11
	kst_insn "blezl not taken", kst_insn_blezl, .Lblezl, 5, 105
	kst_insn "bgtzl taken", kst_insn_bgtzl, .Lbgtzl, 5, 16
	kst_insn "bgtzl not taken, equal", kst_insn_bgtzl, .Lbgtzl, 0, 100
	kst_insn "bnel taken", kst_insn_bnel, .Lbnel, 5, 16
	kst_insn "bnel not taken", kst_insn_bnel, .Lbnel, 0, 100
	kst_insn "j", kst_insn_j, .Lj, 5, 16
	kst_insn "jal", kst_insn_jal, .Ljal, 1, 23
	kst_insn "jalr", kst_insn_jalr, .Ljalr, 1, 23
	kst_insn "bltzal taken", kst_insn_bltzal, .Lbltzal, -5, 106
	kst_insn "bltzal not taken", kst_insn_bltzal, .Lbltzal, 5, 105
	kst_insn "bgezal taken, equal", kst_insn_bgezal, .Lbgezal, 0, 111
	kst_insn "bgezal not taken", kst_insn_bgezal, .Lbgezal, -5, 95
	kst_insn "ll", kst_insn_refused, .Lll, 0, 0, 0, -22
	kst_insn "a delay slot", kst_insn_refused, .Lslot, 0, 0, 0, -22
	kst_insns_end
