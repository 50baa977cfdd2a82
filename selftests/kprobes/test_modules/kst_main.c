// SPDX-License-Identifier: GPL-2.0
/*
 * kst_main.c - kernel half of tools/testing/selftests/kprobes
 *
 * Each case registers probes on targets that this module owns (or on a
 * core-kernel function), calls the targets and checks what the handlers
 * saw. User space runs one case at a time and reads back its outcome:
 *
 *   echo kprobe_by_symbol > /sys/kernel/debug/kprobes_selftest/run
 *   cat /sys/kernel/debug/kprobes_selftest/result
 *
 * The result is "<case> pass", "<case> fail: <diagnostic>" or
 * "<case> skip: <reason>"; "cases" lists the cases (kst_cases.h). The
 * steps of kst_steps.h run the same way: they leave probes registered
 * for user space to look at, and "release" unregisters them. A step may
 * take an argument after its name. Writing anything that is not a case
 * or a step, an argument to one that takes none, or an argument it
 * refuses fails with -EINVAL and leaves the result as it was.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kprobes_selftest.h"
#include "kst_command.h"

#define KST_INPUT_MAX	(KSYM_NAME_LEN + 64)
#define KST_DIAG_MAX	256

static char kst_diag[KST_DIAG_MAX];
static DEFINE_MUTEX(kst_lock);
static struct dentry *kst_dir;

int kst_fail(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(kst_diag, sizeof(kst_diag), fmt, args);
	va_end(args);
	return -EBADE;
}

int kst_skip(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(kst_diag, sizeof(kst_diag), fmt, args);
	va_end(args);
	return -EOPNOTSUPP;
}

/* A case, or a step with a NULL @run_case. */
struct kst_case {
	const char *name;
	int (*run_case)(void);
	int (*run_step)(const char *arg);
	bool takes_arg;
	struct list_head list;
};

/* A part: an object with probes that steps leave registered. */
struct kst_part {
	void (*init)(struct dentry *dir);
	void (*release)(void);
	struct list_head list;
};

#define KST_CASE(id)		static struct kst_case kst_case_##id = \
					{ .name = #id, .run_case = case_##id }
#include "kst_cases.h"
#define KST_STEP(id)		static struct kst_case kst_step_##id = \
					{ .name = #id, .run_step = step_##id }
#define KST_STEP_ARG(id)	static struct kst_case kst_step_##id = \
					{ .name = #id, .run_step = step_##id, .takes_arg = true }
#define KST_PART(id)		static struct kst_part kst_part_##id = \
					{ .init = kst_##id##_init, .release = kst_##id##_release }
#include "kst_steps.h"

static LIST_HEAD(kst_case_list);
static LIST_HEAD(kst_step_list);
static LIST_HEAD(kst_part_list);

/* In the order of kst_cases.h and kst_steps.h. */
static void kst_list_all(void)
{
#define KST_CASE(id)		list_add_tail(&kst_case_##id.list, &kst_case_list)
#include "kst_cases.h"
#define KST_STEP(id)		list_add_tail(&kst_step_##id.list, &kst_step_list)
#define KST_STEP_ARG(id)	KST_STEP(id)
#define KST_PART(id)		list_add_tail(&kst_part_##id.list, &kst_part_list)
#include "kst_steps.h"
}

static void kst_release_all(void)
{
	struct kst_part *part;

	list_for_each_entry(part, &kst_part_list, list)
		part->release();
}

int step_release(const char *arg)
{
	kst_release_all();
	return 0;
}

static const struct kst_case *kst_find(const char *name)
{
	struct kst_case *c;

	list_for_each_entry(c, &kst_case_list, list)
		if (!strcmp(name, c->name))
			return c;
	list_for_each_entry(c, &kst_step_list, list)
		if (!strcmp(name, c->name))
			return c;
	return NULL;
}

static const struct kst_case *kst_last_case;
static int kst_last_ret;

static ssize_t kst_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char input[KST_INPUT_MAX], *name, *arg;
	const struct kst_case *c;
	int ret;

	name = kst_command(input, sizeof(input), ubuf, count, &arg);
	if (IS_ERR(name))
		return PTR_ERR(name);
	c = kst_find(name);
	if (!c || !arg != !c->takes_arg)
		return -EINVAL;

	if (mutex_lock_interruptible(&kst_lock))
		return -EINTR;
	kst_diag[0] = '\0';
	/* Names the case on the console, should the kernel die in it. */
	pr_notice("case %s\n", c->name);
	ret = c->run_case ? c->run_case() : c->run_step(arg);
	if (ret == -EINVAL && !kst_diag[0]) {
		/* a missing or bad argument: no outcome to report */
		mutex_unlock(&kst_lock);
		return -EINVAL;
	}
	kst_last_ret = ret;
	kst_last_case = c;
	if (ret && ret != -EOPNOTSUPP && !kst_diag[0])
		kst_fail("case returned %d", ret);
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
	struct kst_case *c;

	list_for_each_entry(c, &kst_case_list, list)
		seq_printf(m, "%s\n", c->name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kst_cases);

static int __init kst_init(void)
{
	struct kst_part *part;

	kst_list_all();
	kst_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(kst_dir))
		return PTR_ERR(kst_dir);
	debugfs_create_file("run", 0200, kst_dir, NULL, &kst_run_fops);
	debugfs_create_file("result", 0400, kst_dir, NULL, &kst_result_fops);
	debugfs_create_file("cases", 0400, kst_dir, NULL, &kst_cases_fops);
	list_for_each_entry(part, &kst_part_list, list)
		part->init(kst_dir);
	return 0;
}
module_init(kst_init);

static void __exit kst_exit(void)
{
	debugfs_remove_recursive(kst_dir);
	kst_release_all();
}
module_exit(kst_exit);

MODULE_DESCRIPTION("Test module for the kprobes kselftests");
MODULE_LICENSE("GPL");
