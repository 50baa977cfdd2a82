// SPDX-License-Identifier: GPL-2.0
/*
 * kst_optprobe.c - optimized kprobes on kprobes_selftest_target.ko's
 * kst_gone_opt_target(), caught by the next step while the optimizer
 * still has work queued for them.
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/string.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

/*
 * Optimized kprobes on kprobes_selftest_target.ko's kst_gone_opt_target(),
 * caught by the next step while the optimizer still has work queued for
 * them. The optimizer runs in a worker: hold_optprobe waits until it has
 * put its jump in, and each case after it must be done before the worker
 * runs again, 5 jiffies after the case starts. User space expedites RCU
 * grace periods, which unregistering waits for, to be sure.
 */
enum { KST_OPT_HELD, KST_OPT_NEW, KST_NR_OPT };

static struct kprobe kst_opt[KST_NR_OPT];
static bool kst_opt_registered[KST_NR_OPT];
static int kst_opt_offset;
static kprobe_opcode_t *kst_opt_addr;

static int kst_opt_register(int which, u32 flags, bool post_handler)
{
	struct kprobe *kp = &kst_opt[which];
	int ret;

	memset(kp, 0, sizeof(*kp));
	kp->symbol_name = "kst_gone_opt_target";
	kp->offset = kst_opt_offset;
	kp->flags = flags;
	kp->pre_handler = kst_pre_handler;
	if (post_handler)
		kp->post_handler = kst_post_handler;
	ret = register_kprobe(kp);
	if (ret)
		return ret;
	kst_opt_registered[which] = true;
	return 0;
}

static void kst_opt_unregister(int which)
{
	kst_unregister_held(&kst_opt[which], &kst_opt_registered[which]);
}

/* Not on the entry, which is an ftrace site on some architectures. */
int step_hold_optprobe(const char *arg)
{
	int ret;

	ret = kst_optprobes_here();
	if (ret)
		return ret;
	if (kst_opt_registered[KST_OPT_HELD])
		return kst_fail("already held");
	ret = kst_inner_offset("kst_gone_opt_target", NULL);
	if (ret < 0)
		return kst_fail("no probe-able instruction in %s: %d; is %s loaded?",
				"kst_gone_opt_target", ret, "kprobes_selftest_target");
	kst_opt_offset = ret;
	ret = kst_opt_register(KST_OPT_HELD, 0, false);
	if (ret)
		return kst_fail("register_kprobe(kst_gone_opt_target+%d) returned %d",
				kst_opt_offset, ret);
	kst_opt_addr = kst_opt[KST_OPT_HELD].addr;
	if (!kst_wait_jump_optimized(&kst_opt[KST_OPT_HELD])) {
		kst_opt_unregister(KST_OPT_HELD);
		return kst_skip("kst_gone_opt_target+%d not optimized after %d s",
				kst_opt_offset, KST_OPTIMIZE_WAIT_S);
	}
	return 0;
}

/*
 * Unregistering the optimized probe leaves its aggregate probe unused and
 * queued for unoptimization; a disabled probe registered at once on the
 * same address takes it over. The aggregate probe must stay disabled and
 * get unoptimized, which user space checks in kprobes/list.
 */
int step_optprobe_reuse_disabled(const char *arg)
{
	int ret;

	if (!kst_opt_registered[KST_OPT_HELD])
		return kst_fail("hold_optprobe first");
	kst_opt_unregister(KST_OPT_HELD);
	ret = kst_opt_register(KST_OPT_NEW, KPROBE_FLAG_DISABLED, false);
	if (ret)
		return kst_fail("register_kprobe(kst_gone_opt_target+%d, disabled) returned %d",
				kst_opt_offset, ret);
	return 0;
}

/*
 * A probe with a post_handler joining the optimized probe unoptimizes it
 * at once: a post_handler runs after the single-step that the jump of an
 * optimized probe does without.
 */
int step_optprobe_add_post_handler(const char *arg)
{
	int ret;

	if (!kst_opt_registered[KST_OPT_HELD])
		return kst_fail("hold_optprobe first");
	ret = kst_opt_register(KST_OPT_NEW, 0, true);
	if (ret)
		return kst_fail("register_kprobe(kst_gone_opt_target+%d, post_handler) returned %d",
				kst_opt_offset, ret);
	if (kst_jump_optimized(&kst_opt[KST_OPT_HELD]))
		return kst_fail("kst_gone_opt_target+%d still jumps to the optimized probe",
				kst_opt_offset);
	return 0;
}

/*
 * Disabling the optimized probe queues its unoptimization; a probe with a
 * post_handler on the same address then unoptimizes it at once and queues
 * it for freeing; unregistering both leaves it unused there. User space
 * unloads the target module before the optimizer runs, loads it again and
 * runs optprobe_reregister.
 */
int step_optprobe_force_release(const char *arg)
{
	struct kprobe *kps[] = { &kst_opt[KST_OPT_HELD], &kst_opt[KST_OPT_NEW] };
	int ret;

	if (!kst_opt_registered[KST_OPT_HELD])
		return kst_fail("hold_optprobe first");
	ret = disable_kprobe(&kst_opt[KST_OPT_HELD]);
	if (ret)
		return kst_fail("disable_kprobe() returned %d", ret);
	ret = kst_opt_register(KST_OPT_NEW, KPROBE_FLAG_DISABLED, true);
	if (ret)
		return kst_fail("register_kprobe(kst_gone_opt_target+%d, post_handler) returned %d",
				kst_opt_offset, ret);
	unregister_kprobes(kps, ARRAY_SIZE(kps));
	kst_opt_registered[KST_OPT_HELD] = false;
	kst_opt_registered[KST_OPT_NEW] = false;
	return 0;
}

/* Nothing of the unloaded module's probes may be left on its address. */
int step_optprobe_reregister(const char *arg)
{
	int ret;

	if (kst_opt_registered[KST_OPT_HELD] || !kst_opt_addr)
		return kst_fail("optprobe_force_release first");
	ret = kst_opt_register(KST_OPT_HELD, 0, false);
	if (ret)
		return kst_fail("register_kprobe(kst_gone_opt_target+%d) returned %d",
				kst_opt_offset, ret);
	if (kst_opt[KST_OPT_HELD].addr != kst_opt_addr) {
		kst_opt_unregister(KST_OPT_HELD);
		return kst_skip("kprobes_selftest_target came back at another address");
	}
	return 0;
}

void kst_optprobe_init(struct dentry *dir)
{
}

void kst_optprobe_release(void)
{
	int i;

	for (i = 0; i < KST_NR_OPT; i++)
		kst_opt_unregister(i);
	kst_opt_addr = NULL;
}
