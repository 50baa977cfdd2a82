// SPDX-License-Identifier: GPL-2.0
/*
 * kst_nomem.c - registering while memory runs out: each allocation of a
 * registration fails in turn (fault injection's fail-nth, for this task
 * only, and failslab, which user space sets up)
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/sched.h>

#include "kprobes_selftest.h"

#ifdef CONFIG_FAULT_INJECTION
/*
 * More allocations than one registration makes: a kretprobe's instance
 * pool takes a vmalloc() per possible CPU, each several allocations.
 */
#define KST_MAX_ALLOCS	(256 + 16 * (int)num_possible_cpus())

/*
 * Registers @kp, or @rp if given, with the @nth allocation this task
 * makes from now on failing, as /proc/self/fail-nth does for a system
 * call; *@failed says whether it came to that allocation.
 */
static int kst_register_failing(struct kprobe *kp, struct kretprobe *rp, int nth,
				bool *failed)
{
	int ret;

	WRITE_ONCE(current->fail_nth, nth);
	ret = rp ? register_kretprobe(rp) : register_kprobe(kp);
	*failed = !READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	return ret;
}

/*
 * Registers @kp (or @rp) on kst_target(), where @held probes are
 * registered already, with each of its allocations failing in turn. Each
 * time it fails with -ENOMEM and leaves nothing that fires, or, where it
 * can do without that allocation (x86's optimized probe), it works. The
 * handlers of the probes count in @hits. Returns how many times it
 * failed, or the case's verdict.
 */
static int kst_check_nomem(const char *what, struct kprobe *kp, struct kretprobe *rp,
			   atomic_t *hits, int held)
{
	int nth, ret, fired, nomem = 0;
	bool failed;

	for (nth = 1; nth <= KST_MAX_ALLOCS; nth++) {
		kst_reset_counts();
		kst_init_kprobe(rp ? &rp->kp : kp, "kst_target", 0);
		ret = kst_register_failing(kp, rp, nth, &failed);
		kst_call(kst_target, 0);
		fired = atomic_read(hits);
		if (!ret && rp)
			unregister_kretprobe(rp);
		else if (!ret)
			unregister_kprobe(kp);
		if (ret && ret != -ENOMEM)
			return kst_fail("%s, allocation %d failing: %d, expected %d",
					what, nth, ret, -ENOMEM);
		if (fired != held + !ret)
			return kst_fail("%s %s with allocation %d failing: %d hits, expected %d",
					what, ret ? "failed" : "worked", nth, fired, held + !ret);
		nomem += !!ret;
		if (!failed)
			return nomem;
	}
	return kst_fail("%s made more than %d allocations", what, KST_MAX_ALLOCS);
}
#endif

/*
 * Registration when memory runs out: a kprobe alone, a kprobe joining
 * another on its address (which takes an aggregate probe) and a
 * kretprobe, each with every allocation it makes failing in turn. The
 * driver has failslab fail allocations that may sleep (kprobes make no
 * other kind), so the kretprobe must have seen -ENOMEM, and so must the
 * joining kprobe unless the first one was wrapped in an aggregate when
 * it was registered (where it can be optimized), which leaves joining
 * nothing to allocate.
 */
int step_register_without_memory(const char *arg)
{
#ifdef CONFIG_FAULT_INJECTION
	int ret, joining, kretprobe;
	bool aggregated;

	if (!IS_ENABLED(CONFIG_FAILSLAB))
		return kst_skip("CONFIG_FAILSLAB is not set");
	ret = kst_check_nomem("a kprobe", &kst_kprobe, NULL, &pre_hits, 0);
	if (ret < 0)
		return ret;
	kst_init_kprobe(&kst_kprobe, "kst_target", 0);
	ret = register_kprobe(&kst_kprobe);
	if (ret)
		return kst_fail("register_kprobe() returned %d", ret);
	/* A kprobe alone has an empty list; an aggregate's child does not. */
	aggregated = !list_empty(&kst_kprobe.list);
	joining = kst_check_nomem("a second kprobe on its address", &kst_kprobe2, NULL,
				  &pre_hits, 1);
	unregister_kprobe(&kst_kprobe);
	if (joining < 0)
		return joining;
	kretprobe = kst_check_nomem("a kretprobe", NULL, &kst_kretprobe, &ret_hits, 0);
	if (kretprobe < 0)
		return kretprobe;
	if ((!joining && !aggregated) || !kretprobe)
		return kst_fail("-ENOMEM %d times joining a kprobe, %d for a kretprobe: not both",
				joining, kretprobe);
	return 0;
#else
	return kst_skip("CONFIG_FAULT_INJECTION is not set");
#endif
}
