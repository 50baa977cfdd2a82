// SPDX-License-Identifier: GPL-2.0
/*
 * kst_optprobe.c - optimized kprobes on kprobes_selftest_target.ko's
 * kst_gone_opt_target(), caught by the next step while the optimizer
 * still has work queued for them; and one on a core-kernel function,
 * where every architecture with optprobes optimizes.
 */
#include <linux/bcd.h>
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
	if (kst_opt_registered[which])
		unregister_kprobe(&kst_opt[which]);
	kst_opt_registered[which] = false;
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

/*
 * _bcd2bin(), for an optimized kprobe in kernel text, the only text that
 * powerpc optimizes in: exported, on no blacklist, and called by nothing
 * else while the suite runs (RTC drivers, the x86 CMOS clock at boot and
 * resume). lib/ is built without ftrace calls, and its body is straight
 * arithmetic that every optimizer takes after the entry: x86 copies the
 * instructions under its 5-byte jump, which fits before the return and
 * nothing jumps into; powerpc emulates the probed instruction, no branch;
 * ARM's uses no stack.
 */
static struct kprobe kst_core_opt;
static bool kst_core_opt_registered;
/* A probe with a post_handler, added on kst_core_opt's address. */
static struct kprobe kst_core_post;
static bool kst_core_post_registered;
/* A probe on an instruction under kst_core_opt's jump. */
static struct kprobe kst_core_cover;
static bool kst_core_cover_registered;
/* The function's code as it was before the probe. */
static u8 kst_core_opt_code[64];
static int kst_core_opt_len;

static const struct {
	u8 bcd;
	unsigned int bin;
} kst_bcd[] = { { 0x00, 0 }, { 0x07, 7 }, { 0x10, 10 }, { 0x42, 42 }, { 0x99, 99 } };

static void kst_core_opt_unregister(void)
{
	/* First: its breakpoint may be inside a jump that went wrong. */
	if (kst_core_cover_registered)
		unregister_kprobe(&kst_core_cover);
	kst_core_cover_registered = false;
	if (kst_core_post_registered)
		unregister_kprobe(&kst_core_post);
	kst_core_post_registered = false;
	if (kst_core_opt_registered)
		unregister_kprobe(&kst_core_opt);
	kst_core_opt_registered = false;
}

static bool kst_core_opt_restored(void)
{
	return !memcmp((void *)kst_code_addr(_bcd2bin), kst_core_opt_code, kst_core_opt_len);
}

/*
 * register_kprobe() wraps a probe that the optimizer can take in an
 * optimized_kprobe at once, disabled or not, which links the probe into
 * that one's list. Which instructions it takes differs: 6.1's x86
 * can_boost() copies no shift (Grp2), which _bcd2bin()'s second and third
 * instructions are there, and 6.12's does.
 */
static bool kst_optimizable(const struct kprobe *kp)
{
	return !list_empty(&kp->list);
}

/* Calls _bcd2bin() on each of kst_bcd: it must return what it does unprobed. */
static int kst_call_bcd2bin(void)
{
	unsigned int bin;
	int i;

	for (i = 0; i < ARRAY_SIZE(kst_bcd); i++) {
		bin = kst_call(_bcd2bin, kst_bcd[i].bcd);
		if (bin != kst_bcd[i].bin)
			return kst_fail("_bcd2bin(%#x) returned %u, expected %u",
					kst_bcd[i].bcd, bin, kst_bcd[i].bin);
	}
	return 0;
}

/*
 * Calls _bcd2bin() under its optimized probe: each call must return what
 * it returns unprobed, and go through the jump to the pre_handler, which
 * must see the instruction pointer of a hit.
 */
static int kst_core_opt_calls(void)
{
	unsigned long expected = kst_expected_ip(&kst_core_opt);
	int hits, calls = ARRAY_SIZE(kst_bcd);
	int ret;

	ret = kst_call_bcd2bin();
	if (ret)
		return ret;
	hits = atomic_read(&pre_hits);
	if (hits != calls)
		return kst_fail("%d calls of _bcd2bin: pre_handler ran %d times", calls, hits);
	if (ip_seen != expected)
		return kst_fail("pre_handler saw ip %pS, expected %pS",
				(void *)ip_seen, (void *)expected);
	if (!kst_jump_optimized(&kst_core_opt))
		return kst_fail("_bcd2bin+%u no longer optimized after the calls",
				kst_core_opt.offset);
	return 0;
}

/*
 * Registers a kprobe inside _bcd2bin(), waits until it is optimized and
 * calls the function. Leaves the probe registered for user space to find
 * in kprobes/list.
 */
int step_hold_core_optprobe(const char *arg)
{
	int offset, size, ret;

	if (!IS_ENABLED(CONFIG_OPTPROBES))
		return kst_skip("no CONFIG_OPTPROBES: kprobes are not optimized here");
	if (kst_core_opt_registered)
		return kst_fail("already held");
	size = kst_func_size(_bcd2bin);
	if (size < 0)
		return kst_fail("no size for _bcd2bin: %d", size);
	offset = kst_find_offset("_bcd2bin", _bcd2bin, kst_optimizable);
	if (offset < 0)
		return kst_fail("no instruction of _bcd2bin is optimized: %d", offset);
	kst_core_opt_len = min_t(int, size, sizeof(kst_core_opt_code));
	memcpy(kst_core_opt_code, (void *)kst_code_addr(_bcd2bin), kst_core_opt_len);

	kst_reset_counts();
	memset(&kst_core_opt, 0, sizeof(kst_core_opt));
	kst_core_opt.symbol_name = "_bcd2bin";
	kst_core_opt.offset = offset;
	kst_core_opt.pre_handler = kst_task_pre_handler;
	ret = register_kprobe(&kst_core_opt);
	if (ret)
		return kst_fail("register_kprobe(_bcd2bin+%d) returned %d", offset, ret);
	kst_core_opt_registered = true;
	if (!kst_wait_jump_optimized(&kst_core_opt))
		ret = kst_fail("_bcd2bin+%d not optimized after %d s", offset,
			       KST_OPTIMIZE_WAIT_S);
	else
		ret = kst_core_opt_calls();
	if (ret)
		kst_core_opt_unregister();
	return ret;
}

/*
 * Adds a probe with a post_handler on the address of the optimized probe
 * in _bcd2bin(). An optimized probe runs no post_handler, so the jump
 * must go at once, and each call must then run both pre_handlers and
 * the post_handler. User space checks kprobes/list.
 */
int step_core_optprobe_add_post_handler(const char *arg)
{
	int pre, post, ret, calls = ARRAY_SIZE(kst_bcd);

	if (!kst_core_opt_registered)
		return kst_fail("hold_core_optprobe first");
	if (kst_core_post_registered)
		return kst_fail("already added");
	memset(&kst_core_post, 0, sizeof(kst_core_post));
	kst_core_post.addr = kst_core_opt.addr;
	kst_core_post.pre_handler = kst_task_pre_handler;
	kst_core_post.post_handler = kst_post_handler;
	ret = register_kprobe(&kst_core_post);
	if (ret)
		return kst_fail("register_kprobe(_bcd2bin+%u, post_handler) returned %d",
				kst_core_opt.offset, ret);
	kst_core_post_registered = true;
	if (kst_jump_optimized(&kst_core_opt))
		return kst_fail("_bcd2bin+%u still jumps to the optimized probe",
				kst_core_opt.offset);
	kst_reset_counts();
	ret = kst_call_bcd2bin();
	if (ret)
		return ret;
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	if (post != calls)
		return kst_fail("%d calls of _bcd2bin: the post_handler ran %d times",
				calls, post);
	if (pre != 2 * calls)
		return kst_fail("%d calls of _bcd2bin: the pre_handlers ran %d times",
				calls, pre);
	return 0;
}

/*
 * Unregisters the probe with the post_handler: the optimized probe, alone
 * on its address again, must be optimized again, and each call go through
 * the jump to its pre_handler.
 */
int step_core_optprobe_remove_post_handler(const char *arg)
{
	if (!kst_core_post_registered)
		return kst_fail("core_optprobe_add_post_handler first");
	unregister_kprobe(&kst_core_post);
	kst_core_post_registered = false;
	if (!kst_wait_jump_optimized(&kst_core_opt))
		return kst_fail("_bcd2bin+%u not optimized again %d s after the post_handler went",
				kst_core_opt.offset, KST_OPTIMIZE_WAIT_S);
	kst_reset_counts();
	return kst_core_opt_calls();
}

/*
 * Registers a probe on the next instruction under the jump of the
 * optimized probe: x86's jump is 5 bytes, and covers the instructions
 * after the probed one (ARM's and powerpc's is the probed instruction
 * only). The jump must go before the breakpoint goes in, or the
 * breakpoint lands in its displacement; and each call must then run both
 * pre_handlers. User space then asks the optimizer for every probe
 * again, and checks that the first one is not optimized over it.
 */
int step_core_optprobe_cover_next(const char *arg)
{
	int offset, pre, ret = -EILSEQ, calls = ARRAY_SIZE(kst_bcd);

	if (!kst_core_opt_registered)
		return kst_fail("hold_core_optprobe first");
	if (kst_core_cover_registered)
		return kst_fail("already covered");
	if (!KST_OPT_JUMP_LEN)
		return kst_skip("an optimized probe's jump replaces one instruction here");
	/* x86's kst_insn_len() is 1: an offset inside an instruction is refused. */
	for (offset = kst_core_opt.offset + 1;
	     ret == -EILSEQ && offset < kst_core_opt.offset + KST_OPT_JUMP_LEN; offset++) {
		memset(&kst_core_cover, 0, sizeof(kst_core_cover));
		kst_core_cover.symbol_name = "_bcd2bin";
		kst_core_cover.offset = offset;
		kst_core_cover.pre_handler = kst_task_pre_handler;
		ret = register_kprobe(&kst_core_cover);
	}
	if (ret == -EILSEQ)
		return kst_skip("_bcd2bin+%u: %d bytes or more, its jump covers nothing else",
				kst_core_opt.offset, KST_OPT_JUMP_LEN);
	if (ret)
		return kst_fail("register_kprobe(_bcd2bin+%u) returned %d",
				kst_core_cover.offset, ret);
	kst_core_cover_registered = true;
	if (kst_jump_optimized(&kst_core_opt))
		return kst_fail("_bcd2bin+%u still jumps over the breakpoint at +%u",
				kst_core_opt.offset, kst_core_cover.offset);
	kst_reset_counts();
	ret = kst_call_bcd2bin();
	if (ret)
		return ret;
	pre = atomic_read(&pre_hits);
	if (pre != 2 * calls)
		return kst_fail("%d calls of _bcd2bin: the pre_handlers ran %d times, expected %d",
				calls, pre, 2 * calls);
	return 0;
}

/*
 * Unregisters the covering probe: each call must then run the first
 * probe's pre_handler alone. Its jump does not come back: __disarm_kprobe()
 * asks for it before the leaving probe is marked disabled, while
 * arch_check_optimized_kprobe() still counts that one under the jump.
 */
int step_core_optprobe_uncover(const char *arg)
{
	int hits, ret, calls = ARRAY_SIZE(kst_bcd);

	if (!kst_core_cover_registered)
		return kst_fail("core_optprobe_cover_next first");
	unregister_kprobe(&kst_core_cover);
	kst_core_cover_registered = false;
	kst_reset_counts();
	ret = kst_call_bcd2bin();
	if (ret)
		return ret;
	hits = atomic_read(&pre_hits);
	if (hits != calls)
		return kst_fail("%d calls of _bcd2bin: the pre_handlers ran %d times, expected %d",
				calls, hits, calls);
	return 0;
}

/*
 * Unregisters the probes on _bcd2bin(): once the optimizer has run, its
 * code must be what it was, and a call must not reach the pre_handler.
 */
int step_unregister_core_optprobe(const char *arg)
{
	int i, hits;

	if (!kst_core_opt_registered)
		return kst_fail("hold_core_optprobe first");
	kst_core_opt_unregister();
	for (i = 0; i < KST_OPTIMIZE_WAIT_S * 50 && !kst_core_opt_restored(); i++)
		msleep(20);
	if (!kst_core_opt_restored())
		return kst_fail("_bcd2bin's code not restored %d s after unregister_kprobe()",
				KST_OPTIMIZE_WAIT_S);
	hits = atomic_read(&pre_hits);
	kst_call(_bcd2bin, 0x42);
	if (atomic_read(&pre_hits) != hits)
		return kst_fail("pre_handler ran after unregister_kprobe()");
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
	kst_core_opt_unregister();
}
