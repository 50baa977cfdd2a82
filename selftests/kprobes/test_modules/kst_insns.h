/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KST_INSNS_H
#define _KST_INSNS_H

/*
 * A kprobe on the instruction at @addr in @func, which returns @expected
 * for @arg whether or not the instruction is probed, while the probe's
 * handlers run @hits times (0 where the instruction does not execute);
 * or, if @error is set, the error register_kprobe() gives for it. Each
 * architecture lists its own in kst_insns_<arch>.S, in this layout.
 */
struct kst_insn {
	const char *name;
	long (*func)(long value);
	unsigned long addr;
	long arg;
	long expected;
	long hits;
	long error;
};

extern const struct kst_insn kst_insns[];
extern const unsigned int kst_nr_insns;

#endif /* _KST_INSNS_H */
