// SPDX-License-Identifier: GPL-2.0
/*
 * kst_reserved.c - code the kernel rewrites or traps on by itself, which
 * kprobes must refuse to put a breakpoint on: a BUG()/WARN() trap (its
 * handler looks the trap up by address) and a static branch (jump label
 * patching would overwrite the breakpoint, or the breakpoint the branch);
 * and a user access, whose fault the kernel fixes up by address, also in
 * the delay slot of a probed branch on MIPS
 */
#include <linux/bug.h>
#include <linux/extable.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

/*
 * register_kprobe() at @addr fails with -EINVAL; @what says what it is.
 * Disabled, so that a probe wrongly taken is never armed: a breakpoint
 * there would take the guest down before the case could say why.
 */
static int kst_check_refused(unsigned long addr, const char *what)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)addr,
		.pre_handler = kst_pre_handler,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret;

	ret = kst_try_kprobe(&kp);
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

/*
 * A user access of this module, with its entry in the module's exception
 * table: unsafe_get_user() is inline where get_user() may be a call.
 */
static noinline int kst_reads_user(const int __user *uptr)
{
	int val;

	if (!user_access_begin(uptr, sizeof(*uptr)))
		return -EFAULT;
	unsafe_get_user(val, uptr, efault);
	user_access_end();
	return val;
efault:
	user_access_end();
	return -EFAULT;
}

static unsigned long kst_extable_insn(const struct exception_table_entry *ex)
{
#ifdef ARCH_HAS_RELATIVE_EXTABLE
	return (unsigned long)&ex->insn + ex->insn;
#else
	return ex->insn;
#endif
}

/* The first instruction of @func the exception table lists. */
static unsigned long kst_user_access_addr(const void *func)
{
	const struct exception_table_entry *ex = THIS_MODULE->extable;
	int size = kst_func_size(func);
	unsigned int i;

	for (i = 0; size > 0 && i < THIS_MODULE->num_exentries; i++, ex++)
		if (kst_extable_insn(ex) - (unsigned long)func < (unsigned long)size)
			return kst_extable_insn(ex);
	return 0;
}

int case_extable_site(void)
{
	unsigned long addr = kst_user_access_addr(kst_reads_user);
	struct kprobe kp = { .pre_handler = kst_pre_handler };
	int ret, hits;

	if (!addr)
		return kst_skip("the module's exception table has no user access: a call here");
	if (KST_EXTABLE_REFUSED)
		return kst_check_refused(addr, "a user access");

	kst_reset_counts();
	kp.addr = (kprobe_opcode_t *)addr;
	ret = register_kprobe(&kp);
	if (ret)
		return kst_fail("register_kprobe() on a user access at %pS: %d",
				(void *)addr, ret);
	/* Nothing is mapped at NULL: the read faults, and is fixed up. */
	ret = kst_call(kst_reads_user, NULL);
	hits = atomic_read(&pre_hits);
	unregister_kprobe(&kp);
	if (ret != -EFAULT)
		return kst_fail("a faulting user read probed at %pS returned %d, expected %d",
				(void *)addr, ret, -EFAULT);
	if (hits != 1)
		return kst_fail("the kprobe at %pS ran %d times, expected 1",
				(void *)addr, hits);
	return 0;
}

#ifdef CONFIG_MIPS
/*
 * A user read in the delay slot of a branch, with its exception table
 * entry. A kprobe on the branch runs the delay slot out of line; a fault
 * there must reach the fixup as the CPU reports a delay slot's: at the
 * branch, with Cause.BD set.
 */
static noinline long kst_reads_user_in_delay_slot(const int __user *uptr)
{
	long val;

	asm volatile(".set	push\n"
		     ".set	noreorder\n"
		     "	b	2f\n"
		     "1:	lw	%0, 0(%1)\n"
		     "2:\n"
		     ".set	pop\n"
		     ".section .fixup, \"ax\"\n"
		     "3:	li	%0, %2\n"
		     "	j	2b\n"
		     ".previous\n"
		     ".section __ex_table, \"a\"\n"
		     __UA_ADDR "\t1b, 3b\n"
		     ".previous\n"
		     : "=&r" (val)
		     : "r" (uptr), "i" (-EFAULT));
	return val;
}

int case_extable_delay_slot(void)
{
	unsigned long slot = kst_user_access_addr(kst_reads_user_in_delay_slot);
	struct kprobe kp = { .pre_handler = kst_pre_handler };
	long ret;
	int hits;

	if (!slot)
		return kst_fail("no exception table entry in kst_reads_user_in_delay_slot()");
	kst_reset_counts();
	/* The branch, whose delay slot holds the read. */
	kp.addr = (kprobe_opcode_t *)(slot - 4);
	ret = register_kprobe(&kp);
	if (ret)
		return kst_fail("register_kprobe() on a branch at %pS: %ld", kp.addr, ret);
	/* Nothing is mapped at NULL: the read faults, and is fixed up. */
	ret = kst_call(kst_reads_user_in_delay_slot, NULL);
	hits = atomic_read(&pre_hits);
	unregister_kprobe(&kp);
	if (ret != -EFAULT)
		return kst_fail("a faulting read in the delay slot of %pS: %ld, expected %d",
				kp.addr, ret, -EFAULT);
	if (hits != 1)
		return kst_fail("the kprobe at %pS ran %d times, expected 1", kp.addr, hits);
	return 0;
}
#else
int case_extable_delay_slot(void)
{
	return kst_skip("no branch delay slots on this architecture");
}
#endif
