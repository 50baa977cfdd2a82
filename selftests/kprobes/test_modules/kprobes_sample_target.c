// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes_sample_target.c - functions for the kprobes samples to probe
 *
 * Each target returns what user space asks for, so that the samples'
 * counts can be checked exactly:
 *
 *   echo "int -2" > /sys/kernel/debug/kprobes_sample_target/call
 *
 * calls kst_sample_int(-2) once. The targets:
 *
 *   int N [TIMES]
 *               kst_sample_int() returns N, an int; called TIMES times
 *               in a row (at most 100000, default once): a load for
 *               readers of the samples' counts to race with
 *   long N      kst_sample_long() returns N, a long
 *   errptr N    kst_sample_errptr() returns ERR_PTR(N) for N < 0, else a
 *               valid pointer
 *   ptr N       kst_sample_ptr() returns NULL for N == 0, else a pointer
 *   bool N      kst_sample_bool() returns N != 0, a bool
 *   void N      kst_sample_void() returns nothing, N in its return register
 *   args N      kst_sample_args() is called with N, N + 1, ... N + 7
 *   sleep MS    kst_sample_sleep() sleeps MS (at most 2000) ms, returns 0
 *   recurse N   kst_sample_recurse() calls itself until N (at most 16)
 *               calls are in flight, returns N
 *   nested N    calls kst_sample_int(N) from a kprobe's handler
 *   kmalloc N   kmalloc(N) (which fails above KMALLOC_MAX_SIZE), kfree()
 *   kmalloc_const N   kmalloc() of a constant size: 3001 bytes (N == 0)
 *               or 100003 (N == 1), for the kmalloc family's other entries
 *
 * Anything else, or a number out of range, fails with -EINVAL.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kprobes_selftest.h"
#include "kst_command.h"

#define KST_SLEEP_MAX_MS	2000
#define KST_RECURSE_MAX		16
#define KST_TIMES_MAX		100000

static int kst_sample_object;
/* Zero, but not to the compiler. */
static int kst_sample_zero;

/*
 * The int is computed, as in "return -ENOENT;": a 32-bit operation, which
 * clears the upper half of the return register on x86_64 and arm64,
 * whatever the caller left there.
 */
static noinline int kst_sample_int(int value)
{
	return value ^ READ_ONCE(kst_sample_zero);
}

static noinline long kst_sample_long(long value)
{
	return value;
}

static noinline void *kst_sample_errptr(long value)
{
	return value < 0 ? ERR_PTR(value) : &kst_sample_object;
}

static noinline void *kst_sample_ptr(long value)
{
	return value ? &kst_sample_object : NULL;
}

static noinline bool kst_sample_bool(long value)
{
	return value;
}

/* Not probed by the cases: unlike kst_sample_long(), so not merged with it. */
static noinline long kst_sample_echo(long value)
{
	return value + READ_ONCE(kst_sample_zero);
}

/*
 * Returns with N in the return register, as a long returning N would:
 * a sample that reads it as a failure counts the call failed.
 */
static noinline void kst_sample_void(long value)
{
	kst_call(kst_sample_echo, value);
}

/*
 * Eight arguments: x86_64, i386, ARM and s390 pass some on the stack;
 * arm64, RISC-V, powerpc and 64-bit MIPS all eight in registers.
 */
static noinline long kst_sample_args(long a, long b, long c, long d,
				     long e, long f, long g, long h)
{
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ READ_ONCE(kst_sample_zero);
}

static noinline int kst_sample_sleep(long ms)
{
	msleep(ms);
	return 0;
}

static noinline int kst_sample_recurse(int depth)
{
	if (depth <= 1)
		return 1;
	return kst_call(kst_sample_recurse, depth - 1) + 1;
}

/* The kprobe from whose handler "nested" calls kst_sample_int(). */
static noinline int kst_sample_outer(int value)
{
	return value + 1;
}

static long kst_nested_value;

static int kst_nested_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	kst_call(kst_sample_int, kst_nested_value);
	return 0;
}

static int kst_call_nested(long value)
{
	struct kprobe outer = {
		.symbol_name = "kst_sample_outer",
		.pre_handler = kst_nested_pre_handler,
	};
	int ret;

	if (value != (int)value)
		return -EINVAL;
	kst_nested_value = value;
	ret = register_kprobe(&outer);
	if (ret)
		return ret;
	kst_call(kst_sample_outer, 0);
	unregister_kprobe(&outer);
	return 0;
}

static int kst_call_kmalloc(long size)
{
	void *p;

	if (size < 0)
		return -EINVAL;
	/* Not a constant size: the call goes to the kmalloc family itself. */
	p = kmalloc(size, GFP_KERNEL | __GFP_NOWARN);
	kfree(p);
	return 0;
}

/* Constant sizes, which kmalloc() sends to other functions than __kmalloc. */
static int kst_call_kmalloc_const(long which)
{
	void *p;

	if (which == 0)
		p = kmalloc(3001, GFP_KERNEL);
	else if (which == 1)
		p = kmalloc(100003, GFP_KERNEL);
	else
		return -EINVAL;
	kfree(p);
	return 0;
}

static int kst_call_target(const char *target, long value)
{
	if (!strcmp(target, "int")) {
		if (value != (int)value)
			return -EINVAL;
		kst_call(kst_sample_int, value);
	} else if (!strcmp(target, "long")) {
		kst_call(kst_sample_long, value);
	} else if (!strcmp(target, "errptr")) {
		if (value < -MAX_ERRNO)
			return -EINVAL;
		kst_call(kst_sample_errptr, value);
	} else if (!strcmp(target, "ptr")) {
		kst_call(kst_sample_ptr, value);
	} else if (!strcmp(target, "bool")) {
		kst_call(kst_sample_bool, value);
	} else if (!strcmp(target, "void")) {
		kst_call(kst_sample_void, value);
	} else if (!strcmp(target, "args")) {
		kst_call(kst_sample_args, value, value + 1, value + 2, value + 3,
			 value + 4, value + 5, value + 6, value + 7);
	} else if (!strcmp(target, "sleep")) {
		if (value < 0 || value > KST_SLEEP_MAX_MS)
			return -EINVAL;
		kst_call(kst_sample_sleep, value);
	} else if (!strcmp(target, "recurse")) {
		if (value < 1 || value > KST_RECURSE_MAX)
			return -EINVAL;
		kst_call(kst_sample_recurse, value);
	} else if (!strcmp(target, "nested")) {
		return kst_call_nested(value);
	} else if (!strcmp(target, "kmalloc")) {
		return kst_call_kmalloc(value);
	} else if (!strcmp(target, "kmalloc_const")) {
		return kst_call_kmalloc_const(value);
	} else {
		return -EINVAL;
	}
	return 0;
}

/* Calls @target @times times, or until the caller is killed. */
static int kst_call_target_times(const char *target, long value,
				 unsigned int times)
{
	unsigned int i;
	int ret;

	for (i = 0; i < times; i++) {
		ret = kst_call_target(target, value);
		if (ret)
			return ret;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

static ssize_t kst_call_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char input[64], *target, *arg, *times_arg;
	unsigned int times;
	long value;
	int ret;

	target = kst_command(input, sizeof(input), ubuf, count, &arg);
	if (IS_ERR(target))
		return PTR_ERR(target);
	if (!arg)
		return -EINVAL;
	times_arg = strchr(arg, ' ');
	if (times_arg)
		*times_arg++ = '\0';
	if (kstrtol(arg, 0, &value))
		return -EINVAL;
	times = 1;
	/* "int" is the only target cheap enough to call in a loop. */
	if (times_arg &&
	    (strcmp(target, "int") ||
	     kstrtouint(skip_spaces(times_arg), 0, &times) ||
	     !times || times > KST_TIMES_MAX))
		return -EINVAL;
	ret = kst_call_target_times(target, value, times);
	return ret ?: count;
}

static const struct file_operations kst_call_fops = {
	.owner = THIS_MODULE,
	.write = kst_call_write,
	.llseek = noop_llseek,
};

static struct dentry *kst_dir;

static int __init kst_sample_target_init(void)
{
	kst_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("call", 0200, kst_dir, NULL, &kst_call_fops);
	return 0;
}
module_init(kst_sample_target_init);

static void __exit kst_sample_target_exit(void)
{
	debugfs_remove_recursive(kst_dir);
}
module_exit(kst_sample_target_exit);

MODULE_DESCRIPTION("Probe targets with chosen return values for the kprobes samples' tests");
MODULE_LICENSE("GPL");
