// SPDX-License-Identifier: GPL-2.0
/*
 * kst_offset.c - probes off the entry of a function: kprobes at
 * symbol+offset (on a function of the module and on a core-kernel
 * function), an offset inside an instruction, a kretprobe off the entry,
 * a kprobe after another in one function, a fault in a handler; and a
 * pre_handler that sends execution to another address
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kstrtox.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

/* A body of a few instructions, for probes inside a function. */
static noinline long kst_offset_target(long value)
{
	return value * 7 + 3;
}

int case_kprobe_symbol_offset(void)
{
	int offset = kst_inner_offset("kst_offset_target", kst_offset_target);

	if (offset < 0)
		return kst_fail("no probe-able instruction in kst_offset_target: %d",
				offset);
	return kst_check_kprobe_at("kst_offset_target", NULL, offset,
				   kst_offset_target);
}

int case_kprobe_core_kernel_offset(void)
{
	int offset = kst_inner_offset("kstrtoull", kstrtoull);

	if (offset < 0)
		return kst_fail("no probe-able instruction in kstrtoull: %d", offset);
	return kst_check_core_kprobe("kstrtoull", NULL, offset);
}

static int kst_check_bad_offset(int offset, int expected)
{
	int ret;

	kst_init_kprobe(&kst_kprobe, "kst_target", offset);
	ret = kst_try_kprobe(&kst_kprobe);
	if (ret != expected)
		return kst_fail("kst_target+%d: %d, expected %d", offset, ret, expected);
	return 0;
}

/*
 * Where lengths vary in aligned steps, an aligned address inside the
 * first instruction of kst_target that is longer than one step.
 */
static int kst_check_inside_insn(void)
{
	int size = kst_func_size(kst_target);
	int offset;

	if (!KST_INSIDE_ERR)
		return 0;
	if (size < 0)
		return kst_fail("no size for kst_target: %d", size);
	for (offset = 0; offset < size; offset = kst_next_insn(kst_target, offset))
		if (kst_next_insn(kst_target, offset) - offset > KST_INSN_ALIGN)
			return kst_check_bad_offset(offset + KST_INSN_ALIGN, KST_INSIDE_ERR);
	return kst_fail("no instruction longer than %d bytes in kst_target", KST_INSN_ALIGN);
}

/* Addresses that are not an instruction boundary, and their documented error. */
int case_err_bad_offset(void)
{
	int offset, ret;

	if (!KST_MISALIGNED_LAST)
		return kst_skip("no misaligned probe address on this architecture");
	for (offset = 1; offset <= KST_MISALIGNED_LAST; offset++) {
		ret = kst_check_bad_offset(offset, KST_MISALIGNED_ERR);
		if (ret)
			return ret;
	}
	return kst_check_inside_insn();
}

/*
 * Past what the kernel counts as the function's entry: ppc64le counts
 * the instructions up to its ftrace call site (6.12 with
 * KPROBES_ON_FTRACE, the first 16 bytes).
 */
static bool kst_past_entry(const struct kprobe *kp)
{
	return !(kp->flags & KPROBE_FLAG_ON_FUNC_ENTRY);
}

/*
 * Longer than its entry: on ppc64le a global adds the two instructions
 * of the global entry point, and the load and store come after the
 * ftrace call.
 */
static long kst_kretprobe_offset_calls;

static noinline long kst_kretprobe_offset_target(long value)
{
	return value * 7 + kst_kretprobe_offset_calls++;
}

int case_err_kretprobe_offset(void)
{
	int offset = kst_find_offset("kst_kretprobe_offset_target",
				     kst_kretprobe_offset_target, kst_past_entry);
	int ret;

	if (offset < 0)
		return kst_fail("no instruction past kst_kretprobe_offset_target's entry: %d",
				offset);
	kst_init_kprobe(&kst_kretprobe.kp, "kst_kretprobe_offset_target", offset);
	ret = kst_try_kretprobe(&kst_kretprobe);
	if (ret != -EINVAL)
		return kst_fail("kretprobe at kst_kretprobe_offset_target+%d: %d, expected %d",
				offset, ret, -EINVAL);
	return 0;
}

/*
 * A kprobe at @symbol+@next, registered while one at @symbol+@offset,
 * the instruction before, is armed; @func is the function at @symbol.
 */
static int kst_check_after_probe(const char *symbol, long (*func)(long value),
				 int offset, int next)
{
	struct kprobe *probes[] = { &kst_kprobe, &kst_kprobe2 };
	long expected, value;
	int calls, ret;

	expected = kst_call(func, 5);
	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, symbol, offset);
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe(%s+%d) returned %d", symbol, offset, ret);
	kst_init_kprobe(&kst_kprobe2, symbol, next);
	ret = register_kprobe(&kst_kprobe2);
	if (ret) {
		unregister_kprobe(&kst_kprobe);
		return kst_fail("%s+%d, after +%d: register_kprobe() returned %d",
				symbol, next, offset, ret);
	}
	calls = kst_call_values(func);
	value = kst_call(func, 5);
	unregister_kprobes(probes, ARRAY_SIZE(probes));

	if (value != expected)
		return kst_fail("+%d and +%d probed: %s(5) returned %ld, not %ld",
				offset, next, symbol, value, expected);
	if (atomic_read(&pre_hits) != 2 * (calls + 1))
		return kst_fail("%d calls, probes at %s+%d and +%d: pre_handlers ran %d times",
				calls + 1, symbol, offset, next, atomic_read(&pre_hits));
	return 0;
}

#ifdef KST_AFTER_PROBE
/* A C function to call it through: C gives the one of assembly no type. */
static noinline long kst_after_probe_call(long value)
{
	return kst_after_probe_target(value);
}
#endif

/*
 * A kprobe on the instruction after another kprobe's, registered while
 * that one is armed. Where the kernel finds instruction boundaries by
 * decoding the function from its start (x86, s390), it must decode the
 * first probe's instruction from the opcode it saved, not from the
 * breakpoint written over it. The offsets are found before either probe
 * is armed, for the same reason.
 */
int case_kprobe_after_probe(void)
{
	int next, offset, ret;

	offset = kst_inner_offset("kst_offset_target", kst_offset_target);
	if (offset < 0)
		return kst_fail("no probe-able instruction in kst_offset_target: %d", offset);
	next = kst_find_offset_after("kst_offset_target", kst_offset_target, offset, NULL);
	if (next < 0)
		return kst_fail("no probe-able instruction after kst_offset_target+%d: %d",
				offset, next);
	ret = kst_check_after_probe("kst_offset_target", kst_offset_target, offset, next);
#ifdef KST_AFTER_PROBE
	ret = ret ?: kst_check_after_probe("kst_after_probe_target", kst_after_probe_call,
					   kst_after_probe_offsets[0],
					   kst_after_probe_offsets[1]);
#endif
	return ret;
}

static void *kst_unmapped;
static long kst_fault_ret;

static int kst_faulting_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	long value;

	kst_fault_ret = copy_from_kernel_nofault(&value, kst_unmapped, sizeof(value));
	atomic_inc(&pre_hits);
	return 0;
}

/*
 * A fault in a pre_handler, fixed up by its exception table entry: while
 * a kprobe runs, the kernel's fault handler asks kprobes first
 * (kprobe_fault_handler()), and the probe must go on. The read is of the
 * guard page after a vmalloc() area, which nothing maps.
 */
int case_handler_fault_fixed_up(void)
{
	struct kprobe kp = {
		.symbol_name = "kst_offset_target",
		.pre_handler = kst_faulting_pre_handler,
		.post_handler = kst_post_handler,
	};
	long expected, value;
	void *area;
	int ret;

	ret = kst_inner_offset("kst_offset_target", kst_offset_target);
	if (ret < 0)
		return kst_fail("no probe-able instruction in kst_offset_target: %d", ret);
	kp.offset = ret;
	expected = kst_call(kst_offset_target, 5);
	area = vmalloc(PAGE_SIZE);
	if (!area)
		return kst_fail("vmalloc(%lu) failed", PAGE_SIZE);
	kst_unmapped = area + PAGE_SIZE;
	kst_fault_ret = 0;
	kst_reset_counts();
	ret = register_kprobe(&kp);
	if (ret) {
		vfree(area);
		return kst_fail("register_kprobe(kst_offset_target+%u) returned %d",
				kp.offset, ret);
	}
	value = kst_call(kst_offset_target, 5);
	unregister_kprobe(&kp);
	vfree(area);

	if (atomic_read(&pre_hits) != 1 || atomic_read(&post_hits) != 1)
		return kst_fail("pre_handler ran %d times, post_handler %d times, expected 1",
				atomic_read(&pre_hits), atomic_read(&post_hits));
	if (kst_fault_ret != -EFAULT)
		return kst_fail("a faulting read in a pre_handler returned %ld, expected %d",
				kst_fault_ret, -EFAULT);
	if (value != expected)
		return kst_fail("kst_offset_target(5) returned %ld past the fault, expected %ld",
				value, expected);
	return 0;
}

#define KST_REDIRECTED	1000

/* x86 probes kst_target's entry through ftrace, this one's with int3. */
static noinline notrace long kst_redirect_target_notrace(long value)
{
	return value;
}

static noinline long kst_redirect_replacement(long value)
{
	return value + KST_REDIRECTED;
}

/*
 * "Changing Execution Path" in kprobes.rst: a pre_handler that sets the
 * instruction pointer returns non-zero, and execution goes on there. At
 * the entry of a function, the arguments and the return address are
 * still those of the call, so the replacement returns to the caller.
 */
static int kst_redirect_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned long addr = (unsigned long)kst_redirect_replacement;

	/* Bit 0 of a Thumb function pointer is not part of the address. */
	if (IS_ENABLED(CONFIG_THUMB2_KERNEL))
		addr &= ~1UL;
	atomic_inc(&pre_hits);
	instruction_pointer_set(regs, addr);
	return 1;
}

/* Counts the calls after the redirecting pre_handler ran. */
static int kst_redirect_other_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	if (atomic_read(&pre_hits))
		atomic_inc(&other_hits);
	return 0;
}

/*
 * With @aggregate, a second kprobe on the address makes the two an
 * aggregate probe, whose pre_handler must stop at the child that returns
 * non-zero and return that too, or the probed instruction is
 * single-stepped and execution goes on after it. The other probe is
 * registered first: the children run newest first, so it is the one that
 * must not run.
 */
static int kst_check_redirect(const char *symbol, long (*target)(long value),
			      bool aggregate)
{
	struct kprobe kp = {
		.pre_handler = kst_redirect_pre_handler,
		.post_handler = kst_post_handler,
	};
	struct kprobe other = {
		.pre_handler = kst_redirect_other_pre_handler,
	};
	struct kprobe *probes[] = { &other, &kp };
	int first = aggregate ? 0 : 1;
	const char *how = aggregate ? " under an aggregate probe" : "";
	long value;
	int ret;

	kst_reset_counts();
	kst_init_kprobe(&other, symbol, 0);
	kst_init_kprobe(&kp, symbol, 0);
	ret = register_kprobes(probes + first, ARRAY_SIZE(probes) - first);
	if (ret)
		return kst_fail("register_kprobes(%s)%s returned %d", symbol, how, ret);
	value = kst_call(target, 5);
	unregister_kprobes(probes + first, ARRAY_SIZE(probes) - first);

	if (atomic_read(&pre_hits) != 1)
		return kst_fail("%s%s: pre_handler ran %d times", symbol, how,
				atomic_read(&pre_hits));
	if (value != 5 + KST_REDIRECTED)
		return kst_fail("%s(5)%s returned %ld, not the replacement's %d",
				symbol, how, value, 5 + KST_REDIRECTED);
	if (atomic_read(&post_hits))
		return kst_fail("%s%s: post_handler ran after the pre_handler changed the path",
				symbol, how);
	if (atomic_read(&other_hits))
		return kst_fail("%s%s: the other probe's pre_handler ran after the path changed",
				symbol, how);
	return 0;
}

int case_kprobe_changes_execution_path(void)
{
	return kst_check_redirect("kst_target", kst_target, false) ?:
	       kst_check_redirect("kst_redirect_target_notrace",
				  kst_redirect_target_notrace, false) ?:
	       kst_check_redirect("kst_target", kst_target, true) ?:
	       kst_check_redirect("kst_redirect_target_notrace",
				  kst_redirect_target_notrace, true);
}
