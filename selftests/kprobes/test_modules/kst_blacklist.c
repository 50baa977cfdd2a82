// SPDX-License-Identifier: GPL-2.0
/*
 * kst_blacklist.c - steps that check the blacklist: the module's own
 * NOKPROBE_SYMBOL() and noinstr functions and a part split off the first,
 * and core-kernel entries named by user space
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>

#include "kprobes_selftest.h"

/*
 * Must never be probed: the blacklist cases check that it cannot be.
 * NOKPROBE_SYMBOL() keeps it although nothing calls it.
 */
static noinline int kst_blacklisted(int value)
{
	return value * 2;
}

NOKPROBE_SYMBOL(kst_blacklisted);

/*
 * Code in .noinstr.text runs where a probe must not fire: kprobes
 * blacklist a module's section as it comes. Nothing calls it.
 */
static noinstr __used int kst_noinstr(int value)
{
	return value * 13;
}

static noinline int kst_neighbour(int value)
{
	return value * 3;
}

/*
 * A part GCC splits off a function (.cold, .part.0), like a clone it
 * makes of one (.isra.0, .constprop.0), is a symbol of its own, outside
 * the function's blacklist entry: within_kprobe_blacklist() refuses it
 * by the name before the '.', while that name is in kallsyms. Named so
 * by hand here, where the compiler need not split.
 */
static int kst_blacklisted_part(int value) __asm__("kst_blacklisted.part.0");
static int kst_neighbour_part(int value) __asm__("kst_neighbour.part.0");
static int kst_orphan_part(int value) __asm__("kst_orphan.part.0");

static noinline __used int kst_blacklisted_part(int value)
{
	return value * 5;
}

static noinline int kst_neighbour_part(int value)
{
	return value * 7;
}

/*
 * No kst_orphan(): the name before the '.' is no symbol, and nothing
 * refuses the part. kprobes.rst does not say so; the case pins what
 * within_kprobe_blacklist() does.
 */
static noinline int kst_orphan_part(int value)
{
	return value * 11;
}

/*
 * A kprobe and a kretprobe on @symbol are both refused with -EINVAL; a
 * symbol that does not exist is a bad argument if user space named it
 * (@named), else a failure. Registered disabled: a kernel that wrongly
 * accepts them must fail the case, not die at their first hit (a kprobe
 * on arm's do_undefinstr() recurses).
 */
static int kst_refused(const char *symbol, bool named)
{
	struct kprobe kp = { .pre_handler = kst_pre_handler };
	struct kretprobe rp = { .handler = kst_ret_handler };
	int k_ret, r_ret;

	kst_init_kprobe(&kp, symbol, 0);
	kst_init_kprobe(&rp.kp, symbol, 0);
	kp.flags = KPROBE_FLAG_DISABLED;
	rp.kp.flags = KPROBE_FLAG_DISABLED;
	k_ret = register_kprobe(&kp);
	if (!k_ret)
		unregister_kprobe(&kp);
	r_ret = register_kretprobe(&rp);
	if (!r_ret)
		unregister_kretprobe(&rp);
	if (named && k_ret == -ENOENT && r_ret == -ENOENT)
		return -EINVAL;
	if (k_ret != -EINVAL || r_ret != -EINVAL)
		return kst_fail("%s: kprobe %d, kretprobe %d, expected %d",
				symbol, k_ret, r_ret, -EINVAL);
	return 0;
}

/* A kprobe on @symbol is accepted, and fires once when @fn is called. */
static int kst_accepted(const char *symbol, int (*fn)(int value))
{
	struct kprobe kp = { .pre_handler = kst_pre_handler };
	int ret, hits;

	kst_reset_counts();
	kst_init_kprobe(&kp, symbol, 0);
	ret = register_kprobe(&kp);
	kst_call(fn, 1);
	hits = atomic_read(&pre_hits);
	if (!ret)
		unregister_kprobe(&kp);
	if (ret || hits != 1)
		return kst_fail("%s: register %d, %d hits (expected 0, 1)", symbol, ret, hits);
	return 0;
}

/*
 * The module's NOKPROBE_SYMBOL and noinstr functions are refused, the
 * neighbour of the first is not.
 */
int step_blacklisted_module_function(const char *arg)
{
	return kst_refused("kst_blacklisted", false) ?:
	       kst_refused("kst_noinstr", false) ?:
	       kst_accepted("kst_neighbour", kst_neighbour);
}

/*
 * The suffixed part of a blacklisted function is refused; that of a
 * function not blacklisted, or of a name that is no symbol, is probed,
 * and fires.
 */
int step_blacklisted_suffixed_part(const char *arg)
{
	return kst_refused("kst_blacklisted.part.0", false) ?:
	       kst_accepted("kst_neighbour.part.0", kst_neighbour_part) ?:
	       kst_accepted("kst_orphan.part.0", kst_orphan_part);
}

/* A blacklisted core-kernel function, named by user space. */
int step_blacklisted_symbol(const char *symbol)
{
	if (!symbol || !*symbol)
		return -EINVAL;
	return kst_refused(symbol, true);
}
