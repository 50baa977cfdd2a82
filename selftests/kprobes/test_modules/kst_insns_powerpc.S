/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_insns_powerpc.S - instructions powerpc kprobes emulate rather than
 * single-step (emulate_step(), lib/sstep.c), one they single-step, and
 * some they refuse (can_single_step(), asm/probes.h), each in a function
 * of its own: long f(long value). An emulation that goes wrong returns
 * another value, without crashing where it can. None of them needs the
 * TOC.
 */
#include <asm/ppc_asm.h>
#include <asm/reg.h>

#include "kst_insns_table.S"

	.text

SYM_FUNC_START_LOCAL(kst_add1)
	addi	r3, r3, 1
	blr
SYM_FUNC_END(kst_add1)

/*
 * bl links: kst_add1() returns after it (+ 101); without the link it
 * returns to 1: (+ 1001), where the link register was pointed first.
 */
SYM_FUNC_START(kst_insn_bl)
	mflr	r0
	std	r0, 16(r1)
	stdu	r1, -32(r1)
	bcl	20, 31, 3f
3:	mflr	r4
	addi	r4, r4, 1f - 3b
	mtlr	r4
.Lbl:	bl	kst_add1
	addi	r3, r3, 100
	b	2f
1:	addi	r3, r3, 1000
2:	addi	r1, r1, 32
	ld	r0, 16(r1)
	mtlr	r0
	blr
SYM_FUNC_END(kst_insn_bl)

SYM_FUNC_START(kst_insn_blr)
	addi	r3, r3, 1
.Lblr:	blr
	addi	r3, r3, 1000
	blr
SYM_FUNC_END(kst_insn_blr)

SYM_FUNC_START(kst_insn_beq)
	cmpdi	r3, 0
.Lbeq:	beq	1f
	addi	r3, r3, 100
	blr
1:	addi	r3, r3, 1
	blr
SYM_FUNC_END(kst_insn_beq)

/* Two rounds: the probed bdnz runs twice, and counts CTR down to 0. */
SYM_FUNC_START(kst_insn_bdnz)
	li	r4, 2
	mtctr	r4
	li	r5, 0
1:	addi	r5, r5, 10
.Lbdnz:	bdnz	1b
	add	r3, r3, r5
	blr
SYM_FUNC_END(kst_insn_bdnz)

/* Each bcl 20,31 gives its own address + 4: they are 8 bytes apart. */
SYM_FUNC_START(kst_insn_bcl)
	mflr	r0
.Lbcl:	bcl	20, 31, 1f
1:	mflr	r4
	bcl	20, 31, 2f
2:	mflr	r5
	mtlr	r0
	subf	r4, r4, r5
	add	r3, r3, r4
	blr
SYM_FUNC_END(kst_insn_bcl)

/*
 * emulate_step() leaves mfspr of an SPR other than XER, LR and CTR to a
 * single-step in the slot. A second read, unprobed, checks that the
 * first one's result came back from the slot (+ 0), as did the nip.
 */
SYM_FUNC_START(kst_insn_mfspr)
.Lmfspr:
	mfspr	r4, SPRN_PVR
	mfspr	r5, SPRN_PVR
	subf	r4, r4, r5
	add	r3, r3, r4
	addi	r3, r3, 1
	blr
SYM_FUNC_END(kst_insn_mfspr)

/* Never run: what follows blr is only probed. */
SYM_FUNC_START(kst_insn_refused)
	blr
.Lsc:	sc
.Ltrap:	trap
.Lrfid:	rfid
.Lmtmsrd:
	mtmsrd	r3
	blr
SYM_FUNC_END(kst_insn_refused)

	kst_insns_start
	kst_insn "bl", kst_insn_bl, .Lbl, 1, 102
	kst_insn "blr", kst_insn_blr, .Lblr, 1, 2
	kst_insn "beq taken", kst_insn_beq, .Lbeq, 0, 1
	kst_insn "beq not taken", kst_insn_beq, .Lbeq, 5, 105
	kst_insn "bdnz", kst_insn_bdnz, .Lbdnz, 1, 21, 2
	kst_insn "bcl 20,31", kst_insn_bcl, .Lbcl, 7, 15
	kst_insn "mfspr (single-stepped)", kst_insn_mfspr, .Lmfspr, 1, 2
	kst_insn "sc", kst_insn_refused, .Lsc, 0, 0, 0, -22
	kst_insn "trap", kst_insn_refused, .Ltrap, 0, 0, 0, -22
	kst_insn "rfid", kst_insn_refused, .Lrfid, 0, 0, 0, -22
	kst_insn "mtmsrd", kst_insn_refused, .Lmtmsrd, 0, 0, 0, -22
	kst_insns_end
