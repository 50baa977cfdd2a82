// SPDX-License-Identifier: GPL-2.0
/*
 * kst_reserved.c - code the kernel rewrites or traps on by itself, which
 * kprobes must refuse to put a breakpoint on: a BUG()/WARN() trap (its
 * handler looks the trap up by address) and a static branch (jump label
 * patching would overwrite the breakpoint, or the breakpoint the branch)
 */
#include <linux/bug.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>

#include "kprobes_selftest.h"

/* register_kprobe() at @addr fails with -EINVAL; @what says what it is. */
static int kst_check_refused(unsigned long addr, const char *what)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)addr,
		.pre_handler = kst_pre_handler,
	};
	int ret;

	ret = register_kprobe(&kp);
	if (!ret)
		unregister_kprobe(&kp);
	if (ret != -EINVAL)
		return kst_fail("register_kprobe() on %s at %pS: %d, expected %d",
				what, (void *)addr, ret, -EINVAL);
	return 0;
}

#ifdef CONFIG_GENERIC_BUG
/* A WARN() trap of this module, at an address its bug table records. */
static noinline long kst_warns(long value)
{
	WARN_ON_ONCE(value < 0);
	return value + 1;
}

static unsigned long kst_bug_addr(const struct bug_entry *bug)
{
#ifdef CONFIG_GENERIC_BUG_RELATIVE_POINTERS
	return (unsigned long)&bug->bug_addr_disp + bug->bug_addr_disp;
#else
	return bug->bug_addr;
#endif
}

int case_err_bug_site(void)
{
	const struct bug_entry *bug = THIS_MODULE->bug_table;
	unsigned int i;

	if (kst_call(kst_warns, 1) != 2)
		return kst_fail("kst_warns() returned a wrong value");
	for (i = 0; i < THIS_MODULE->num_bugs; i++, bug++)
		if (within_module_core(kst_bug_addr(bug), THIS_MODULE))
			return kst_check_refused(kst_bug_addr(bug), "a WARN() trap");
	/* arm: WARN() is a call, and BUG() has an entry only with BUGVERBOSE. */
	if (!THIS_MODULE->num_bugs)
		return kst_skip("the module's bug table is empty: no trap to probe here");
	return kst_fail("no WARN() trap in the module's bug table (%u entries)",
			THIS_MODULE->num_bugs);
}
#else
int case_err_bug_site(void)
{
	return kst_skip("no CONFIG_GENERIC_BUG: no bug table to find a trap in");
}
#endif

#ifdef CONFIG_JUMP_LABEL
static DEFINE_STATIC_KEY_FALSE(kst_key);

/* A static branch of this module, in its jump table. */
static noinline long kst_branches(long value)
{
	if (static_branch_unlikely(&kst_key))
		return value + 2;
	return value + 1;
}

int case_err_jump_label_site(void)
{
	const struct jump_entry *entry = THIS_MODULE->jump_entries;
	unsigned int i;

	if (kst_call(kst_branches, 1) != 2)
		return kst_fail("a disabled static branch was taken");
	for (i = 0; i < THIS_MODULE->num_jump_entries; i++, entry++)
		if (jump_entry_key(entry) == &kst_key.key)
			return kst_check_refused(jump_entry_code(entry),
						 "a static branch");
	return kst_fail("kst_key has no entry in the module's jump table");
}
#else
int case_err_jump_label_site(void)
{
	return kst_skip("no CONFIG_JUMP_LABEL: static branches are plain tests");
}
#endif
