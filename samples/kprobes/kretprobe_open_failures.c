// SPDX-License-Identifier: GPL-2.0-only
/*
 * kretprobe_open_failures.c - which files fail to open, and why
 *
 * A kretprobe on do_sys_openat2() logs each open that fails, with the
 * file name the caller passed and the error:
 *
 *   insmod kretprobe_open_failures.ko
 *   cat /no-such-file
 *   dmesg | tail -n 1
 *   kretprobe_open_failures: cat: open("/no-such-file") = -ENOENT
 *
 * The file name is a user-space pointer. The entry handler copies the
 * string while the call starts: by the time the function returns, user
 * space may have changed or unmapped it. Handlers run with preemption
 * disabled and must not sleep, so they cannot fault a page in:
 * copy_from_user_nofault() copies what is there and fails otherwise.
 * This is what a jprobe and a kprobe's fault_handler were once used for.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/* Longer names are cut: the instance data of every call is this big. */
#define NAME_LEN	128

struct open_call {
	char name[NAME_LEN];
};

/*
 * Copies the string at @src into @dst (@size bytes with its NUL) without
 * faulting, or fails with -EFAULT. strncpy_from_user_nofault() would do,
 * but modules cannot use it: copy_from_user_nofault() is what is exported.
 * A page at a time, since the bytes after the NUL may not be mapped.
 */
static long copy_string_nofault(char *dst, const char __user *src, size_t size)
{
	size_t copied = 0, chunk, len;

	while (copied < size - 1) {
		chunk = min(size - 1 - copied,
			    PAGE_SIZE - ((unsigned long)(src + copied) & ~PAGE_MASK));
		if (copy_from_user_nofault(dst + copied, src + copied, chunk))
			return -EFAULT;
		len = strnlen(dst + copied, chunk);
		copied += len;
		if (len < chunk)
			break;
	}
	dst[copied] = '\0';
	return copied;
}

NOKPROBE_SYMBOL(copy_string_nofault);

/*
 * do_sys_openat2(int dfd, const char __user *filename, struct open_how *how):
 * the file name is the second argument. 32-bit ARM has no
 * regs_get_kernel_argument(); its calling convention passes it in r1.
 */
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
#define filename_arg(regs)	regs_get_kernel_argument(regs, 1)
#else
#define filename_arg(regs)	((regs)->ARM_r1)
#endif

static int open_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct open_call *call = (struct open_call *)ri->data;
	const char __user *filename;

	filename = (const char __user *)filename_arg(regs);
	if (copy_string_nofault(call->name, filename, NAME_LEN) < 0)
		strscpy(call->name, "(not readable without a fault)", NAME_LEN);
	return 0;
}

NOKPROBE_SYMBOL(open_entry);

static int open_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct open_call *call = (struct open_call *)ri->data;
	/* An int in 7.3 and a long before: its low 32 bits hold the errno. */
	int ret = regs_return_value(regs);

	if (ret < 0)
		pr_info_ratelimited("%s: open(\"%s\") = %pe\n", current->comm,
				    call->name, ERR_PTR(ret));
	return 0;
}

NOKPROBE_SYMBOL(open_return);

static struct kretprobe open_probe = {
	.kp.symbol_name	= "do_sys_openat2",
	.entry_handler	= open_entry,
	.handler	= open_return,
	.data_size	= sizeof(struct open_call),
};

static int __init open_failures_init(void)
{
	int ret = register_kretprobe(&open_probe);

	if (ret)
		pr_err("register_kretprobe(do_sys_openat2): %d\n", ret);
	return ret;
}

static void __exit open_failures_exit(void)
{
	unregister_kretprobe(&open_probe);
	pr_info("missed %d opens\n", open_probe.nmissed);
}

module_init(open_failures_init);
module_exit(open_failures_exit);
MODULE_DESCRIPTION("Logs failing opens with the file name, read from user space in a kretprobe");
MODULE_LICENSE("GPL");
