// SPDX-License-Identifier: GPL-2.0
/*
 * kst_optprobe_core.c - an optimized kprobe inside _bcd2bin(), in kernel
 * text, where every architecture with optprobes optimizes (powerpc does
 * not in modules): its hits, a post_handler or a probe under its jump
 * joining it, and its removal.
 */
#include <linux/bcd.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/string.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

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
	kst_unregister_held(&kst_core_cover, &kst_core_cover_registered);
	kst_unregister_held(&kst_core_post, &kst_core_post_registered);
	kst_unregister_held(&kst_core_opt, &kst_core_opt_registered);
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
 * Counts afresh while _bcd2bin() is called on each of kst_bcd: each call
 * must return what it does unprobed, and run @per_call pre_handlers.
 */
static int kst_core_calls_hit(int per_call)
{
	int pre, ret, calls = ARRAY_SIZE(kst_bcd);

	kst_reset_counts();
	ret = kst_call_bcd2bin();
	if (ret)
		return ret;
	pre = atomic_read(&pre_hits);
	if (pre != per_call * calls)
		return kst_fail("%d calls of _bcd2bin: the pre_handlers ran %d times, expected %d",
				calls, pre, per_call * calls);
	return 0;
}

/*
 * Calls _bcd2bin() under its optimized probe: each call must go through
 * the jump to the pre_handler, which must see the instruction pointer of
 * a hit.
 */
static int kst_core_opt_calls(void)
{
	unsigned long expected = kst_expected_ip(&kst_core_opt);
	int ret;

	ret = kst_core_calls_hit(1);
	if (ret)
		return ret;
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
	int post, ret, calls = ARRAY_SIZE(kst_bcd);

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
	ret = kst_core_calls_hit(2);
	if (ret)
		return ret;
	post = atomic_read(&post_hits);
	if (post != calls)
		return kst_fail("%d calls of _bcd2bin: the post_handler ran %d times",
				calls, post);
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
	kst_unregister_held(&kst_core_post, &kst_core_post_registered);
	if (!kst_wait_jump_optimized(&kst_core_opt))
		return kst_fail("_bcd2bin+%u not optimized again %d s after the post_handler went",
				kst_core_opt.offset, KST_OPTIMIZE_WAIT_S);
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
	int offset, ret = -EILSEQ;

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
	return kst_core_calls_hit(2);
}

/*
 * Unregisters the covering probe: each call must then run the first
 * probe's pre_handler alone. Its jump does not come back: __disarm_kprobe()
 * asks for it before the leaving probe is marked disabled, while
 * arch_check_optimized_kprobe() still counts that one under the jump.
 */
int step_core_optprobe_uncover(const char *arg)
{
	if (!kst_core_cover_registered)
		return kst_fail("core_optprobe_cover_next first");
	kst_unregister_held(&kst_core_cover, &kst_core_cover_registered);
	return kst_core_calls_hit(1);
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

void kst_optprobe_core_init(struct dentry *dir)
{
}

void kst_optprobe_core_release(void)
{
	kst_core_opt_unregister();
}
