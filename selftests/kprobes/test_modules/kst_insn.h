/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KST_INSN_H
#define _KST_INSN_H

#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <linux/types.h>
#ifdef CONFIG_ARM
#include <asm/opcodes.h>
#endif
#ifdef CONFIG_X86
#include <asm/text-patching.h>
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

/*
 * The first instruction after the entry of @func (named @symbol) that
 * takes a kprobe; ftrace call sites next to the entry may refuse one
 * (-EINVAL). The probe is registered disabled, and at once unregistered.
 */
static inline int kst_inner_offset(const char *symbol, const void *func)
{
	struct kprobe kp;
	int offset, ret;

	for (offset = kst_next_insn(func, 0); offset < 32;
	     offset = kst_next_insn(func, offset)) {
		memset(&kp, 0, sizeof(kp));
		kp.symbol_name = symbol;
		kp.offset = offset;
		kp.flags = KPROBE_FLAG_DISABLED;
		ret = register_kprobe(&kp);
		if (!ret) {
			unregister_kprobe(&kp);
			return offset;
		}
		if (ret != -EILSEQ && ret != -EINVAL)
			return ret;
	}
	return -ENOENT;
}

/*
 * True once the optimizer has put its jump at the address of @kp, which
 * kprobes/list does not tell: it shows [OPTIMIZED] from when the probe is
 * queued for optimization. On ARM the jump is a B instruction.
 */
static inline bool kst_jump_optimized(const struct kprobe *kp)
{
#if defined(CONFIG_X86)
	return *(u8 *)kp->addr == JMP32_INSN_OPCODE;
#elif defined(CONFIG_ARM) && !defined(CONFIG_THUMB2_KERNEL)
	return (__mem_to_opcode_arm(*kp->addr) & 0x0f000000) == 0x0a000000;
#else
	return false;
#endif
}

/*
 * The optimizer runs in a worker, after a few jiffies and an RCU grace
 * period; on a busy host, an emulated guest takes more than 5 s for it.
 * The whole case must stay within the harness's 30 s per test.
 */
#define KST_OPTIMIZE_WAIT_S	10

static inline bool kst_wait_jump_optimized(const struct kprobe *kp)
{
	int i;

	for (i = 0; i < KST_OPTIMIZE_WAIT_S * 50 && !kst_jump_optimized(kp); i++)
		msleep(20);
	return kst_jump_optimized(kp);
}

#endif /* _KST_INSN_H */
