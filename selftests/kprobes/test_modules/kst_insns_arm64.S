/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_insns_arm64.S - the instructions arm64 kprobes simulate rather than
 * single-step out of line (probes/decode-insn.c, simulate-insn.c), and
 * some they refuse, each in a function of its own: long f(long value).
 * A simulation that goes wrong returns another value, without crashing
 * where it can.
 */
#include "kst_insns_table.S"

	.text

SYM_FUNC_START_LOCAL(kst_add1)
	add	x0, x0, #1
	ret
SYM_FUNC_END(kst_add1)

/*
 * bl, then blr through a register, link: kst_add1() returns after each
 * (+ 202), not to 1: (+ 1002 without bl's link, + 1103 without blr's).
 */
SYM_FUNC_START(kst_insn_bl)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adr	x30, 1f
.Lbl:	bl	kst_add1
	add	x0, x0, #100
	adr	x30, 1f
	adr	x16, kst_add1
.Lblr:	blr	x16
	add	x0, x0, #100
	b	2f
1:	add	x0, x0, #1000
2:	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(kst_insn_bl)

SYM_FUNC_START(kst_insn_ret)
	add	x0, x0, #1
.Lret:	ret
	add	x0, x0, #1000
	ret
SYM_FUNC_END(kst_insn_ret)

SYM_FUNC_START(kst_insn_bcond)
	cmp	x0, #0
.Lbcond:
	b.eq	1f
	add	x0, x0, #100
	ret
1:	add	x0, x0, #1
	ret
SYM_FUNC_END(kst_insn_bcond)

SYM_FUNC_START(kst_insn_cbnz)
.Lcbnz:	cbnz	x0, 1f
	add	x0, x0, #100
	ret
1:	add	x0, x0, #1
	ret
SYM_FUNC_END(kst_insn_cbnz)

/* Both adr give the address of 1:, whatever the address of the code. */
SYM_FUNC_START(kst_insn_adr)
.Ladr:	adr	x1, 1f
	adr	x2, 1f
	sub	x1, x1, x2
	add	x0, x0, x1
1:	ret
SYM_FUNC_END(kst_insn_adr)

SYM_FUNC_START(kst_insn_ldr_literal)
.Lldr:	ldr	x1, 1f
	add	x0, x0, x1
	ret
	.balign	8
1:	.quad	0x100000001
SYM_FUNC_END(kst_insn_ldr_literal)

/* br jumps through a register and links nothing; bti j: a landing pad. */
SYM_FUNC_START(kst_insn_br)
	adr	x16, 1f
.Lbr:	br	x16
	add	x0, x0, #100
	ret
1:	hint	#36
	add	x0, x0, #1
	ret
SYM_FUNC_END(kst_insn_br)

/* A bit above 31 of a 64-bit register. */
SYM_FUNC_START(kst_insn_tbnz)
.Ltbnz:	tbnz	x0, #40, 1f
	add	x0, x0, #100
	ret
1:	add	x0, x0, #1
	ret
SYM_FUNC_END(kst_insn_tbnz)

SYM_FUNC_START(kst_insn_tbz)
.Ltbz:	tbz	w0, #3, 1f
	add	x0, x0, #100
	ret
1:	add	x0, x0, #1
	ret
SYM_FUNC_END(kst_insn_tbz)

/* w0 is 0 when x0 is 1 << 32: the 32-bit form looks at the low half. */
SYM_FUNC_START(kst_insn_cbz_w)
.Lcbzw:	cbz	w0, 1f
	add	x0, x0, #100
	ret
1:	add	x0, x0, #1
	ret
SYM_FUNC_END(kst_insn_cbz_w)

/* A 32-bit literal load zero-extends; a 64-bit one would take 0x12345678 too. */
SYM_FUNC_START(kst_insn_ldr_literal_w)
.Lldrw:	ldr	w1, 1f
	add	x0, x0, x1
	ret
	.balign	8
1:	.word	0xffffffff
	.word	0x12345678
SYM_FUNC_END(kst_insn_ldr_literal_w)

/* ldrsw sign-extends: x1 is -2. */
SYM_FUNC_START(kst_insn_ldrsw_literal)
.Lldrsw:
	ldrsw	x1, 1f
	add	x0, x0, x1
	ret
	.balign	4
1:	.word	0xfffffffe
SYM_FUNC_END(kst_insn_ldrsw_literal)

SYM_FUNC_START(kst_insn_nop)
.Lnop:	nop
	add	x0, x0, #1
	ret
SYM_FUNC_END(kst_insn_nop)

/* Both adrp give the page of kst_add1, whatever the address of the code. */
SYM_FUNC_START(kst_insn_adrp)
.Ladrp:	adrp	x1, kst_add1
	adrp	x2, kst_add1
	sub	x1, x1, x2
	add	x0, x0, x1
	ret
SYM_FUNC_END(kst_insn_adrp)

/* Never run: what follows ret is only probed. */
SYM_FUNC_START(kst_insn_refused)
	ret
.Lsvc:	svc	#0
	ldxr	x1, [x0]
.Lexclusive:
	add	x1, x1, #1
	stxr	w2, x1, [x0]
	ret
SYM_FUNC_END(kst_insn_refused)

	kst_insns_start
	kst_insn "bl", kst_insn_bl, .Lbl, 1, 203
	kst_insn "ret", kst_insn_ret, .Lret, 1, 2
	kst_insn "b.eq taken", kst_insn_bcond, .Lbcond, 0, 1
	kst_insn "b.eq not taken", kst_insn_bcond, .Lbcond, 5, 105
	kst_insn "cbnz taken", kst_insn_cbnz, .Lcbnz, 5, 6
	kst_insn "cbnz not taken", kst_insn_cbnz, .Lcbnz, 0, 100
	kst_insn "adr", kst_insn_adr, .Ladr, 7, 7
	kst_insn "ldr (literal)", kst_insn_ldr_literal, .Lldr, 1, 0x100000002
	kst_insn "blr", kst_insn_bl, .Lblr, 1, 203
	kst_insn "br", kst_insn_br, .Lbr, 5, 6
	kst_insn "tbnz bit 40 taken", kst_insn_tbnz, .Ltbnz, 0x10000000000, 0x10000000001
	kst_insn "tbnz bit 40 not taken, bit 8 set", kst_insn_tbnz, .Ltbnz, 0x100, 0x164
	kst_insn "tbz w bit 3 taken", kst_insn_tbz, .Ltbz, 0x100000000, 0x100000001
	kst_insn "tbz w bit 3 not taken", kst_insn_tbz, .Ltbz, 8, 108
	kst_insn "cbz w, upper half set", kst_insn_cbz_w, .Lcbzw, 0x100000000, 0x100000001
	kst_insn "cbz w not taken", kst_insn_cbz_w, .Lcbzw, 2, 102
	kst_insn "ldr w (literal)", kst_insn_ldr_literal_w, .Lldrw, 1, 0x100000000
	kst_insn "ldrsw (literal)", kst_insn_ldrsw_literal, .Lldrsw, 5, 3
	kst_insn "nop", kst_insn_nop, .Lnop, 1, 2
	kst_insn "adrp", kst_insn_adrp, .Ladrp, 7, 7
	kst_insn "svc", kst_insn_refused, .Lsvc, 0, 0, 0, -22
	kst_insn "add between ldxr and stxr", kst_insn_refused, .Lexclusive, 0, 0, 0, -22
	kst_insns_end
