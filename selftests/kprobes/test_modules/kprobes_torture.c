// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes_torture.c - kprobes torture test, in the spirit of locktorture
 *
 * Loading the module starts it. @threads controller threads register,
 * unregister, enable and disable kprobes and kretprobes at random, one at
 * a time and in batches, while a hitter thread on every online CPU keeps
 * calling the probed functions. After @duration seconds the controllers
 * unregister what they hold and everything stops. All along the invariants
 * are checked:
 *
 *  - no handler runs for a probe that is disabled or not registered;
 *  - a kprobe's handler runs plus its nmissed equal the calls made to its
 *    target while it was enabled;
 *  - a kretprobe's entry handler runs plus its nmissed equal those calls,
 *    and every entry gets exactly one return, with its instance data;
 *  - registration never fails and nothing is left registered at the end.
 *
 * To know exactly which calls an enabled probe saw, a probe changes state
 * only while no call to its target is in flight: the controller closes the
 * target's gate, waits for the calls inside to return, changes the state
 * and opens the gate again.
 *
 * /sys/kernel/debug/kprobes_torture/status shows "state running" or
 * "state done" and the counters; "violations" must stay 0.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "kst_insn.h"

#define KT_TARGETS		4
#define KT_SLOTS_PER_THREAD	8
#define KT_MAX_THREADS		16
#define KT_MAX_DURATION		86400
#define KT_MAGIC		0x746f7274UL

static int threads = 4;
module_param(threads, int, 0444);
MODULE_PARM_DESC(threads, "Controller threads (1-16)");

static int duration = 3;
module_param(duration, int, 0444);
MODULE_PARM_DESC(duration, "Seconds to run (1-86400)");

struct kt_target {
	long (*func)(long value);
	const char *symbol;
	int inner_offset;
	/* Serialises the state changes of the probes on this target. */
	struct mutex lock;
	bool open;
	atomic_t in_flight;
	/* Calls made through the open gate. */
	atomic_long_t calls;
};

enum kt_kind {
	KT_KPROBE_ENTRY,
	KT_KPROBE_INNER,
	KT_KRETPROBE,
	KT_KRETPROBE_SCARCE,	/* maxactive 1: instances run out */
	KT_KINDS,
};

struct kt_slot {
	struct kt_target *target;
	enum kt_kind kind;
	struct kprobe kp;
	struct kretprobe rp;
	bool registered;
	/* Registered and not disabled; read by the handlers. */
	bool enabled;
	long calls_base;	/* target calls when last enabled */
	long expected;		/* target calls while enabled */
	atomic_long_t entries;	/* pre_handler or entry_handler runs */
	atomic_long_t returns;
};

struct kt_thread {
	struct task_struct *task;
	struct kt_slot slots[KT_SLOTS_PER_THREAD];
};

struct kt_instance_data {
	unsigned long magic;
	struct kt_slot *slot;
};

static struct kt_target kt_targets[KT_TARGETS];
static struct kt_thread *kt_threads;
static struct task_struct **kt_hitters;
static struct dentry *kt_dir;
static unsigned long kt_deadline;
static atomic_t kt_active;
static bool kt_finished;
static bool kt_racy_nmissed;

static atomic_t kt_violations;
static atomic_long_t kt_registers, kt_unregisters, kt_enables, kt_disables,
	kt_batches, kt_hits, kt_missed;

/*
 * Called through pointers so that the compiler can neither inline them nor
 * fold the calls away; distinct bodies so that they are not merged. Each
 * reads kt_zero: a return and the instruction in its delay slot, which
 * MIPS kprobes refuse, would leave no instruction after the entry to probe.
 */
static long kt_zero;

static noinline long kt_target0(long value)
{
	return value + 10 + READ_ONCE(kt_zero);
}

static noinline long kt_target1(long value)
{
	return value * 3 + 1 + READ_ONCE(kt_zero);
}

static noinline long kt_target2(long value)
{
	return (value ^ 0x5a5a) + READ_ONCE(kt_zero);
}

static noinline long kt_target3(long value)
{
	return value - 7 + READ_ONCE(kt_zero);
}

static __printf(2, 3) void kt_violation(struct kt_slot *slot, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	atomic_inc(&kt_violations);
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err_ratelimited("violation: %s kind %d: %pV\n", slot->target->symbol,
			   slot->kind, &vaf);
	va_end(args);
}

static void kt_entered(struct kt_slot *slot)
{
	if (!READ_ONCE(slot->enabled))
		kt_violation(slot, "handler ran while disabled or unregistered");
	atomic_long_inc(&slot->entries);
	atomic_long_inc(&kt_hits);
}

static int kt_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	kt_entered(container_of(kp, struct kt_slot, kp));
	return 0;
}

static int kt_entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kt_slot *slot = container_of(get_kretprobe(ri), struct kt_slot, rp);
	struct kt_instance_data *data = (void *)ri->data;

	kt_entered(slot);
	data->magic = KT_MAGIC;
	data->slot = slot;
	return 0;
}

static int kt_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kt_slot *slot = container_of(get_kretprobe(ri), struct kt_slot, rp);
	struct kt_instance_data *data = (void *)ri->data;

	if (!READ_ONCE(slot->enabled))
		kt_violation(slot, "return handler ran while disabled or unregistered");
	if (data->magic != KT_MAGIC || data->slot != slot)
		kt_violation(slot, "instance data lost between entry and return");
	atomic_long_inc(&slot->returns);
	return 0;
}

/*
 * The gate: a hitter enters only while it is open; closing it waits for
 * the hitters inside to leave. The barriers order the hitter's
 * in_flight/open accesses against the controller's open/in_flight ones.
 */
static void kt_close(struct kt_target *t)
{
	/* A batch holds several, always taken in target order. */
	mutex_lock_nested(&t->lock, t - kt_targets);
	WRITE_ONCE(t->open, false);
	/* Pairs with kt_call(): it sees the gate closed, or we see it inside. */
	smp_mb();
	while (atomic_read(&t->in_flight))
		usleep_range(50, 200);
	/* Pairs with kt_call()'s last barrier: its calls count is visible. */
	smp_mb();
}

static void kt_open(struct kt_target *t)
{
	/* The probe's new state is visible before any call goes in. */
	smp_mb();
	WRITE_ONCE(t->open, true);
	mutex_unlock(&t->lock);
}

static void kt_call(struct kt_target *t, long value)
{
	if (!READ_ONCE(t->open))
		return;
	atomic_inc(&t->in_flight);
	/* Pairs with kt_close(): it sees us inside, or we see the gate closed. */
	smp_mb__after_atomic();
	if (READ_ONCE(t->open)) {
		t->func(value);
		atomic_long_inc(&t->calls);
	}
	/* The call and its count are done before we are seen leaving. */
	smp_mb__before_atomic();
	atomic_dec(&t->in_flight);
}

static bool kt_is_kretprobe(struct kt_slot *slot)
{
	return slot->kind == KT_KRETPROBE || slot->kind == KT_KRETPROBE_SCARCE;
}

/* The target's gate is closed from here on until kt_open(). */
static void kt_set_enabled(struct kt_slot *slot, bool enabled)
{
	long calls = atomic_long_read(&slot->target->calls);

	if (slot->enabled)
		slot->expected += calls - slot->calls_base;
	slot->calls_base = calls;
	WRITE_ONCE(slot->enabled, enabled);
}

/* Fills the probe in afresh: a registered struct may not be reused as is. */
static void kt_prepare(struct kt_slot *slot, bool disabled)
{
	struct kt_target *t = slot->target;
	struct kprobe *kp = kt_is_kretprobe(slot) ? &slot->rp.kp : &slot->kp;

	memset(&slot->kp, 0, sizeof(slot->kp));
	memset(&slot->rp, 0, sizeof(slot->rp));
	kp->symbol_name = t->symbol;
	kp->flags = disabled ? KPROBE_FLAG_DISABLED : 0;
	if (slot->kind == KT_KPROBE_INNER)
		kp->offset = t->inner_offset;
	if (kt_is_kretprobe(slot)) {
		slot->rp.handler = kt_ret_handler;
		slot->rp.entry_handler = kt_entry_handler;
		slot->rp.data_size = sizeof(struct kt_instance_data);
		slot->rp.maxactive = slot->kind == KT_KRETPROBE_SCARCE ? 1 : 0;
	} else {
		kp->pre_handler = kt_pre_handler;
	}
	slot->expected = 0;
	atomic_long_set(&slot->entries, 0);
	atomic_long_set(&slot->returns, 0);
	slot->enabled = false;
}

/* After a successful registration, with the gate closed. */
static void kt_registered(struct kt_slot *slot, bool disabled)
{
	slot->registered = true;
	atomic_long_inc(&kt_registers);
	kt_set_enabled(slot, !disabled);
}

/* After unregistration, with the gate closed: settles the slot's account. */
static void kt_unregistered(struct kt_slot *slot)
{
	long entries, returns, missed;

	kt_set_enabled(slot, false);
	slot->registered = false;
	atomic_long_inc(&kt_unregisters);
	entries = atomic_long_read(&slot->entries);
	returns = atomic_long_read(&slot->returns);
	if (kt_is_kretprobe(slot))
		missed = slot->rp.nmissed + slot->rp.kp.nmissed;
	else
		missed = slot->kp.nmissed;
	atomic_long_add(missed, &kt_missed);
	/*
	 * A kretprobe's nmissed is a plain int that CPUs increment without
	 * atomics: when more than two CPUs miss its instances at once, two
	 * misses can count as one. With two CPUs that cannot happen here,
	 * as one of the two hitters holds the instance the other misses.
	 */
	if (entries + missed != slot->expected &&
	    !(kt_racy_nmissed && kt_is_kretprobe(slot) && entries + missed < slot->expected))
		kt_violation(slot, "%ld calls while enabled, but %ld handler runs + %ld missed",
			     slot->expected, entries, missed);
	if (kt_is_kretprobe(slot) && returns != entries)
		kt_violation(slot, "%ld entries but %ld returns", entries, returns);
}

static void kt_register_one(struct kt_slot *slot)
{
	bool disabled = !get_random_u32_below(4);
	int ret;

	kt_close(slot->target);
	kt_prepare(slot, disabled);
	if (kt_is_kretprobe(slot))
		ret = register_kretprobe(&slot->rp);
	else
		ret = register_kprobe(&slot->kp);
	if (ret)
		kt_violation(slot, "registration failed: %d", ret);
	else
		kt_registered(slot, disabled);
	kt_open(slot->target);
}

static void kt_unregister_one(struct kt_slot *slot)
{
	kt_close(slot->target);
	if (kt_is_kretprobe(slot))
		unregister_kretprobe(&slot->rp);
	else
		unregister_kprobe(&slot->kp);
	kt_unregistered(slot);
	kt_open(slot->target);
}

static void kt_enable_one(struct kt_slot *slot, bool enable)
{
	struct kprobe *kp = kt_is_kretprobe(slot) ? &slot->rp.kp : &slot->kp;
	int ret;

	kt_close(slot->target);
	if (enable) {
		kt_set_enabled(slot, true);
		ret = enable_kprobe(kp);
		if (ret) {
			kt_violation(slot, "enable failed: %d", ret);
			kt_set_enabled(slot, false);
		}
		atomic_long_inc(&kt_enables);
	} else {
		ret = disable_kprobe(kp);
		if (ret)
			kt_violation(slot, "disable failed: %d", ret);
		kt_set_enabled(slot, false);
		atomic_long_inc(&kt_disables);
	}
	kt_open(slot->target);
}

/* Closes the gates of the targets in @mask in one order, against deadlock. */
static void kt_close_targets(unsigned long mask)
{
	int i;

	for (i = 0; i < KT_TARGETS; i++)
		if (mask & BIT(i))
			kt_close(&kt_targets[i]);
}

static void kt_open_targets(unsigned long mask)
{
	int i;

	for (i = KT_TARGETS - 1; i >= 0; i--)
		if (mask & BIT(i))
			kt_open(&kt_targets[i]);
}

/*
 * Registers (or unregisters) with one batch call every slot of @thread
 * that holds a kretprobe (or a kprobe) and is not (or is) registered.
 */
static void kt_batch(struct kt_thread *thread, bool kretprobes, bool reg)
{
	struct kt_slot *batch[KT_SLOTS_PER_THREAD];
	struct kprobe *kps[KT_SLOTS_PER_THREAD];
	struct kretprobe *rps[KT_SLOTS_PER_THREAD];
	bool disabled = !get_random_u32_below(4);
	unsigned long mask = 0;
	int i, num = 0, ret = 0;

	for (i = 0; i < KT_SLOTS_PER_THREAD; i++) {
		struct kt_slot *slot = &thread->slots[i];

		if (kt_is_kretprobe(slot) != kretprobes || slot->registered == reg)
			continue;
		batch[num] = slot;
		kps[num] = &slot->kp;
		rps[num] = &slot->rp;
		mask |= BIT(slot->target - kt_targets);
		num++;
	}
	if (!num)
		return;

	kt_close_targets(mask);
	if (reg) {
		for (i = 0; i < num; i++)
			kt_prepare(batch[i], disabled);
		ret = kretprobes ? register_kretprobes(rps, num) :
				   register_kprobes(kps, num);
		if (ret)
			kt_violation(batch[0], "batch registration of %d failed: %d", num, ret);
	} else if (kretprobes) {
		unregister_kretprobes(rps, num);
	} else {
		unregister_kprobes(kps, num);
	}
	for (i = 0; i < num && !ret; i++) {
		if (reg)
			kt_registered(batch[i], disabled);
		else
			kt_unregistered(batch[i]);
	}
	kt_open_targets(mask);
	atomic_long_inc(&kt_batches);
}

static struct kt_slot *kt_pick(struct kt_thread *thread, bool registered)
{
	struct kt_slot *slot = &thread->slots[get_random_u32_below(KT_SLOTS_PER_THREAD)];

	return slot->registered == registered ? slot : NULL;
}

static void kt_step(struct kt_thread *thread)
{
	struct kt_slot *slot;

	switch (get_random_u32_below(6)) {
	case 0:
		slot = kt_pick(thread, false);
		if (slot)
			kt_register_one(slot);
		break;
	case 1:
		slot = kt_pick(thread, true);
		if (slot)
			kt_unregister_one(slot);
		break;
	case 2:
	case 3:
		slot = kt_pick(thread, true);
		if (slot)
			kt_enable_one(slot, !slot->enabled);
		break;
	case 4:
		kt_batch(thread, get_random_u32_below(2), true);
		break;
	case 5:
		kt_batch(thread, get_random_u32_below(2), false);
		break;
	}
}

/* kthread_stop() wants the thread to still exist: idle until then. */
static void kt_wait_for_stop(void)
{
	set_current_state(TASK_IDLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_IDLE);
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * Every operation once before the random ones: a short run (3 s of a
 * debug kernel in CI) then exercises them all, whatever the dice say.
 */
static void kt_first_round(struct kt_thread *thread)
{
	struct kt_slot *slot = &thread->slots[0];

	kt_register_one(slot);
	if (slot->registered) {
		/* Registered enabled or disabled: two flips do both. */
		kt_enable_one(slot, !slot->enabled);
		kt_enable_one(slot, !slot->enabled);
		kt_unregister_one(slot);
	}
	kt_batch(thread, false, true);
	kt_batch(thread, true, true);
	kt_batch(thread, false, false);
	kt_batch(thread, true, false);
}

static int kt_controller(void *arg)
{
	struct kt_thread *thread = arg;
	int i;

	kt_first_round(thread);
	while (!kthread_should_stop() && time_before(jiffies, kt_deadline)) {
		kt_step(thread);
		cond_resched();
	}
	for (i = 0; i < KT_SLOTS_PER_THREAD; i++)
		if (thread->slots[i].registered)
			kt_unregister_one(&thread->slots[i]);
	if (atomic_dec_and_test(&kt_active)) {
		WRITE_ONCE(kt_finished, true);
		pr_info("done: %d violations\n", atomic_read(&kt_violations));
	}
	kt_wait_for_stop();
	return 0;
}

static int kt_hitter(void *unused)
{
	long value = 0;
	int i;

	while (!kthread_should_stop() && !READ_ONCE(kt_finished)) {
		for (i = 0; i < KT_TARGETS; i++)
			kt_call(&kt_targets[i], value++);
		/*
		 * Optimizing a kprobe waits for an RCU Tasks grace period,
		 * which a busy kthread holds up unless it reports one.
		 */
		cond_resched_tasks_rcu_qs();
	}
	kt_wait_for_stop();
	return 0;
}

static int kt_status_show(struct seq_file *m, void *v)
{
	seq_printf(m, "state %s\n", READ_ONCE(kt_finished) ? "done" : "running");
	seq_printf(m, "threads %d\nduration %d\n", threads, duration);
	seq_printf(m, "registers %ld\nunregisters %ld\n",
		   atomic_long_read(&kt_registers), atomic_long_read(&kt_unregisters));
	seq_printf(m, "enables %ld\ndisables %ld\nbatches %ld\n",
		   atomic_long_read(&kt_enables), atomic_long_read(&kt_disables),
		   atomic_long_read(&kt_batches));
	seq_printf(m, "hits %ld\nmissed %ld\n", atomic_long_read(&kt_hits),
		   atomic_long_read(&kt_missed));
	seq_printf(m, "violations %d\n", atomic_read(&kt_violations));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kt_status);

static void kt_stop_threads(void)
{
	int i;

	for (i = 0; i < threads; i++)
		if (kt_threads[i].task)
			kthread_stop(kt_threads[i].task);
	for (i = 0; i < nr_cpu_ids; i++)
		if (kt_hitters[i])
			kthread_stop(kt_hitters[i]);
}

static int __init kt_init(void)
{
	static long (* const funcs[KT_TARGETS])(long value) = {
		kt_target0, kt_target1, kt_target2, kt_target3,
	};
	static const char * const symbols[KT_TARGETS] = {
		"kt_target0", "kt_target1", "kt_target2", "kt_target3",
	};
	struct task_struct *task;
	int i, j, cpu, ret;

	BUILD_BUG_ON(KT_TARGETS > MAX_LOCKDEP_SUBCLASSES);
	if (threads < 1 || threads > KT_MAX_THREADS) {
		pr_err("threads=%d: must be 1 to %d\n", threads, KT_MAX_THREADS);
		return -EINVAL;
	}
	if (duration < 1 || duration > KT_MAX_DURATION) {
		pr_err("duration=%d: must be 1 to %d seconds\n", duration, KT_MAX_DURATION);
		return -EINVAL;
	}

	for (i = 0; i < KT_TARGETS; i++) {
		struct kt_target *t = &kt_targets[i];

		t->func = funcs[i];
		t->symbol = symbols[i];
		mutex_init(&t->lock);
		t->open = true;
		ret = kst_inner_offset(t->symbol, t->func);
		if (ret < 0) {
			pr_err("no kprobe inside %s: %d\n", t->symbol, ret);
			return ret;
		}
		t->inner_offset = ret;
	}

	kt_threads = kcalloc(threads, sizeof(*kt_threads), GFP_KERNEL);
	kt_hitters = kcalloc(nr_cpu_ids, sizeof(*kt_hitters), GFP_KERNEL);
	if (!kt_threads || !kt_hitters) {
		ret = -ENOMEM;
		goto free;
	}
	for (i = 0; i < threads; i++) {
		for (j = 0; j < KT_SLOTS_PER_THREAD; j++) {
			struct kt_slot *slot = &kt_threads[i].slots[j];

			/* Every target gets every kind, from several threads. */
			slot->kind = j % KT_KINDS;
			slot->target = &kt_targets[(i + j / KT_KINDS + j) % KT_TARGETS];
		}
	}

	kt_racy_nmissed = num_online_cpus() > 2;
	kt_deadline = jiffies + duration * HZ;
	atomic_set(&kt_active, threads);
	for_each_online_cpu(cpu) {
		task = kthread_create_on_cpu(kt_hitter, NULL, cpu, "kt_hitter/%u");
		if (IS_ERR(task)) {
			ret = PTR_ERR(task);
			goto stop;
		}
		kt_hitters[cpu] = task;
		wake_up_process(task);
	}
	for (i = 0; i < threads; i++) {
		task = kthread_run(kt_controller, &kt_threads[i], "kt_controller/%d", i);
		if (IS_ERR(task)) {
			ret = PTR_ERR(task);
			goto stop;
		}
		kt_threads[i].task = task;
	}

	kt_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("status", 0444, kt_dir, NULL, &kt_status_fops);
	pr_info("%d threads, %d seconds, %d CPUs\n", threads, duration, num_online_cpus());
	return 0;

stop:
	/* The controllers that did start clean up after themselves. */
	kt_stop_threads();
free:
	kfree(kt_threads);
	kfree(kt_hitters);
	return ret;
}
module_init(kt_init);

static void __exit kt_exit(void)
{
	debugfs_remove_recursive(kt_dir);
	kt_stop_threads();
	kfree(kt_threads);
	kfree(kt_hitters);
}
module_exit(kt_exit);

MODULE_DESCRIPTION("Torture test for kprobes and kretprobes");
MODULE_LICENSE("GPL");
