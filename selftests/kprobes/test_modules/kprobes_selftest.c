// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes_selftest.c - kernel half of tools/testing/selftests/kprobes
 *
 * Each case registers probes on targets that this module owns (or on a
 * core-kernel function), calls the targets and checks what the handlers
 * saw. User space runs one case at a time and reads back its outcome:
 *
 *   echo kprobe_by_symbol > /sys/kernel/debug/kprobes_selftest/run
 *   cat /sys/kernel/debug/kprobes_selftest/result
 *
 * The result is "<case> pass", "<case> fail: <diagnostic>" or
 * "<case> skip: <reason>". One case takes an argument after the name
 * ("blacklisted_symbol <symbol>"). Writing anything that is not a case,
 * an argument to a case that takes none, or a missing or unknown symbol
 * fails with -EINVAL and leaves the result as it was; "cases" lists the
 * names.
 *
 * The hold_* cases leave a probe registered so that user space can look at
 * /sys/kernel/debug/kprobes while it exists; "release" unregisters them
 * and "hits" reads how often each held probe fired.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kstrtox.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kst_insn.h"

#define KST_INPUT_MAX	(KSYM_NAME_LEN + 64)
#define KST_DIAG_MAX	256
#define KST_BATCH	8
#define KST_THREADS	8
#define KST_DEPTH	8

/* Return values the targets hand back, negative errnos included. */
static const long kst_values[] = { 0, 1, 42, -ENOENT, -EINVAL, LONG_MAX };

static char kst_diag[KST_DIAG_MAX];
static DEFINE_MUTEX(kst_lock);
static struct dentry *kst_dir;

/*
 * The targets are called through pointers so that the compiler can neither
 * inline them nor fold the calls away.
 */
static long (*kst_target_ptr)(long value);
static long (*kst_target2_ptr)(long value);
static long (*kst_offset_target_ptr)(long value);
static long (*kst_batch_ptrs[KST_BATCH])(long value);
static int (*kst_recursive_ptr)(int depth);
static int (*kst_blocking_ptr)(void);
static int (*kst_neighbour_ptr)(int value);

static noinline long kst_target(long value)
{
	return value;
}

static noinline long kst_target2(long value)
{
	return value + 1;
}

/* A body of a few instructions, for probes inside a function. */
static noinline long kst_offset_target(long value)
{
	return value * 7 + 3;
}

/* Distinct bodies, so that identical-code folding cannot merge them. */
static noinline long kst_batch0(long value)
{
	return value + 0;
}

static noinline long kst_batch1(long value)
{
	return value + 1;
}

static noinline long kst_batch2(long value)
{
	return value + 2;
}

static noinline long kst_batch3(long value)
{
	return value + 3;
}

static noinline long kst_batch4(long value)
{
	return value + 4;
}

static noinline long kst_batch5(long value)
{
	return value + 5;
}

static noinline long kst_batch6(long value)
{
	return value + 6;
}

static noinline long kst_batch7(long value)
{
	return value + 7;
}

static noinline int kst_recursive(int depth)
{
	if (depth <= 1)
		return 1;
	return kst_recursive_ptr(depth - 1) + 1;
}

static DECLARE_COMPLETION(kst_release);
static atomic_t kst_entered;

/* Many kthreads sit in here at once, until kst_release completes. */
static noinline int kst_blocking(void)
{
	atomic_inc(&kst_entered);
	wait_for_completion(&kst_release);
	return 0;
}

/*
 * Must never be probed: the blacklist cases check that it cannot be.
 * NOKPROBE_SYMBOL() keeps it although nothing calls it.
 */
static noinline int kst_blacklisted(int value)
{
	return value * 2;
}

NOKPROBE_SYMBOL(kst_blacklisted);

static noinline int kst_neighbour(int value)
{
	return value * 3;
}

/* What the handlers saw. */
static atomic_t pre_hits, post_hits, ret_hits, entry_hits, data_ok, other_hits;
static long ret_seen;
static unsigned long ip_seen;
static struct task_struct *kst_task;

static __printf(1, 2) int kst_fail(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(kst_diag, sizeof(kst_diag), fmt, args);
	va_end(args);
	return -EBADE;
}

static __printf(1, 2) int kst_skip(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(kst_diag, sizeof(kst_diag), fmt, args);
	va_end(args);
	return -EOPNOTSUPP;
}

static void kst_reset_counts(void)
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

/* Lets a struct be registered again, as lib/test_kprobes.c does. */
static void kst_init_kprobe(struct kprobe *kp, const char *symbol,
			    unsigned int offset)
{
	kp->addr = NULL;
	kp->flags = 0;
	kp->symbol_name = symbol;
	kp->offset = offset;
	kp->nmissed = 0;
}

static int kst_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&pre_hits);
	ip_seen = instruction_pointer(regs);
	return 0;
}

static void kst_post_handler(struct kprobe *kp, struct pt_regs *regs,
			     unsigned long flags)
{
	atomic_inc(&post_hits);
}

/* Counts only the case's own calls of a core-kernel function. */
static int kst_task_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	if (current == kst_task) {
		atomic_inc(&pre_hits);
		ip_seen = instruction_pointer(regs);
	}
	return 0;
}

static int kst_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_inc(&ret_hits);
	ret_seen = regs_return_value(regs);
	return 0;
}

struct kst_instance_data {
	unsigned long magic;
	int seq;
};

#define KST_MAGIC	0x6b70726fUL

/*
 * Records the call's sequence number for the return handler; odd calls
 * return non-zero, which skips their return handler.
 */
static int kst_entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kst_instance_data *data = (void *)ri->data;

	data->magic = KST_MAGIC;
	data->seq = atomic_inc_return(&entry_hits);
	return data->seq & 1;
}

static int kst_data_ret_handler(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct kst_instance_data *data = (void *)ri->data;

	atomic_inc(&ret_hits);
	/* The calls do not nest: the last entry is this instance's. */
	if (data->magic == KST_MAGIC && data->seq == atomic_read(&entry_hits))
		atomic_inc(&data_ok);
	return 0;
}

static struct kprobe kst_kprobe = {
	.pre_handler = kst_pre_handler,
	.post_handler = kst_post_handler,
};

static struct kprobe kst_kprobe2 = {
	.pre_handler = kst_pre_handler,
};

static struct kretprobe kst_kretprobe = {
	.handler = kst_ret_handler,
};

/* What instruction_pointer() shows a pre_handler for a probe at @addr. */
static unsigned long kst_expected_ip(const void *addr)
{
#ifdef CONFIG_X86
	/* As if the int3 at @addr had executed, for every kind of probe. */
	return (unsigned long)addr + INT3_INSN_SIZE;
#else
	/* Bit 0 of a Thumb address only selects the instruction set. */
	return (unsigned long)addr & ~1UL;
#endif
}

static int kst_call_values(long (*target)(long value))
{
	int i;

	for (i = 0; i < ARRAY_SIZE(kst_values); i++)
		target(kst_values[i]);
	return ARRAY_SIZE(kst_values);
}

/*
 * Registers kst_kprobe on @addr or @symbol + @offset, calls @target and
 * checks the handlers: once per call, none after unregistering, and the
 * instruction pointer the pre_handler saw.
 */
static int kst_check_kprobe_at(const char *symbol, void *addr,
			       unsigned int offset, long (*target)(long value))
{
	int calls, pre, post, ret;
	unsigned long ip;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, symbol, offset);
	kst_kprobe.addr = addr;
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe(%s+%u) returned %d",
				symbol ?: "addr", offset, ret);

	calls = kst_call_values(target);
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	ip = ip_seen;
	unregister_kprobe(&kst_kprobe);

	target(0);

	if (pre != calls || post != calls)
		return kst_fail("%d calls: pre_handler ran %d times, post_handler %d times",
				calls, pre, post);
	if (atomic_read(&pre_hits) != pre || atomic_read(&post_hits) != post)
		return kst_fail("handlers ran after unregister_kprobe()");
	if (ip != kst_expected_ip(kst_kprobe.addr))
		return kst_fail("pre_handler saw ip %pS, expected %pS",
				(void *)ip, (void *)kst_expected_ip(kst_kprobe.addr));
	return 0;
}

static int case_kprobe_by_symbol(const char *arg)
{
	return kst_check_kprobe_at("kst_target", NULL, 0, kst_target_ptr);
}

static int case_kprobe_by_addr(const char *arg)
{
	return kst_check_kprobe_at(NULL, kst_target, 0, kst_target_ptr);
}

static int case_kprobe_symbol_offset(const char *arg)
{
	int offset = kst_inner_offset("kst_offset_target", kst_offset_target);

	if (offset < 0)
		return kst_fail("no probe-able instruction in kst_offset_target: %d",
				offset);
	return kst_check_kprobe_at("kst_offset_target", NULL, offset,
				   kst_offset_target_ptr);
}

/*
 * A kprobe on kstrtoull(), a core-kernel function, by @symbol + @offset
 * or by @addr: only this case's own calls are counted.
 */
static int kst_check_core_kprobe(const char *symbol, void *addr, unsigned int offset)
{
	struct kprobe kp = { .pre_handler = kst_task_pre_handler };
	unsigned long long value;
	int i, hits, ret, failed = 0;
	unsigned long ip;

	kst_reset_counts();
	kst_init_kprobe(&kp, symbol, offset);
	kp.addr = addr;
	ret = register_kprobe(&kp);
	if (ret)
		return kst_fail("register_kprobe(%s+%u) returned %d",
				symbol ?: "kstrtoull", offset, ret);
	for (i = 0; i < 5; i++)
		failed |= kstrtoull("42", 10, &value);
	hits = atomic_read(&pre_hits);
	ip = ip_seen;
	unregister_kprobe(&kp);
	failed |= kstrtoull("42", 10, &value);

	if (failed || value != 42)
		return kst_fail("kstrtoull(\"42\") failed under a kprobe");
	if (hits != 5)
		return kst_fail("5 calls of kstrtoull: pre_handler ran %d times", hits);
	if (atomic_read(&pre_hits) != hits)
		return kst_fail("pre_handler ran after unregister_kprobe()");
	if (ip != kst_expected_ip(kp.addr))
		return kst_fail("pre_handler saw ip %pS, expected %pS",
				(void *)ip, (void *)kst_expected_ip(kp.addr));
	return 0;
}

static int case_kprobe_core_kernel(const char *arg)
{
	return kst_check_core_kprobe("kstrtoull", NULL, 0);
}

static int case_kprobe_core_kernel_addr(const char *arg)
{
	return kst_check_core_kprobe(NULL, kstrtoull, 0);
}

static int case_kprobe_core_kernel_offset(const char *arg)
{
	int offset = kst_inner_offset("kstrtoull", kstrtoull);

	if (offset < 0)
		return kst_fail("no probe-able instruction in kstrtoull: %d", offset);
	return kst_check_core_kprobe("kstrtoull", NULL, offset);
}

static int case_kretprobe_by_symbol(const char *arg)
{
	int i, hits, ret;

	kst_reset_counts();
	kst_init_kprobe(&kst_kretprobe.kp, "kst_target", 0);
	kst_kretprobe.maxactive = 0;
	ret = register_kretprobe(&kst_kretprobe);
	if (ret)
		return kst_fail("register_kretprobe(kst_target) returned %d", ret);

	for (i = 0; i < ARRAY_SIZE(kst_values); i++) {
		long value = kst_target_ptr(kst_values[i]);

		if (atomic_read(&ret_hits) != i + 1 || ret_seen != value) {
			hits = atomic_read(&ret_hits);
			unregister_kretprobe(&kst_kretprobe);
			return kst_fail("call %d returned %ld: handler ran %d times, saw %ld",
					i, value, hits, ret_seen);
		}
	}
	unregister_kretprobe(&kst_kretprobe);
	hits = atomic_read(&ret_hits);

	kst_target_ptr(0);

	if (atomic_read(&ret_hits) != hits)
		return kst_fail("return handler ran after unregister_kretprobe()");
	if (kst_kretprobe.nmissed)
		return kst_fail("nmissed is %d, expected 0", kst_kretprobe.nmissed);
	return 0;
}

/*
 * entry_handler passes per-instance data to the return handler, and an
 * entry_handler that returns non-zero (every other call) skips that
 * instance's return handler without counting it as missed.
 */
static int case_kretprobe_entry_data(const char *arg)
{
	struct kretprobe rp = {
		.handler = kst_data_ret_handler,
		.entry_handler = kst_entry_handler,
		.data_size = sizeof(struct kst_instance_data),
	};
	int i, entries, returns, matched, ret;

	kst_reset_counts();
	kst_init_kprobe(&rp.kp, "kst_target", 0);
	ret = register_kretprobe(&rp);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	for (i = 0; i < 10; i++)
		kst_target_ptr(i);
	unregister_kretprobe(&rp);
	entries = atomic_read(&entry_hits);
	returns = atomic_read(&ret_hits);
	matched = atomic_read(&data_ok);

	if (entries != 10)
		return kst_fail("10 calls: entry_handler ran %d times", entries);
	if (returns != 5)
		return kst_fail("5 calls kept by entry_handler: handler ran %d times",
				returns);
	if (matched != returns)
		return kst_fail("%d of %d return handlers saw their entry's data",
				matched, returns);
	if (rp.nmissed)
		return kst_fail("skipped instances counted as missed: nmissed %d",
				rp.nmissed);
	return 0;
}

static int case_kretprobe_maxactive_default(const char *arg)
{
	int expected = max_t(unsigned int, 10, 2 * num_possible_cpus());
	int ret, maxactive;

	kst_init_kprobe(&kst_kretprobe.kp, "kst_target", 0);
	kst_kretprobe.maxactive = 0;
	ret = register_kretprobe(&kst_kretprobe);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	maxactive = kst_kretprobe.maxactive;
	unregister_kretprobe(&kst_kretprobe);

	if (maxactive != expected)
		return kst_fail("maxactive 0 became %d, expected max(10, 2 * %u CPUs) = %d",
				maxactive, num_possible_cpus(), expected);
	return 0;
}

/* Two kprobes and a kretprobe on one address all fire on every call. */
static int case_probes_same_addr(const char *arg)
{
	struct kprobe *kps[] = { &kst_kprobe, &kst_kprobe2 };
	int calls, pre, returns, ret;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	kst_init_kprobe(&kst_kprobe2, "kst_target", 0);
	kst_init_kprobe(&kst_kretprobe.kp, "kst_target", 0);
	kst_kretprobe.maxactive = 0;
	ret = register_kprobes(kps, ARRAY_SIZE(kps));
	if (ret)
		return kst_fail("register_kprobes() returned %d", ret);
	ret = register_kretprobe(&kst_kretprobe);
	if (ret) {
		unregister_kprobes(kps, ARRAY_SIZE(kps));
		return kst_fail("register_kretprobe() returned %d", ret);
	}
	calls = kst_call_values(kst_target_ptr);
	pre = atomic_read(&pre_hits);
	returns = atomic_read(&ret_hits);
	unregister_kretprobe(&kst_kretprobe);
	unregister_kprobes(kps, ARRAY_SIZE(kps));

	if (pre != 2 * calls || returns != calls)
		return kst_fail("%d calls: %d pre_handler runs (expected %d), %d returns",
				calls, pre, 2 * calls, returns);
	return 0;
}

static int case_err_symbol_and_addr(const char *arg)
{
	int ret;

	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	kst_kprobe.addr = (kprobe_opcode_t *)kst_target;
	ret = register_kprobe(&kst_kprobe);
	if (!ret)
		unregister_kprobe(&kst_kprobe);
	if (ret != -EINVAL)
		return kst_fail("symbol_name and addr both set: %d, expected %d",
				ret, -EINVAL);
	return 0;
}

static int case_err_unknown_symbol(const char *arg)
{
	int ret;

	kst_init_kprobe(&kst_kprobe, "kst_no_such_function", 0);
	ret = register_kprobe(&kst_kprobe);
	if (!ret)
		unregister_kprobe(&kst_kprobe);
	if (ret != -ENOENT)
		return kst_fail("unknown symbol: %d, expected %d", ret, -ENOENT);
	return 0;
}

/* An address that is not an instruction boundary, and its documented error. */
static int case_err_bad_offset(const char *arg)
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

static int case_err_kretprobe_offset(const char *arg)
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

static int case_err_kretprobe_data_size(const char *arg)
{
	struct kretprobe rp = {
		.handler = kst_ret_handler,
		.data_size = KRETPROBE_MAX_DATA_SIZE + 1,
	};
	int ret;

	kst_init_kprobe(&rp.kp, "kst_target", 0);
	ret = register_kretprobe(&rp);
	if (!ret)
		unregister_kretprobe(&rp);
	if (ret != -E2BIG)
		return kst_fail("data_size %d: %d, expected %d",
				KRETPROBE_MAX_DATA_SIZE + 1, ret, -E2BIG);
	return 0;
}

/* A second registration fails and leaves the first one working. */
static int case_err_register_twice(const char *arg)
{
	int ret, again, hits;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe() returned %d", ret);
	again = register_kprobe(&kst_kprobe);
	kst_target_ptr(0);
	hits = atomic_read(&pre_hits);
	unregister_kprobe(&kst_kprobe);

	if (again != -EINVAL)
		return kst_fail("second register_kprobe(): %d, expected %d", again, -EINVAL);
	if (hits != 1)
		return kst_fail("after the second registration: %d hits, expected 1", hits);
	return 0;
}

static int case_unregister_unregistered(const char *arg)
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
	kst_target_ptr(0);
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

/* The pre_handler of the first probe hits the second one. */
static int kst_recursing_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	kst_target2_ptr(0);
	return 0;
}

static int case_recursion_nmissed(const char *arg)
{
	struct kprobe outer = { .pre_handler = kst_recursing_pre_handler };
	int ret, inner_hits;

	kst_reset_counts();
	kst_init_kprobe(&outer, "kst_target", 0);
	kst_init_kprobe(&kst_kprobe2, "kst_target2", 0);
	ret = register_kprobe(&kst_kprobe2);
	if (ret)
		return kst_fail("register_kprobe(kst_target2) returned %d", ret);
	ret = register_kprobe(&outer);
	if (ret) {
		unregister_kprobe(&kst_kprobe2);
		return kst_fail("register_kprobe(kst_target) returned %d", ret);
	}
	kst_target_ptr(0);
	kst_target_ptr(0);
	inner_hits = atomic_read(&pre_hits);
	unregister_kprobe(&outer);
	unregister_kprobe(&kst_kprobe2);

	if (inner_hits || kst_kprobe2.nmissed != 2)
		return kst_fail("hit from a handler: %d runs, nmissed %lu (expected 0, 2)",
				inner_hits, kst_kprobe2.nmissed);
	return 0;
}

static struct kprobe kst_batch_kprobes[KST_BATCH];
static struct kretprobe kst_batch_kretprobes[KST_BATCH];
static char kst_batch_names[KST_BATCH][16];

static void kst_init_batch(struct kprobe **kps, struct kretprobe **rps)
{
	int i;

	for (i = 0; i < KST_BATCH; i++) {
		snprintf(kst_batch_names[i], sizeof(kst_batch_names[i]), "kst_batch%d", i);
		memset(&kst_batch_kprobes[i], 0, sizeof(kst_batch_kprobes[i]));
		kst_init_kprobe(&kst_batch_kprobes[i], kst_batch_names[i], 0);
		kst_batch_kprobes[i].pre_handler = kst_pre_handler;
		memset(&kst_batch_kretprobes[i], 0, sizeof(kst_batch_kretprobes[i]));
		kst_init_kprobe(&kst_batch_kretprobes[i].kp, kst_batch_names[i], 0);
		kst_batch_kretprobes[i].handler = kst_ret_handler;
		kps[i] = &kst_batch_kprobes[i];
		rps[i] = &kst_batch_kretprobes[i];
	}
}

static void kst_call_batch(void)
{
	int i;

	for (i = 0; i < KST_BATCH; i++)
		kst_batch_ptrs[i](i);
}

/* Every probe of a batch fires; after unregistering, none does. */
static int case_batch(const char *arg)
{
	struct kretprobe *rps[KST_BATCH];
	struct kprobe *kps[KST_BATCH];
	int pre, returns, ret;

	kst_reset_counts();
	kst_init_batch(kps, rps);
	ret = register_kprobes(kps, KST_BATCH);
	if (ret)
		return kst_fail("register_kprobes(%d) returned %d", KST_BATCH, ret);
	ret = register_kretprobes(rps, KST_BATCH);
	if (ret) {
		unregister_kprobes(kps, KST_BATCH);
		return kst_fail("register_kretprobes(%d) returned %d", KST_BATCH, ret);
	}
	kst_call_batch();
	pre = atomic_read(&pre_hits);
	returns = atomic_read(&ret_hits);
	unregister_kretprobes(rps, KST_BATCH);
	unregister_kprobes(kps, KST_BATCH);
	kst_call_batch();

	if (pre != KST_BATCH || returns != KST_BATCH)
		return kst_fail("%d targets: pre_handlers ran %d times, return handlers %d",
				KST_BATCH, pre, returns);
	if (atomic_read(&pre_hits) != pre || atomic_read(&ret_hits) != returns)
		return kst_fail("handlers ran after the batch was unregistered");
	return 0;
}

/*
 * A batch whose member 5 is invalid fails with that member's error and
 * registers none of the first five; each can be registered again.
 */
static int case_batch_rollback(const char *arg)
{
	struct kretprobe *rps[KST_BATCH];
	struct kprobe *kps[KST_BATCH];
	int kret, rret, ret, hits;

	kst_reset_counts();
	kst_init_batch(kps, rps);
	kps[5]->symbol_name = "kst_no_such_function";
	rps[5]->kp.symbol_name = "kst_no_such_function";
	kret = register_kprobes(kps, KST_BATCH);
	rret = register_kretprobes(rps, KST_BATCH);
	kst_call_batch();
	hits = atomic_read(&pre_hits) + atomic_read(&ret_hits);
	if (!kret)
		unregister_kprobes(kps, KST_BATCH);
	if (!rret)
		unregister_kretprobes(rps, KST_BATCH);
	if (kret != -ENOENT || rret != -ENOENT)
		return kst_fail("bad member: register_kprobes %d, _kretprobes %d, expected %d",
				kret, rret, -ENOENT);
	if (hits)
		return kst_fail("a failed batch left probes that fired %d times", hits);

	/* Rolled-back members can be registered again, all but the bad one. */
	kst_reset_counts();
	kst_init_batch(kps, rps);
	ret = register_kprobes(kps, 5);
	if (ret)
		return kst_fail("registering the rolled-back kprobes again: %d", ret);
	ret = register_kretprobes(rps, 5);
	if (ret) {
		unregister_kprobes(kps, 5);
		return kst_fail("registering the rolled-back kretprobes again: %d", ret);
	}
	kst_call_batch();
	hits = atomic_read(&pre_hits) + atomic_read(&ret_hits);
	unregister_kretprobes(rps, 5);
	unregister_kprobes(kps, 5);
	if (hits != 10)
		return kst_fail("5 kprobes and 5 kretprobes registered again: %d hits", hits);
	return 0;
}

static int case_batch_num_invalid(const char *arg)
{
	struct kretprobe *rps[KST_BATCH];
	struct kprobe *kps[KST_BATCH];
	int nums[] = { 0, -1 };
	int i, ret;

	kst_init_batch(kps, rps);
	for (i = 0; i < ARRAY_SIZE(nums); i++) {
		ret = register_kprobes(kps, nums[i]);
		if (ret != -EINVAL)
			return kst_fail("register_kprobes(num = %d): %d, expected %d",
					nums[i], ret, -EINVAL);
		ret = register_kretprobes(rps, nums[i]);
		if (ret != -EINVAL)
			return kst_fail("register_kretprobes(num = %d): %d, expected %d",
					nums[i], ret, -EINVAL);
	}
	return 0;
}

static int case_disable_enable(const char *arg)
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
	kst_target_ptr(0);
	pre[0] = atomic_read(&pre_hits);
	returns[0] = atomic_read(&ret_hits);
	d_ret = disable_kprobe(&kst_kprobe2);
	rd_ret = disable_kretprobe(&kst_kretprobe);
	kst_target_ptr(0);
	pre[1] = atomic_read(&pre_hits);
	returns[1] = atomic_read(&ret_hits);
	e_ret = enable_kprobe(&kst_kprobe2);
	re_ret = enable_kretprobe(&kst_kretprobe);
	kst_target_ptr(0);
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

static int case_register_disabled(const char *arg)
{
	int ret, disabled_hits, enable_ret, hits;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe2, "kst_target", 0);
	kst_kprobe2.flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(&kst_kprobe2);
	if (ret)
		return kst_fail("register_kprobe(KPROBE_FLAG_DISABLED) returned %d", ret);
	kst_target_ptr(0);
	disabled_hits = atomic_read(&pre_hits);
	enable_ret = enable_kprobe(&kst_kprobe2);
	kst_target_ptr(0);
	hits = atomic_read(&pre_hits);
	unregister_kprobe(&kst_kprobe2);

	if (disabled_hits)
		return kst_fail("a probe registered disabled fired %d times", disabled_hits);
	if (enable_ret || hits != 1)
		return kst_fail("enable_kprobe() %d, then %d hits (expected 0, 1)",
				enable_ret, hits);
	return 0;
}

/* With two probes on one address, disabling one leaves the other firing. */
static int kst_other_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&other_hits);
	return 0;
}

static int case_disable_one_of_two(const char *arg)
{
	struct kprobe other = { .pre_handler = kst_other_pre_handler };
	int ret, mine, others;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe2, "kst_target", 0);
	kst_init_kprobe(&other, "kst_target", 0);
	ret = register_kprobe(&kst_kprobe2);
	if (ret)
		return kst_fail("register_kprobe() returned %d", ret);
	ret = register_kprobe(&other);
	if (ret) {
		unregister_kprobe(&kst_kprobe2);
		return kst_fail("register_kprobe() returned %d", ret);
	}
	ret = disable_kprobe(&kst_kprobe2);
	kst_target_ptr(0);
	mine = atomic_read(&pre_hits);
	others = atomic_read(&other_hits);
	unregister_kprobe(&other);
	unregister_kprobe(&kst_kprobe2);

	if (ret)
		return kst_fail("disable_kprobe() returned %d", ret);
	if (mine || others != 1)
		return kst_fail("disabled probe fired %d times, the other %d (expected 0, 1)",
				mine, others);
	return 0;
}

static int case_enable_unregistered(const char *arg)
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

/* The module's NOKPROBE_SYMBOL function is refused, its neighbour is not. */
static int case_blacklisted_module_function(const char *arg)
{
	struct kprobe kp = { .pre_handler = kst_pre_handler };
	struct kretprobe rp = { .handler = kst_ret_handler };
	int k_ret, r_ret, n_ret, hits;

	kst_reset_counts();
	kst_init_kprobe(&kp, "kst_blacklisted", 0);
	kst_init_kprobe(&rp.kp, "kst_blacklisted", 0);
	k_ret = register_kprobe(&kp);
	if (!k_ret)
		unregister_kprobe(&kp);
	r_ret = register_kretprobe(&rp);
	if (!r_ret)
		unregister_kretprobe(&rp);

	kst_init_kprobe(&kp, "kst_neighbour", 0);
	n_ret = register_kprobe(&kp);
	kst_neighbour_ptr(1);
	hits = atomic_read(&pre_hits);
	if (!n_ret)
		unregister_kprobe(&kp);

	if (k_ret != -EINVAL || r_ret != -EINVAL)
		return kst_fail("kst_blacklisted: kprobe %d, kretprobe %d, expected %d",
				k_ret, r_ret, -EINVAL);
	if (n_ret || hits != 1)
		return kst_fail("kst_neighbour: register %d, %d hits (expected 0, 1)",
				n_ret, hits);
	return 0;
}

/* A blacklisted core-kernel function, named by user space. */
static int case_blacklisted_symbol(const char *symbol)
{
	struct kprobe kp = { .pre_handler = kst_pre_handler };
	struct kretprobe rp = { .handler = kst_ret_handler };
	int k_ret, r_ret;

	if (!symbol || !*symbol)
		return -EINVAL;
	kst_init_kprobe(&kp, symbol, 0);
	kst_init_kprobe(&rp.kp, symbol, 0);
	k_ret = register_kprobe(&kp);
	if (!k_ret)
		unregister_kprobe(&kp);
	r_ret = register_kretprobe(&rp);
	if (!r_ret)
		unregister_kretprobe(&rp);
	/* No such symbol: a bad argument, not an outcome. */
	if (k_ret == -ENOENT && r_ret == -ENOENT)
		return -EINVAL;
	if (k_ret != -EINVAL || r_ret != -EINVAL)
		return kst_fail("%s: kprobe %d, kretprobe %d, expected %d",
				symbol, k_ret, r_ret, -EINVAL);
	return 0;
}

static int kst_blocker(void *unused)
{
	kst_blocking_ptr();
	/* kthread_stop() collects us; exiting early would race with it. */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * KST_THREADS kthreads block in kst_blocking() under a kretprobe with
 * @maxactive instances: the rest are missed.
 */
static int kst_check_maxactive(int maxactive)
{
	struct task_struct *threads[KST_THREADS];
	struct kretprobe rp = {
		.handler = kst_ret_handler,
		.maxactive = maxactive,
	};
	unsigned long timeout;
	int i, started, ret, returns, expected, missed;

	kst_reset_counts();
	atomic_set(&kst_entered, 0);
	reinit_completion(&kst_release);
	kst_init_kprobe(&rp.kp, "kst_blocking", 0);
	ret = register_kretprobe(&rp);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);

	for (started = 0; started < KST_THREADS; started++) {
		threads[started] = kthread_run(kst_blocker, NULL, "kst_blocker/%d", started);
		if (IS_ERR(threads[started]))
			break;
		get_task_struct(threads[started]);
	}
	timeout = jiffies + 10 * HZ;
	while (atomic_read(&kst_entered) < started && time_before(jiffies, timeout))
		usleep_range(1000, 2000);
	complete_all(&kst_release);
	for (i = 0; i < started; i++) {
		kthread_stop(threads[i]);
		put_task_struct(threads[i]);
	}
	returns = atomic_read(&ret_hits);
	missed = rp.nmissed;
	unregister_kretprobe(&rp);

	if (started < KST_THREADS)
		return kst_fail("started %d of %d kthreads", started, KST_THREADS);
	if (atomic_read(&kst_entered) != KST_THREADS)
		return kst_fail("only %d of %d kthreads entered the target in 10 s",
				atomic_read(&kst_entered), KST_THREADS);
	expected = min(maxactive, KST_THREADS);
	if (returns != expected || missed != KST_THREADS - expected)
		return kst_fail("%d threads, maxactive %d: %d returns, %d missed (want %d, %d)",
				KST_THREADS, maxactive, returns, missed,
				expected, KST_THREADS - expected);
	return 0;
}

static int case_maxactive_exhausted(const char *arg)
{
	return kst_check_maxactive(3);
}

static int case_maxactive_enough(const char *arg)
{
	return kst_check_maxactive(KST_THREADS);
}

/* Recursion of depth KST_DEPTH with fewer instances than frames. */
static int case_maxactive_recursive(const char *arg)
{
	struct kretprobe rp = { .handler = kst_ret_handler, .maxactive = 3 };
	int ret, returns, missed;

	kst_reset_counts();
	kst_init_kprobe(&rp.kp, "kst_recursive", 0);
	ret = register_kretprobe(&rp);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	ret = kst_recursive_ptr(KST_DEPTH);
	returns = atomic_read(&ret_hits);
	missed = rp.nmissed;
	unregister_kretprobe(&rp);

	if (ret != KST_DEPTH)
		return kst_fail("kst_recursive(%d) returned %d", KST_DEPTH, ret);
	if (returns != 3 || missed != KST_DEPTH - 3)
		return kst_fail("depth %d, maxactive 3: %d returns, nmissed %d (expected 3, %d)",
				KST_DEPTH, returns, missed, KST_DEPTH - 3);
	return 0;
}

/*
 * Probes that stay registered between cases, for what user space checks
 * while they exist: [DISABLED] and [GONE] in kprobes/list, the global
 * enable knob.
 */
enum { KST_HELD_ENABLED, KST_HELD_DISABLED, KST_HELD_GONE, KST_NR_HELD };

static atomic_t kst_held_hits[KST_NR_HELD];

static int kst_held_pre_handler(struct kprobe *kp, struct pt_regs *regs);

static struct kprobe kst_held[KST_NR_HELD] = {
	[0 ... KST_NR_HELD - 1] = { .pre_handler = kst_held_pre_handler },
};

static bool kst_held_registered[KST_NR_HELD];

static int kst_held_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&kst_held_hits[kp - kst_held]);
	return 0;
}

static int kst_hold(int which, const char *symbol, u32 flags)
{
	int ret;

	if (kst_held_registered[which])
		return kst_fail("already held");
	atomic_set(&kst_held_hits[which], 0);
	kst_init_kprobe(&kst_held[which], symbol, 0);
	kst_held[which].flags = flags;
	ret = register_kprobe(&kst_held[which]);
	if (ret)
		return kst_fail("register_kprobe(%s) returned %d", symbol, ret);
	kst_held_registered[which] = true;
	return 0;
}

static int case_hold_kprobe(const char *arg)
{
	return kst_hold(KST_HELD_ENABLED, "kst_target", 0);
}

static int case_hold_kprobe_disabled(const char *arg)
{
	return kst_hold(KST_HELD_DISABLED, "kst_target", KPROBE_FLAG_DISABLED);
}

/* On kprobes_selftest_target.ko's function, which user space unloads. */
static int case_hold_kprobe_gone(const char *arg)
{
	return kst_hold(KST_HELD_GONE, "kst_gone_target", 0);
}

static int case_call_target(const char *arg)
{
	kst_target_ptr(0);
	return 0;
}

static int case_enable_gone(const char *arg)
{
	int ret;

	if (!kst_held_registered[KST_HELD_GONE])
		return kst_fail("hold_kprobe_gone first");
	ret = enable_kprobe(&kst_held[KST_HELD_GONE]);
	if (ret != -EINVAL)
		return kst_fail("enable_kprobe() on a [GONE] probe: %d, expected %d",
				ret, -EINVAL);
	if (atomic_read(&kst_held_hits[KST_HELD_GONE]))
		return kst_fail("the probe on the unloaded module fired");
	return 0;
}

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

/* The address of @symbol, from a disabled kprobe on its entry. */
static void *kst_symbol_addr(const char *symbol)
{
	struct kprobe kp = {
		.symbol_name = symbol,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ERR_PTR(ret);
	unregister_kprobe(&kp);
	return kp.addr;
}

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
static int case_hold_optprobe(const char *arg)
{
	void *func;
	int ret;

	if (!IS_ENABLED(CONFIG_OPTPROBES))
		return kst_skip("no CONFIG_OPTPROBES: kprobes are not optimized here");
	if (kst_opt_registered[KST_OPT_HELD])
		return kst_fail("already held");
	func = kst_symbol_addr("kst_gone_opt_target");
	if (IS_ERR(func))
		return kst_fail("kst_gone_opt_target: %ld; load %s first",
				PTR_ERR(func), "kprobes_selftest_target");
	ret = kst_inner_offset("kst_gone_opt_target", func);
	if (ret < 0)
		return kst_fail("no probe-able instruction in kst_gone_opt_target: %d", ret);
	kst_opt_offset = ret;
	ret = kst_opt_register(KST_OPT_HELD, 0, false);
	if (ret)
		return kst_fail("register_kprobe(kst_gone_opt_target+%d) returned %d",
				kst_opt_offset, ret);
	kst_opt_addr = kst_opt[KST_OPT_HELD].addr;
	if (!kst_wait_jump_optimized(&kst_opt[KST_OPT_HELD])) {
		kst_opt_unregister(KST_OPT_HELD);
		return kst_skip("kst_gone_opt_target+%d not optimized after 5 s", kst_opt_offset);
	}
	return 0;
}

/*
 * Unregistering the optimized probe leaves its aggregate probe unused and
 * queued for unoptimization; a disabled probe registered at once on the
 * same address takes it over. The aggregate probe must stay disabled and
 * get unoptimized, which user space checks in kprobes/list.
 */
static int case_optprobe_reuse_disabled(const char *arg)
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
 * Disabling the optimized probe queues its unoptimization; a probe with a
 * post_handler on the same address then unoptimizes it at once and queues
 * it for freeing; unregistering both leaves it unused there. User space
 * unloads the target module before the optimizer runs, loads it again and
 * runs optprobe_reregister.
 */
static int case_optprobe_force_release(const char *arg)
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
static int case_optprobe_reregister(const char *arg)
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

static void kst_release_held(void)
{
	int i;

	for (i = 0; i < KST_NR_HELD; i++) {
		if (kst_held_registered[i])
			unregister_kprobe(&kst_held[i]);
		kst_held_registered[i] = false;
	}
	for (i = 0; i < KST_NR_OPT; i++)
		kst_opt_unregister(i);
	kst_opt_addr = NULL;
}

static int case_release(const char *arg)
{
	kst_release_held();
	return 0;
}

static int kst_hits_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < KST_NR_HELD; i++)
		seq_printf(m, "%s%d", i ? " " : "", atomic_read(&kst_held_hits[i]));
	seq_putc(m, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kst_hits);

struct kst_case {
	const char *name;
	int (*run)(const char *arg);
	bool takes_arg;
};

#define KST_CASE(name) { #name, case_##name, false }
#define KST_CASE_ARG(name) { #name, case_##name, true }

static const struct kst_case kst_cases[] = {
	KST_CASE(kprobe_by_symbol),
	KST_CASE(kprobe_by_addr),
	KST_CASE(kprobe_symbol_offset),
	KST_CASE(kprobe_core_kernel),
	KST_CASE(kprobe_core_kernel_addr),
	KST_CASE(kprobe_core_kernel_offset),
	KST_CASE(kretprobe_by_symbol),
	KST_CASE(kretprobe_entry_data),
	KST_CASE(kretprobe_maxactive_default),
	KST_CASE(probes_same_addr),
	KST_CASE(err_symbol_and_addr),
	KST_CASE(err_unknown_symbol),
	KST_CASE(err_bad_offset),
	KST_CASE(err_kretprobe_offset),
	KST_CASE(err_kretprobe_data_size),
	KST_CASE(err_register_twice),
	KST_CASE(unregister_unregistered),
	KST_CASE(recursion_nmissed),
	KST_CASE(batch),
	KST_CASE(batch_rollback),
	KST_CASE(batch_num_invalid),
	KST_CASE(disable_enable),
	KST_CASE(register_disabled),
	KST_CASE(disable_one_of_two),
	KST_CASE(enable_unregistered),
	KST_CASE(blacklisted_module_function),
	KST_CASE_ARG(blacklisted_symbol),
	KST_CASE(maxactive_exhausted),
	KST_CASE(maxactive_enough),
	KST_CASE(maxactive_recursive),
	KST_CASE(hold_kprobe),
	KST_CASE(hold_kprobe_disabled),
	KST_CASE(hold_kprobe_gone),
	KST_CASE(call_target),
	KST_CASE(enable_gone),
	KST_CASE(hold_optprobe),
	KST_CASE(optprobe_reuse_disabled),
	KST_CASE(optprobe_force_release),
	KST_CASE(optprobe_reregister),
	KST_CASE(release),
};

static const struct kst_case *kst_last_case;
static int kst_last_ret;

static ssize_t kst_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	const struct kst_case *c = NULL;
	char input[KST_INPUT_MAX], *name, *arg;
	int i, ret;

	if (count >= sizeof(input))
		return -EINVAL;
	if (copy_from_user(input, ubuf, count))
		return -EFAULT;
	input[count] = '\0';
	arg = strim(input);
	name = strsep(&arg, " ");
	if (arg)
		arg = skip_spaces(arg);

	for (i = 0; i < ARRAY_SIZE(kst_cases); i++)
		if (!strcmp(name, kst_cases[i].name))
			c = &kst_cases[i];
	if (!c || !arg != !c->takes_arg)
		return -EINVAL;

	if (mutex_lock_interruptible(&kst_lock))
		return -EINTR;
	kst_diag[0] = '\0';
	/* Names the case on the console, should the kernel die in it. */
	pr_notice("case %s\n", c->name);
	ret = c->run(arg);
	if (ret == -EINVAL && !kst_diag[0]) {
		/* a missing or bad argument: no outcome to report */
		mutex_unlock(&kst_lock);
		return -EINVAL;
	}
	kst_last_ret = ret;
	kst_last_case = c;
	if (ret && ret != -EOPNOTSUPP && !kst_diag[0])
		kst_fail("case returned %d", ret);
	mutex_unlock(&kst_lock);
	return count;
}

static const struct file_operations kst_run_fops = {
	.owner = THIS_MODULE,
	.write = kst_run_write,
	.llseek = noop_llseek,
};

static int kst_result_show(struct seq_file *m, void *v)
{
	mutex_lock(&kst_lock);
	if (!kst_last_case)
		seq_puts(m, "none\n");
	else if (!kst_last_ret)
		seq_printf(m, "%s pass\n", kst_last_case->name);
	else
		seq_printf(m, "%s %s: %s\n", kst_last_case->name,
			   kst_last_ret == -EOPNOTSUPP ? "skip" : "fail",
			   kst_diag);
	mutex_unlock(&kst_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kst_result);

static int kst_cases_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(kst_cases); i++)
		seq_printf(m, "%s\n", kst_cases[i].name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kst_cases);

static int __init kst_init(void)
{
	static long (* const batch[KST_BATCH])(long value) = {
		kst_batch0, kst_batch1, kst_batch2, kst_batch3,
		kst_batch4, kst_batch5, kst_batch6, kst_batch7,
	};

	kst_target_ptr = kst_target;
	kst_target2_ptr = kst_target2;
	kst_offset_target_ptr = kst_offset_target;
	memcpy(kst_batch_ptrs, batch, sizeof(batch));
	kst_recursive_ptr = kst_recursive;
	kst_blocking_ptr = kst_blocking;
	kst_neighbour_ptr = kst_neighbour;

	kst_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(kst_dir))
		return PTR_ERR(kst_dir);
	debugfs_create_file("run", 0200, kst_dir, NULL, &kst_run_fops);
	debugfs_create_file("result", 0400, kst_dir, NULL, &kst_result_fops);
	debugfs_create_file("cases", 0400, kst_dir, NULL, &kst_cases_fops);
	debugfs_create_file("hits", 0400, kst_dir, NULL, &kst_hits_fops);
	return 0;
}
module_init(kst_init);

static void __exit kst_exit(void)
{
	debugfs_remove_recursive(kst_dir);
	kst_release_held();
}
module_exit(kst_exit);

MODULE_DESCRIPTION("Test module for the kprobes kselftests");
MODULE_LICENSE("GPL");
