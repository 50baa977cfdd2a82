/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KST_INSN_H
#define _KST_INSN_H

#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#ifdef CONFIG_ARM
#include <asm/opcodes.h>
#endif
#ifdef CONFIG_X86
#include <asm/text-patching.h>
#endif

/*
 * What the test module knows of each architecture's kprobes, the one
 * place it keeps it:
 *   KST_BREAK_IP         how far past the probed address a pre_handler's
 *                        instruction_pointer() is, for a breakpoint
 *   KST_FTRACE_IP        and for a probe through ftrace
 *   kst_insn_len(p)      the length of the instruction at @p; on x86 1,
 *                        the next byte: register_kprobe() refuses an
 *                        address inside an instruction with -EILSEQ, and
 *                        kst_inner_offset() steps over those
 *   KST_MISALIGNED_LAST  offsets 1 to this from a function's entry are
 *                        not the start of an instruction (0: none to
 *                        test: bit 0 of a Thumb address is the mode bit)
 *   KST_MISALIGNED_ERR   what register_kprobe() returns at those
 *   KST_INSN_ALIGN,      where instruction lengths vary in steps of
 *   KST_INSIDE_ERR       KST_INSN_ALIGN bytes (riscv, s390): what
 *                        register_kprobe() returns at an aligned
 *                        address inside a longer instruction (0: none)
 */
#if defined(CONFIG_X86)
/* As if the int3 had executed, for every kind of probe. */
#define KST_BREAK_IP		INT3_INSN_SIZE
#define KST_FTRACE_IP		INT3_INSN_SIZE
#define KST_MISALIGNED_LAST	1	/* inside the first instruction */
#define KST_MISALIGNED_ERR	(-EILSEQ)
static inline int kst_insn_len(const void *p)
{
	return 1;
}
#elif defined(CONFIG_THUMB2_KERNEL)
#define KST_MISALIGNED_LAST	0
#define KST_MISALIGNED_ERR	0
static inline int kst_insn_len(const void *p)
{
	return is_wide_instruction(__mem_to_opcode_thumb16(*(u16 *)p)) ? 4 : 2;
}
#elif defined(CONFIG_RISCV)
/* With the C extension, 2 or 4 bytes: 4 when the low two bits are set. */
#define KST_MISALIGNED_LAST	1
#define KST_MISALIGNED_ERR	(-EILSEQ)
#define KST_INSN_ALIGN		2
#define KST_INSIDE_ERR		(-EILSEQ)
static inline int kst_insn_len(const void *p)
{
	return (*(u16 *)p & 3) == 3 ? 4 : 2;
}
#elif defined(CONFIG_S390)
/* The PSW is past the 2-byte breakpoint; ftrace gives the call site. */
#define KST_BREAK_IP		2
#define KST_FTRACE_IP		0
/* Instructions of 2, 4 or 6 bytes, as the first two bits of the opcode say. */
#define KST_MISALIGNED_LAST	1
#define KST_MISALIGNED_ERR	(-EINVAL)
#define KST_INSN_ALIGN		2
#define KST_INSIDE_ERR		(-EINVAL)
static inline int kst_insn_len(const void *p)
{
	static const int len[] = { 2, 4, 4, 6 };

	return len[*(u8 *)p >> 6];
}
#else
/* arm64, arm, powerpc, mips: 4-byte instructions, 4-byte aligned. */
#define KST_MISALIGNED_LAST	3
#define KST_MISALIGNED_ERR	(-EINVAL)
static inline int kst_insn_len(const void *p)
{
	return 4;
}
#endif

#ifndef KST_BREAK_IP
#define KST_BREAK_IP		0
#define KST_FTRACE_IP		0
#endif
#ifndef KST_INSIDE_ERR
#define KST_INSN_ALIGN		1
#define KST_INSIDE_ERR		0
#endif

/*
 * KST_AFTER_PROBE: api.kprobe_after_probe has, besides a function of the
 * compiler's, kst_after_probe_target(), whose two instructions at the
 * offsets kst_after_probe_offsets gives are made for it
 * (kst_insns_x86.S).
 */
#ifdef CONFIG_X86
#define KST_AFTER_PROBE
long kst_after_probe_target(long value);
extern const int kst_after_probe_offsets[2];
#endif

/*
 * KST_EXTABLE_REFUSED: register_kprobe() refuses an instruction that has
 * an exception table entry (arm64 and s390 would single-step it out of
 * line, where a fault finds no fixup). Elsewhere the probe is taken, and
 * a fault in the probed instruction must still reach its fixup.
 */
#if defined(CONFIG_ARM64) || defined(CONFIG_S390)
#define KST_EXTABLE_REFUSED	true
#else
#define KST_EXTABLE_REFUSED	false
#endif

/*
 * KST_OPTIMIZES_MODULES: kprobes in module text can be optimized (with
 * CONFIG_OPTPROBES). powerpc optimizes kprobes in kernel text only
 * (optprobes.c: can_optimize()).
 */
#ifdef CONFIG_PPC
#define KST_OPTIMIZES_MODULES	false
#else
#define KST_OPTIMIZES_MODULES	true
#endif

/*
 * The address of the code at @p: bit 0 of a Thumb function pointer only
 * selects the instruction set. Elsewhere a function may start at an odd
 * address (x86 with -Os).
 */
static inline unsigned long kst_code_addr(const void *p)
{
	if (IS_ENABLED(CONFIG_THUMB2_KERNEL))
		return (unsigned long)p & ~1UL;
	return (unsigned long)p;
}

/* The offset of the instruction after the one at @offset in @func. */
static inline int kst_next_insn(const void *func, int offset)
{
	return offset + kst_insn_len((const void *)kst_code_addr(func) + offset);
}

/*
 * Where kprobes put a probe on @symbol's entry: its first instruction,
 * or its ftrace call, or on ppc64 its local entry point. From a disabled
 * kprobe, at once unregistered.
 */
static inline void *kst_entry_addr(const char *symbol)
{
	struct kprobe kp = {
		.symbol_name = symbol,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ERR_PTR(ret);
	unregister_kprobe(&kp);
	return kp.addr;
}

/* The offset of @addr in its function and that function's size, from kallsyms. */
static inline int kst_func_offset_size(const void *addr, unsigned long *offset,
				       unsigned long *size)
{
	char *buf, *plus;
	int ret = -ENOENT;

	buf = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* "name+0x0/0x2c [module]" */
	sprint_symbol(buf, (unsigned long)addr);
	plus = strrchr(buf, '+');
	if (plus && sscanf(plus + 1, "%lx/%lx", offset, size) == 2 && *size <= INT_MAX)
		ret = 0;
	kfree(buf);
	return ret;
}

/* The size of the function at @func, as kallsyms has it. */
static inline int kst_func_size(const void *func)
{
	unsigned long offset, size;
	int ret = kst_func_offset_size(func, &offset, &size);

	return ret ?: size;
}

/* The start of the function @addr is in. */
static inline void *kst_func_start(void *addr)
{
	unsigned long offset, size;

	if (kst_func_offset_size(addr, &offset, &size))
		return addr;
	return addr - offset;
}

/*
 * The first instruction of @func (named @symbol) after its entry probe
 * and after @symbol+@after that takes a kprobe, and for which @keep, if
 * given, holds while the probe is registered; ftrace call sites next to
 * the entry may refuse one (-EINVAL). Within @func: a small function's
 * next instruction may be another function's entry. The probe is
 * registered disabled, and at once unregistered.
 * A NULL @func is found from @symbol: a function of another module has
 * no address here to give.
 */
static inline int kst_find_offset_after(const char *symbol, const void *func,
					int after,
					bool (*keep)(const struct kprobe *kp))
{
	void *entry = kst_entry_addr(symbol);
	struct kprobe kp;
	int size, offset, ret;
	bool kept;

	if (IS_ERR(entry))
		return PTR_ERR(entry);
	if (!func)
		func = kst_func_start(entry);
	size = kst_func_size(func);
	if (size < 0)
		return size;
	offset = kst_code_addr(entry) - kst_code_addr(func);
	if (offset < 0 || offset >= size || after >= size)
		return -ERANGE;
	for (offset = kst_next_insn(func, max(offset, after)); offset < size;
	     offset = kst_next_insn(func, offset)) {
		memset(&kp, 0, sizeof(kp));
		kp.symbol_name = symbol;
		kp.offset = offset;
		kp.flags = KPROBE_FLAG_DISABLED;
		ret = register_kprobe(&kp);
		if (!ret) {
			kept = !keep || keep(&kp);
			unregister_kprobe(&kp);
			if (kept)
				return offset;
			continue;
		}
		if (ret != -EILSEQ && ret != -EINVAL)
			return ret;
	}
	return -ENOENT;
}

static inline int kst_find_offset(const char *symbol, const void *func,
				  bool (*keep)(const struct kprobe *kp))
{
	return kst_find_offset_after(symbol, func, 0, keep);
}

static inline int kst_inner_offset(const char *symbol, const void *func)
{
	return kst_find_offset(symbol, func, NULL);
}

/*
 * True once the optimizer has put its jump at the address of @kp, which
 * kprobes/list does not tell: it shows [OPTIMIZED] from when the probe is
 * queued for optimization. On ARM and powerpc the jump is a branch.
 */
static inline bool kst_jump_optimized(const struct kprobe *kp)
{
#if defined(CONFIG_X86)
	return *(u8 *)kp->addr == JMP32_INSN_OPCODE;
#elif defined(CONFIG_ARM) && !defined(CONFIG_THUMB2_KERNEL)
	return (__mem_to_opcode_arm(*kp->addr) & 0x0f000000) == 0x0a000000;
#elif defined(CONFIG_PPC)
	/* b, to the detour buffer: opcode 18, neither AA nor LK */
	return (*(u32 *)kp->addr & 0xfc000003) == 0x48000000;
#else
	return false;
#endif
}

/*
 * KST_OPT_JUMP_LEN: how many bytes an optimized probe's jump takes where
 * that is more than the probed instruction: x86's covers the instructions
 * after it. 0 where the jump is one instruction (ARM, powerpc).
 */
#ifdef CONFIG_X86
#define KST_OPT_JUMP_LEN	JMP32_INSN_SIZE
#else
#define KST_OPT_JUMP_LEN	0
#endif

/*
 * KST_SLOT_INSN: an instruction that changes nothing and for which
 * kprobes take an instruction slot: ARM and recent arm64 kernels
 * simulate a nop without one. kst_slot_insns: the first of a run of them.
 */
#if defined(CONFIG_ARM64)
#define KST_SLOT_INSN	"mov x0, x0"
#elif defined(CONFIG_ARM)
#define KST_SLOT_INSN	"mov r0, r0"
#else
#define KST_SLOT_INSN	"nop"
#endif
extern const char kst_slot_insns[];

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
