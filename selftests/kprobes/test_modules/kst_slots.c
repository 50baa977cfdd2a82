// SPDX-License-Identifier: GPL-2.0
/*
 * kst_slots.c - more kprobes than the pages of instruction slots in use
 * have room for: the slot cache must take pages for them, and give the
 * pages back once the probes are gone. User space counts the pages,
 * which kallsyms lists as kprobe_insn_page.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/objtool.h>
#include <linux/slab.h>
#include <linux/stringify.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

/* kernel/kprobes.c's slots_per_page() for kprobe_insn_slots */
#define KST_SLOTS_PER_PAGE	((int)(PAGE_SIZE / (MAX_INSN_SIZE * sizeof(kprobe_opcode_t))))
/*
 * The instructions to probe: with pages of 4 KiB, those of 15 pages of
 * slots on x86, 8 where a slot is 8 bytes, 6 on s390.
 */
#define KST_SLOT_INSNS		4096

static struct kprobe *kst_slot_kps;
static struct kprobe **kst_slot_ptrs;
static int kst_slot_nr;

/*
 * Each instruction has a global symbol of its own: x86 decodes from the
 * symbol before a probe to the probe, and to the end of the symbol to
 * optimize it, once per probe, which took more than the 30 s of a test
 * for 1092 probes in a symbol of 4096 instructions in an emulated guest.
 */
static noinline void kst_slot_target(void)
{
	asm volatile(".macro kst_slot_insn\n"
		     ".globl kst_slot_insn_\\@\n"
		     "kst_slot_insn_\\@:\n"
		     KST_SLOT_INSN "\n"
		     ".endm\n"
		     ANNOTATE_NOENDBR "\n"
		     ".globl kst_slot_insns\n"
		     "kst_slot_insns:\n"
		     ".rept " __stringify(KST_SLOT_INSNS) "\n"
		     "kst_slot_insn\n"
		     ".endr\n"
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
 * @arg: P, the pages of instruction slots that user space counted. Probes
 * on (P + 3) * S instructions of kst_slot_target(), S slots to a page,
 * cannot fit in P pages: the slot cache must take 3 more at least. They
 * are registered disabled, which takes their slots but writes no
 * breakpoint; the first probe of each page's worth and the last are
 * enabled, and one call must run their handlers, the instruction run
 * from its slot (emulated on powerpc, which still takes one). A
 * post_handler keeps them unoptimized. Leaves them registered, for user
 * space to count the pages again; "release" unregisters them.
 */
int step_hold_slot_probes(const char *arg)
{
	unsigned int pages;
	int i, n, len, enabled = 0, pre, post, ret;

	if (!arg || kstrtouint(arg, 10, &pages) || pages > KST_SLOT_INSNS)
		return -EINVAL;
#ifndef __ARCH_WANT_KPROBES_INSN_SLOT
	return kst_skip("kprobes take no instruction slots on this architecture");
#endif
	if (kst_slot_nr)
		return kst_fail("already held");
	n = (pages + 3) * KST_SLOTS_PER_PAGE;
	if (n > KST_SLOT_INSNS)
		return kst_skip("%u pages of %d slots are more than %d instructions",
				pages + 3, KST_SLOTS_PER_PAGE, KST_SLOT_INSNS);
	kst_slot_kps = kvcalloc(n, sizeof(*kst_slot_kps), GFP_KERNEL);
	kst_slot_ptrs = kvcalloc(n, sizeof(*kst_slot_ptrs), GFP_KERNEL);
	if (!kst_slot_kps || !kst_slot_ptrs) {
		kst_slot_free();
		return kst_fail("no memory for %d probes", n);
	}
	len = kst_insn_len(kst_slot_insns);
	for (i = 0; i < n; i++) {
		kst_slot_kps[i].addr = (kprobe_opcode_t *)(kst_slot_insns + i * len);
		kst_slot_kps[i].flags = KPROBE_FLAG_DISABLED;
		kst_slot_kps[i].pre_handler = kst_pre_handler;
		kst_slot_kps[i].post_handler = kst_post_handler;
		kst_slot_ptrs[i] = &kst_slot_kps[i];
	}
	ret = register_kprobes(kst_slot_ptrs, n);
	if (ret) {
		kst_slot_free();
		return kst_fail("register_kprobes() of %d probes returned %d", n, ret);
	}
	kst_slot_nr = n;

	for (i = 0; i < n; i++) {
		if (i % KST_SLOTS_PER_PAGE && i != n - 1)
			continue;
		ret = enable_kprobe(&kst_slot_kps[i]);
		if (ret)
			return kst_fail("enable_kprobe() of probe %d of %d returned %d", i, n, ret);
		enabled++;
	}
	kst_reset_counts();
	kst_call(kst_slot_target);
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	if (pre != enabled || post != enabled)
		return kst_fail("%d probes enabled, one call: %d pre_handler, %d post_handler runs",
				enabled, pre, post);
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
