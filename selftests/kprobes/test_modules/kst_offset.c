// SPDX-License-Identifier: GPL-2.0
/*
 * kst_offset.c - probes off the entry of a function: kprobes at
 * symbol+offset (on a function of the module and on a core-kernel
 * function), an offset inside an instruction, a kretprobe off the entry
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kstrtox.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

/* A body of a few instructions, for probes inside a function. */
static noinline long kst_offset_target(long value)
{
	return value * 7 + 3;
}

int case_kprobe_symbol_offset(void)
{
	int offset = kst_inner_offset("kst_offset_target", kst_offset_target);

	if (offset < 0)
		return kst_fail("no probe-able instruction in kst_offset_target: %d",
				offset);
	return kst_check_kprobe_at("kst_offset_target", NULL, offset,
				   kst_offset_target);
}

int case_kprobe_core_kernel_offset(void)
{
	int offset = kst_inner_offset("kstrtoull", kstrtoull);

	if (offset < 0)
		return kst_fail("no probe-able instruction in kstrtoull: %d", offset);
	return kst_check_core_kprobe("kstrtoull", NULL, offset);
}

/* An address that is not an instruction boundary, and its documented error. */
int case_err_bad_offset(void)
{
	int offset, expected, ret;

	if (IS_ENABLED(CONFIG_X86)) {
		/* Offset 1 is inside kst_target's first instruction. */
		offset = 1;
		expected = -EILSEQ;
	} else if (IS_ENABLED(CONFIG_ARM64) ||
		   (IS_ENABLED(CONFIG_ARM) && !IS_ENABLED(CONFIG_THUMB2_KERNEL))) {
		/* Instructions are 4-byte aligned. */
		offset = 2;
		expected = -EINVAL;
	} else {
		return kst_skip("no misaligned probe address on this architecture");
	}

	kst_init_kprobe(&kst_kprobe, "kst_target", offset);
	ret = register_kprobe(&kst_kprobe);
	if (!ret)
		unregister_kprobe(&kst_kprobe);
	if (ret != expected)
		return kst_fail("kst_target+%d: %d, expected %d", offset, ret, expected);
	return 0;
}

int case_err_kretprobe_offset(void)
{
	int offset = kst_inner_offset("kst_offset_target", kst_offset_target);
	int ret;

	if (offset < 0)
		return kst_fail("no probe-able instruction in kst_offset_target: %d",
				offset);
	kst_init_kprobe(&kst_kretprobe.kp, "kst_offset_target", offset);
	ret = register_kretprobe(&kst_kretprobe);
	if (!ret)
		unregister_kretprobe(&kst_kretprobe);
	if (ret != -EINVAL)
		return kst_fail("kretprobe at kst_offset_target+%d: %d, expected %d",
				offset, ret, -EINVAL);
	return 0;
}
