/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KST_INSNS_TABLE_S
#define _KST_INSNS_TABLE_S

/*
 * The table of kst_insns_<arch>.S in the layout of struct kst_insn
 * (kst_insns.h): between kst_insns_start and kst_insns_end, one
 * kst_insn line per probed instruction.
 */
#include <linux/linkage.h>

#ifdef CONFIG_64BIT
#define KST_LONG	.quad
#define KST_LONG_SIZE	8
#else
#define KST_LONG	.long
#define KST_LONG_SIZE	4
#endif
#define KST_LONG_MIN	(-1<<(KST_LONG_SIZE*8-1))	/* no spaces: one macro argument */

	.macro	kst_insns_start
	.section .rodata, "a"
	.balign	KST_LONG_SIZE
SYM_DATA_START(kst_insns)
	.endm

/* name, func, addr, arg, expected, hits, error */
	.macro	kst_insn name, func, insn, arg, expected, hits=1, error=0
	KST_LONG	9f, \func, \insn, \arg, \expected, \hits, \error
	.pushsection .rodata.kst_insn_names, "a"
9:	.asciz	"\name"
	.popsection
	.endm

	.macro	kst_insns_end
.Lkst_insns_end:
SYM_DATA_END(kst_insns)
	.balign	4
SYM_DATA(kst_nr_insns, .long (.Lkst_insns_end - kst_insns) / (7 * KST_LONG_SIZE))
	.endm

#endif /* _KST_INSNS_TABLE_S */
