// SPDX-License-Identifier: GPL-2.0
/*
 * kst_enable.c - disable_kprobe() and enable_kprobe(), the kretprobe
 * ones, KPROBE_FLAG_DISABLED, and two probes on one address with one
 * disabled
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>

#include "kprobes_selftest.h"

int case_disable_enable(void)
{
	int d_ret, e_ret, rd_ret, re_ret, ret;
	int pre[3], returns[3];

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe2, "kst_target", 0);
	kst_init_kprobe(&kst_kretprobe.kp, "kst_target", 0);
	kst_kretprobe.maxactive = 0;
	ret = register_kprobe(&kst_kprobe2);
	if (ret)
		return kst_fail("register_kprobe() returned %d", ret);
	ret = register_kretprobe(&kst_kretprobe);
	if (ret) {
		unregister_kprobe(&kst_kprobe2);
		return kst_fail("register_kretprobe() returned %d", ret);
	}
	kst_call(kst_target, 0);
	pre[0] = atomic_read(&pre_hits);
	returns[0] = atomic_read(&ret_hits);
	d_ret = disable_kprobe(&kst_kprobe2);
	rd_ret = disable_kretprobe(&kst_kretprobe);
	kst_call(kst_target, 0);
	pre[1] = atomic_read(&pre_hits);
	returns[1] = atomic_read(&ret_hits);
	e_ret = enable_kprobe(&kst_kprobe2);
	re_ret = enable_kretprobe(&kst_kretprobe);
	kst_call(kst_target, 0);
	pre[2] = atomic_read(&pre_hits);
	returns[2] = atomic_read(&ret_hits);
	unregister_kretprobe(&kst_kretprobe);
	unregister_kprobe(&kst_kprobe2);

	if (d_ret || rd_ret || e_ret || re_ret)
		return kst_fail("disable %d/%d, enable %d/%d: expected 0",
				d_ret, rd_ret, e_ret, re_ret);
	if (pre[0] != 1 || returns[0] != 1)
		return kst_fail("enabled: kprobe %d hits, kretprobe %d", pre[0], returns[0]);
	if (pre[1] != 1 || returns[1] != 1)
		return kst_fail("disabled probes fired: kprobe %d hits, kretprobe %d",
				pre[1] - 1, returns[1] - 1);
	if (pre[2] != 2 || returns[2] != 2)
		return kst_fail("re-enabled: kprobe %d hits, kretprobe %d (expected 2, 2)",
				pre[2], returns[2]);
	return 0;
}

int case_register_disabled(void)
{
	int ret, disabled_hits, enable_ret, hits;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe2, "kst_target", 0);
	kst_kprobe2.flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(&kst_kprobe2);
	if (ret)
		return kst_fail("register_kprobe(KPROBE_FLAG_DISABLED) returned %d", ret);
	kst_call(kst_target, 0);
	disabled_hits = atomic_read(&pre_hits);
	enable_ret = enable_kprobe(&kst_kprobe2);
	kst_call(kst_target, 0);
	hits = atomic_read(&pre_hits);
	unregister_kprobe(&kst_kprobe2);

	if (disabled_hits)
		return kst_fail("a probe registered disabled fired %d times", disabled_hits);
	if (enable_ret || hits != 1)
		return kst_fail("enable_kprobe() %d, then %d hits (expected 0, 1)",
				enable_ret, hits);
	return 0;
}

/*
 * With two probes on one address, disabling one leaves the other firing,
 * and runs none of its handlers, its post_handler included, until it is
 * enabled again.
 */
static int kst_other_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&other_hits);
	return 0;
}

int case_disable_one_of_two(void)
{
	struct kprobe other = { .pre_handler = kst_other_pre_handler };
	struct kprobe *kps[] = { &kst_kprobe, &other };
	int disable_ret, enable_ret, ret, pre, post, others;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	kst_init_kprobe(&other, "kst_target", 0);
	ret = register_kprobes(kps, ARRAY_SIZE(kps));
	if (ret)
		return kst_fail("register_kprobes() returned %d", ret);
	disable_ret = disable_kprobe(&kst_kprobe);
	kst_call(kst_target, 0);
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	others = atomic_read(&other_hits);
	enable_ret = enable_kprobe(&kst_kprobe);
	kst_call(kst_target, 0);
	/* The child with a post_handler leaves first: the aggregate drops its own. */
	unregister_kprobe(&kst_kprobe);
	unregister_kprobe(&other);

	if (disable_ret || enable_ret)
		return kst_fail("disable_kprobe() returned %d, enable_kprobe() %d",
				disable_ret, enable_ret);
	if (pre || post || others != 1)
		return kst_fail("disabled: pre %d, post %d, the other %d runs (expected 0, 0, 1)",
				pre, post, others);
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	others = atomic_read(&other_hits);
	if (pre != 1 || post != 1 || others != 2)
		return kst_fail("enabled: pre %d, post %d, the other %d runs (expected 1, 1, 2)",
				pre, post, others);
	return 0;
}

int case_enable_unregistered(void)
{
	struct kprobe never = { .symbol_name = "kst_target" };
	int enable_ret, disable_ret;

	enable_ret = enable_kprobe(&never);
	disable_ret = disable_kprobe(&never);
	if (enable_ret != -EINVAL || disable_ret != -EINVAL)
		return kst_fail("unregistered probe: enable %d, disable %d, expected %d",
				enable_ret, disable_ret, -EINVAL);
	return 0;
}
