// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes_selftest.c - kernel half of tools/testing/selftests/kprobes
 *
 * Each case registers probes on targets that this module owns, calls the
 * targets and checks what the handlers saw. User space runs one case at a
 * time and reads back its outcome:
 *
 *   echo kprobe_by_symbol > /sys/kernel/debug/kprobes_selftest/run
 *   cat /sys/kernel/debug/kprobes_selftest/result
 *
 * The result is "pass", "fail: <diagnostic>" or "skip: <reason>". Writing a
 * name that is not a case fails with -EINVAL; "cases" lists the names.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define KST_NAME_MAX	64
#define KST_DIAG_MAX	256

/* Return values the targets hand back, negative errnos included. */
static const long kst_values[] = { 0, 1, 42, -ENOENT, -EINVAL, LONG_MAX };

static char kst_diag[KST_DIAG_MAX];
static DEFINE_MUTEX(kst_lock);
static struct dentry *kst_dir;

/*
 * Called through a pointer so that the compiler can neither inline the
 * targets nor fold the calls away.
 */
static long (*kst_target_ptr)(long value);

static noinline long kst_target(long value)
{
	return value;
}

static unsigned int pre_hits, post_hits, ret_hits;
static long ret_seen;

static __printf(1, 2) int kst_fail(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(kst_diag, sizeof(kst_diag), fmt, args);
	va_end(args);
	return -EBADE;
}

static void kst_reset_counts(void)
{
	pre_hits = 0;
	post_hits = 0;
	ret_hits = 0;
	ret_seen = 0;
}

/* Lets a struct be registered again, as lib/test_kprobes.c does. */
static void kst_reset_kprobe(struct kprobe *kp, const char *symbol)
{
	kp->addr = NULL;
	kp->flags = 0;
	kp->symbol_name = symbol;
	kp->offset = 0;
}

static int kst_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	pre_hits++;
	return 0;
}

NOKPROBE_SYMBOL(kst_pre_handler);

static void kst_post_handler(struct kprobe *kp, struct pt_regs *regs,
			     unsigned long flags)
{
	post_hits++;
}

NOKPROBE_SYMBOL(kst_post_handler);

static int kst_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	ret_hits++;
	ret_seen = regs_return_value(regs);
	return 0;
}

NOKPROBE_SYMBOL(kst_ret_handler);

static struct kprobe kst_kprobe = {
	.pre_handler = kst_pre_handler,
	.post_handler = kst_post_handler,
};

static struct kretprobe kst_kretprobe = {
	.handler = kst_ret_handler,
};

static int case_kprobe_by_symbol(void)
{
	unsigned int pre_registered, post_registered;
	int i, ret;

	kst_reset_counts();
	kst_reset_kprobe(&kst_kprobe, "kst_target");
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe(kst_target) returned %d", ret);

	for (i = 0; i < ARRAY_SIZE(kst_values); i++)
		kst_target_ptr(kst_values[i]);
	pre_registered = pre_hits;
	post_registered = post_hits;
	unregister_kprobe(&kst_kprobe);

	kst_target_ptr(0);

	if (pre_registered != ARRAY_SIZE(kst_values) ||
	    post_registered != ARRAY_SIZE(kst_values))
		return kst_fail("%zu calls: pre_handler ran %u times, post_handler %u times",
				ARRAY_SIZE(kst_values), pre_registered,
				post_registered);
	if (pre_hits != pre_registered || post_hits != post_registered)
		return kst_fail("handlers ran after unregister_kprobe()");
	return 0;
}

static int case_kretprobe_by_symbol(void)
{
	unsigned int hits;
	int i, ret;

	kst_reset_counts();
	kst_reset_kprobe(&kst_kretprobe.kp, "kst_target");
	ret = register_kretprobe(&kst_kretprobe);
	if (ret)
		return kst_fail("register_kretprobe(kst_target) returned %d", ret);

	for (i = 0; i < ARRAY_SIZE(kst_values); i++) {
		long value = kst_target_ptr(kst_values[i]);

		if (ret_hits != i + 1 || ret_seen != value) {
			hits = ret_hits;
			unregister_kretprobe(&kst_kretprobe);
			return kst_fail("call %d returned %ld: handler ran %u times, saw %ld",
					i, value, hits, ret_seen);
		}
	}
	unregister_kretprobe(&kst_kretprobe);
	hits = ret_hits;

	kst_target_ptr(0);

	if (ret_hits != hits)
		return kst_fail("return handler ran after unregister_kretprobe()");
	if (kst_kretprobe.nmissed)
		return kst_fail("nmissed is %d, expected 0", kst_kretprobe.nmissed);
	return 0;
}

struct kst_case {
	const char *name;
	int (*run)(void);
};

static const struct kst_case kst_cases[] = {
	{ "kprobe_by_symbol", case_kprobe_by_symbol },
	{ "kretprobe_by_symbol", case_kretprobe_by_symbol },
};

static const struct kst_case *kst_last_case;
static int kst_last_ret;

static ssize_t kst_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	const struct kst_case *c = NULL;
	char name[KST_NAME_MAX], *wanted;
	int i;

	if (count >= sizeof(name))
		return -EINVAL;
	if (copy_from_user(name, ubuf, count))
		return -EFAULT;
	name[count] = '\0';
	wanted = strim(name);

	for (i = 0; i < ARRAY_SIZE(kst_cases); i++)
		if (!strcmp(wanted, kst_cases[i].name))
			c = &kst_cases[i];
	if (!c)
		return -EINVAL;

	if (mutex_lock_interruptible(&kst_lock))
		return -EINTR;
	kst_diag[0] = '\0';
	kst_last_ret = c->run();
	kst_last_case = c;
	if (kst_last_ret && kst_last_ret != -EOPNOTSUPP && !kst_diag[0])
		kst_fail("case returned %d", kst_last_ret);
	pr_debug("%s: %d %s\n", c->name, kst_last_ret, kst_diag);
	mutex_unlock(&kst_lock);
	return count;
}

static const struct file_operations kst_run_fops = {
	.owner = THIS_MODULE,
	.write = kst_run_write,
	.llseek = noop_llseek,
};

static int kst_result_show(struct seq_file *m, void *v)
{
	mutex_lock(&kst_lock);
	if (!kst_last_case)
		seq_puts(m, "none\n");
	else if (!kst_last_ret)
		seq_printf(m, "%s pass\n", kst_last_case->name);
	else
		seq_printf(m, "%s %s: %s\n", kst_last_case->name,
			   kst_last_ret == -EOPNOTSUPP ? "skip" : "fail",
			   kst_diag);
	mutex_unlock(&kst_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kst_result);

static int kst_cases_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(kst_cases); i++)
		seq_printf(m, "%s\n", kst_cases[i].name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kst_cases);

static int __init kst_init(void)
{
	kst_target_ptr = kst_target;

	kst_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(kst_dir))
		return PTR_ERR(kst_dir);
	debugfs_create_file("run", 0200, kst_dir, NULL, &kst_run_fops);
	debugfs_create_file("result", 0400, kst_dir, NULL, &kst_result_fops);
	debugfs_create_file("cases", 0400, kst_dir, NULL, &kst_cases_fops);
	return 0;
}
module_init(kst_init);

static void __exit kst_exit(void)
{
	debugfs_remove_recursive(kst_dir);
}
module_exit(kst_exit);

MODULE_DESCRIPTION("Test module for the kprobes kselftests");
MODULE_LICENSE("GPL");
