// SPDX-License-Identifier: GPL-2.0-only
/*
 * kretprobe_kmalloc.c - which task asked kmalloc() for how much, and got what
 *
 * The size is an argument, known when the call starts; the pointer is the
 * return value, known when it ends. A kretprobe's entry handler keeps the
 * size in the call's instance data (data_size bytes at ri->data), and its
 * return handler finds it there, next to the pointer:
 *
 *   insmod kretprobe_kmalloc.ko min_size=4096
 *   dmesg | tail -n 1
 *   kretprobe_kmalloc: insmod[120] kmalloc(5000) = 00000000c3b1e2d8
 *
 * kmalloc() is inline: a constant size goes to __kmalloc_cache_noprof()
 * or, above KMALLOC_MAX_CACHE_SIZE, to __kmalloc_large_noprof(); any other
 * size to __kmalloc_noprof() (names since 6.11). Each has the size in its
 * own argument, and each gets a kretprobe. kmalloc_node(), kvmalloc(),
 * krealloc() and kmalloc_track_caller() (kstrdup(), kmemdup()) have
 * entries of their own, not probed here.
 *
 * kmalloc() is called everywhere, in any context: the handlers log only
 * the first max_calls allocations, so that a small min_size cannot flood
 * the log from the allocator's path.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>

static unsigned long min_size = 65536;
module_param(min_size, ulong, 0444);
MODULE_PARM_DESC(min_size, "Log the allocations of at least this many bytes");

static unsigned int max_calls = 100;
module_param(max_calls, uint, 0444);
MODULE_PARM_DESC(max_calls, "How many allocations to log");

static atomic_t logged = ATOMIC_INIT(0);

struct kmalloc_probe {
	struct kretprobe rp;
	unsigned int size_arg;	/* which argument is the size */
};

/* The instance data: what the entry handler leaves the return handler. */
struct kmalloc_call {
	size_t size;
};

/* Without regs_get_kernel_argument(), the calling convention tells. */
static unsigned long call_arg(struct pt_regs *regs, unsigned int n)
{
#if defined(CONFIG_HAVE_FUNCTION_ARG_ACCESS_API)
	return regs_get_kernel_argument(regs, n);
#elif defined(CONFIG_ARM)	/* r0-r3 */
	return regs->uregs[n];
#elif defined(CONFIG_MIPS) && defined(CONFIG_64BIT)	/* n64: $a0-$a7 */
	return regs->regs[4 + n];
#else
#error "no way to read a function's arguments here (see samples/Kconfig)"
#endif
}
NOKPROBE_SYMBOL(call_arg);

static int kmalloc_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kmalloc_probe *probe = container_of(get_kretprobe(ri), struct kmalloc_probe, rp);
	size_t size = call_arg(regs, probe->size_arg);

	/* Non-zero: no return handler for this call (and not a miss). */
	if (size < min_size || atomic_read(&logged) >= max_calls)
		return 1;
	((struct kmalloc_call *)ri->data)->size = size;
	return 0;
}
NOKPROBE_SYMBOL(kmalloc_entry);

static int kmalloc_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kmalloc_call *call = (struct kmalloc_call *)ri->data;
	void *ptr = (void *)regs_return_value(regs);

	if (atomic_inc_return(&logged) > max_calls)
		return 0;
	/* %p, not %px: the log is no place for kernel addresses. */
	if (ptr)
		pr_info("%s[%d] kmalloc(%zu) = %p\n", current->comm,
			task_pid_nr(current), call->size, ptr);
	else
		pr_info("%s[%d] kmalloc(%zu) = NULL\n", current->comm,
			task_pid_nr(current), call->size);
	return 0;
}
NOKPROBE_SYMBOL(kmalloc_return);

#define KMALLOC_PROBE(func, arg) {					\
	.rp = {								\
		.kp.symbol_name = #func,				\
		.entry_handler = kmalloc_entry,				\
		.handler = kmalloc_return,				\
		.data_size = sizeof(struct kmalloc_call),		\
	},								\
	.size_arg = arg,						\
}

static struct kmalloc_probe probes[] = {
	KMALLOC_PROBE(__kmalloc_noprof, 0),	/* (size, ...) */
	KMALLOC_PROBE(__kmalloc_cache_noprof, 2),	/* (cache, flags, size) */
	KMALLOC_PROBE(__kmalloc_large_noprof, 0),	/* (size, flags) */
};

static int __init kretprobe_kmalloc_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		ret = register_kretprobe(&probes[i].rp);
		if (ret) {
			pr_err("cannot probe %s: %pe%s\n", probes[i].rp.kp.symbol_name,
			       ERR_PTR(ret), ret == -ENOENT ? " (no such function)" : "");
			while (--i >= 0)
				unregister_kretprobe(&probes[i].rp);
			return ret == -ENOENT ? -EINVAL : ret;
		}
	}
	return 0;
}

static void __exit kretprobe_kmalloc_exit(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		unregister_kretprobe(&probes[i].rp);
		pr_info("%s: missed %d calls\n", probes[i].rp.kp.symbol_name,
			probes[i].rp.nmissed);
	}
}

module_init(kretprobe_kmalloc_init);
module_exit(kretprobe_kmalloc_exit);
MODULE_DESCRIPTION("Pairs each kmalloc() size with the pointer returned, from kretprobes");
MODULE_LICENSE("GPL");
