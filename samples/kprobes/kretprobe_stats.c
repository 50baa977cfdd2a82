// SPDX-License-Identifier: GPL-2.0-only
/*
 * kretprobe_stats.c - what kretprobes can tell about a function's calls
 *
 * Puts a kretprobe on each function named in "funcs" and keeps, per
 * function: the calls, how many failed and with which error, how long
 * they took, and how many calls the kretprobe did not see.
 *
 *   insmod kretprobe_stats.ko funcs=do_sys_openat2/int,mymod:myfunc/errptr
 *   cat /sys/kernel/debug/kretprobe_stats/stats
 *   echo disable > /sys/kernel/debug/kretprobe_stats/control  # enable, reset
 *
 * The return register does not say how a function reports failure: its
 * type does, given after a '/'. "long" (the default) and "errptr": a
 * value in [-MAX_ERRNO, -1]; "int": the same in the low 32 bits (a 64-bit
 * CPU can leave an int's -ENOENT as 0x00000000fffffffe); "ptr": NULL;
 * "bool": false; "void": never.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/seqlock.h>

/* What the entry handler leaves the return handler: ri->data, data_size. */
struct call { u64 start_ns; };

static int entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	/* Unlike ktime_get_ns(), safe if the probed call comes from an NMI. */
	((struct call *)ri->data)->start_ns = local_clock();
	return 0;
}
NOKPROBE_SYMBOL(entry_handler);

#define MAX_FUNCS	8
#define NR_ERRNOS	134	/* errors 1..133 have a count each; others, 0 */

enum kind { KIND_LONG, KIND_INT, KIND_ERRPTR, KIND_PTR, KIND_BOOL, KIND_VOID };
static const char * const kinds[] = { "long", "int", "errptr", "ptr", "bool", "void" };

/* One CPU's counts of one function since the reset numbered epoch. */
struct counts {
	unsigned long epoch;
	u64 calls, failures, total_ns, min_ns, max_ns, errnos[NR_ERRNOS];
};

struct cpu_counts {
	seqcount_t seq;		/* a reader retries until it copied c whole */
	struct counts c;
};

static struct probed_func {
	struct kretprobe rp;
	const char *name;	/* in names, a copy of funcs */
	enum kind kind;
	struct cpu_counts __percpu *cpu;
	unsigned long epoch;	/* bumped by a reset: older counts read as 0 */
	unsigned int missed_at_reset;	/* rp.nmissed is an int */
	unsigned long nested_at_reset;
} funcs[MAX_FUNCS];
static int nr_funcs;

/* 0 for a success, the errno of a failure, -1 for a failure without one. */
static __always_inline long call_error(enum kind kind, unsigned long ret)
{
	switch (kind) {
	case KIND_VOID:
		return 0;
	case KIND_PTR:
		return ret ? 0 : -1;
	case KIND_BOOL:
		return (u8)ret ? 0 : -1;	/* a bool is the low byte */
	case KIND_INT:
		ret = (long)(int)ret;
		fallthrough;
	default:
		return IS_ERR_VALUE(ret) ? -(long)ret : 0;
	}
}

static int return_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct probed_func *f = container_of(get_kretprobe(ri), struct probed_func, rp);
	long err = call_error(f->kind, regs_return_value(regs));
	u64 start = ((struct call *)ri->data)->start_ns, now = local_clock();
	u64 ns = now > start ? now - start : 0;	/* CPUs' clocks differ a little */
	unsigned long epoch = READ_ONCE(f->epoch);
	/*
	 * Handlers run with preemption off, and a probe hit inside one is
	 * counted as missed instead of run: nothing else writes this CPU's
	 * counts meanwhile, so no lock or atomic is needed.
	 */
	struct cpu_counts *cpu = this_cpu_ptr(f->cpu);
	struct counts *c = &cpu->c;

	raw_write_seqcount_begin(&cpu->seq);
	if (c->epoch != epoch) {
		memset(c, 0, sizeof(*c));
		c->epoch = epoch;
		c->min_ns = U64_MAX;
	}
	c->calls++;
	c->total_ns += ns;
	c->min_ns = min(c->min_ns, ns);
	c->max_ns = max(c->max_ns, ns);
	if (err) {
		c->failures++;
		if (err > 0)
			c->errnos[err < NR_ERRNOS ? err : 0]++;
	}
	raw_write_seqcount_end(&cpu->seq);
	return 0;
}
NOKPROBE_SYMBOL(return_handler);

#define MAX_MAXACTIVE	4096	/* the instances are allocated up front */
static int maxactive;
module_param(maxactive, int, 0444);
MODULE_PARM_DESC(maxactive, "Calls tracked at once per function (0-4096); 0: the kernel's default");

/* Registers every probe, or none; names the function it cannot probe. */
static int register_probes(void)
{
	int i, ret;

	for (i = 0; i < nr_funcs; i++) {
		funcs[i].rp = (struct kretprobe) {
			.kp.symbol_name = funcs[i].name,
			.entry_handler = entry_handler,
			.handler = return_handler,
			.data_size = sizeof(struct call),
			.maxactive = maxactive,
		};
		ret = register_kretprobe(&funcs[i].rp);
		if (ret) {
			pr_err("cannot probe %s: %pe%s\n", funcs[i].name, ERR_PTR(ret),
			       ret == -ENOENT ? " (no such function)" : "");
			while (--i >= 0)
				unregister_kretprobe(&funcs[i].rp);
			/* Not -ENOENT, which insmod reports as "Unknown symbol". */
			return ret == -ENOENT ? -EINVAL : ret;
		}
	}
	return 0;
}

static int set_enabled(bool enable)
{
	int i, ret = 0;

	for (i = 0; i < nr_funcs && !ret; i++)
		ret = enable ? enable_kretprobe(&funcs[i].rp) : disable_kretprobe(&funcs[i].rp);
	return ret;
}

/* The debugfs files: stats, and control (reset, enable, disable). */

static DEFINE_MUTEX(control_lock);	/* readers, reset, enable, disable */
static bool enabled = true;
static struct dentry *dir;

static void show_func(struct seq_file *m, struct probed_func *f)
{
	static struct counts snap, sum;	/* too big for the stack; lock held */
	unsigned int seq, missed = READ_ONCE(f->rp.nmissed);
	unsigned long nested = READ_ONCE(f->rp.kp.nmissed);
	int cpu, i;

	memset(&sum, 0, sizeof(sum));
	sum.min_ns = U64_MAX;
	for_each_possible_cpu(cpu) {
		struct cpu_counts *counts = per_cpu_ptr(f->cpu, cpu);

		do {
			seq = read_seqcount_begin(&counts->seq);
			snap = counts->c;
		} while (read_seqcount_retry(&counts->seq, seq));
		if (snap.epoch != f->epoch)
			continue;
		sum.calls += snap.calls;
		sum.failures += snap.failures;
		sum.total_ns += snap.total_ns;
		sum.min_ns = min(sum.min_ns, snap.min_ns);
		sum.max_ns = max(sum.max_ns, snap.max_ns);
		for (i = 0; i < NR_ERRNOS; i++)
			sum.errnos[i] += snap.errnos[i];
	}
	seq_printf(m, "%s: %s, maxactive %d, returns %s\n", f->name,
		   enabled ? "enabled" : "disabled", f->rp.maxactive, kinds[f->kind]);
	seq_printf(m, "  calls %llu ok %llu failed %llu (%llu%%)\n", sum.calls,
		   sum.calls - sum.failures, sum.failures,
		   sum.calls ? div64_u64(sum.failures * 100, sum.calls) : 0);
	/* Unsigned differences: right across a counter's wrap too. */
	seq_printf(m, "  missed %u (all maxactive instances in use: rp.nmissed)\n",
		   missed - f->missed_at_reset);
	seq_printf(m, "  nested %lu (hit while a kprobe handler ran: rp.kp.nmissed)\n",
		   nested - f->nested_at_reset);
	if (sum.calls)
		seq_printf(m, "  latency_ns min %llu avg %llu max %llu\n",
			   sum.min_ns, div64_u64(sum.total_ns, sum.calls), sum.max_ns);
	for (i = 1; i < NR_ERRNOS; i++)
		if (sum.errnos[i])
			seq_printf(m, "  errno %pe %llu\n", ERR_PTR(-i), sum.errnos[i]);
	if (sum.errnos[0])
		seq_printf(m, "  errno other %llu\n", sum.errnos[0]);
}

static int stats_show(struct seq_file *m, void *v)
{
	int i;

	mutex_lock(&control_lock);
	for (i = 0; i < nr_funcs; i++)
		show_func(m, &funcs[i]);
	mutex_unlock(&control_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static ssize_t control_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[16], *cmd;
	int i, ret = 0;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	cmd = strim(buf);

	mutex_lock(&control_lock);
	if (!strcmp(cmd, "reset")) {
		for (i = 0; i < nr_funcs; i++) {
			/* Each CPU's counts start anew at its next return. */
			WRITE_ONCE(funcs[i].epoch, funcs[i].epoch + 1);
			funcs[i].missed_at_reset = READ_ONCE(funcs[i].rp.nmissed);
			funcs[i].nested_at_reset = READ_ONCE(funcs[i].rp.kp.nmissed);
		}
	} else if (!strcmp(cmd, "enable") || !strcmp(cmd, "disable")) {
		bool enable = cmd[0] == 'e';

		/* On an error, every probe goes back to what it was. */
		ret = enable != enabled ? set_enabled(enable) : 0;
		if (ret)
			set_enabled(enabled);
		else
			enabled = enable;
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&control_lock);
	return ret ?: count;
}

static const struct file_operations control_fops = {
	.owner = THIS_MODULE,
	.write = control_write,
	.llseek = noop_llseek,
};

static char func_list[1024] = "do_sys_openat2/int";
static char *names;
module_param_string(funcs, func_list, sizeof(func_list), 0444);
MODULE_PARM_DESC(funcs, "Functions to probe: [module:]name[/long|int|errptr|ptr|bool|void],...");

/* Fills funcs[] from the list, or says what is wrong with it. */
static int parse_funcs(char *list)
{
	char *name, *kind;
	int i, k;

	while ((name = strsep(&list, ",")) != NULL) {
		kind = strrchr(name, '/');
		if (kind)
			*kind++ = '\0';
		name = strim(name);
		if (!*name && !kind)
			continue;
		k = kind ? match_string(kinds, ARRAY_SIZE(kinds), strim(kind)) : KIND_LONG;
		if (!*name || k < 0) {
			pr_err("funcs: \"%s/%s\" is not name/kind\n", name, kind);
			return -EINVAL;
		}
		if (nr_funcs == MAX_FUNCS) {
			pr_err("funcs: more than %d functions\n", MAX_FUNCS);
			return -E2BIG;
		}
		for (i = 0; i < nr_funcs; i++) {
			if (!strcmp(funcs[i].name, name)) {
				pr_err("funcs: %s is listed twice\n", name);
				return -EINVAL;
			}
		}
		funcs[nr_funcs].name = name;
		funcs[nr_funcs++].kind = k;
	}
	if (nr_funcs)
		return 0;
	pr_err("funcs: no function to probe\n");
	return -EINVAL;
}

static void free_counts(void)
{
	for (; nr_funcs; nr_funcs--)
		free_percpu(funcs[nr_funcs - 1].cpu);
	kfree(names);
}

static int __init kretprobe_stats_init(void)
{
	int i, cpu, ret;

	if (maxactive < 0 || maxactive > MAX_MAXACTIVE) {
		pr_err("maxactive: %d is not within 0..%d\n", maxactive, MAX_MAXACTIVE);
		return -EINVAL;
	}
	names = kstrdup(func_list, GFP_KERNEL);	/* funcs stays as given */
	ret = names ? parse_funcs(names) : -ENOMEM;
	for (i = 0; i < nr_funcs && !ret; i++) {
		funcs[i].epoch = 1;	/* no CPU's counts are of epoch 1 yet */
		funcs[i].cpu = alloc_percpu(struct cpu_counts);
		if (!funcs[i].cpu)
			ret = -ENOMEM;
		else
			for_each_possible_cpu(cpu)
				seqcount_init(&per_cpu_ptr(funcs[i].cpu, cpu)->seq);
	}
	ret = ret ?: register_probes();
	if (ret) {
		free_counts();
		return ret;
	}
	dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stats", 0400, dir, NULL, &stats_fops);
	debugfs_create_file("control", 0200, dir, NULL, &control_fops);
	return 0;
}

static void __exit kretprobe_stats_exit(void)
{
	int i;

	debugfs_remove_recursive(dir);
	for (i = 0; i < nr_funcs; i++)
		unregister_kretprobe(&funcs[i].rp);
	free_counts();
}

module_init(kretprobe_stats_init);
module_exit(kretprobe_stats_exit);
MODULE_DESCRIPTION("Per-function call, error and latency statistics from kretprobes");
MODULE_LICENSE("GPL");
