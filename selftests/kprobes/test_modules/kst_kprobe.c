// SPDX-License-Identifier: GPL-2.0
/*
 * kst_kprobe.c - kprobes by symbol and by address, on a function of the
 * module and on a core-kernel function, and two on one address
 */
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kstrtox.h>

#include "kprobes_selftest.h"

/*
 * Registers kst_kprobe on @addr or @symbol + @offset, calls @target and
 * checks the handlers: once per call, none after unregistering, and the
 * instruction pointer the pre_handler saw; and that the hits gave the
 * caller its interrupts back.
 */
int kst_check_kprobe_at(const char *symbol, void *addr, unsigned int offset,
			long (*target)(long value))
{
	int calls, pre, post, ret;
	bool irqs_masked;
	unsigned long ip;

	kst_reset_counts();
	kst_init_kprobe(&kst_kprobe, symbol, offset);
	kst_kprobe.addr = addr;
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe(%s+%u) returned %d",
				symbol ?: "addr", offset, ret);

	calls = kst_call_values(target);
	/* Cases run from a write(2), with interrupts enabled. */
	irqs_masked = irqs_disabled();
	if (irqs_masked)
		local_irq_enable();
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	ip = ip_seen;
	unregister_kprobe(&kst_kprobe);

	kst_call(target, 0);

	if (irqs_masked)
		return kst_fail("interrupts masked after %d probe hits", calls);
	if (pre != calls || post != calls)
		return kst_fail("%d calls: pre_handler ran %d times, post_handler %d times",
				calls, pre, post);
	if (atomic_read(&pre_hits) != pre || atomic_read(&post_hits) != post)
		return kst_fail("handlers ran after unregister_kprobe()");
	if (ip != kst_expected_ip(&kst_kprobe))
		return kst_fail("pre_handler saw ip %pS, expected %pS",
				(void *)ip, (void *)kst_expected_ip(&kst_kprobe));
	return 0;
}

int case_kprobe_by_symbol(void)
{
	return kst_check_kprobe_at("kst_target", NULL, 0, kst_target);
}

int case_kprobe_by_addr(void)
{
	return kst_check_kprobe_at(NULL, kst_target, 0, kst_target);
}

/*
 * A kprobe on kstrtoull(), a core-kernel function, by @symbol + @offset
 * or by @addr: only this case's own calls are counted.
 */
int kst_check_core_kprobe(const char *symbol, void *addr, unsigned int offset)
{
	struct kprobe kp = { .pre_handler = kst_task_pre_handler };
	unsigned long long value;
	int i, hits, ret, failed = 0;
	unsigned long ip;

	kst_reset_counts();
	kst_init_kprobe(&kp, symbol, offset);
	kp.addr = addr;
	ret = register_kprobe(&kp);
	if (ret)
		return kst_fail("register_kprobe(%s+%u) returned %d",
				symbol ?: "kstrtoull", offset, ret);
	for (i = 0; i < 5; i++)
		failed |= kstrtoull("42", 10, &value);
	hits = atomic_read(&pre_hits);
	ip = ip_seen;
	unregister_kprobe(&kp);
	failed |= kstrtoull("42", 10, &value);

	if (failed || value != 42)
		return kst_fail("kstrtoull(\"42\") failed under a kprobe");
	if (hits != 5)
		return kst_fail("5 calls of kstrtoull: pre_handler ran %d times", hits);
	if (atomic_read(&pre_hits) != hits)
		return kst_fail("pre_handler ran after unregister_kprobe()");
	if (ip != kst_expected_ip(&kp))
		return kst_fail("pre_handler saw ip %pS, expected %pS",
				(void *)ip, (void *)kst_expected_ip(&kp));
	return 0;
}

int case_kprobe_core_kernel(void)
{
	return kst_check_core_kprobe("kstrtoull", NULL, 0);
}

int case_kprobe_core_kernel_addr(void)
{
	return kst_check_core_kprobe(NULL, kstrtoull, 0);
}

/*
 * Of two kprobes on one address, one without a pre_handler and both with
 * a post_handler, each handler runs once per call; once the second is
 * unregistered, the post_handler of the first still runs.
 */
int case_probes_same_addr_handlers(void)
{
	struct kprobe post_only = { .post_handler = kst_post_handler };
	struct kprobe *kps[] = { &post_only, &kst_kprobe };
	int calls, pre, post, post_alone, ret;

	kst_reset_counts();
	kst_init_kprobe(&post_only, "kst_target", 0);
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	ret = register_kprobes(kps, ARRAY_SIZE(kps));
	if (ret)
		return kst_fail("register_kprobes(post_only, kst_kprobe) returned %d", ret);
	calls = kst_call_values(kst_target);
	pre = atomic_read(&pre_hits);
	post = atomic_read(&post_hits);
	unregister_kprobe(&kst_kprobe);
	kst_call(kst_target, 0);
	post_alone = atomic_read(&post_hits) - post;
	unregister_kprobe(&post_only);

	if (pre != calls || post != 2 * calls)
		return kst_fail("%d calls: %d pre, %d post runs (want %d, %d)",
				calls, pre, post, calls, 2 * calls);
	if (post_alone != 1)
		return kst_fail("1 call with the first alone: its post_handler ran %d times",
				post_alone);
	return 0;
}
