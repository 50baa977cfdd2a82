// SPDX-License-Identifier: GPL-2.0
/*
 * kst_batch.c - register_kprobes() and register_kretprobes(): a batch,
 * its rollback when a member fails, and num <= 0
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/string.h>

#include "kprobes_selftest.h"

#define KST_BATCH	8

/* Distinct bodies, so that identical-code folding cannot merge them. */
static noinline long kst_batch0(long value)
{
	return value + 0;
}

static noinline long kst_batch1(long value)
{
	return value + 1;
}

static noinline long kst_batch2(long value)
{
	return value + 2;
}

static noinline long kst_batch3(long value)
{
	return value + 3;
}

static noinline long kst_batch4(long value)
{
	return value + 4;
}

static noinline long kst_batch5(long value)
{
	return value + 5;
}

static noinline long kst_batch6(long value)
{
	return value + 6;
}

static noinline long kst_batch7(long value)
{
	return value + 7;
}

static long (* const kst_batch_fns[KST_BATCH])(long value) = {
	kst_batch0, kst_batch1, kst_batch2, kst_batch3,
	kst_batch4, kst_batch5, kst_batch6, kst_batch7,
};

static struct kprobe kst_batch_kprobes[KST_BATCH];
static struct kretprobe kst_batch_kretprobes[KST_BATCH];
static char kst_batch_names[KST_BATCH][16];

static void kst_init_batch(struct kprobe **kps, struct kretprobe **rps)
{
	int i;

	for (i = 0; i < KST_BATCH; i++) {
		snprintf(kst_batch_names[i], sizeof(kst_batch_names[i]), "kst_batch%d", i);
		memset(&kst_batch_kprobes[i], 0, sizeof(kst_batch_kprobes[i]));
		kst_init_kprobe(&kst_batch_kprobes[i], kst_batch_names[i], 0);
		kst_batch_kprobes[i].pre_handler = kst_pre_handler;
		memset(&kst_batch_kretprobes[i], 0, sizeof(kst_batch_kretprobes[i]));
		kst_init_kprobe(&kst_batch_kretprobes[i].kp, kst_batch_names[i], 0);
		kst_batch_kretprobes[i].handler = kst_ret_handler;
		kps[i] = &kst_batch_kprobes[i];
		rps[i] = &kst_batch_kretprobes[i];
	}
}

static void kst_call_batch(void)
{
	long (*fn)(long value);
	int i;

	for (i = 0; i < KST_BATCH; i++) {
		/* Not the const element itself: sparse keeps its const in kst_call(). */
		fn = kst_batch_fns[i];
		kst_call(fn, i);
	}
}

/*
 * unregister_kprobes() with a member that is no longer registered clears
 * that member's .addr, as kprobes.rst says, and unregisters the others.
 */
int case_batch_unregister_stale(void)
{
	struct kprobe *kps[KST_BATCH];
	struct kretprobe *rps[KST_BATCH];
	int ret, hits;

	kst_init_batch(kps, rps);
	kst_reset_counts();
	ret = register_kprobes(kps, KST_BATCH);
	if (ret)
		return kst_fail("register_kprobes() returned %d", ret);
	unregister_kprobe(kps[3]);
	unregister_kprobes(kps, KST_BATCH);
	kst_call_batch();
	hits = atomic_read(&pre_hits);
	if (hits)
		return kst_fail("%d probes fired after unregister_kprobes()", hits);
	if (kps[3]->addr)
		return kst_fail("unregister_kprobes() kept .addr of a probe it did not unregister");
	return 0;
}

/* Every probe of a batch fires; after unregistering, none does. */
int case_batch(void)
{
	struct kretprobe *rps[KST_BATCH];
	struct kprobe *kps[KST_BATCH];
	int pre, returns, ret;

	kst_reset_counts();
	kst_init_batch(kps, rps);
	ret = register_kprobes(kps, KST_BATCH);
	if (ret)
		return kst_fail("register_kprobes(%d) returned %d", KST_BATCH, ret);
	ret = register_kretprobes(rps, KST_BATCH);
	if (ret) {
		unregister_kprobes(kps, KST_BATCH);
		return kst_fail("register_kretprobes(%d) returned %d", KST_BATCH, ret);
	}
	kst_call_batch();
	pre = atomic_read(&pre_hits);
	returns = atomic_read(&ret_hits);
	unregister_kretprobes(rps, KST_BATCH);
	unregister_kprobes(kps, KST_BATCH);
	kst_call_batch();

	if (pre != KST_BATCH || returns != KST_BATCH)
		return kst_fail("%d targets: pre_handlers ran %d times, return handlers %d",
				KST_BATCH, pre, returns);
	if (atomic_read(&pre_hits) != pre || atomic_read(&ret_hits) != returns)
		return kst_fail("handlers ran after the batch was unregistered");
	return 0;
}

/*
 * A batch with member @bad invalid: both calls fail with its error, and
 * no member is left to fire. What a wrong result left is unregistered:
 * kprobes always (unregistering one that is not registered does
 * nothing), kretprobes only where the batch says it registered or one
 * fired, since unregistering a kretprobe that is not registered oopses a
 * kernel without "kprobes: Skip kretprobes that are not registered in
 * unregister_kretprobes()".
 */
static int kst_check_bad_member(struct kprobe **kps, struct kretprobe **rps, int bad)
{
	int kret, rret, hits;

	kst_reset_counts();
	kst_init_batch(kps, rps);
	kps[bad]->symbol_name = "kst_no_such_function";
	rps[bad]->kp.symbol_name = "kst_no_such_function";
	kret = register_kprobes(kps, KST_BATCH);
	rret = register_kretprobes(rps, KST_BATCH);
	kst_call_batch();
	hits = atomic_read(&pre_hits) + atomic_read(&ret_hits);
	unregister_kprobes(kps, KST_BATCH);
	if (!rret || hits)
		unregister_kretprobes(rps, KST_BATCH);
	if (kret != -ENOENT || rret != -ENOENT)
		return kst_fail("bad member %d: register_kprobes %d, _kretprobes %d, expected %d",
				bad, kret, rret, -ENOENT);
	if (hits)
		return kst_fail("a batch with bad member %d left probes that fired %d times",
				bad, hits);
	return 0;
}

/*
 * A batch whose member 5 is invalid rolls back the first five; each can
 * be registered again.
 */
int case_batch_rollback(void)
{
	struct kretprobe *rps[KST_BATCH];
	struct kprobe *kps[KST_BATCH];
	int ret, hits;

	ret = kst_check_bad_member(kps, rps, 5);
	if (ret)
		return ret;

	/* Rolled-back members can be registered again, all but the bad one. */
	kst_reset_counts();
	kst_init_batch(kps, rps);
	ret = register_kprobes(kps, 5);
	if (ret)
		return kst_fail("registering the rolled-back kprobes again: %d", ret);
	ret = register_kretprobes(rps, 5);
	if (ret) {
		unregister_kprobes(kps, 5);
		return kst_fail("registering the rolled-back kretprobes again: %d", ret);
	}
	kst_call_batch();
	hits = atomic_read(&pre_hits) + atomic_read(&ret_hits);
	unregister_kretprobes(rps, 5);
	unregister_kprobes(kps, 5);
	if (hits != 10)
		return kst_fail("5 kprobes and 5 kretprobes registered again: %d hits", hits);
	return 0;
}

/* A batch whose first member is invalid has nothing to roll back. */
int case_batch_first_invalid(void)
{
	struct kretprobe *rps[KST_BATCH];
	struct kprobe *kps[KST_BATCH];

	return kst_check_bad_member(kps, rps, 0);
}

/*
 * num <= 0: registering fails with -EINVAL, and unregistering leaves a
 * registered batch alone.
 */
int case_batch_num_invalid(void)
{
	struct kretprobe *rps[KST_BATCH];
	struct kprobe *kps[KST_BATCH];
	int nums[] = { 0, -1 };
	int i, ret, hits;

	kst_init_batch(kps, rps);
	for (i = 0; i < ARRAY_SIZE(nums); i++) {
		ret = register_kprobes(kps, nums[i]);
		if (ret != -EINVAL)
			return kst_fail("register_kprobes(num = %d): %d, expected %d",
					nums[i], ret, -EINVAL);
		ret = register_kretprobes(rps, nums[i]);
		if (ret != -EINVAL)
			return kst_fail("register_kretprobes(num = %d): %d, expected %d",
					nums[i], ret, -EINVAL);
	}

	kst_reset_counts();
	ret = register_kprobes(kps, KST_BATCH);
	if (ret)
		return kst_fail("register_kprobes(%d) returned %d", KST_BATCH, ret);
	ret = register_kretprobes(rps, KST_BATCH);
	if (ret) {
		unregister_kprobes(kps, KST_BATCH);
		return kst_fail("register_kretprobes(%d) returned %d", KST_BATCH, ret);
	}
	for (i = 0; i < ARRAY_SIZE(nums); i++) {
		unregister_kprobes(kps, nums[i]);
		unregister_kretprobes(rps, nums[i]);
	}
	kst_call_batch();
	hits = atomic_read(&pre_hits) + atomic_read(&ret_hits);
	unregister_kretprobes(rps, KST_BATCH);
	unregister_kprobes(kps, KST_BATCH);
	if (hits != 2 * KST_BATCH)
		return kst_fail("after unregistering num <= 0: %d hits of %d probes",
				hits, 2 * KST_BATCH);
	return 0;
}
