// SPDX-License-Identifier: GPL-2.0
/*
 * kst_kretprobe.c - kretprobes: return values, entry_handler and instance
 * data, maxactive (its default, and exhausted by kthreads or recursion),
 * calls in flight when their kretprobe is unregistered, several probes
 * on one address, the return address a kretprobe replaces, as its
 * handler and a stack trace see it, and the instances of calls that never
 * return
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#include "kprobes_selftest.h"

#define KST_THREADS	8
#define KST_DEPTH	8

static noinline int kst_recursive(int depth)
{
	if (depth <= 1)
		return 1;
	return kst_call(kst_recursive, depth - 1) + 1;
}

static DECLARE_COMPLETION(kst_release);
static atomic_t kst_entered, kst_wrong_returns;

#define KST_BLOCKING_RET	0x4b5354

/* Many kthreads sit in here at once, until kst_release completes. */
static noinline int kst_blocking(void)
{
	atomic_inc(&kst_entered);
	wait_for_completion(&kst_release);
	return KST_BLOCKING_RET;
}

struct kst_instance_data {
	unsigned long magic;
	int seq;
};

#define KST_MAGIC	0x6b70726fUL

/*
 * Records the call's sequence number for the return handler; odd calls
 * return non-zero, which skips their return handler.
 */
static int kst_entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kst_instance_data *data = (void *)ri->data;

	data->magic = KST_MAGIC;
	data->seq = atomic_inc_return(&entry_hits);
	return data->seq & 1;
}

static int kst_data_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kst_instance_data *data = (void *)ri->data;

	atomic_inc(&ret_hits);
	/* The calls do not nest: the last entry is this instance's. */
	if (data->magic == KST_MAGIC && data->seq == atomic_read(&entry_hits))
		atomic_inc(&data_ok);
	return 0;
}

/* A kretprobe on kst_target(), by @symbol or by @addr. */
static int kst_check_kretprobe(const char *symbol, kprobe_opcode_t *addr)
{
	int i, hits, ret;

	kst_reset_counts();
	kst_init_kprobe(&kst_kretprobe.kp, symbol, 0);
	kst_kretprobe.kp.addr = addr;
	kst_kretprobe.maxactive = 0;
	ret = register_kretprobe(&kst_kretprobe);
	if (ret)
		return kst_fail("register_kretprobe(%s) returned %d",
				symbol ?: "kst_target's address", ret);

	for (i = 0; i < ARRAY_SIZE(kst_values); i++) {
		long value = kst_call(kst_target, kst_values[i]);

		if (atomic_read(&ret_hits) != i + 1 || ret_seen != value) {
			hits = atomic_read(&ret_hits);
			unregister_kretprobe(&kst_kretprobe);
			return kst_fail("call %d returned %ld: handler ran %d times, saw %ld",
					i, value, hits, ret_seen);
		}
	}
	unregister_kretprobe(&kst_kretprobe);
	hits = atomic_read(&ret_hits);

	kst_call(kst_target, 0);

	if (atomic_read(&ret_hits) != hits)
		return kst_fail("return handler ran after unregister_kretprobe()");
	if (kst_kretprobe.nmissed)
		return kst_fail("nmissed is %d, expected 0", kst_kretprobe.nmissed);
	return 0;
}

int case_kretprobe_by_symbol(void)
{
	return kst_check_kretprobe("kst_target", NULL);
}

int case_kretprobe_by_addr(void)
{
	return kst_check_kretprobe(NULL, (kprobe_opcode_t *)kst_target);
}

/*
 * Ten calls through a kretprobe with kst_entry_handler, which refuses
 * every other instance, and return handler @handler, if any. A refused
 * instance's return handler is skipped without counting it as missed, and
 * the instance goes back: with one instance, every call gets it.
 */
static int kst_check_entry_handler(kretprobe_handler_t handler)
{
	struct kretprobe rp = {
		.handler = handler,
		.entry_handler = kst_entry_handler,
		.data_size = sizeof(struct kst_instance_data),
		.maxactive = 1,
	};
	int i, entries, returns, matched, ret;

	kst_reset_counts();
	kst_init_kprobe(&rp.kp, "kst_target", 0);
	ret = register_kretprobe(&rp);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	for (i = 0; i < 10; i++)
		kst_call(kst_target, i);
	unregister_kretprobe(&rp);
	entries = atomic_read(&entry_hits);
	returns = atomic_read(&ret_hits);
	matched = atomic_read(&data_ok);

	if (rp.nmissed)
		return kst_fail("maxactive 1: %d of 10 calls missed, an instance kept?",
				rp.nmissed);
	if (entries != 10)
		return kst_fail("10 calls: entry_handler ran %d times", entries);
	/* Without a handler, the checks above are all: nothing counts returns. */
	if (!handler)
		return 0;
	if (returns != 5)
		return kst_fail("5 calls kept by entry_handler: handler ran %d times",
				returns);
	if (matched != returns)
		return kst_fail("%d of %d return handlers saw their entry's data",
				matched, returns);
	return 0;
}

/* entry_handler passes per-instance data to the return handler. */
int case_kretprobe_entry_data(void)
{
	return kst_check_entry_handler(kst_data_ret_handler);
}

/*
 * A kretprobe may have an entry_handler and no return handler: the
 * instances it keeps return through the trampoline, which has no handler
 * to run, and go back to the pool all the same.
 */
int case_kretprobe_entry_only(void)
{
	return kst_check_entry_handler(NULL);
}

int case_kretprobe_maxactive_default(void)
{
	int expected = max_t(unsigned int, 10, 2 * num_possible_cpus());
	int ret, maxactive;

	kst_init_kprobe(&kst_kretprobe.kp, "kst_target", 0);
	kst_kretprobe.maxactive = 0;
	ret = register_kretprobe(&kst_kretprobe);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	maxactive = kst_kretprobe.maxactive;
	unregister_kretprobe(&kst_kretprobe);

	if (maxactive != expected)
		return kst_fail("maxactive 0 became %d, expected max(10, 2 * %u CPUs) = %d",
				maxactive, num_possible_cpus(), expected);
	return 0;
}

/*
 * A kretprobe's kprobe is the kretprobe's own: register_kretprobe() drops
 * a post_handler left in rp.kp, which would run on the function's entry.
 */
int case_kretprobe_ignores_post_handler(void)
{
	struct kretprobe rp = { .handler = kst_ret_handler };
	int ret, posts, returns;

	kst_reset_counts();
	kst_init_kprobe(&rp.kp, "kst_target", 0);
	rp.kp.post_handler = kst_post_handler;
	ret = register_kretprobe(&rp);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	kst_call(kst_target, 0);
	unregister_kretprobe(&rp);
	posts = atomic_read(&post_hits);
	returns = atomic_read(&ret_hits);
	if (returns != 1 || posts)
		return kst_fail("1 call: %d returns, %d post_handler runs; expected 1, 0",
				returns, posts);
	return 0;
}

/*
 * Two kprobes and two kretprobes on one address all fire on every call:
 * the post_handler of the second kprobe too, though the first has none.
 */
int case_probes_same_addr(void)
{
	struct kprobe *kps[] = { &kst_kprobe2, &kst_kprobe };
	struct kretprobe rp2 = { .handler = kst_ret_handler };
	struct kretprobe *rps[] = { &kst_kretprobe, &rp2 };
	int calls, pre, post, returns, ret;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	kst_init_kprobe(&kst_kprobe2, "kst_target", 0);
	kst_init_kprobe(&kst_kretprobe.kp, "kst_target", 0);
	kst_init_kprobe(&rp2.kp, "kst_target", 0);
	kst_kretprobe.maxactive = 0;
	ret = register_kprobes(kps, ARRAY_SIZE(kps));
	if (ret)
		return kst_fail("register_kprobes() returned %d", ret);
	ret = register_kretprobes(rps, ARRAY_SIZE(rps));
	if (ret) {
		unregister_kprobes(kps, ARRAY_SIZE(kps));
		return kst_fail("register_kretprobes() returned %d", ret);
	}
	calls = kst_call_values(kst_target);
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	returns = atomic_read(&ret_hits);
	unregister_kretprobes(rps, ARRAY_SIZE(rps));
	unregister_kprobes(kps, ARRAY_SIZE(kps));

	if (pre != 2 * calls || post != calls || returns != 2 * calls)
		return kst_fail("%d calls: %d pre, %d post, %d return runs (want %d, %d, %d)",
				calls, pre, post, returns, 2 * calls, calls, 2 * calls);
	return 0;
}

/* kst_traced() and its two callers: the frames every call shares. */
#define KST_TRACE_DEPTH	3

static unsigned long kst_caller;
static unsigned long kst_trace[KST_TRACE_DEPTH];
static unsigned int kst_trace_len;

/* Records where it returns to and, where it can, its stack trace. */
static noinline long kst_traced(long value)
{
	kst_caller = (unsigned long)__builtin_return_address(0);
#ifdef CONFIG_STACKTRACE
	kst_trace_len = stack_trace_save(kst_trace, ARRAY_SIZE(kst_trace), 0);
#endif
	return value;
}

/* One call site for every call, whatever the compiler makes of the case. */
static noinline long kst_trace_caller(long value)
{
	long ret = kst_call(kst_traced, value);

	barrier();	/* not a tail call: the return address stays here */
	return ret;
}

/* A frame above kst_trace_caller(), for a second kretprobe to replace. */
static noinline long kst_trace_outer(long value)
{
	long ret = kst_call(kst_trace_caller, value);

	barrier();
	return ret;
}

static struct kretprobe *kst_ret_probe;
static unsigned long kst_ret_addr, kst_ret_ip;

static int kst_retaddr_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	kst_ret_probe = get_kretprobe(ri);
	kst_ret_addr = get_kretprobe_retaddr(ri);
	kst_ret_ip = instruction_pointer(regs);
	atomic_inc(&ret_hits);
	return 0;
}

/*
 * A kretprobe replaces the return address of the probed function with its
 * trampoline's while the function runs. The handler still learns the real
 * one, from get_kretprobe_retaddr() and as the instruction pointer in its
 * regs (where stack_trace_save_regs() starts), and on the architectures whose
 * unwinder recovers it (ARCH_CORRECT_STACKTRACE_ON_KRETPROBE) a stack
 * trace taken in the function is the same as without the kretprobe.
 * @nested: a second kretprobe on the caller, whose return address the
 * unwinder finds past the first one's.
 */
static int kst_check_return_address(bool nested)
{
	bool check_trace = IS_ENABLED(CONFIG_STACKTRACE) &&
		IS_ENABLED(CONFIG_ARCH_CORRECT_STACKTRACE_ON_KRETPROBE);
	struct kretprobe rp = { .handler = kst_retaddr_handler };
	struct kretprobe rp_caller = { .handler = kst_ret_handler };
	struct kretprobe *rps[] = { &rp, &rp_caller };
	unsigned long unprobed[KST_TRACE_DEPTH], caller = 0;
	unsigned int unprobed_len = 0, i;
	int pass, ret, returns;

	kst_reset_counts();
	kst_ret_probe = NULL;
	kst_ret_addr = 0;
	kst_ret_ip = 0;
	kst_init_kprobe(&rp.kp, "kst_traced", 0);
	kst_init_kprobe(&rp_caller.kp, "kst_trace_caller", 0);
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			ret = register_kretprobes(rps, 1 + nested);
			if (ret)
				return kst_fail("register_kretprobes() returned %d", ret);
		}
		kst_trace_len = 0;
		kst_call(kst_trace_outer, pass);
		if (!pass) {
			caller = kst_caller;
			memcpy(unprobed, kst_trace, sizeof(unprobed));
			unprobed_len = kst_trace_len;
		}
	}
	unregister_kretprobes(rps, 1 + nested);
	returns = atomic_read(&ret_hits);

	if (returns != 1 + nested)
		return kst_fail("%d kretprobes: the return handlers ran %d times",
				1 + nested, returns);
	if (kst_ret_probe != &rp)
		return kst_fail("get_kretprobe() did not give the kretprobe the handler ran for");
	if (kst_ret_addr != caller)
		return kst_fail("get_kretprobe_retaddr() gave %pS, the caller is %pS",
				(void *)kst_ret_addr, (void *)caller);
	if (kst_ret_ip != caller)
		return kst_fail("the handler's instruction pointer is %pS, the caller is %pS",
				(void *)kst_ret_ip, (void *)caller);
	if (!check_trace)
		return 0;
	if (unprobed_len != KST_TRACE_DEPTH)
		return kst_fail("stack_trace_save() gave %u entries", unprobed_len);
	if (kst_trace_len != unprobed_len)
		return kst_fail("the stack trace has %u entries with the kretprobe, %u without",
				kst_trace_len, unprobed_len);
	for (i = 0; i < unprobed_len; i++)
		if (kst_trace[i] != unprobed[i])
			return kst_fail("stack trace entry %u: %pS with the kretprobe, %pS without",
					i, (void *)kst_trace[i], (void *)unprobed[i]);
	return 0;
}

int case_kretprobe_return_address(void)
{
	return kst_check_return_address(false);
}

int case_kretprobe_return_address_nested(void)
{
	return kst_check_return_address(true);
}

static int kst_blocker(void *unused)
{
	if (kst_call(kst_blocking) != KST_BLOCKING_RET)
		atomic_inc(&kst_wrong_returns);
	/* kthread_stop() collects us; exiting early would race with it. */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Starts KST_THREADS kthreads that call kst_blocking(), and waits up to
 * 10 s until they are all in it; returns how many started.
 */
static int kst_start_blockers(struct task_struct **threads)
{
	unsigned long timeout;
	int started;

	atomic_set(&kst_entered, 0);
	atomic_set(&kst_wrong_returns, 0);
	reinit_completion(&kst_release);
	for (started = 0; started < KST_THREADS; started++) {
		threads[started] = kthread_run(kst_blocker, NULL, "kst_blocker/%d", started);
		if (IS_ERR(threads[started]))
			break;
		get_task_struct(threads[started]);
	}
	timeout = jiffies + 10 * HZ;
	while (atomic_read(&kst_entered) < started && time_before(jiffies, timeout))
		usleep_range(1000, 2000);
	return started;
}

/* Lets the @started blockers return; checks that each entered, and got its value. */
static int kst_stop_blockers(struct task_struct **threads, int started)
{
	int i;

	complete_all(&kst_release);
	for (i = 0; i < started; i++) {
		kthread_stop(threads[i]);
		put_task_struct(threads[i]);
	}
	if (started < KST_THREADS)
		return kst_fail("started %d of %d kthreads", started, KST_THREADS);
	if (atomic_read(&kst_entered) != KST_THREADS)
		return kst_fail("only %d of %d kthreads entered the target in 10 s",
				atomic_read(&kst_entered), KST_THREADS);
	if (atomic_read(&kst_wrong_returns))
		return kst_fail("%d of %d calls returned another value than %#x",
				atomic_read(&kst_wrong_returns), KST_THREADS, KST_BLOCKING_RET);
	return 0;
}

/*
 * KST_THREADS kthreads block in kst_blocking() under a kretprobe with
 * @maxactive instances: the rest are missed.
 */
static int kst_check_maxactive(int maxactive)
{
	struct task_struct *threads[KST_THREADS];
	struct kretprobe rp = {
		.handler = kst_ret_handler,
		.maxactive = maxactive,
	};
	int ret, returns, expected, missed;

	kst_reset_counts();
	kst_init_kprobe(&rp.kp, "kst_blocking", 0);
	ret = register_kretprobe(&rp);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	ret = kst_stop_blockers(threads, kst_start_blockers(threads));
	returns = atomic_read(&ret_hits);
	missed = rp.nmissed;
	unregister_kretprobe(&rp);
	if (ret)
		return ret;

	expected = min(maxactive, KST_THREADS);
	if (returns != expected || missed != KST_THREADS - expected)
		return kst_fail("%d threads, maxactive %d: %d returns, %d missed (want %d, %d)",
				KST_THREADS, maxactive, returns, missed,
				expected, KST_THREADS - expected);
	return 0;
}

static int kst_count_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_inc(&entry_hits);
	return 0;
}

/*
 * Calls in flight when their kretprobe is unregistered return as if it
 * had never been there: to their caller, with their value, and without
 * its return handler, since the kretprobe may be freed as soon as
 * unregister_kretprobe() returns.
 */
int case_kretprobe_unregistered_in_flight(void)
{
	struct task_struct *threads[KST_THREADS];
	struct kretprobe rp = {
		.entry_handler = kst_count_entry,
		.handler = kst_ret_handler,
		.maxactive = KST_THREADS,
	};
	int ret, started, in_flight;

	kst_reset_counts();
	kst_init_kprobe(&rp.kp, "kst_blocking", 0);
	ret = register_kretprobe(&rp);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	started = kst_start_blockers(threads);
	in_flight = atomic_read(&entry_hits);
	unregister_kretprobe(&rp);
	ret = kst_stop_blockers(threads, started);
	if (ret)
		return ret;
	if (in_flight != KST_THREADS)
		return kst_fail("%d of %d calls in flight under the kretprobe", in_flight,
				KST_THREADS);
	if (atomic_read(&ret_hits))
		return kst_fail("%d return handlers ran after unregister_kretprobe()",
				atomic_read(&ret_hits));
	return 0;
}

int case_maxactive_exhausted(void)
{
	return kst_check_maxactive(3);
}

int case_maxactive_enough(void)
{
	return kst_check_maxactive(KST_THREADS);
}

/* Recursion of depth KST_DEPTH with fewer instances than frames. */
int case_maxactive_recursive(void)
{
	struct kretprobe rp = { .handler = kst_ret_handler, .maxactive = 3 };
	int ret, returns, missed;

	kst_reset_counts();
	kst_init_kprobe(&rp.kp, "kst_recursive", 0);
	ret = register_kretprobe(&rp);
	if (ret)
		return kst_fail("register_kretprobe() returned %d", ret);
	ret = kst_call(kst_recursive, KST_DEPTH);
	returns = atomic_read(&ret_hits);
	missed = rp.nmissed;
	unregister_kretprobe(&rp);

	if (ret != KST_DEPTH)
		return kst_fail("kst_recursive(%d) returned %d", KST_DEPTH, ret);
	if (returns != 3 || missed != KST_DEPTH - 3)
		return kst_fail("depth %d, maxactive 3: %d returns, nmissed %d (expected 3, %d)",
				KST_DEPTH, returns, missed, KST_DEPTH - 3);
	return 0;
}

#define KST_EXITS		12
#define KST_EXIT_INSTANCES	4

static struct task_struct *kst_exiting;

static int kst_exit_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (current == READ_ONCE(kst_exiting))
		atomic_inc(&entry_hits);
	return 0;
}

/* Returning from a kthread's function exits it through do_exit(). */
static int kst_exit_now(void *unused)
{
	return 0;
}

/* Where a task keeps the kretprobe instances of its calls in flight. */
static bool kst_task_holds_instances(struct task_struct *t)
{
#ifdef CONFIG_KRETPROBE_ON_RETHOOK
	return !llist_empty(&t->rethooks);
#else
	return !llist_empty(&t->kretprobe_instances);
#endif
}

/*
 * Waits up to 10 s until @t has exited and the RCU callback that frees it
 * has run: it gives the instances back, then drops the task's own usage
 * reference, leaving ours. Not rcu_users: on older kernels (6.1) it
 * shares its memory with the callback's rcu_head, which call_rcu()
 * overwrites.
 */
static int kst_wait_task_flushed(struct task_struct *t)
{
	unsigned long timeout = jiffies + 10 * HZ;

	while (refcount_read(&t->usage) > 1) {
		if (time_after(jiffies, timeout))
			return kst_fail("%s: not released in 10 s: state %#x, exit %#x, usage %u",
					t->comm, READ_ONCE(t->__state), READ_ONCE(t->exit_state),
					refcount_read(&t->usage));
		usleep_range(1000, 2000);
	}
	/* What the callback wrote before its put_task_struct() is seen. */
	smp_rmb();
	if (kst_task_holds_instances(t))
		return kst_fail("%s: released, and still holds kretprobe instances", t->comm);
	return 0;
}

/*
 * A call that never returns keeps its kretprobe instance until its task
 * is freed, which gives it back (kprobe_flush_task(), or
 * rethook_flush_task() where kretprobes use rethook). KST_EXITS kthreads
 * exit one after another under a kretprobe on do_exit() that has
 * KST_EXIT_INSTANCES instances: each finds one free, since those of the
 * exits before it came back.
 */
int case_kretprobe_noreturn_recycled(void)
{
	struct kretprobe rp = {
		.entry_handler = kst_exit_entry,
		.handler = kst_ret_handler,
		.maxactive = KST_EXIT_INSTANCES,
	};
	struct task_struct *t;
	int i, ret, entries;

	kst_reset_counts();
	kst_init_kprobe(&rp.kp, "do_exit", 0);
	ret = register_kretprobe(&rp);
	if (ret)
		return kst_fail("register_kretprobe(do_exit) returned %d", ret);
	for (i = 0; i < KST_EXITS && !ret; i++) {
		t = kthread_create(kst_exit_now, NULL, "kst_exit/%d", i);
		if (IS_ERR(t)) {
			ret = kst_fail("kthread_create() returned %ld", PTR_ERR(t));
			break;
		}
		get_task_struct(t);
		WRITE_ONCE(kst_exiting, t);
		wake_up_process(t);
		ret = kst_wait_task_flushed(t);
		put_task_struct(t);
	}
	WRITE_ONCE(kst_exiting, NULL);
	entries = atomic_read(&entry_hits);
	unregister_kretprobe(&rp);
	if (ret)
		return ret;

	if (entries != KST_EXITS || atomic_read(&ret_hits))
		return kst_fail("%d exits, %d instances: %d found one, %d returned (want %d, 0)",
				KST_EXITS, KST_EXIT_INSTANCES, entries,
				atomic_read(&ret_hits), KST_EXITS);
	return 0;
}
