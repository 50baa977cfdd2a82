/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_insns_s390.S - the instructions s390 kprobes fix up after their
 * single-step out of line (resume_execution(), probe_get_fixup_type()),
 * those whose displacement they rewrite for the slot
 * (probe_is_insn_relative_long()), and some they refuse
 * (probe_is_prohibited_opcode()), each in a function of its own:
 * long f(long value), in %r2. A fix-up that goes wrong returns another
 * value, without crashing where it can.
 */
#include "kst_insns_table.S"

	.text

SYM_FUNC_START_LOCAL(kst_add1)
	aghi	%r2,1
	br	%r14
SYM_FUNC_END(kst_add1)

/*
 * The return address is the one after the call, not after the slot.
 * %r5 keeps this function's own: kst_add1() does not touch it.
 */
SYM_FUNC_START(kst_insn_brasl)
	lgr	%r5,%r14
.Lbrasl:
	brasl	%r14,kst_add1
	aghi	%r2,100
	lgr	%r14,%r5
	br	%r14
SYM_FUNC_END(kst_insn_brasl)

SYM_FUNC_START(kst_insn_bras)
	lgr	%r5,%r14
.Lbras:	bras	%r14,kst_add1
	aghi	%r2,100
	lgr	%r14,%r5
	br	%r14
SYM_FUNC_END(kst_insn_bras)

SYM_FUNC_START(kst_insn_basr)
	lgr	%r5,%r14
	larl	%r1,kst_add1
.Lbasr:	basr	%r14,%r1
	aghi	%r2,100
	lgr	%r14,%r5
	br	%r14
SYM_FUNC_END(kst_insn_basr)

/* basr with %r0 links without branching: %r1 is the address after it. */
SYM_FUNC_START(kst_insn_basr_r0)
.Lbasr_r0:
	basr	%r1,%r0
0:	larl	%r3,0b
	sgr	%r1,%r3
	agr	%r2,%r1
	br	%r14
SYM_FUNC_END(kst_insn_basr_r0)

/* Relative: taken for a value that is not 0. */
SYM_FUNC_START(kst_insn_brc)
	ltgr	%r2,%r2
.Lbrc:	jne	1f
	aghi	%r2,100
	br	%r14
1:	aghi	%r2,1
	br	%r14
SYM_FUNC_END(kst_insn_brc)

/* To the address in a register: taken for 0. */
SYM_FUNC_START(kst_insn_bcr)
	larl	%r1,1f
	ltgr	%r2,%r2
.Lbcr:	bcr	8,%r1
	aghi	%r2,100
	br	%r14
1:	aghi	%r2,1
	br	%r14
SYM_FUNC_END(kst_insn_bcr)

/* Decrements %r2, taken while it is not 0. */
SYM_FUNC_START(kst_insn_brct)
.Lbrct:	brct	%r2,1f
	aghi	%r2,100
	br	%r14
1:	aghi	%r2,1
	br	%r14
SYM_FUNC_END(kst_insn_brct)

SYM_FUNC_START(kst_insn_bct)
	larl	%r1,1f
.Lbct:	bct	%r2,0(%r1)
	aghi	%r2,100
	br	%r14
1:	aghi	%r2,1
	br	%r14
SYM_FUNC_END(kst_insn_bct)

/* 6 bytes, relative: taken for a value above 3. */
SYM_FUNC_START(kst_insn_cgrj)
	lghi	%r3,3
.Lcgrj:	cgrj	%r2,%r3,2,1f
	aghi	%r2,100
	br	%r14
1:	aghi	%r2,1
	br	%r14
SYM_FUNC_END(kst_insn_cgrj)

/* 6 bytes, to a base and displacement: taken for a value above 3. */
SYM_FUNC_START(kst_insn_cgrb)
	lghi	%r3,3
	larl	%r1,1f
.Lcgrb:	cgrb	%r2,%r3,2,0(%r1)
	aghi	%r2,100
	br	%r14
1:	aghi	%r2,1
	br	%r14
SYM_FUNC_END(kst_insn_cgrb)

/* Relative long: both larl give the same address, wherever the code is. */
SYM_FUNC_START(kst_insn_larl)
.Llarl:	larl	%r1,.Llarl_target
	larl	%r3,.Llarl_target
	sgr	%r1,%r3
	agr	%r2,%r1
.Llarl_target:
	br	%r14
SYM_FUNC_END(kst_insn_larl)

SYM_FUNC_START(kst_insn_lgrl)
.Llgrl:	lgrl	%r1,.Llgrl_value
	agr	%r2,%r1
	br	%r14
SYM_FUNC_END(kst_insn_lgrl)

/* Never run: what follows br is only probed. */
SYM_FUNC_START(kst_insn_refused)
	br	%r14
.Lex:	ex	%r0,0(%r1)
.Lexrl:	exrl	%r0,.Lex
.Ldiag:	diag	%r0,%r0,0
.Lstnsm:
	stnsm	0(%r15),0xff
.Lepsw:	epsw	%r0,%r1
	br	%r14
SYM_FUNC_END(kst_insn_refused)

	.section .rodata, "a"
	.balign	8
.Llgrl_value:
	.quad	100

	kst_insns_start
	/* First: a return register fixed up wrong shows here without a crash. */
	kst_insn "basr %r0", kst_insn_basr_r0, .Lbasr_r0, 7, 7
	kst_insn "brasl", kst_insn_brasl, .Lbrasl, 1, 102
	kst_insn "bras", kst_insn_bras, .Lbras, 1, 102
	kst_insn "basr", kst_insn_basr, .Lbasr, 1, 102
	kst_insn "brc taken", kst_insn_brc, .Lbrc, 5, 6
	kst_insn "brc not taken", kst_insn_brc, .Lbrc, 0, 100
	kst_insn "bcr taken", kst_insn_bcr, .Lbcr, 0, 1
	kst_insn "bcr not taken", kst_insn_bcr, .Lbcr, 5, 105
	kst_insn "brct taken", kst_insn_brct, .Lbrct, 5, 5
	kst_insn "brct not taken", kst_insn_brct, .Lbrct, 1, 100
	kst_insn "bct taken", kst_insn_bct, .Lbct, 5, 5
	kst_insn "bct not taken", kst_insn_bct, .Lbct, 1, 100
	kst_insn "cgrj taken", kst_insn_cgrj, .Lcgrj, 5, 6
	kst_insn "cgrj not taken", kst_insn_cgrj, .Lcgrj, 1, 101
	kst_insn "cgrb taken", kst_insn_cgrb, .Lcgrb, 5, 6
	kst_insn "cgrb not taken", kst_insn_cgrb, .Lcgrb, 1, 101
	kst_insn "larl", kst_insn_larl, .Llarl, 7, 7
	kst_insn "lgrl", kst_insn_lgrl, .Llgrl, 1, 101
	kst_insn "ex", kst_insn_refused, .Lex, 0, 0, 0, -22
	kst_insn "exrl", kst_insn_refused, .Lexrl, 0, 0, 0, -22
	kst_insn "diag", kst_insn_refused, .Ldiag, 0, 0, 0, -22
	kst_insn "stnsm", kst_insn_refused, .Lstnsm, 0, 0, 0, -22
	kst_insn "epsw", kst_insn_refused, .Lepsw, 0, 0, 0, -22
	kst_insns_end
