// SPDX-License-Identifier: GPL-2.0-only
/*
 * kretprobe_stats.c - what a kretprobe can tell about a function's calls
 *
 * Puts kretprobes on one or several functions at once and keeps, per
 * function: how often it was called, how often it failed and with which
 * error, how long the calls took (min/avg/max and a log2 histogram), and
 * how many calls the kretprobe missed because all of its instances were in
 * use (see maxactive in Documentation/trace/kprobes.rst).
 *
 *   insmod kretprobe_stats.ko funcs=do_sys_openat2:int,do_filp_open:errptr
 *   cat /sys/kernel/debug/kretprobe_stats/stats
 *   echo disable > /sys/kernel/debug/kretprobe_stats/control
 *   echo enable > /sys/kernel/debug/kretprobe_stats/control
 *   echo reset > /sys/kernel/debug/kretprobe_stats/control
 *
 * It shows:
 * - register_kretprobes() for several functions at once, with a readable
 *   error when one of them cannot be probed;
 * - an entry_handler with per-instance data (data_size): the entry time
 *   and the first arguments, read with regs_get_kernel_argument(). This is
 *   what jprobes were once used for;
 * - an entry_handler that returns non-zero to skip a call (kernel threads,
 *   with skip_kthreads=1);
 * - per-CPU counters updated without locks or atomics in the handlers, summed
 *   when read;
 * - disable_kretprobe()/enable_kretprobe() at run time;
 * - nmissed, and the maxactive that bounds it.
 *
 * How a function reports failure depends on its return type, which the
 * return register does not tell: give it after the name, as in
 * "do_sys_openat2:int". A value in [-MAX_ERRNO, -1] is a failure for
 * "long" (the default) and "errptr" (ERR_PTR()); for "int" only the low
 * 32 bits count, since a 64-bit CPU leaves an int's -ENOENT as
 * 0x00000000fffffffe in a 64-bit register; for "ptr", NULL is a failure.
 * With CONFIG_SYMBOLIC_ERRNAME the errors show by name (-ENOENT).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define MAX_FUNCS	8
/* Each instance is allocated up front: as many as kprobe_events allows. */
#define MAX_MAXACTIVE	4096
#define NR_ARGS		3
/* Errors 1..133 (EHWPOISON) have a bucket each, others share bucket 0. */
#define NR_ERRNOS	134
#define NR_BUCKETS	32

static char funcs[MAX_FUNCS * KSYM_NAME_LEN] = "do_sys_openat2";
module_param_string(funcs, funcs, sizeof(funcs), 0444);
MODULE_PARM_DESC(funcs, "Functions to probe, comma-separated (at most 8), each as name[:int|long|ptr|errptr]");

static int maxactive;
module_param(maxactive, int, 0444);
MODULE_PARM_DESC(maxactive, "Calls tracked at once per function (0-4096); 0: the kernel's default");

static bool skip_kthreads;
module_param(skip_kthreads, bool, 0444);
MODULE_PARM_DESC(skip_kthreads, "Ignore calls made by kernel threads");

static bool log_failures;
module_param(log_failures, bool, 0644);
MODULE_PARM_DESC(log_failures, "Log failing calls with their arguments (rate-limited)");

/* Updated by one CPU's handlers, summed over all CPUs when read. */
struct func_stats {
	unsigned long calls;
	unsigned long failures;
	unsigned long errnos[NR_ERRNOS];
	unsigned long buckets[NR_BUCKETS];	/* [2^(i-1), 2^i) ns */
	u64 total_ns;
	u64 min_ns;
	u64 max_ns;
};

/* How a function's return value says it failed. */
enum return_kind { RETURNS_LONG, RETURNS_INT, RETURNS_ERRPTR, RETURNS_PTR };

static const char * const return_kinds[] = {
	[RETURNS_LONG] = "long",
	[RETURNS_INT] = "int",
	[RETURNS_ERRPTR] = "errptr",
	[RETURNS_PTR] = "ptr",
};

struct probed_func {
	struct kretprobe rp;
	char name[KSYM_NAME_LEN];
	enum return_kind returns;
	struct func_stats __percpu *stats;
};

/* Per-instance data: what the entry_handler passes to the return handler. */
struct call_data {
	u64 start_ns;
	unsigned long args[NR_ARGS];
};

static struct probed_func probed[MAX_FUNCS];
static int nr_probed;
static bool probes_enabled = true;
static DEFINE_MUTEX(control_lock);
static struct dentry *debugfs_dir;

static int entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_data *data = (struct call_data *)ri->data;
	int i;

	/* Non-zero: no return handler for this call, and not a miss. */
	if (skip_kthreads && (current->flags & PF_KTHREAD))
		return 1;

	for (i = 0; i < NR_ARGS; i++) {
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
		data->args[i] = regs_get_kernel_argument(regs, i);
#else
		data->args[i] = 0;
#endif
	}
	/* Unlike ktime_get_ns(), safe when the probed call comes from an NMI. */
	data->start_ns = local_clock();
	return 0;
}

NOKPROBE_SYMBOL(entry_handler);

/*
 * The error of a call that returned @retval: 0 for a success, the errno
 * for a failure, and -1 for a NULL pointer.
 */
static long call_error(enum return_kind returns, unsigned long retval)
{
	if (returns == RETURNS_PTR)
		return retval ? 0 : -1;
	if (returns == RETURNS_INT)
		retval = (long)(int)retval;
	return IS_ERR_VALUE(retval) ? -(long)retval : 0;
}

static int return_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct probed_func *func = container_of(get_kretprobe(ri), struct probed_func, rp);
	struct call_data *data = (struct call_data *)ri->data;
	long err = call_error(func->returns, regs_return_value(regs));
	/* A call that slept may return on a CPU whose clock lags a little. */
	u64 now = local_clock();
	u64 delta = now > data->start_ns ? now - data->start_ns : 0;
	/*
	 * Handlers run with preemption disabled, and a probe hit inside a
	 * handler counts as missed instead of running it: nothing else
	 * updates this CPU's counters while we do, no atomics are needed.
	 */
	struct func_stats *stats = this_cpu_ptr(func->stats);

	stats->calls++;
	stats->total_ns += delta;
	stats->buckets[min(fls64(delta), NR_BUCKETS - 1)]++;
	stats->min_ns = min(stats->min_ns, delta);
	stats->max_ns = max(stats->max_ns, delta);

	if (err) {
		stats->failures++;
		if (err > 0)
			stats->errnos[err < NR_ERRNOS ? err : 0]++;
		if (log_failures && err > 0)
			pr_info_ratelimited("%s(0x%lx, 0x%lx, 0x%lx) = %pe in %llu ns\n",
					    func->name, data->args[0], data->args[1],
					    data->args[2], ERR_PTR(-err), delta);
		else if (log_failures)
			pr_info_ratelimited("%s(0x%lx, 0x%lx, 0x%lx) = NULL in %llu ns\n",
					    func->name, data->args[0], data->args[1],
					    data->args[2], delta);
	}
	return 0;
}

NOKPROBE_SYMBOL(return_handler);

static void reset_stats(struct probed_func *func)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct func_stats *stats = per_cpu_ptr(func->stats, cpu);

		memset(stats, 0, sizeof(*stats));
		stats->min_ns = U64_MAX;
	}
	func->rp.nmissed = 0;
}

static void sum_stats(struct probed_func *func, struct func_stats *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(*sum));
	sum->min_ns = U64_MAX;
	for_each_possible_cpu(cpu) {
		struct func_stats *stats = per_cpu_ptr(func->stats, cpu);

		sum->calls += stats->calls;
		sum->failures += stats->failures;
		sum->total_ns += stats->total_ns;
		sum->min_ns = min(sum->min_ns, stats->min_ns);
		sum->max_ns = max(sum->max_ns, stats->max_ns);
		for (i = 0; i < NR_ERRNOS; i++)
			sum->errnos[i] += stats->errnos[i];
		for (i = 0; i < NR_BUCKETS; i++)
			sum->buckets[i] += stats->buckets[i];
	}
}

static int stats_show(struct seq_file *m, void *v)
{
	/*
	 * Too big for the stack with the histogram and the errno table;
	 * control_lock serializes its users.
	 */
	static struct func_stats sum_buf;
	struct func_stats *sum = &sum_buf;
	int i, j;

	mutex_lock(&control_lock);
	for (i = 0; i < nr_probed; i++) {
		struct probed_func *func = &probed[i];

		sum_stats(func, sum);
		seq_printf(m, "%s: %s, maxactive %d, returns %s\n", func->name,
			   probes_enabled ? "enabled" : "disabled", func->rp.maxactive,
			   return_kinds[func->returns]);
		seq_printf(m, "  calls %lu ok %lu failed %lu (%lu%%) missed %d\n",
			   sum->calls, sum->calls - sum->failures, sum->failures,
			   sum->calls ? sum->failures * 100 / sum->calls : 0,
			   func->rp.nmissed);
		if (sum->calls)
			seq_printf(m, "  latency_ns min %llu avg %llu max %llu\n",
				   sum->min_ns, div64_u64(sum->total_ns, sum->calls),
				   sum->max_ns);
		for (j = 1; j < NR_ERRNOS; j++)
			if (sum->errnos[j])
				seq_printf(m, "  errno %pe %lu\n", ERR_PTR(-j), sum->errnos[j]);
		if (sum->errnos[0])
			seq_printf(m, "  errno other %lu\n", sum->errnos[0]);
		for (j = 0; j < NR_BUCKETS; j++)
			if (sum->buckets[j])
				seq_printf(m, "  hist_ns %llu-%llu %lu\n",
					   j ? 1ULL << (j - 1) : 0, (1ULL << j) - 1,
					   sum->buckets[j]);
	}
	mutex_unlock(&control_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/* Enables or disables every probe; on an error, undoes what it did. */
static int set_probes_enabled(bool enable)
{
	int i, ret = 0;

	for (i = 0; i < nr_probed; i++) {
		ret = enable ? enable_kretprobe(&probed[i].rp) :
			       disable_kretprobe(&probed[i].rp);
		if (ret)
			break;
	}
	if (ret) {
		pr_err("%s %s: %d\n", enable ? "enabling" : "disabling",
		       probed[i].name, ret);
		while (--i >= 0) {
			if (enable)
				disable_kretprobe(&probed[i].rp);
			else
				enable_kretprobe(&probed[i].rp);
		}
		return ret;
	}
	probes_enabled = enable;
	return 0;
}

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
		for (i = 0; i < nr_probed; i++)
			reset_stats(&probed[i]);
	} else if (!strcmp(cmd, "enable")) {
		if (!probes_enabled)
			ret = set_probes_enabled(true);
	} else if (!strcmp(cmd, "disable")) {
		if (probes_enabled)
			ret = set_probes_enabled(false);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&control_lock);
	return ret ?: count;
}

static int control_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", probes_enabled ? "enabled" : "disabled");
	return 0;
}

static int control_open(struct inode *inode, struct file *file)
{
	return single_open(file, control_show, NULL);
}

static const struct file_operations control_fops = {
	.owner = THIS_MODULE,
	.open = control_open,
	.read = seq_read,
	.write = control_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* The index of @name in probed[], or nr_probed. */
static int find_probed(const char *name)
{
	int i;

	for (i = 0; i < nr_probed; i++)
		if (!strcmp(probed[i].name, name))
			break;
	return i;
}

/* Fills probed[] from the funcs parameter, which stays as it was given. */
static int parse_funcs(void)
{
	char *copy, *list, *name, *kind;
	int returns, ret = 0;

	copy = kstrdup(funcs, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	list = copy;
	while ((name = strsep(&list, ",")) != NULL) {
		kind = strchr(name, ':');
		if (kind)
			*kind++ = '\0';
		name = strim(name);
		if (!*name && !kind)
			continue;
		if (!*name) {
			pr_err("funcs: \":%s\" without a function name\n", kind);
			ret = -EINVAL;
			break;
		}
		if (nr_probed == MAX_FUNCS) {
			pr_err("funcs: more than %d functions\n", MAX_FUNCS);
			ret = -E2BIG;
			break;
		}
		if (strscpy(probed[nr_probed].name, name, KSYM_NAME_LEN) < 0) {
			pr_err("funcs: a name longer than %d characters\n", KSYM_NAME_LEN - 1);
			ret = -E2BIG;
			break;
		}
		if (find_probed(name) != nr_probed) {
			pr_err("funcs: %s is listed twice\n", name);
			ret = -EINVAL;
			break;
		}
		returns = kind ? match_string(return_kinds, ARRAY_SIZE(return_kinds), strim(kind)) :
				 RETURNS_LONG;
		if (returns < 0) {
			pr_err("funcs: %s returns int, long, ptr or errptr, not \"%s\"\n",
			       name, kind);
			ret = -EINVAL;
			break;
		}
		probed[nr_probed++].returns = returns;
	}
	kfree(copy);
	if (!ret && !nr_probed) {
		pr_err("funcs: no function to probe\n");
		ret = -EINVAL;
	}
	if (ret)
		nr_probed = 0;
	return ret;
}

/*
 * register_kretprobes() says only that one of them failed: find which one
 * by trying each on its own (on the error path only).
 */
static void report_failure(struct kretprobe **rps, int batch_ret)
{
	int i, ret;

	for (i = 0; i < nr_probed; i++) {
		rps[i]->kp.addr = NULL;
		rps[i]->kp.flags = 0;
		ret = register_kretprobe(rps[i]);
		if (!ret) {
			unregister_kretprobe(rps[i]);
			continue;
		}
		pr_err("cannot probe %s: %d%s\n", probed[i].name, ret,
		       ret == -ENOENT ? " (no such function)" :
		       ret == -EINVAL ? " (blacklisted, or not a function entry)" : "");
		return;
	}
	pr_err("register_kretprobes() failed: %d\n", batch_ret);
}

static void free_stats(void)
{
	int i;

	for (i = 0; i < nr_probed; i++)
		free_percpu(probed[i].stats);
}

static int __init kretprobe_stats_init(void)
{
	struct kretprobe *rps[MAX_FUNCS];
	int i, ret;

	if (maxactive < 0 || maxactive > MAX_MAXACTIVE) {
		pr_err("maxactive: %d is not within 0..%d\n", maxactive, MAX_MAXACTIVE);
		return -EINVAL;
	}
	ret = parse_funcs();
	if (ret)
		return ret;

	for (i = 0; i < nr_probed; i++) {
		struct probed_func *func = &probed[i];

		func->stats = alloc_percpu(struct func_stats);
		if (!func->stats) {
			free_stats();
			nr_probed = 0;
			return -ENOMEM;
		}
		reset_stats(func);
		func->rp.kp.symbol_name = func->name;
		func->rp.entry_handler = entry_handler;
		func->rp.handler = return_handler;
		func->rp.data_size = sizeof(struct call_data);
		func->rp.maxactive = maxactive;
		rps[i] = &func->rp;
	}

	/* All or nothing: on an error none of them stays registered. */
	ret = register_kretprobes(rps, nr_probed);
	if (ret) {
		report_failure(rps, ret);
		free_stats();
		nr_probed = 0;
		return ret;
	}

	debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stats", 0400, debugfs_dir, NULL, &stats_fops);
	debugfs_create_file("control", 0600, debugfs_dir, NULL, &control_fops);
	for (i = 0; i < nr_probed; i++)
		pr_info("probing %s\n", probed[i].name);
	return 0;
}

static void __exit kretprobe_stats_exit(void)
{
	struct kretprobe *rps[MAX_FUNCS];
	int i;

	debugfs_remove_recursive(debugfs_dir);
	for (i = 0; i < nr_probed; i++)
		rps[i] = &probed[i].rp;
	unregister_kretprobes(rps, nr_probed);
	for (i = 0; i < nr_probed; i++)
		pr_info("%s: missed %d calls\n", probed[i].name, probed[i].rp.nmissed);
	free_stats();
}

module_init(kretprobe_stats_init);
module_exit(kretprobe_stats_exit);
MODULE_DESCRIPTION("Per-function call, error and latency statistics from kretprobes");
MODULE_LICENSE("GPL");
