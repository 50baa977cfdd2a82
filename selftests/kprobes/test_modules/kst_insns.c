// SPDX-License-Identifier: GPL-2.0
/*
 * kst_insns.c - kprobes on the instructions an architecture does not
 * single-step as they are: those it simulates (branches, PC-relative
 * loads and addresses) and those it refuses. Each architecture lists its
 * own in kst_insns_<arch>.S (struct kst_insn). Each is also hit from
 * another probe's handler, where the probe only counts a miss.
 */
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/string.h>

#include "kprobes_selftest.h"
#include "kst_insns.h"

/*
 * A probe on kst_nesting_target() whose pre_handler runs the function of
 * kst_nested_insn: a probe there is hit from a handler, so it only counts
 * a miss, and the instruction does what it does unprobed there.
 */
static const struct kst_insn *kst_nested_insn;
static long kst_nested_value, kst_nesting_zero;

static noinline long kst_nesting_target(long value)
{
	return value + READ_ONCE(kst_nesting_zero);
}

/*
 * What the function of @insn returns for its argument. Under kCFI the
 * call is not checked: C never declares the functions of
 * kst_insns_<arch>.S, so the compiler gives them no type to check against.
 */
static noinline long __nocfi kst_call_insn(const struct kst_insn *insn)
{
	return insn->func(insn->arg);
}

static int kst_nesting_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	kst_nested_value = kst_call_insn(kst_nested_insn);
	return 0;
}

static struct kprobe kst_nesting = {
	.pre_handler = kst_nesting_pre_handler,
};

/* What the function of @insn returns, run from kst_nesting's handler. */
static long kst_call_nested(const struct kst_insn *insn)
{
	kst_nested_insn = insn;
	kst_nested_value = LONG_MIN;
	kst_call(kst_nesting_target, 0);
	return kst_nested_value;
}

/* The refused ones are never run: some would trap. */
static int kst_check_insn_refused(const struct kst_insn *insn)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)insn->addr };
	int ret;

	ret = kst_try_kprobe(&kp);
	if (ret != insn->error)
		return kst_fail("%s: register_kprobe() returned %d, expected %ld",
				insn->name, ret, insn->error);
	return 0;
}

static int kst_check_insn(const struct kst_insn *insn)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)insn->addr,
		.pre_handler = kst_pre_handler,
		.post_handler = kst_post_handler,
	};
	int ret, pre, post, next, nested_runs;
	long value, nested_expected, nested;
	unsigned long ip, nmissed;
	bool irqs_off;

	if (insn->error)
		return kst_check_insn_refused(insn);
	kst_reset_counts();
	nested_expected = kst_call_nested(insn);
	ret = register_kprobe(&kp);
	if (ret)
		return kst_fail("%s: register_kprobe() returned %d", insn->name, ret);
	value = kst_call_insn(insn);
	irqs_off = irqs_disabled();
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	ip = ip_seen;
	/*
	 * kst_kprobe2, on kst_target, is hit next: its handler must run, not
	 * be taken for one called from the handlers of the probe before.
	 */
	kst_call(kst_target, 0);
	next = atomic_read(&pre_hits) - pre;
	nested = kst_call_nested(insn);
	nested_runs = atomic_read(&pre_hits) - pre - next +
		      atomic_read(&post_hits) - post;
	nmissed = kp.nmissed;
	unregister_kprobe(&kp);

	if (irqs_off) {
		/* The cases after this one, and the kernel, need them back. */
		local_irq_enable();
		return kst_fail("%s: interrupts were left disabled", insn->name);
	}
	if (next != 1)
		return kst_fail("%s: the next probe's pre_handler ran %d times, expected 1",
				insn->name, next);
	if (value != insn->expected)
		return kst_fail("%s: the function returned %ld, expected %ld",
				insn->name, value, insn->expected);
	if (pre != insn->hits || post != insn->hits)
		return kst_fail("%s: pre_handler ran %d times, post_handler %d, expected %ld",
				insn->name, pre, post, insn->hits);
	if (insn->hits && ip != kst_expected_ip(&kp))
		return kst_fail("%s: pre_handler saw ip %pS, expected %pS",
				insn->name, (void *)ip, (void *)kst_expected_ip(&kp));
	if (nested_runs)
		return kst_fail("%s hit from a handler: its handlers ran %d times",
				insn->name, nested_runs);
	if (nmissed != insn->hits)
		return kst_fail("%s hit from a handler: nmissed %lu, expected %ld",
				insn->name, nmissed, insn->hits);
	if (nested != nested_expected)
		return kst_fail("%s hit from a handler: the function returned %ld, expected %ld",
				insn->name, nested, nested_expected);
	return 0;
}

int case_kprobe_insns(void)
{
	unsigned int i;
	int ret;

	if (!kst_nr_insns)
		return kst_skip("no instruction cases for this architecture (kst_insns_<arch>.S)");
	kst_init_kprobe(&kst_kprobe2, "kst_target", 0);
	ret = register_kprobe(&kst_kprobe2);
	if (ret)
		return kst_fail("register_kprobe(kst_target) returned %d", ret);
	kst_init_kprobe(&kst_nesting, "kst_nesting_target", 0);
	ret = register_kprobe(&kst_nesting);
	if (ret) {
		unregister_kprobe(&kst_kprobe2);
		return kst_fail("register_kprobe(kst_nesting_target) returned %d", ret);
	}
	for (i = 0; i < kst_nr_insns; i++) {
		ret = kst_check_insn(&kst_insns[i]);
		if (ret)
			break;
	}
	unregister_kprobe(&kst_nesting);
	unregister_kprobe(&kst_kprobe2);
	return ret;
}
