// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes_selftest_target.c - a module to unload from under a kprobe
 *
 * The kprobes selftests register a kprobe on kst_gone_target() and then
 * unload this module: the probe must show as [GONE] in
 * /sys/kernel/debug/kprobes/list, never fire, refuse enable_kprobe() and
 * unregister cleanly. kst_gone_opt_target() is long enough after its entry
 * for the jump of an optimized kprobe. A probe on kst_target_init(), which
 * is freed once the module is live, must be [GONE] from then on.
 */
#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/module.h>

static noinline int kst_gone_target(int value)
{
	return value + 1;
}

/*
 * x86 copies the instructions an optimized kprobe's jump replaces only if
 * it can boost them: "+ 7" is an add, where "+ 1" would be an inc, which
 * kernels before 6.9 do not boost (and so never optimize the probe).
 */
static noinline long kst_gone_opt_target(long value)
{
	return value * 3 + 7;
}

/*
 * In .kprobes.text, the module's own area of the blacklist: while the
 * module is loaded each of them is on kprobes/blacklist, and none of
 * the module's entries stays there once it is gone. They use a global,
 * so that on ppc64le the area starts with the TOC offset word of the
 * first one rather than with a symbol.
 */
static int kst_gone_calls;

static noinline int __kprobes kst_gone_kprobes_text(int value)
{
	return value + 2 + kst_gone_calls++;
}

static noinline int __kprobes kst_gone_kprobes_text2(int value)
{
	return value + 3 + kst_gone_calls++;
}

/*
 * On the blacklist by NOKPROBE_SYMBOL(), which is removed by address when
 * the module goes: on Thumb-2 an entry starts one byte before that.
 */
static noinline int kst_gone_nokprobe(int value)
{
	return value + 4;
}
NOKPROBE_SYMBOL(kst_gone_nokprobe);

/* Called through pointers, so that they stay functions of their own. */
static int (*kst_gone_ptr)(int value) = kst_gone_target;
static long (*kst_gone_opt_ptr)(long value) = kst_gone_opt_target;
static int (*kst_gone_kprobes_text_ptr)(int value) = kst_gone_kprobes_text;
static int (*kst_gone_kprobes_text2_ptr)(int value) = kst_gone_kprobes_text2;
static int (*kst_gone_nokprobe_ptr)(int value) = kst_gone_nokprobe;

/* A probe on it, registered as the module comes, is gone once it is live. */
static int __init kst_target_init(void)
{
	return kst_gone_ptr(-1) + kst_gone_opt_ptr(0) - 7 +
	       kst_gone_kprobes_text_ptr(-2) + kst_gone_kprobes_text2_ptr(-4) +
	       kst_gone_nokprobe_ptr(-4);
}
module_init(kst_target_init);

static void __exit kst_gone_exit(void)
{
}
module_exit(kst_gone_exit);

MODULE_DESCRIPTION("Probe target that the kprobes kselftests unload");
MODULE_LICENSE("GPL");
