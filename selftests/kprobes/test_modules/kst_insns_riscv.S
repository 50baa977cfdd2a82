/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_insns_riscv.S - the instructions riscv kprobes simulate rather than
 * single-step out of line (probes/decode-insn.c, simulate-insn.c), and
 * some they refuse, each in a function of its own: long f(long value).
 * A simulation that goes wrong returns another value, without crashing
 * where it can. The 4-byte instructions are assembled with norvc, so that
 * the assembler does not pick their compressed forms: those are cases of
 * their own, with the C extension.
 */
#include <asm/asm.h>
#include <linux/version.h>

#include "kst_insns_table.S"

	.text
	.option	push
	.option	norvc

SYM_FUNC_START_LOCAL(kst_add1)
	addi	a0, a0, 1
	ret
SYM_FUNC_END(kst_add1)

/* jal links: kst_add1() returns after it (+ 101), not to 1: (+ 1001). */
SYM_FUNC_START(kst_insn_jal)
	addi	sp, sp, -16
	REG_S	ra, 0(sp)
	lla	ra, 1f
.Ljal:	jal	ra, kst_add1
	addi	a0, a0, 100
	j	2f
1:	addi	a0, a0, 1000
2:	REG_L	ra, 0(sp)
	addi	sp, sp, 16
	ret
SYM_FUNC_END(kst_insn_jal)

SYM_FUNC_START(kst_insn_jalr)
	addi	sp, sp, -16
	REG_S	ra, 0(sp)
	lla	t0, kst_add1
	lla	ra, 1f
.Ljalr:	jalr	ra, 0(t0)
	addi	a0, a0, 100
	j	2f
1:	addi	a0, a0, 1000
2:	REG_L	ra, 0(sp)
	addi	sp, sp, 16
	ret
SYM_FUNC_END(kst_insn_jalr)

/* auipc + addi and lla give the same address, wherever the code is. */
SYM_FUNC_START(kst_insn_auipc)
.Lauipc:
	auipc	t1, %pcrel_hi(.Lauipc_target)
	addi	t1, t1, %pcrel_lo(.Lauipc)
	lla	t2, .Lauipc_target
	sub	t1, t1, t2
	add	a0, a0, t1
.Lauipc_target:
	ret
SYM_FUNC_END(kst_insn_auipc)

SYM_FUNC_START(kst_insn_beq)
.Lbeq:	beq	a0, zero, 1f
	addi	a0, a0, 100
	ret
1:	addi	a0, a0, 1
	ret
SYM_FUNC_END(kst_insn_beq)

/* A signed comparison: taken for a negative value. */
SYM_FUNC_START(kst_insn_blt)
.Lblt:	blt	a0, zero, 1f
	addi	a0, a0, 100
	ret
1:	addi	a0, a0, 1
	ret
SYM_FUNC_END(kst_insn_blt)

/*
 * The other conditions of simulate_branch(): bne and bge on a0 and zero;
 * bltu and bgeu against 10, where -5 is the largest unsigned value, so
 * that a signed comparison goes the other way.
 */
	.macro	kst_branch op, rs2
SYM_FUNC_START(kst_insn_\op)
	li	t0, \rs2
.L\op:	\op	a0, t0, 1f
	addi	a0, a0, 100
	ret
1:	addi	a0, a0, 1
	ret
SYM_FUNC_END(kst_insn_\op)
	.endm

	kst_branch bne, 0
	kst_branch bge, 0
	kst_branch bltu, 10
	kst_branch bgeu, 10

/*
 * jalr with a negative offset, and ra both the base and the link: the
 * base is read before the link is written.
 */
SYM_FUNC_START(kst_insn_jalr_offset)
	addi	sp, sp, -16
	REG_S	ra, 0(sp)
	lla	ra, kst_add1 + 16
.Ljalr_offset:
	jalr	ra, -16(ra)
	addi	a0, a0, 100
	REG_L	ra, 0(sp)
	addi	sp, sp, 16
	ret
SYM_FUNC_END(kst_insn_jalr_offset)

/* Never run: what follows ret is only probed. */
SYM_FUNC_START(kst_insn_refused)
	ret
.Lecall:
	ecall
.Lfence:
	fence
	ret
SYM_FUNC_END(kst_insn_refused)

#ifdef CONFIG_RISCV_ISA_C
	.option	rvc

SYM_FUNC_START(kst_insn_c_j)
.Lc_j:	c.j	1f
	addi	a0, a0, 1000
	ret
1:	addi	a0, a0, 1
	ret
SYM_FUNC_END(kst_insn_c_j)

SYM_FUNC_START(kst_insn_c_jr)
	addi	a0, a0, 1
.Lc_jr:	c.jr	ra
	addi	a0, a0, 1000
	ret
SYM_FUNC_END(kst_insn_c_jr)

SYM_FUNC_START(kst_insn_c_jalr)
	addi	sp, sp, -16
	REG_S	ra, 0(sp)
	lla	t0, kst_add1
	lla	ra, 1f
.Lc_jalr:
	c.jalr	t0
	addi	a0, a0, 100
	j	2f
1:	addi	a0, a0, 1000
2:	REG_L	ra, 0(sp)
	addi	sp, sp, 16
	ret
SYM_FUNC_END(kst_insn_c_jalr)

SYM_FUNC_START(kst_insn_c_beqz)
.Lc_beqz:
	c.beqz	a0, 1f
	addi	a0, a0, 100
	ret
1:	addi	a0, a0, 1
	ret
SYM_FUNC_END(kst_insn_c_beqz)

SYM_FUNC_START(kst_insn_c_bnez)
.Lc_bnez:
	c.bnez	a0, 1f
	addi	a0, a0, 100
	ret
1:	addi	a0, a0, 1
	ret
SYM_FUNC_END(kst_insn_c_bnez)

/* Never run. */
SYM_FUNC_START(kst_insn_c_refused)
	ret
.Lc_ebreak:
	c.ebreak
	ret
SYM_FUNC_END(kst_insn_c_refused)
#endif /* CONFIG_RISCV_ISA_C */

	.option	pop

	kst_insns_start
	kst_insn "jal", kst_insn_jal, .Ljal, 1, 102
	kst_insn "jalr", kst_insn_jalr, .Ljalr, 1, 102
	kst_insn "auipc", kst_insn_auipc, .Lauipc, 7, 7
	kst_insn "beq taken", kst_insn_beq, .Lbeq, 0, 1
	kst_insn "beq not taken", kst_insn_beq, .Lbeq, 5, 105
	kst_insn "blt taken", kst_insn_blt, .Lblt, -5, -4
	kst_insn "blt not taken", kst_insn_blt, .Lblt, 5, 105
	kst_insn "bne taken", kst_insn_bne, .Lbne, 5, 6
	kst_insn "bne not taken", kst_insn_bne, .Lbne, 0, 100
	kst_insn "bge taken", kst_insn_bge, .Lbge, 5, 6
	kst_insn "bge taken, equal", kst_insn_bge, .Lbge, 0, 1
	kst_insn "bge not taken", kst_insn_bge, .Lbge, -5, 95
	kst_insn "bltu taken", kst_insn_bltu, .Lbltu, 5, 6
	kst_insn "bltu not taken", kst_insn_bltu, .Lbltu, -5, 95
	kst_insn "bgeu taken", kst_insn_bgeu, .Lbgeu, -5, -4
	kst_insn "bgeu not taken", kst_insn_bgeu, .Lbgeu, 5, 105
	kst_insn "jalr, negative offset, rd = rs1", kst_insn_jalr_offset, .Ljalr_offset, 1, 102
	kst_insn "ecall", kst_insn_refused, .Lecall, 0, 0, 0, -22
	kst_insn "fence", kst_insn_refused, .Lfence, 0, 0, 0, -22
#ifdef CONFIG_RISCV_ISA_C
/*
 * The compressed jumps and branches are simulated since v6.6 (a93892974f2e,
 * b18256d9b744, d943705fba3a); an older kernel refuses them.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define KST_C_BRANCH_ERR	0
#else
#define KST_C_BRANCH_ERR	-22
#endif
	kst_insn "c.j", kst_insn_c_j, .Lc_j, 1, 2, 1, KST_C_BRANCH_ERR
	kst_insn "c.jr", kst_insn_c_jr, .Lc_jr, 1, 2, 1, KST_C_BRANCH_ERR
	kst_insn "c.jalr", kst_insn_c_jalr, .Lc_jalr, 1, 102, 1, KST_C_BRANCH_ERR
	kst_insn "c.beqz taken", kst_insn_c_beqz, .Lc_beqz, 0, 1, 1, KST_C_BRANCH_ERR
	kst_insn "c.beqz not taken", kst_insn_c_beqz, .Lc_beqz, 5, 105, 1, KST_C_BRANCH_ERR
	kst_insn "c.bnez taken", kst_insn_c_bnez, .Lc_bnez, 5, 6, 1, KST_C_BRANCH_ERR
	kst_insn "c.bnez not taken", kst_insn_c_bnez, .Lc_bnez, 0, 100, 1, KST_C_BRANCH_ERR
	kst_insn "c.ebreak", kst_insn_c_refused, .Lc_ebreak, 0, 0, 0, -22
#endif
	kst_insns_end
