// SPDX-License-Identifier: GPL-2.0
/*
 * kst_errors.c - the documented errors of register_*probe() (those of
 * offsets are in kst_offset.c), stale flags, registering twice,
 * unregistering what is not registered, and a probe hit from a handler,
 * counted in nmissed
 */
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/vmalloc.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

/* Read, so that an instruction after the entry takes a kprobe on MIPS. */
static long kst_target2_zero;

static noinline long kst_target2(long value)
{
	return value + 1 + READ_ONCE(kst_target2_zero);
}

/*
 * Long enough after its entry for the jump of an optimized kprobe, made
 * of instructions x86 can copy (as kprobes_selftest_target.c's
 * kst_gone_opt_target()).
 */
static noinline long kst_opt_target(long value)
{
	return value * 3 + 7;
}

int case_err_symbol_and_addr(void)
{
	int ret;

	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	kst_kprobe.addr = (kprobe_opcode_t *)kst_target;
	ret = kst_try_kprobe(&kst_kprobe);
	if (ret != -EINVAL)
		return kst_fail("symbol_name and addr both set: %d, expected %d",
				ret, -EINVAL);

	kst_init_kprobe(&kst_kprobe, NULL, 0);
	ret = kst_try_kprobe(&kst_kprobe);
	if (ret != -EINVAL)
		return kst_fail("neither symbol_name nor addr set: %d, expected %d",
				ret, -EINVAL);
	return 0;
}

int case_err_unknown_symbol(void)
{
	int ret;

	kst_init_kprobe(&kst_kprobe, "kst_no_such_function", 0);
	ret = kst_try_kprobe(&kst_kprobe);
	if (ret != -ENOENT)
		return kst_fail("unknown symbol: %d, expected %d", ret, -ENOENT);
	return 0;
}

/*
 * An address in no function kallsyms knows is refused as an unknown
 * symbol is, before anything checks what is there. vmalloc() memory:
 * kmalloc() may return a freed init page at its address in the kernel
 * image, which kallsyms counts in with CONFIG_KALLSYMS_ALL.
 */
int case_err_unknown_addr(void)
{
	struct kprobe kp = {};
	void *area;
	int ret;

	area = vmalloc(PAGE_SIZE);
	if (!area)
		return kst_fail("vmalloc() failed");
	kp.addr = area;
	ret = kst_try_kprobe(&kp);
	vfree(area);
	if (ret != -ENOENT)
		return kst_fail("an address in vmalloc() memory: %d, expected %d",
				ret, -ENOENT);
	return 0;
}

int case_err_kretprobe_data_size(void)
{
	struct kretprobe rp = {
		.handler = kst_ret_handler,
		.data_size = KRETPROBE_MAX_DATA_SIZE + 1,
	};
	int ret;

	kst_init_kprobe(&rp.kp, "kst_target", 0);
	ret = kst_try_kretprobe(&rp);
	if (ret != -E2BIG)
		return kst_fail("data_size %d: %d, expected %d",
				KRETPROBE_MAX_DATA_SIZE + 1, ret, -E2BIG);
	return 0;
}

/*
 * x86's kretprobe_blacklist[] refuses return probes on __switch_to(),
 * which switches tasks but not kernel stacks; a kprobe there is taken.
 * kprobes/blacklist in debugfs does not list it. The other architectures'
 * lists are empty.
 */
int case_err_kretprobe_blacklist(void)
{
#ifdef CONFIG_X86
	struct kretprobe rp = { .handler = kst_ret_handler };
	struct kprobe kp = {};
	int ret;

	kst_init_kprobe(&kp, "__switch_to", 0);
	ret = register_kprobe(&kp);
	if (ret)
		return kst_fail("kprobe on __switch_to: %d, expected 0", ret);
	unregister_kprobe(&kp);

	kst_init_kprobe(&rp.kp, "__switch_to", 0);
	ret = kst_try_kretprobe(&rp);
	if (ret != -EINVAL)
		return kst_fail("kretprobe on __switch_to: %d, expected %d", ret, -EINVAL);
	return 0;
#else
	return kst_skip("no kretprobe_blacklist entry on this architecture");
#endif
}

#ifdef CONFIG_KPROBES_ON_FTRACE
static void kst_ipmodify_func(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
}

/* Another owner of a function's ip, as a livepatch is. */
static struct ftrace_ops kst_ipmodify_ops = {
	.func = kst_ipmodify_func,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};
#endif

/*
 * Only one ftrace_ops may modify the ip at a function (a livepatch's,
 * say), and a kprobe with a post_handler on ftrace needs to: beside
 * another such ops it cannot be armed, and register_kprobe() must fail
 * rather than return 0 for a probe that never fires.
 */
int case_err_ipmodify_busy(void)
{
#ifdef CONFIG_KPROBES_ON_FTRACE
	unsigned long ip;
	bool on_ftrace;
	int ret, busy;

	/* Where kprobes put a probe on kst_target's entry. */
	kst_init_kprobe(&kst_kprobe2, "kst_target", 0);
	ret = register_kprobe(&kst_kprobe2);
	if (ret)
		return kst_fail("register_kprobe() on kst_target: %d", ret);
	ip = (unsigned long)kst_kprobe2.addr;
	on_ftrace = kst_kprobe2.flags & KPROBE_FLAG_FTRACE;
	unregister_kprobe(&kst_kprobe2);
	if (!on_ftrace)
		return kst_skip("the kprobe on kst_target does not use ftrace");

	ret = ftrace_set_filter_ip(&kst_ipmodify_ops, ip, 0, 0);
	if (!ret)
		ret = register_ftrace_function(&kst_ipmodify_ops);
	if (ret) {
		ftrace_free_filter(&kst_ipmodify_ops);
		return kst_fail("an IPMODIFY ftrace_ops on kst_target: %d", ret);
	}
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	busy = kst_try_kprobe(&kst_kprobe);
	ret = unregister_ftrace_function(&kst_ipmodify_ops);
	if (ret)
		return kst_fail("unregister_ftrace_function(): %d", ret);
	ftrace_free_filter(&kst_ipmodify_ops);
	if (busy != -EBUSY)
		return kst_fail("register_kprobe() beside another IPMODIFY ops: %d, expected %d",
				busy, -EBUSY);

	/* The refusal left nothing behind: without the other owner, it arms. */
	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe() once the ftrace_ops is gone: %d", ret);
	kst_call(kst_target, 0);
	unregister_kprobe(&kst_kprobe);
	if (atomic_read(&post_hits) != 1)
		return kst_fail("post_handler hits once the ftrace_ops is gone: %d, expected 1",
				atomic_read(&post_hits));
	return 0;
#else
	return kst_skip("no CONFIG_KPROBES_ON_FTRACE: kprobes do not use ftrace here");
#endif
}

/* Not code: a kprobe there would write a breakpoint into data. */
static int kst_data_word;

int case_err_not_text(void)
{
	struct kprobe data = { .addr = (kprobe_opcode_t *)&kst_data_word };
	int ret;

	ret = kst_try_kprobe(&data);
	if (ret != -EINVAL)
		return kst_fail("register_kprobe() on data: %d, expected %d", ret, -EINVAL);
	return 0;
}

/*
 * register_kprobe() keeps only KPROBE_FLAG_DISABLED of the flags it is
 * given: a struct kprobe reused with what a past registration left in
 * .flags (GONE here) is registered and armed as a new one is.
 */
int case_register_clears_stale_flags(void)
{
	int ret, hits;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	kst_kprobe.flags = KPROBE_FLAG_GONE;
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe() with a stale GONE flag returned %d", ret);
	kst_call(kst_target, 0);
	hits = atomic_read(&pre_hits);
	unregister_kprobe(&kst_kprobe);
	if (hits != 1)
		return kst_fail("registered with a stale GONE flag: fired %d times, expected 1",
				hits);
	return 0;
}

/* A second registration fails and leaves the first one working. */
int case_err_register_twice(void)
{
	int ret, again, hits;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe() returned %d", ret);
	again = register_kprobe(&kst_kprobe);
	kst_call(kst_target, 0);
	hits = atomic_read(&pre_hits);
	unregister_kprobe(&kst_kprobe);

	if (again != -EINVAL)
		return kst_fail("second register_kprobe(): %d, expected %d", again, -EINVAL);
	if (hits != 1)
		return kst_fail("after the second registration: %d hits, expected 1", hits);
	return 0;
}

int case_unregister_unregistered(void)
{
	struct kprobe never = { .symbol_name = "kst_target" };
	struct kretprobe never_ret = { .kp.symbol_name = "kst_target" };
	int ret, hits;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe() returned %d", ret);
	unregister_kprobe(&never);
	unregister_kretprobe(&never_ret);
	kst_call(kst_target, 0);
	hits = atomic_read(&pre_hits);
	unregister_kprobe(&kst_kprobe);
	/* Twice is as harmless as never. */
	unregister_kprobe(&kst_kprobe);
	kst_init_kprobe(&kst_kretprobe.kp, "kst_target", 0);
	ret = register_kretprobe(&kst_kretprobe);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	unregister_kretprobe(&kst_kretprobe);
	unregister_kretprobe(&kst_kretprobe);

	if (hits != 1)
		return kst_fail("a registered probe stopped firing: %d hits", hits);
	return 0;
}

/* The function whose probe the first probe's pre_handler hits. */
static long (*kst_inner_target)(long value);

static int kst_recursing_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	kst_call(kst_inner_target, 0);
	return 0;
}

/*
 * @n_inner probes on @inner (the function @func) + @inner_offset, hit from
 * the handler of a probe on kst_target; @optimized: once the jump of the
 * first is in. Each counts its misses, also where two make an aggregate.
 */
static int kst_check_recursion(const char *inner, long (*func)(long value),
			       unsigned int inner_offset, int n_inner, bool optimized)
{
	struct kprobe outer = { .pre_handler = kst_recursing_pre_handler };
	struct kprobe *inner_kps[] = { &kst_kprobe2, &kst_kprobe };
	int i, ret, inner_hits;

	kst_reset_counts();
	kst_inner_target = func;
	kst_init_kprobe(&outer, "kst_target", 0);
	for (i = 0; i < n_inner; i++)
		kst_init_kprobe(inner_kps[i], inner, inner_offset);
	ret = register_kprobes(inner_kps, n_inner);
	if (ret)
		return kst_fail("register_kprobes(%s) returned %d", inner, ret);
	if (optimized && !kst_wait_jump_optimized(&kst_kprobe2)) {
		unregister_kprobes(inner_kps, n_inner);
		return kst_skip("%s+%u not optimized after %d s", inner,
				inner_offset, KST_OPTIMIZE_WAIT_S);
	}
	ret = register_kprobe(&outer);
	if (ret) {
		unregister_kprobes(inner_kps, n_inner);
		return kst_fail("register_kprobe(kst_target) returned %d", ret);
	}
	kst_call(kst_target, 0);
	kst_call(kst_target, 0);
	inner_hits = atomic_read(&pre_hits);
	unregister_kprobe(&outer);
	unregister_kprobes(inner_kps, n_inner);

	if (inner_hits)
		return kst_fail("%s+%u hit from a handler: %d runs, expected 0",
				inner, inner_offset, inner_hits);
	for (i = 0; i < n_inner; i++)
		if (inner_kps[i]->nmissed != 2)
			return kst_fail("%s+%u hit twice from a handler: probe %d of %d missed %lu",
					inner, inner_offset, i + 1, n_inner,
					inner_kps[i]->nmissed);
	return 0;
}

int case_recursion_nmissed(void)
{
	return kst_check_recursion("kst_target2", kst_target2, 0, 1, false);
}

/* The same with two probes on kst_target2: each child counts the misses. */
int case_recursion_nmissed_aggregate(void)
{
	return kst_check_recursion("kst_target2", kst_target2, 0, 2, false);
}

/*
 * The same off the entry of the inner function, where the probe is a
 * breakpoint everywhere: at the entry, x86 hits it through ftrace.
 */
int case_recursion_nmissed_breakpoint(void)
{
	int offset = kst_inner_offset("kst_target2", kst_target2);

	if (offset < 0)
		return kst_fail("no probe-able instruction in kst_target2: %d", offset);
	return kst_check_recursion("kst_target2", kst_target2, offset, 1, false);
}

/* The same where the inner probe is optimized: its jump finds a probe running. */
int case_recursion_nmissed_optimized(void)
{
	int offset, ret;

	ret = kst_optprobes_here();
	if (ret)
		return ret;
	offset = kst_inner_offset("kst_opt_target", kst_opt_target);
	if (offset < 0)
		return kst_fail("no probe-able instruction in kst_opt_target: %d", offset);
	return kst_check_recursion("kst_opt_target", kst_opt_target, offset, 1, true);
}
