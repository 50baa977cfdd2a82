// SPDX-License-Identifier: GPL-2.0-only
/*
 * kretprobe_stats.c - what a kretprobe can tell about a function's calls
 *
 * Puts kretprobes on one or several functions at once and keeps, per
 * function: how often it was called, how often it failed and with which
 * error, how long the calls took (min/avg/max and a log2 histogram), and
 * how many calls the kretprobe missed.
 *
 *   insmod kretprobe_stats.ko funcs=do_sys_openat2:int,__kmalloc_noprof:ptr
 *   cat /sys/kernel/debug/kretprobe_stats/stats
 *   echo disable > /sys/kernel/debug/kretprobe_stats/control
 *   echo enable > /sys/kernel/debug/kretprobe_stats/control
 *   echo reset > /sys/kernel/debug/kretprobe_stats/control
 *
 * How a function reports failure depends on its return type, which the
 * return register does not tell: give it after the name. For "long" (the
 * default) and "errptr" (ERR_PTR()), a value in [-MAX_ERRNO, -1] is a
 * failure; for "int" only the low 32 bits count, since a 64-bit CPU
 * leaves an int's -ENOENT as 0x00000000fffffffe in a 64-bit register; for
 * "ptr" (the kmalloc() family: __kmalloc_noprof since 6.10, __kmalloc
 * before), NULL is a failure.
 *
 * Two counters say how many calls were not seen:
 * - missed: the call found all maxactive instances in use (rp.nmissed);
 * - nested: the call came while a kprobe handler ran on its CPU, and
 *   kprobes does not run handlers from inside handlers (rp.kp.nmissed).
 *
 * "reset" starts every count again from zero: a call counts if its return
 * handler runs after the reset. What stats shows is always consistent:
 * calls == ok + failed == the histogram's total, whatever the handlers
 * are doing while it is read.
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
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define MAX_FUNCS	8
/* Each instance is allocated up front: as many as kprobe_events allows. */
#define MAX_MAXACTIVE	4096
#define NR_ARGS		3
/* Errors 1..133 (EHWPOISON) have a bucket each, others share bucket 0. */
#define NR_ERRNOS	134
/* Bucket i holds [2^(i-1), 2^i) ns; the last one everything above too. */
#define NR_BUCKETS	32

static char funcs[MAX_FUNCS * KSYM_NAME_LEN] = "do_sys_openat2:int";
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

/* How a function's return value says it failed. */
enum return_kind { RETURNS_LONG, RETURNS_INT, RETURNS_ERRPTR, RETURNS_PTR };

static const char * const return_kinds[] = {
	[RETURNS_LONG] = "long",
	[RETURNS_INT] = "int",
	[RETURNS_ERRPTR] = "errptr",
	[RETURNS_PTR] = "ptr",
};

/* Per-instance data: what the entry_handler passes to the return handler. */
struct call_data {
	u64 start_ns;
	/* Read only while log_failures is set, the one user of them. */
	bool have_args;
	unsigned long args[NR_ARGS];
};

/* One CPU's counts of one function since the reset numbered @epoch. */
struct call_counts {
	unsigned long epoch;
	unsigned long calls;
	unsigned long failures;
	unsigned long errnos[NR_ERRNOS];
	unsigned long buckets[NR_BUCKETS];
	u64 total_ns;
	u64 min_ns;
	u64 max_ns;
};

/*
 * Only the CPU's own return handler writes its counts; readers retry
 * until they copied them whole.
 */
struct cpu_counts {
	seqcount_t seq;
	struct call_counts counts;
};

struct probed_func {
	struct kretprobe rp;
	char name[KSYM_NAME_LEN];
	enum return_kind returns;
	struct cpu_counts __percpu *counts;
	/* Bumped by a reset: counts of an older epoch read as zero. */
	unsigned long epoch;
	/* What the kernel's miss counters were at the last reset. */
	unsigned int missed_at_reset;
	unsigned long nested_at_reset;
};

static struct probed_func probed[MAX_FUNCS];
static int nr_probed;

/*
 * The kprobes part: the handlers and the registration. The handlers and
 * what they call are NOKPROBE_SYMBOL: a kprobe on them would fire from
 * inside a handler, where kprobes can only count it as missed.
 */

static int entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_data *data = (struct call_data *)ri->data;
	int i;

	/*
	 * Non-zero: no return handler for this call, and not a miss.
	 * PF_KTHREAD, not current->mm: a kernel thread may borrow a user mm
	 * (kthread_use_mm()), and an exiting user task has none left.
	 */
	if (skip_kthreads && (current->flags & PF_KTHREAD))
		return 1;

	data->have_args = READ_ONCE(log_failures);
	if (data->have_args) {
		for (i = 0; i < NR_ARGS; i++) {
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
			data->args[i] = regs_get_kernel_argument(regs, i);
#else
			data->args[i] = 0;
#endif
		}
	}
	/* Unlike ktime_get_ns(), safe when the probed call comes from an NMI. */
	data->start_ns = local_clock();
	return 0;
}

NOKPROBE_SYMBOL(entry_handler);

/*
 * The error of a call that returned @retval: 0 for a success, the errno
 * for a failure, and -1 for a NULL pointer. Inlined into the handler: no
 * symbol of its own to probe, and no call on every return.
 */
static __always_inline long call_error(enum return_kind returns, unsigned long retval)
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
	unsigned long epoch = READ_ONCE(func->epoch);
	/*
	 * Handlers run with preemption disabled, and a probe hit inside a
	 * handler is missed instead of run: nothing else writes this CPU's
	 * counts while we do, no lock or atomic is needed. raw_: lockdep
	 * has no business in a handler that may run in an NMI.
	 */
	struct cpu_counts *cpu = this_cpu_ptr(func->counts);
	struct call_counts *c = &cpu->counts;

	raw_write_seqcount_begin(&cpu->seq);
	if (c->epoch != epoch) {
		memset(c, 0, sizeof(*c));
		c->epoch = epoch;
		c->min_ns = U64_MAX;
	}
	c->calls++;
	c->total_ns += delta;
	c->buckets[min(fls64(delta), NR_BUCKETS - 1)]++;
	if (delta < c->min_ns)
		c->min_ns = delta;
	if (delta > c->max_ns)
		c->max_ns = delta;
	if (err) {
		c->failures++;
		if (err > 0)
			c->errnos[err < NR_ERRNOS ? err : 0]++;
	}
	raw_write_seqcount_end(&cpu->seq);

	/* Not a call that started before log_failures was set. */
	if (!err || !log_failures || !data->have_args)
		return 0;
	if (err > 0)
		pr_info_ratelimited("%s(0x%lx, 0x%lx, 0x%lx) = %pe in %llu ns\n",
				    func->name, data->args[0], data->args[1], data->args[2],
				    ERR_PTR(-err), delta);
	else
		pr_info_ratelimited("%s(0x%lx, 0x%lx, 0x%lx) = NULL in %llu ns\n",
				    func->name, data->args[0], data->args[1], data->args[2],
				    delta);
	return 0;
}

NOKPROBE_SYMBOL(return_handler);

/*
 * register_kretprobes() says only that one of them failed: find which one
 * by trying each on its own (on the error path only).
 */
static void report_failure(struct kretprobe **rps, int batch_ret)
{
	int i, ret;

	for (i = 0; i < nr_probed; i++) {
		/*
		 * The failed batch filled in .addr from .symbol_name (giving
		 * both is -EINVAL) and may have left flags set: start afresh.
		 */
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

static int register_probes(void)
{
	struct kretprobe *rps[MAX_FUNCS];
	int i, ret;

	for (i = 0; i < nr_probed; i++) {
		struct kretprobe *rp = &probed[i].rp;

		rp->kp.symbol_name = probed[i].name;
		rp->entry_handler = entry_handler;
		rp->handler = return_handler;
		rp->data_size = sizeof(struct call_data);
		rp->maxactive = maxactive;
		rps[i] = rp;
	}
	/* All or nothing: on an error none of them stays registered. */
	ret = register_kretprobes(rps, nr_probed);
	if (ret)
		report_failure(rps, ret);
	return ret;
}

static void unregister_probes(void)
{
	struct kretprobe *rps[MAX_FUNCS];
	int i;

	for (i = 0; i < nr_probed; i++)
		rps[i] = &probed[i].rp;
	unregister_kretprobes(rps, nr_probed);
}

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
	if (!ret)
		return 0;
	pr_err("%s %s: %d\n", enable ? "enabling" : "disabling", probed[i].name, ret);
	while (--i >= 0) {
		if (enable)
			disable_kretprobe(&probed[i].rp);
		else
			enable_kretprobe(&probed[i].rp);
	}
	return ret;
}

/* Reading the counts: /sys/kernel/debug/kretprobe_stats/{stats,control} */

static bool probes_enabled = true;
/* Serializes the readers, reset, enable and disable. */
static DEFINE_MUTEX(control_lock);
static struct dentry *debugfs_dir;

static void reset_counts(struct probed_func *func)
{
	/* Handlers that read the new epoch start their CPU's counts anew. */
	WRITE_ONCE(func->epoch, func->epoch + 1);
	func->missed_at_reset = func->rp.nmissed;
	func->nested_at_reset = func->rp.kp.nmissed;
}

/* Sums the CPUs' counts of the current epoch; control_lock held. */
static void sum_counts(struct probed_func *func, struct call_counts *sum)
{
	/* Too big for the stack with the histogram and the errno table. */
	static struct call_counts snap;
	unsigned int seq;
	int cpu, i;

	memset(sum, 0, sizeof(*sum));
	sum->min_ns = U64_MAX;
	for_each_possible_cpu(cpu) {
		struct cpu_counts *counts = per_cpu_ptr(func->counts, cpu);

		do {
			seq = read_seqcount_begin(&counts->seq);
			snap = counts->counts;
		} while (read_seqcount_retry(&counts->seq, seq));
		if (snap.epoch != func->epoch)
			continue;

		sum->calls += snap.calls;
		sum->failures += snap.failures;
		sum->total_ns += snap.total_ns;
		sum->min_ns = min(sum->min_ns, snap.min_ns);
		sum->max_ns = max(sum->max_ns, snap.max_ns);
		for (i = 0; i < NR_ERRNOS; i++)
			sum->errnos[i] += snap.errnos[i];
		for (i = 0; i < NR_BUCKETS; i++)
			sum->buckets[i] += snap.buckets[i];
	}
}

/*
 * A kernel miss counter's increase since the last reset. The kernel bumps
 * it without atomics: an increment lost to a race can even take it below
 * what it was at the reset, which must not show as a huge number.
 */
static unsigned long since_reset(unsigned long now, unsigned long at_reset)
{
	return now > at_reset ? now - at_reset : 0;
}

static void show_func(struct seq_file *m, struct probed_func *func)
{
	static struct call_counts sum;
	int i;

	sum_counts(func, &sum);
	seq_printf(m, "%s: %s, maxactive %d, returns %s\n", func->name,
		   probes_enabled ? "enabled" : "disabled", func->rp.maxactive,
		   return_kinds[func->returns]);
	seq_printf(m, "  calls %lu ok %lu failed %lu (%lu%%)\n",
		   sum.calls, sum.calls - sum.failures, sum.failures,
		   sum.calls ? sum.failures * 100 / sum.calls : 0);
	seq_printf(m, "  missed %lu (all maxactive instances in use: rp.nmissed)\n",
		   since_reset(func->rp.nmissed, func->missed_at_reset));
	seq_printf(m, "  nested %lu (hit while a kprobe handler ran: rp.kp.nmissed)\n",
		   since_reset(func->rp.kp.nmissed, func->nested_at_reset));
	if (sum.calls)
		seq_printf(m, "  latency_ns min %llu avg %llu max %llu\n",
			   sum.min_ns, div64_u64(sum.total_ns, sum.calls), sum.max_ns);
	for (i = 1; i < NR_ERRNOS; i++)
		if (sum.errnos[i])
			seq_printf(m, "  errno %pe %lu\n", ERR_PTR(-i), sum.errnos[i]);
	if (sum.errnos[0])
		seq_printf(m, "  errno other %lu\n", sum.errnos[0]);
	for (i = 0; i < NR_BUCKETS - 1; i++)
		if (sum.buckets[i])
			seq_printf(m, "  hist_ns %llu-%llu %lu\n", i ? 1ULL << (i - 1) : 0,
				   (1ULL << i) - 1, sum.buckets[i]);
	if (sum.buckets[i])
		seq_printf(m, "  hist_ns %llu-inf %lu\n", 1ULL << (i - 1), sum.buckets[i]);
}

static int stats_show(struct seq_file *m, void *v)
{
	int i;

	mutex_lock(&control_lock);
	for (i = 0; i < nr_probed; i++)
		show_func(m, &probed[i]);
	mutex_unlock(&control_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int control_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", probes_enabled ? "enabled" : "disabled");
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
			reset_counts(&probed[i]);
	} else if (!strcmp(cmd, "enable") || !strcmp(cmd, "disable")) {
		bool enable = cmd[0] == 'e';

		if (enable != probes_enabled)
			ret = set_probes_enabled(enable);
		if (!ret)
			probes_enabled = enable;
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&control_lock);
	return ret ?: count;
}

static int control_open(struct inode *inode, struct file *file)
{
	return single_open(file, control_show, inode->i_private);
}

/* What DEFINE_SHOW_STORE_ATTRIBUTE() gives, spelled out to build on 6.1. */
static const struct file_operations control_fops = {
	.owner		= THIS_MODULE,
	.open		= control_open,
	.read		= seq_read,
	.write		= control_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* The module parameter "funcs", and loading and unloading. */

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

static void free_counts(void)
{
	int i;

	for (i = 0; i < nr_probed; i++)
		free_percpu(probed[i].counts);
	nr_probed = 0;
}

static int __init kretprobe_stats_init(void)
{
	int i, cpu, ret;

	if (maxactive < 0 || maxactive > MAX_MAXACTIVE) {
		pr_err("maxactive: %d is not within 0..%d\n", maxactive, MAX_MAXACTIVE);
		return -EINVAL;
	}
	ret = parse_funcs();
	if (ret)
		return ret;

	for (i = 0; i < nr_probed; i++) {
		struct probed_func *func = &probed[i];

		func->counts = alloc_percpu(struct cpu_counts);
		if (!func->counts) {
			free_counts();
			return -ENOMEM;
		}
		for_each_possible_cpu(cpu)
			seqcount_init(&per_cpu_ptr(func->counts, cpu)->seq);
		/* Epoch 0 is no one's: every CPU starts from zero. */
		func->epoch = 1;
	}

	ret = register_probes();
	if (ret) {
		free_counts();
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
	int i;

	debugfs_remove_recursive(debugfs_dir);
	unregister_probes();
	for (i = 0; i < nr_probed; i++)
		pr_info("%s: missed %d calls, %lu nested\n", probed[i].name,
			probed[i].rp.nmissed, probed[i].rp.kp.nmissed);
	free_counts();
}

module_init(kretprobe_stats_init);
module_exit(kretprobe_stats_exit);
MODULE_DESCRIPTION("Per-function call, error and latency statistics from kretprobes");
MODULE_LICENSE("GPL");
