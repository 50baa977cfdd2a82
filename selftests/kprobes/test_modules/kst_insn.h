/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KST_INSN_H
#define _KST_INSN_H

#include <linux/types.h>
#ifdef CONFIG_THUMB2_KERNEL
#include <asm/opcodes.h>
#endif

/*
 * The offset of the instruction after the one at @offset in @func. On x86
 * the next byte: register_kprobe() refuses offsets inside an instruction
 * with -EILSEQ.
 */
static inline int kst_next_insn(const void *func, int offset)
{
#if defined(CONFIG_THUMB2_KERNEL)
	u16 *insn = (u16 *)(((unsigned long)func & ~1UL) + offset);

	return offset + (is_wide_instruction(__mem_to_opcode_thumb16(*insn)) ? 4 : 2);
#elif defined(CONFIG_X86)
	return offset + 1;
#else
	return offset + 4;
#endif
}

#endif /* _KST_INSN_H */
