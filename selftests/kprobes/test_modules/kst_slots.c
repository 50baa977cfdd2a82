// SPDX-License-Identifier: GPL-2.0
/*
 * kst_slots.c - more kprobes than the pages of instruction slots in use
 * have room for, on the instructions of kst_slot_target(): the slot cache
 * must take pages for them, run each probed instruction from its slot,
 * and give the pages back once the probes are gone. User space counts
 * the pages, which kallsyms lists as kprobe_insn_page.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/stringify.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

/* kernel/kprobes.c's slots_per_page() for kprobe_insn_slots */
#define KST_SLOTS_PER_PAGE	(PAGE_SIZE / (MAX_INSN_SIZE * sizeof(kprobe_opcode_t)))
/*
 * The probed instructions: with pages of 4 KiB, room for the slots of 15
 * pages on x86, 8 on the architectures whose slots are 8 bytes, 6 on s390.
 */
#define KST_SLOT_INSNS		4096

extern const char kst_slot_insns[], kst_slot_insns_end[];

static struct kprobe *kst_slot_kps;
static struct kprobe **kst_slot_ptrs;
static unsigned int kst_slot_nr;

/*
 * Each instruction has a symbol of its own: x86 decodes from the symbol
 * before a probe to the probe, and to the end of the symbol to optimize
 * it, once per probe, which took more than the 30 s of a test for 1092
 * probes in a 4096-instruction symbol in an emulated guest.
 */
static noinline void kst_slot_target(void)
{
	asm volatile(".macro kst_slot_insn\n"
		     "kst_slot_insn_\\@:\n"
		     KST_SLOT_INSN "\n"
		     ".endm\n"
		     ".globl kst_slot_insns\n"
		     "kst_slot_insns:\n"
		     ".rept " __stringify(KST_SLOT_INSNS) "\n"
		     "kst_slot_insn\n"
		     ".endr\n"
		     ".globl kst_slot_insns_end\n"
		     "kst_slot_insns_end:\n"
		     ".purgem kst_slot_insn\n");
}

static void kst_slot_free(void)
{
	kvfree(kst_slot_ptrs);
	kvfree(kst_slot_kps);
	kst_slot_ptrs = NULL;
	kst_slot_kps = NULL;
}

/*
 * @arg: the pages of instruction slots that user space counted. Probes on
 * three pages' worth of slots more than those hold cannot fit in them,
 * and need three pages more at least. Each call of the target must then
 * run every probe's handlers, the instruction running from its slot
 * (a post_handler keeps them unoptimized). Leaves them registered, for
 * user space to count the pages again; "release" unregisters them.
 */
int step_hold_slot_probes(const char *arg)
{
	unsigned int pages, i, n;
	int len, pre, post, ret;

	if (!arg || kstrtouint(arg, 10, &pages) || pages > KST_SLOT_INSNS)
		return -EINVAL;
	if (kst_slot_nr)
		return kst_fail("already held");
	n = (pages + 3) * KST_SLOTS_PER_PAGE;
	if (n > KST_SLOT_INSNS)
		return kst_skip("%u pages of %lu instruction slots: more than the %d instructions of kst_slot_target()",
				pages + 3, KST_SLOTS_PER_PAGE, KST_SLOT_INSNS);
	kst_slot_kps = kvcalloc(n, sizeof(*kst_slot_kps), GFP_KERNEL);
	kst_slot_ptrs = kvcalloc(n, sizeof(*kst_slot_ptrs), GFP_KERNEL);
	if (!kst_slot_kps || !kst_slot_ptrs) {
		kst_slot_free();
		return kst_fail("no memory for %u probes", n);
	}
	len = (kst_slot_insns_end - kst_slot_insns) / KST_SLOT_INSNS;
	for (i = 0; i < n; i++) {
		kst_slot_kps[i].addr = (kprobe_opcode_t *)(kst_slot_insns + i * len);
		kst_slot_kps[i].pre_handler = kst_pre_handler;
		kst_slot_kps[i].post_handler = kst_post_handler;
		kst_slot_ptrs[i] = &kst_slot_kps[i];
	}
	ret = register_kprobes(kst_slot_ptrs, n);
	if (ret) {
		kst_slot_free();
		return kst_fail("register_kprobes() of %u probes returned %d", n, ret);
	}
	kst_slot_nr = n;

	kst_reset_counts();
	kst_call(kst_slot_target);
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	if (pre != n || post != n)
		return kst_fail("%u probes, one call: %d pre_handler and %d post_handler runs",
				n, pre, post);
	return 0;
}

void kst_slots_init(struct dentry *dir)
{
}

void kst_slots_release(void)
{
	if (kst_slot_nr)
		unregister_kprobes(kst_slot_ptrs, kst_slot_nr);
	kst_slot_nr = 0;
	kst_slot_free();
}
