/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the objects of kprobes_selftest.ko share: the prototypes of the
 * cases (kst_cases.h) and steps (kst_steps.h), how a case reports, and
 * what the cases probe and count with.
 */
#ifndef _KPROBES_SELFTEST_H
#define _KPROBES_SELFTEST_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kprobes.h>
#include <linux/sched.h>

/*
 * Calls @fn through a pointer the compiler cannot see through, so that it
 * can neither inline the target nor fold the call away.  &* turns a
 * function into a pointer: sparse's __auto_type does not.
 */
#define kst_call(fn, ...) ({			\
	__auto_type __fn = &*(fn);		\
	OPTIMIZER_HIDE_VAR(__fn);		\
	__fn(__VA_ARGS__);			\
})

/* The target most cases probe (kst_common.c). */
long kst_target(long value);

/* Return values the targets hand back, negative errnos included. */
#define KST_NR_VALUES	6
extern const long kst_values[KST_NR_VALUES];

/* What the handlers saw (kst_common.c). */
extern atomic_t pre_hits, post_hits, ret_hits, entry_hits, data_ok, other_hits;
extern long ret_seen;
extern unsigned long ip_seen;

extern struct kprobe kst_kprobe, kst_kprobe2;
extern struct kretprobe kst_kretprobe;

int kst_pre_handler(struct kprobe *kp, struct pt_regs *regs);
void kst_post_handler(struct kprobe *kp, struct pt_regs *regs, unsigned long flags);
int kst_task_pre_handler(struct kprobe *kp, struct pt_regs *regs);
int kst_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs);

void kst_reset_counts(void);
void kst_init_kprobe(struct kprobe *kp, const char *symbol, unsigned int offset);
void kst_unregister_held(struct kprobe *kp, bool *registered);
unsigned long kst_expected_ip(const struct kprobe *kp);
int kst_call_values(long (*target)(long value));
int kst_optprobes_here(void);

/*
 * register_kprobe()'s error for @kp, in a case that expects one: a probe
 * registered all the same is unregistered at once.
 */
static inline int kst_try_kprobe(struct kprobe *kp)
{
	int ret = register_kprobe(kp);

	if (!ret)
		unregister_kprobe(kp);
	return ret;
}

/* The same for a kretprobe. */
static inline int kst_try_kretprobe(struct kretprobe *rp)
{
	int ret = register_kretprobe(rp);

	if (!ret)
		unregister_kretprobe(rp);
	return ret;
}

/* kprobes on @symbol + @offset or @addr (kst_kprobe.c). */
int kst_check_kprobe_at(const char *symbol, void *addr, unsigned int offset,
			long (*target)(long value));
int kst_check_core_kprobe(const char *symbol, void *addr, unsigned int offset);

/* A case's outcome, with the diagnostic user space reads (kst_main.c). */
__printf(1, 2) int kst_fail(const char *fmt, ...);
__printf(1, 2) int kst_skip(const char *fmt, ...);

/*
 * Each case of kst_cases.h is an int case_<name>(void) of one of the
 * objects, each step of kst_steps.h an int step_<name>(const char *arg),
 * each part a void kst_<part>_init(struct dentry *dir) and
 * kst_<part>_release(void). A listed name without its function does not
 * link; a function without its entry has no prototype (W=1 warns).
 */
struct dentry;
#define KST_CASE(name)		int case_##name(void)
#include "kst_cases.h"
#define KST_STEP(name)		int step_##name(const char *arg)
#define KST_STEP_ARG(name)	KST_STEP(name)
#define KST_PART(name)		void kst_##name##_init(struct dentry *dir); \
				void kst_##name##_release(void)
#include "kst_steps.h"

#endif /* _KPROBES_SELFTEST_H */
