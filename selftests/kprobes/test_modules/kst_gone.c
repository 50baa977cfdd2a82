// SPDX-License-Identifier: GPL-2.0
/*
 * kst_gone.c - probes held on kprobes_selftest_target.ko's
 * kst_gone_target(), or inside kst_gone_opt_target(), which user space
 * unloads under them: each probe is then [GONE] in kprobes/list, never
 * fires and refuses enable_kprobe().
 * A second probe on the address makes them an aggregate probe. "gone"
 * reads where each is, a line each, as kst_hold.c's "held" does.
 * A probe on the module's init function, registered as the module comes,
 * fires in it and is [GONE] once the module is live, when a new one there
 * is refused; one on its core text, registered with it, stays. A new
 * probe on the module while it goes is refused too.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/seq_file.h>

#include "kprobes_selftest.h"
#include "kst_insn.h"

static atomic_t kst_gone_hits;

static int kst_gone_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&kst_gone_hits);
	return 0;
}

#define KST_NR_GONE	2

static struct kprobe kst_gone[KST_NR_GONE] = {
	[0 ... KST_NR_GONE - 1] = { .pre_handler = kst_gone_pre_handler },
};

static bool kst_gone_registered[KST_NR_GONE];

static int kst_hold_gone(int which, const char *symbol, unsigned int offset)
{
	int ret;

	if (kst_gone_registered[which])
		return kst_fail("already held");
	if (which && !kst_gone_registered[0])
		return kst_fail("hold_kprobe_gone first");
	if (!which)
		atomic_set(&kst_gone_hits, 0);
	kst_init_kprobe(&kst_gone[which], symbol, offset);
	ret = register_kprobe(&kst_gone[which]);
	if (ret)
		return kst_fail("register_kprobe(%s+%u) returned %d", symbol, offset, ret);
	kst_gone_registered[which] = true;
	return 0;
}

int step_hold_kprobe_gone(const char *arg)
{
	return kst_hold_gone(0, "kst_gone_target", 0);
}

int step_hold_second_kprobe_gone(const char *arg)
{
	return kst_hold_gone(1, "kst_gone_target", 0);
}

/*
 * Off the entry, which is an ftrace site on some architectures: there the
 * probe is a breakpoint or a jump everywhere, which enabling it would
 * write into the module's freed text. kst_gone_target() is too short for
 * that on MIPS: after its entry, only the delay slot of its return.
 */
int step_hold_kprobe_gone_off_entry(const char *arg)
{
	const char *symbol = "kst_gone_opt_target";
	int offset = kst_inner_offset(symbol, NULL);

	if (offset < 0)
		return kst_fail("no probe-able instruction in %s: %d; is %s loaded?",
				symbol, offset, "kprobes_selftest_target");
	return kst_hold_gone(0, symbol, offset);
}

int step_enable_gone(const char *arg)
{
	int i, ret;

	if (!kst_gone_registered[0])
		return kst_fail("hold_kprobe_gone first");
	for (i = 0; i < KST_NR_GONE && kst_gone_registered[i]; i++) {
		ret = enable_kprobe(&kst_gone[i]);
		if (ret != -EINVAL)
			return kst_fail("enable_kprobe() on [GONE] probe %d: %d, expected %d",
					i, ret, -EINVAL);
	}
	if (atomic_read(&kst_gone_hits))
		return kst_fail("a probe on the unloaded module fired");
	return 0;
}

/* Registers @nb to hear when the target module comes and goes. */
static int kst_watch_target(struct notifier_block *nb, bool *watching)
{
	int ret = register_module_notifier(nb);

	if (ret)
		return kst_fail("register_module_notifier() returned %d", ret);
	*watching = true;
	return 0;
}

static void kst_unwatch_target(struct notifier_block *nb, bool *watching)
{
	if (*watching)
		unregister_module_notifier(nb);
	*watching = false;
}

static int kst_init_ret, kst_init_late_ret, kst_core_ret;
static bool kst_init_came, kst_init_registered, kst_init_in_init;
static bool kst_init_gone_when_live, kst_init_watching;
static bool kst_core_registered, kst_core_gone_when_live;

static struct kprobe kst_init_probe = {
	.symbol_name = "kprobes_selftest_target:kst_target_init",
	.pre_handler = kst_pre_handler,
};

/*
 * A twin of kst_init_probe on the module's core text, registered with it:
 * the core text stays when the init text goes, and so does this probe.
 */
static struct kprobe kst_core_probe = {
	.symbol_name = "kprobes_selftest_target:kst_gone_target",
	.pre_handler = kst_pre_handler,
	.flags = KPROBE_FLAG_DISABLED,
};

/*
 * As the target module comes, before its init function runs, the only
 * time a probe there is accepted; and as it goes live, after kprobes'
 * own notifier, which must have killed the probe then. If it did not,
 * the probe goes while the init text is still there: unregistered later,
 * it would be disarmed in freed memory. A new probe there is refused
 * then, while the text is still there (registered disabled, and gone at
 * once if wrongly accepted).
 */
static int kst_register_late(kprobe_opcode_t *addr)
{
	struct kprobe late = {
		.addr = addr,
		.pre_handler = kst_pre_handler,
		.flags = KPROBE_FLAG_DISABLED,
	};

	return kst_try_kprobe(&late);
}

static int kst_init_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;

	if (strcmp(mod->name, "kprobes_selftest_target"))
		return NOTIFY_DONE;
	if (state == MODULE_STATE_COMING && !kst_init_came) {
		kst_init_came = true;
		kst_init_ret = register_kprobe(&kst_init_probe);
		kst_init_registered = !kst_init_ret;
		kst_init_in_init = kst_init_registered &&
				   within_module_init((unsigned long)kst_init_probe.addr, mod);
		kst_core_ret = register_kprobe(&kst_core_probe);
		kst_core_registered = !kst_core_ret;
	} else if (state == MODULE_STATE_LIVE && kst_init_registered) {
		kst_core_gone_when_live = kst_core_registered && kprobe_gone(&kst_core_probe);
		kst_init_gone_when_live = kprobe_gone(&kst_init_probe);
		if (!kst_init_gone_when_live)
			kst_unregister_held(&kst_init_probe, &kst_init_registered);
		kst_init_late_ret = kst_register_late(kst_init_probe.addr);
	}
	return NOTIFY_DONE;
}

static struct notifier_block kst_init_nb = {
	.notifier_call = kst_init_notify,
	.priority = -1,		/* after kprobes' */
};

int step_hold_kprobe_init(const char *arg)
{
	if (kst_init_watching)
		return kst_fail("already held");
	kst_reset_counts();
	kst_init_probe.addr = NULL;
	kst_init_probe.flags = 0;
	kst_core_probe.addr = NULL;
	kst_core_probe.flags = KPROBE_FLAG_DISABLED;
	kst_core_ret = 0;
	kst_core_gone_when_live = false;
	kst_init_came = false;
	kst_init_in_init = false;
	kst_init_gone_when_live = false;
	kst_init_late_ret = 0;
	return kst_watch_target(&kst_init_nb, &kst_init_watching);
}

/*
 * Once user space loaded the module: the probe fired once, and is gone;
 * its twin on the core text is not.
 */
int step_check_kprobe_init(const char *arg)
{
	int ret;

	if (!kst_init_watching)
		return kst_fail("hold_kprobe_init first");
	if (!kst_init_came)
		return kst_fail("kprobes_selftest_target did not come");
	if (kst_init_ret)
		return kst_fail("register_kprobe(kst_target_init) as the module came: %d",
				kst_init_ret);
	if (atomic_read(&pre_hits) != 1)
		return kst_fail("%d hits in kst_target_init(), expected 1",
				atomic_read(&pre_hits));
	if (kst_core_ret)
		return kst_fail("register_kprobe(kst_gone_target) as the module came: %d",
				kst_core_ret);
	if (kst_core_gone_when_live)
		return kst_fail("the probe on kst_gone_target() is gone: only the init text went");
	/* powerpc's module_init_section() keeps .init sections with the core. */
	if (!kst_init_in_init)
		return kst_skip("kst_target_init() is not in init text: %s",
				"this architecture loads a module's __init code with its core");
	if (!kst_init_gone_when_live)
		return kst_fail("the probe on kst_target_init() is not gone: the module is live");
	if (kst_init_late_ret != -ENOENT)
		return kst_fail("a probe in a live module's init text: %d, expected %d",
				kst_init_late_ret, -ENOENT);
	ret = enable_kprobe(&kst_init_probe);
	if (ret != -EINVAL)
		return kst_fail("enable_kprobe() on the gone probe: %d, expected %d", ret, -EINVAL);
	return 0;
}

static int kst_going_ret;
static bool kst_going_seen, kst_going_found, kst_going_watching;

/*
 * As the target module goes, when its exit function has run but its text
 * is still there, a new probe on it is refused: kprobes cannot take a reference
 * to the module that would keep the text while the probe is armed. It
 * is registered disabled, so that a probe wrongly accepted is never
 * armed in text about to be freed.
 */
static int kst_going_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct kprobe kp = {
		.symbol_name = "kprobes_selftest_target:kst_gone_target",
		.pre_handler = kst_pre_handler,
		.flags = KPROBE_FLAG_DISABLED,
	};
	struct module *mod = data;

	if (state != MODULE_STATE_GOING || strcmp(mod->name, "kprobes_selftest_target"))
		return NOTIFY_DONE;
	kst_going_seen = true;
	kst_going_ret = kst_try_kprobe(&kp);
	/* register_kprobe() sets .addr once it has found the symbol. */
	kst_going_found = !!kp.addr;
	return NOTIFY_DONE;
}

static struct notifier_block kst_going_nb = {
	.notifier_call = kst_going_notify,
};

int step_watch_module_going(const char *arg)
{
	if (kst_going_watching)
		return kst_fail("already watching");
	kst_going_seen = false;
	kst_going_found = false;
	kst_going_ret = 0;
	return kst_watch_target(&kst_going_nb, &kst_going_watching);
}

/* Once user space unloaded the module: the probe was refused. */
int step_check_module_going(const char *arg)
{
	if (!kst_going_watching)
		return kst_fail("watch_module_going first");
	if (!kst_going_seen)
		return kst_fail("kprobes_selftest_target did not go");
	if (!kst_going_found)
		return kst_fail("kst_gone_target not found as the module went: %d",
				kst_going_ret);
	if (kst_going_ret != -ENOENT)
		return kst_fail("a probe on the going module: %d, expected %d",
				kst_going_ret, -ENOENT);
	return 0;
}

static int kst_gone_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < KST_NR_GONE; i++) {
		if (kst_gone_registered[i])
			seq_printf(m, "%pS\n", kst_gone[i].addr);
		else
			seq_puts(m, "-\n");
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kst_gone);

void kst_gone_init(struct dentry *dir)
{
	debugfs_create_file("gone", 0400, dir, NULL, &kst_gone_fops);
}

void kst_gone_release(void)
{
	int i;

	for (i = KST_NR_GONE - 1; i >= 0; i--)
		kst_unregister_held(&kst_gone[i], &kst_gone_registered[i]);
	kst_unwatch_target(&kst_init_nb, &kst_init_watching);
	kst_unregister_held(&kst_init_probe, &kst_init_registered);
	kst_unregister_held(&kst_core_probe, &kst_core_registered);
	kst_unwatch_target(&kst_going_nb, &kst_going_watching);
}
