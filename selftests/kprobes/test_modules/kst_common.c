// SPDX-License-Identifier: GPL-2.0
/*
 * kst_common.c - what the cases of kprobes_selftest.ko share: the
 * handlers, the counters they fill, the probes the cases register, and
 * the helpers that set them up.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

const long kst_values[KST_NR_VALUES] = { 0, 1, 42, -ENOENT, -EINVAL, LONG_MAX };

/*
 * Zero, but read: kst_target is then more than a return instruction (on
 * riscv with compressed instructions it was one), and the cases that
 * probe it off its entry have an instruction there.
 */
static long kst_target_bias;

noinline long kst_target(long value)
{
	return value + READ_ONCE(kst_target_bias);
}

/* What the handlers saw. */
atomic_t pre_hits, post_hits, ret_hits, entry_hits, data_ok, other_hits;
long ret_seen;
unsigned long ip_seen;
static struct task_struct *kst_task;

void kst_reset_counts(void)
{
	atomic_set(&pre_hits, 0);
	atomic_set(&post_hits, 0);
	atomic_set(&ret_hits, 0);
	atomic_set(&entry_hits, 0);
	atomic_set(&data_ok, 0);
	atomic_set(&other_hits, 0);
	ret_seen = 0;
	ip_seen = 0;
	kst_task = current;
}

/* Unregisters a probe that a step kept, if it did; a teardown's one line. */
void kst_unregister_held(struct kprobe *kp, bool *registered)
{
	if (*registered)
		unregister_kprobe(kp);
	*registered = false;
}

/* Lets a struct be registered again, as lib/tests/test_kprobes.c does. */
void kst_init_kprobe(struct kprobe *kp, const char *symbol, unsigned int offset)
{
	kp->addr = NULL;
	kp->flags = 0;
	kp->symbol_name = symbol;
	kp->offset = offset;
	kp->nmissed = 0;
}

int kst_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&pre_hits);
	ip_seen = instruction_pointer(regs);
	return 0;
}

void kst_post_handler(struct kprobe *kp, struct pt_regs *regs, unsigned long flags)
{
	atomic_inc(&post_hits);
}

/* Counts only the case's own calls of a core-kernel function. */
int kst_task_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	if (current == kst_task) {
		atomic_inc(&pre_hits);
		ip_seen = instruction_pointer(regs);
	}
	return 0;
}

int kst_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_inc(&ret_hits);
	ret_seen = regs_return_value(regs);
	return 0;
}

struct kprobe kst_kprobe = {
	.pre_handler = kst_pre_handler,
	.post_handler = kst_post_handler,
};

struct kprobe kst_kprobe2 = {
	.pre_handler = kst_pre_handler,
};

struct kretprobe kst_kretprobe = {
	.handler = kst_ret_handler,
};

/* What instruction_pointer() shows the pre_handler of @kp, registered. */
unsigned long kst_expected_ip(const struct kprobe *kp)
{
	return kst_code_addr(kp->addr) +
	       (kp->flags & KPROBE_FLAG_FTRACE ? KST_FTRACE_IP : KST_BREAK_IP);
}

/*
 * Zero where the kprobes on this module's functions can be optimized, or
 * the skip that says why not.
 */
int kst_optprobes_here(void)
{
	if (!IS_ENABLED(CONFIG_OPTPROBES))
		return kst_skip("no CONFIG_OPTPROBES: kprobes are not optimized here");
	if (!KST_OPTIMIZES_MODULES)
		return kst_skip("kprobes in modules are not optimized here, only in kernel text");
	return 0;
}

int kst_call_values(long (*target)(long value))
{
	int i;

	for (i = 0; i < ARRAY_SIZE(kst_values); i++)
		kst_call(target, kst_values[i]);
	return ARRAY_SIZE(kst_values);
}
