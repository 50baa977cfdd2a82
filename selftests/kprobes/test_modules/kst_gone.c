// SPDX-License-Identifier: GPL-2.0
/*
 * kst_gone.c - a probe held on kprobes_selftest_target.ko's
 * kst_gone_target(), which user space unloads under it: the probe is then
 * [GONE] in kprobes/list, never fires and refuses enable_kprobe().
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>

#include "kprobes_selftest.h"

static atomic_t kst_gone_hits;

static int kst_gone_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&kst_gone_hits);
	return 0;
}

static struct kprobe kst_gone = { .pre_handler = kst_gone_pre_handler };
static bool kst_gone_registered;

int step_hold_kprobe_gone(const char *arg)
{
	int ret;

	if (kst_gone_registered)
		return kst_fail("already held");
	atomic_set(&kst_gone_hits, 0);
	kst_init_kprobe(&kst_gone, "kst_gone_target", 0);
	ret = register_kprobe(&kst_gone);
	if (ret)
		return kst_fail("register_kprobe(%s) returned %d", "kst_gone_target", ret);
	kst_gone_registered = true;
	return 0;
}

int step_enable_gone(const char *arg)
{
	int ret;

	if (!kst_gone_registered)
		return kst_fail("hold_kprobe_gone first");
	ret = enable_kprobe(&kst_gone);
	if (ret != -EINVAL)
		return kst_fail("enable_kprobe() on a [GONE] probe: %d, expected %d",
				ret, -EINVAL);
	if (atomic_read(&kst_gone_hits))
		return kst_fail("the probe on the unloaded module fired");
	return 0;
}

void kst_gone_init(struct dentry *dir)
{
}

void kst_gone_release(void)
{
	if (kst_gone_registered)
		unregister_kprobe(&kst_gone);
	kst_gone_registered = false;
}
