// SPDX-License-Identifier: GPL-2.0
/*
 * kst_hold.c - probes that stay registered between steps, for what user
 * space checks while they exist: [DISABLED] in kprobes/list and the
 * global enable knob. "hits" reads how often each held probe fired:
 * "<enabled probe> <disabled probe>"; "held" where each is, a line each
 * ("kst_target+0x8/0x24 [kprobes_selftest]", "-" when not held): where
 * kprobes put a function's entry probe differs between architectures.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

enum { KST_HELD_ENABLED, KST_HELD_DISABLED, KST_NR_HELD };

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

static int kst_hold(int which, const char *symbol, unsigned int offset, u32 flags)
{
	int ret;

	if (kst_held_registered[which])
		return kst_fail("already held");
	atomic_set(&kst_held_hits[which], 0);
	kst_init_kprobe(&kst_held[which], symbol, offset);
	kst_held[which].flags = flags;
	ret = register_kprobe(&kst_held[which]);
	if (ret)
		return kst_fail("register_kprobe(%s) returned %d", symbol, ret);
	kst_held_registered[which] = true;
	return 0;
}

int step_hold_kprobe(const char *arg)
{
	return kst_hold(KST_HELD_ENABLED, "kst_target", 0, 0);
}

int step_hold_kprobe_disabled(const char *arg)
{
	return kst_hold(KST_HELD_DISABLED, "kst_target", 0, KPROBE_FLAG_DISABLED);
}

/* The instruction under hold_kprobe_disabled_inner's probe, as it was. */
static unsigned long kst_inner_addr;
static u8 kst_inner_text[sizeof(kprobe_opcode_t)];

/* Off the entry, where a probe is a breakpoint on every architecture. */
int step_hold_kprobe_disabled_inner(const char *arg)
{
	int offset = kst_inner_offset("kst_target", kst_target);

	if (offset < 0)
		return kst_fail("no probe-able instruction in kst_target: %d", offset);
	kst_inner_addr = kst_code_addr(kst_target) + offset;
	memcpy(kst_inner_text, (void *)kst_inner_addr, sizeof(kst_inner_text));
	return kst_hold(KST_HELD_DISABLED, "kst_target", offset, KPROBE_FLAG_DISABLED);
}

/*
 * Passes while the text under hold_kprobe_disabled_inner's probe is the
 * instruction, not a breakpoint. Where the optimizer can take the
 * instruction, register_kprobe() puts the probe in an aggregate at once,
 * whose handler skips it while disabled: there the text alone shows
 * whether it is armed.
 */
int step_held_disabled_unarmed(const char *arg)
{
	const struct kprobe *kp = &kst_held[KST_HELD_DISABLED];

	if (!kst_held_registered[KST_HELD_DISABLED] ||
	    kst_code_addr(kp->addr) != kst_inner_addr)
		return kst_fail("hold_kprobe_disabled_inner first");
	if (memcmp((void *)kst_inner_addr, kst_inner_text, sizeof(kst_inner_text)))
		return kst_fail("the disabled probe at %pS is armed: the text there changed",
				kp->addr);
	return 0;
}

int step_enable_held_disabled(const char *arg)
{
	int ret;

	if (!kst_held_registered[KST_HELD_DISABLED])
		return kst_fail("hold_kprobe_disabled first");
	ret = enable_kprobe(&kst_held[KST_HELD_DISABLED]);
	if (ret)
		return kst_fail("enable_kprobe() returned %d", ret);
	return 0;
}

int step_disable_held(const char *arg)
{
	int ret;

	if (!kst_held_registered[KST_HELD_ENABLED])
		return kst_fail("hold_kprobe first");
	ret = disable_kprobe(&kst_held[KST_HELD_ENABLED]);
	if (ret)
		return kst_fail("disable_kprobe() returned %d", ret);
	return 0;
}

/* Passes where a kprobe on an ftrace site, kst_target's entry, uses ftrace. */
int step_kprobes_on_ftrace(const char *arg)
{
	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		return kst_skip("no CONFIG_KPROBES_ON_FTRACE: kprobes do not use ftrace here");
	return 0;
}

int step_call_target(const char *arg)
{
	kst_call(kst_target, 0);
	return 0;
}

void kst_hold_release(void)
{
	int i;

	for (i = 0; i < KST_NR_HELD; i++)
		kst_unregister_held(&kst_held[i], &kst_held_registered[i]);
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

static int kst_held_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < KST_NR_HELD; i++) {
		if (kst_held_registered[i])
			seq_printf(m, "%pS\n", kst_held[i].addr);
		else
			seq_puts(m, "-\n");
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kst_held);

void kst_hold_init(struct dentry *dir)
{
	debugfs_create_file("hits", 0400, dir, NULL, &kst_hits_fops);
	debugfs_create_file("held", 0400, dir, NULL, &kst_held_fops);
}
