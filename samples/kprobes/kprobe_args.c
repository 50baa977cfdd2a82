// SPDX-License-Identifier: GPL-2.0-only
/*
 * kprobe_args.c - log each call of a function with its arguments
 *
 * A kprobe on a function's entry sees the registers the call was made
 * with, and regs_get_kernel_argument() finds each argument in them (or
 * on the stack), as the architecture's calling convention puts it. This
 * is what jprobes were once used for.
 *
 *   insmod kprobe_args.ko func=do_sys_openat2 nargs=3
 *   cat /no-such-file
 *   dmesg | tail -n 1
 *   kprobe_args: cat[211] do_sys_openat2(0xffffff9c, 0x7ffd6a4e1f3a, 0xffffc90000283e58)
 *
 * The probe knows the registers, not the types: each argument is shown
 * as the unsigned long it was passed in. Only the first max_calls calls
 * are logged; the others are counted.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#define MAX_ARGS	8

static char *func = "do_sys_openat2";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "The function to probe: [module:]name");

static unsigned int nargs = 3;
module_param(nargs, uint, 0444);
MODULE_PARM_DESC(nargs, "How many arguments to show (0-8)");

static unsigned int max_calls = 10;
module_param(max_calls, uint, 0444);
MODULE_PARM_DESC(max_calls, "How many calls to log");

/* Without regs_get_kernel_argument(), the calling convention tells. */
static unsigned long call_arg(struct pt_regs *regs, unsigned int n)
{
#if defined(CONFIG_HAVE_FUNCTION_ARG_ACCESS_API)
	return regs_get_kernel_argument(regs, n);
#elif defined(CONFIG_ARM)	/* r0-r3, then the caller's stack */
	unsigned long arg = 0;

	if (n < 4)
		return regs->uregs[n];
	/* Read as kprobe events do: ARM does not export a stack reader. */
	get_kernel_nofault(arg, (unsigned long *)kernel_stack_pointer(regs) + n - 4);
	return arg;
#elif defined(CONFIG_MIPS) && defined(CONFIG_64BIT)	/* n64: $a0-$a7 */
	return regs->regs[4 + n];
#else
#error "no way to read a function's arguments here (see samples/Kconfig)"
#endif
}
NOKPROBE_SYMBOL(call_arg);

static atomic_long_t calls = ATOMIC_LONG_INIT(0);

static int handler_pre(struct kprobe *p, struct pt_regs *regs)
{
	char args[MAX_ARGS * 20] = "", *end = args;
	unsigned int i;

	if (atomic_long_inc_return(&calls) > max_calls)
		return 0;
	for (i = 0; i < nargs; i++)
		end += scnprintf(end, args + sizeof(args) - end, "%s0x%lx",
				 i ? ", " : "", call_arg(regs, i));
	/* A handler must not sleep: printk() does not, in any context. */
	pr_info("%s[%d] %s(%s)\n", current->comm, task_pid_nr(current), func, args);
	return 0;
}
NOKPROBE_SYMBOL(handler_pre);

static struct kprobe kp = {
	.pre_handler = handler_pre,
};

static int __init kprobe_args_init(void)
{
	int ret;

	if (nargs > MAX_ARGS) {
		pr_err("nargs: %u is not within 0..%d\n", nargs, MAX_ARGS);
		return -EINVAL;
	}
	kp.symbol_name = func;
	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("cannot probe %s: %pe%s\n", func, ERR_PTR(ret),
		       ret == -ENOENT ? " (no such function)" : "");
		/* Not -ENOENT, which insmod reports as "Unknown symbol". */
		return ret == -ENOENT ? -EINVAL : ret;
	}
	return 0;
}

static void __exit kprobe_args_exit(void)
{
	unregister_kprobe(&kp);
	pr_info("%s: %ld calls, %lu missed\n", func, atomic_long_read(&calls), kp.nmissed);
}

module_init(kprobe_args_init);
module_exit(kprobe_args_exit);
MODULE_DESCRIPTION("Logs the calls of a function with their arguments, from a kprobe");
MODULE_LICENSE("GPL");
