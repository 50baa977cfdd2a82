// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes_bench.c - kernel half of the kprobes benchmark (kprobes_bench)
 *
 * Measures what one probe hit costs and how long registering and
 * unregistering N probes takes, one call at a time and with the batch
 * APIs. Commands written to /sys/kernel/debug/kprobes_bench/run:
 *
 *   setup <config>     register the probes of <config> on kpb_target():
 *                      none, kprobe_entry, kprobe_inner, kprobe_optimized,
 *                      kretprobe, kretprobe_entry, kretprobe_timed,
 *                      kprobe_kretprobe
 *   measure <calls>    call kpb_target() <calls> times (a multiple of
 *                      1000) and time it
 *   teardown           unregister what setup registered
 *   batch <kprobes|kretprobes> <N>
 *                      time registering and unregistering N probes on
 *                      distinct functions (N <= 4096), with one batch call
 *                      and with N single calls
 *
 * /sys/kernel/debug/kprobes_bench/result reads the outcome of the last
 * command. kprobe_optimized is kprobe_inner once the optimizer has put
 * its jump in; setup fails with -EOPNOTSUPP when that does not happen
 * within KST_OPTIMIZE_WAIT_S seconds (no optprobes, or
 * /proc/sys/debug/kprobes-optimization off, as kprobes_bench.c in user
 * space keeps it for kprobe_inner). That
 * program drives all this and prints the figures.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kst_command.h"
#include "kst_insn.h"

#define KPB_CALLS_PER_ROUND	1000
#define KPB_MAX_CALLS		100000000
#define KPB_GROUPS		64
#define KPB_GROUP_SIZE		64
#define KPB_MAX_BATCH		(KPB_GROUPS * KPB_GROUP_SIZE)
/* register batch, unregister batch, register single, unregister single */
#define KPB_BATCH_TIMES		4
#define KPB_BATCH_REPEAT	3

/* An entry time and three arguments, as an entry handler keeps them. */
struct kpb_instance_data {
	u64 entry_ns;
	unsigned long args[3];
};

static noinline long kpb_target(long value)
{
	return value * 3 + 1;
}

/* Set at init, so that the compiler can neither inline nor drop the calls. */
static long (*kpb_target_ptr)(long value);
static long kpb_sink;

/*
 * KPB_MAX_BATCH distinct functions for the batch measurements: a kretprobe
 * needs a function entry of its own. KPB_GROUP(g) defines functions
 * kpb_fn<g>_00 to kpb_fn<g>_63 and an array of them.
 */
#define KPB_GROUP(g) \
static noinline long kpb_fn##g##_00(long value) { return value + 0x##g##00; } \
static noinline long kpb_fn##g##_01(long value) { return value + 0x##g##01; } \
static noinline long kpb_fn##g##_02(long value) { return value + 0x##g##02; } \
static noinline long kpb_fn##g##_03(long value) { return value + 0x##g##03; } \
static noinline long kpb_fn##g##_04(long value) { return value + 0x##g##04; } \
static noinline long kpb_fn##g##_05(long value) { return value + 0x##g##05; } \
static noinline long kpb_fn##g##_06(long value) { return value + 0x##g##06; } \
static noinline long kpb_fn##g##_07(long value) { return value + 0x##g##07; } \
static noinline long kpb_fn##g##_08(long value) { return value + 0x##g##08; } \
static noinline long kpb_fn##g##_09(long value) { return value + 0x##g##09; } \
static noinline long kpb_fn##g##_10(long value) { return value + 0x##g##10; } \
static noinline long kpb_fn##g##_11(long value) { return value + 0x##g##11; } \
static noinline long kpb_fn##g##_12(long value) { return value + 0x##g##12; } \
static noinline long kpb_fn##g##_13(long value) { return value + 0x##g##13; } \
static noinline long kpb_fn##g##_14(long value) { return value + 0x##g##14; } \
static noinline long kpb_fn##g##_15(long value) { return value + 0x##g##15; } \
static noinline long kpb_fn##g##_16(long value) { return value + 0x##g##16; } \
static noinline long kpb_fn##g##_17(long value) { return value + 0x##g##17; } \
static noinline long kpb_fn##g##_18(long value) { return value + 0x##g##18; } \
static noinline long kpb_fn##g##_19(long value) { return value + 0x##g##19; } \
static noinline long kpb_fn##g##_20(long value) { return value + 0x##g##20; } \
static noinline long kpb_fn##g##_21(long value) { return value + 0x##g##21; } \
static noinline long kpb_fn##g##_22(long value) { return value + 0x##g##22; } \
static noinline long kpb_fn##g##_23(long value) { return value + 0x##g##23; } \
static noinline long kpb_fn##g##_24(long value) { return value + 0x##g##24; } \
static noinline long kpb_fn##g##_25(long value) { return value + 0x##g##25; } \
static noinline long kpb_fn##g##_26(long value) { return value + 0x##g##26; } \
static noinline long kpb_fn##g##_27(long value) { return value + 0x##g##27; } \
static noinline long kpb_fn##g##_28(long value) { return value + 0x##g##28; } \
static noinline long kpb_fn##g##_29(long value) { return value + 0x##g##29; } \
static noinline long kpb_fn##g##_30(long value) { return value + 0x##g##30; } \
static noinline long kpb_fn##g##_31(long value) { return value + 0x##g##31; } \
static noinline long kpb_fn##g##_32(long value) { return value + 0x##g##32; } \
static noinline long kpb_fn##g##_33(long value) { return value + 0x##g##33; } \
static noinline long kpb_fn##g##_34(long value) { return value + 0x##g##34; } \
static noinline long kpb_fn##g##_35(long value) { return value + 0x##g##35; } \
static noinline long kpb_fn##g##_36(long value) { return value + 0x##g##36; } \
static noinline long kpb_fn##g##_37(long value) { return value + 0x##g##37; } \
static noinline long kpb_fn##g##_38(long value) { return value + 0x##g##38; } \
static noinline long kpb_fn##g##_39(long value) { return value + 0x##g##39; } \
static noinline long kpb_fn##g##_40(long value) { return value + 0x##g##40; } \
static noinline long kpb_fn##g##_41(long value) { return value + 0x##g##41; } \
static noinline long kpb_fn##g##_42(long value) { return value + 0x##g##42; } \
static noinline long kpb_fn##g##_43(long value) { return value + 0x##g##43; } \
static noinline long kpb_fn##g##_44(long value) { return value + 0x##g##44; } \
static noinline long kpb_fn##g##_45(long value) { return value + 0x##g##45; } \
static noinline long kpb_fn##g##_46(long value) { return value + 0x##g##46; } \
static noinline long kpb_fn##g##_47(long value) { return value + 0x##g##47; } \
static noinline long kpb_fn##g##_48(long value) { return value + 0x##g##48; } \
static noinline long kpb_fn##g##_49(long value) { return value + 0x##g##49; } \
static noinline long kpb_fn##g##_50(long value) { return value + 0x##g##50; } \
static noinline long kpb_fn##g##_51(long value) { return value + 0x##g##51; } \
static noinline long kpb_fn##g##_52(long value) { return value + 0x##g##52; } \
static noinline long kpb_fn##g##_53(long value) { return value + 0x##g##53; } \
static noinline long kpb_fn##g##_54(long value) { return value + 0x##g##54; } \
static noinline long kpb_fn##g##_55(long value) { return value + 0x##g##55; } \
static noinline long kpb_fn##g##_56(long value) { return value + 0x##g##56; } \
static noinline long kpb_fn##g##_57(long value) { return value + 0x##g##57; } \
static noinline long kpb_fn##g##_58(long value) { return value + 0x##g##58; } \
static noinline long kpb_fn##g##_59(long value) { return value + 0x##g##59; } \
static noinline long kpb_fn##g##_60(long value) { return value + 0x##g##60; } \
static noinline long kpb_fn##g##_61(long value) { return value + 0x##g##61; } \
static noinline long kpb_fn##g##_62(long value) { return value + 0x##g##62; } \
static noinline long kpb_fn##g##_63(long value) { return value + 0x##g##63; } \
static long (* const kpb_group##g[KPB_GROUP_SIZE])(long value) = { \
	kpb_fn##g##_00, kpb_fn##g##_01, \
	kpb_fn##g##_02, kpb_fn##g##_03, \
	kpb_fn##g##_04, kpb_fn##g##_05, \
	kpb_fn##g##_06, kpb_fn##g##_07, \
	kpb_fn##g##_08, kpb_fn##g##_09, \
	kpb_fn##g##_10, kpb_fn##g##_11, \
	kpb_fn##g##_12, kpb_fn##g##_13, \
	kpb_fn##g##_14, kpb_fn##g##_15, \
	kpb_fn##g##_16, kpb_fn##g##_17, \
	kpb_fn##g##_18, kpb_fn##g##_19, \
	kpb_fn##g##_20, kpb_fn##g##_21, \
	kpb_fn##g##_22, kpb_fn##g##_23, \
	kpb_fn##g##_24, kpb_fn##g##_25, \
	kpb_fn##g##_26, kpb_fn##g##_27, \
	kpb_fn##g##_28, kpb_fn##g##_29, \
	kpb_fn##g##_30, kpb_fn##g##_31, \
	kpb_fn##g##_32, kpb_fn##g##_33, \
	kpb_fn##g##_34, kpb_fn##g##_35, \
	kpb_fn##g##_36, kpb_fn##g##_37, \
	kpb_fn##g##_38, kpb_fn##g##_39, \
	kpb_fn##g##_40, kpb_fn##g##_41, \
	kpb_fn##g##_42, kpb_fn##g##_43, \
	kpb_fn##g##_44, kpb_fn##g##_45, \
	kpb_fn##g##_46, kpb_fn##g##_47, \
	kpb_fn##g##_48, kpb_fn##g##_49, \
	kpb_fn##g##_50, kpb_fn##g##_51, \
	kpb_fn##g##_52, kpb_fn##g##_53, \
	kpb_fn##g##_54, kpb_fn##g##_55, \
	kpb_fn##g##_56, kpb_fn##g##_57, \
	kpb_fn##g##_58, kpb_fn##g##_59, \
	kpb_fn##g##_60, kpb_fn##g##_61, \
	kpb_fn##g##_62, kpb_fn##g##_63, \
}

KPB_GROUP(00);
KPB_GROUP(01);
KPB_GROUP(02);
KPB_GROUP(03);
KPB_GROUP(04);
KPB_GROUP(05);
KPB_GROUP(06);
KPB_GROUP(07);
KPB_GROUP(08);
KPB_GROUP(09);
KPB_GROUP(10);
KPB_GROUP(11);
KPB_GROUP(12);
KPB_GROUP(13);
KPB_GROUP(14);
KPB_GROUP(15);
KPB_GROUP(16);
KPB_GROUP(17);
KPB_GROUP(18);
KPB_GROUP(19);
KPB_GROUP(20);
KPB_GROUP(21);
KPB_GROUP(22);
KPB_GROUP(23);
KPB_GROUP(24);
KPB_GROUP(25);
KPB_GROUP(26);
KPB_GROUP(27);
KPB_GROUP(28);
KPB_GROUP(29);
KPB_GROUP(30);
KPB_GROUP(31);
KPB_GROUP(32);
KPB_GROUP(33);
KPB_GROUP(34);
KPB_GROUP(35);
KPB_GROUP(36);
KPB_GROUP(37);
KPB_GROUP(38);
KPB_GROUP(39);
KPB_GROUP(40);
KPB_GROUP(41);
KPB_GROUP(42);
KPB_GROUP(43);
KPB_GROUP(44);
KPB_GROUP(45);
KPB_GROUP(46);
KPB_GROUP(47);
KPB_GROUP(48);
KPB_GROUP(49);
KPB_GROUP(50);
KPB_GROUP(51);
KPB_GROUP(52);
KPB_GROUP(53);
KPB_GROUP(54);
KPB_GROUP(55);
KPB_GROUP(56);
KPB_GROUP(57);
KPB_GROUP(58);
KPB_GROUP(59);
KPB_GROUP(60);
KPB_GROUP(61);
KPB_GROUP(62);
KPB_GROUP(63);

static long (* const * const kpb_groups[KPB_GROUPS])(long value) = {
	kpb_group00, kpb_group01, kpb_group02, kpb_group03,
	kpb_group04, kpb_group05, kpb_group06, kpb_group07,
	kpb_group08, kpb_group09, kpb_group10, kpb_group11,
	kpb_group12, kpb_group13, kpb_group14, kpb_group15,
	kpb_group16, kpb_group17, kpb_group18, kpb_group19,
	kpb_group20, kpb_group21, kpb_group22, kpb_group23,
	kpb_group24, kpb_group25, kpb_group26, kpb_group27,
	kpb_group28, kpb_group29, kpb_group30, kpb_group31,
	kpb_group32, kpb_group33, kpb_group34, kpb_group35,
	kpb_group36, kpb_group37, kpb_group38, kpb_group39,
	kpb_group40, kpb_group41, kpb_group42, kpb_group43,
	kpb_group44, kpb_group45, kpb_group46, kpb_group47,
	kpb_group48, kpb_group49, kpb_group50, kpb_group51,
	kpb_group52, kpb_group53, kpb_group54, kpb_group55,
	kpb_group56, kpb_group57, kpb_group58, kpb_group59,
	kpb_group60, kpb_group61, kpb_group62, kpb_group63,
};

static DEFINE_MUTEX(kpb_lock);
static struct dentry *kpb_dir;
static char kpb_result[256];
static atomic_long_t kpb_hits;

static int kpb_pre_handler(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_long_inc(&kpb_hits);
	return 0;
}

static int kpb_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_long_inc(&kpb_hits);
	return 0;
}

/* Does what a minimal entry_handler with per-instance data does. */
static int kpb_entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kpb_instance_data *data = (void *)ri->data;

	data->entry_ns = 0;
	return 0;
}

/*
 * What any handler that times calls does, and no more: the sample's cost
 * over this is the cost of its statistics.
 */
static int kpb_timed_entry_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kpb_instance_data *data = (void *)ri->data;

	data->entry_ns = local_clock();
	return 0;
}

static u64 kpb_last_ns;

static int kpb_timed_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kpb_instance_data *data = (void *)ri->data;

	WRITE_ONCE(kpb_last_ns, local_clock() - data->entry_ns);
	atomic_long_inc(&kpb_hits);
	return 0;
}

struct kpb_config {
	const char *name;
	bool kprobe, inner, optimized, kretprobe, entry_handler, timed;
};

static const struct kpb_config kpb_configs[] = {
	{ "none" },
	{ "kprobe_entry", .kprobe = true },
	{ "kprobe_inner", .kprobe = true, .inner = true },
	{ "kprobe_optimized", .kprobe = true, .inner = true, .optimized = true },
	{ "kretprobe", .kretprobe = true },
	{ "kretprobe_entry", .kretprobe = true, .entry_handler = true },
	{ "kretprobe_timed", .kretprobe = true, .entry_handler = true, .timed = true },
	{ "kprobe_kretprobe", .kprobe = true, .kretprobe = true },
};

static const struct kpb_config *kpb_config;
static struct kprobe kpb_kprobe;
static struct kretprobe kpb_kretprobe;
/* Hits per call that the probes of kpb_config make. */
static int kpb_hits_per_call;

static void kpb_teardown(void)
{
	if (!kpb_config)
		return;
	if (kpb_config->kprobe)
		unregister_kprobe(&kpb_kprobe);
	if (kpb_config->kretprobe)
		unregister_kretprobe(&kpb_kretprobe);
	kpb_config = NULL;
}

static int kpb_setup(const struct kpb_config *config)
{
	int ret;

	kpb_teardown();
	memset(&kpb_kprobe, 0, sizeof(kpb_kprobe));
	memset(&kpb_kretprobe, 0, sizeof(kpb_kretprobe));
	kpb_hits_per_call = config->kprobe + config->kretprobe;
	if (config->kprobe) {
		kpb_kprobe.symbol_name = "kpb_target";
		kpb_kprobe.pre_handler = kpb_pre_handler;
		if (config->inner) {
			ret = kst_inner_offset("kpb_target", kpb_target);
			if (ret < 0)
				return ret;
			kpb_kprobe.offset = ret;
		}
		ret = register_kprobe(&kpb_kprobe);
		if (ret)
			return ret;
		/* kprobes/list says [OPTIMIZED] already while it is queued. */
		if (config->optimized && !kst_wait_jump_optimized(&kpb_kprobe)) {
			unregister_kprobe(&kpb_kprobe);
			return -EOPNOTSUPP;
		}
	}
	if (config->kretprobe) {
		kpb_kretprobe.kp.symbol_name = "kpb_target";
		kpb_kretprobe.handler = kpb_ret_handler;
		if (config->entry_handler) {
			kpb_kretprobe.entry_handler = kpb_entry_handler;
			kpb_kretprobe.data_size = sizeof(struct kpb_instance_data);
		}
		if (config->timed) {
			kpb_kretprobe.entry_handler = kpb_timed_entry_handler;
			kpb_kretprobe.handler = kpb_timed_ret_handler;
		}
		ret = register_kretprobe(&kpb_kretprobe);
		if (ret) {
			if (config->kprobe)
				unregister_kprobe(&kpb_kprobe);
			return ret;
		}
	}
	kpb_config = config;
	return 0;
}

static int kpb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Calls kpb_target() @calls times, in rounds of KPB_CALLS_PER_ROUND with
 * preemption off; the median round gives the cost of a call.
 */
static int kpb_measure(long calls)
{
	int rounds = calls / KPB_CALLS_PER_ROUND, i, j;
	u64 *round_ns, start, median, min;
	u32 median_ps, min_ps;
	long hits, sum = 0;

	round_ns = kvmalloc_array(rounds, sizeof(*round_ns), GFP_KERNEL);
	if (!round_ns)
		return -ENOMEM;
	atomic_long_set(&kpb_hits, 0);
	for (i = 0; i < rounds; i++) {
		preempt_disable();
		start = ktime_get_ns();
		for (j = 0; j < KPB_CALLS_PER_ROUND; j++)
			sum += kpb_target_ptr(j);
		round_ns[i] = ktime_get_ns() - start;
		preempt_enable();
		cond_resched();
	}
	WRITE_ONCE(kpb_sink, sum);
	sort(round_ns, rounds, sizeof(*round_ns), kpb_cmp_u64, NULL);
	median = round_ns[rounds / 2];
	min = round_ns[0];
	kvfree(round_ns);

	/* A probe that missed calls would make the figure meaningless. */
	hits = atomic_long_read(&kpb_hits);
	if (kpb_config && hits != (long)kpb_hits_per_call * calls) {
		snprintf(kpb_result, sizeof(kpb_result),
			 "error %s: %ld hits for %ld calls\n", kpb_config->name, hits, calls);
		return 0;
	}
	/* Per call, in ns with three decimals: the round took that many ps. */
	median = div_u64_rem(median, KPB_CALLS_PER_ROUND, &median_ps);
	min = div_u64_rem(min, KPB_CALLS_PER_ROUND, &min_ps);
	snprintf(kpb_result, sizeof(kpb_result),
		 "measure %s calls %ld median_ns %llu.%03u min_ns %llu.%03u\n",
		 kpb_config ? kpb_config->name : "none", calls, median, median_ps,
		 min, min_ps);
	return 0;
}

/* Makes probe @i, on the i-th generated function, ready to be registered. */
static void kpb_fill(bool kretprobes, struct kprobe **kps, struct kretprobe **rps, int i)
{
	struct kprobe *kp = kretprobes ? &rps[i]->kp : kps[i];

	memset(kp, 0, sizeof(*kp));
	kp->addr = (kprobe_opcode_t *)kpb_groups[i / KPB_GROUP_SIZE][i % KPB_GROUP_SIZE];
	if (kretprobes)
		rps[i]->handler = kpb_ret_handler;
	else
		kp->pre_handler = kpb_pre_handler;
}

/*
 * Registers and unregisters @n probes with the batch APIs, then one by one,
 * and puts the four times in @ns.
 */
static int kpb_batch_once(bool kretprobes, int n, struct kprobe **kps,
			  struct kretprobe **rps, u64 ns[KPB_BATCH_TIMES])
{
	u64 t[KPB_BATCH_TIMES + 1];
	int i, ret;

	for (i = 0; i < n; i++)
		kpb_fill(kretprobes, kps, rps, i);
	t[0] = ktime_get_ns();
	ret = kretprobes ? register_kretprobes(rps, n) : register_kprobes(kps, n);
	if (ret)
		return ret;
	t[1] = ktime_get_ns();
	if (kretprobes)
		unregister_kretprobes(rps, n);
	else
		unregister_kprobes(kps, n);
	t[2] = ktime_get_ns();

	for (i = 0; i < n; i++) {
		kpb_fill(kretprobes, kps, rps, i);
		ret = kretprobes ? register_kretprobe(rps[i]) : register_kprobe(kps[i]);
		if (ret) {
			if (kretprobes)
				unregister_kretprobes(rps, i);
			else
				unregister_kprobes(kps, i);
			return ret;
		}
	}
	t[3] = ktime_get_ns();
	for (i = 0; i < n; i++) {
		if (kretprobes)
			unregister_kretprobe(rps[i]);
		else
			unregister_kprobe(kps[i]);
	}
	t[4] = ktime_get_ns();

	for (i = 0; i < KPB_BATCH_TIMES; i++)
		ns[i] = t[i + 1] - t[i];
	return 0;
}

/*
 * Times kpb_batch_once() KPB_BATCH_REPEAT times and reports the median of
 * each time: the first registrations also allocate instruction slots, and
 * the unregistrations wait for RCU grace periods of varying length.
 */
static int kpb_batch(bool kretprobes, int n)
{
	u64 ns[KPB_BATCH_TIMES][KPB_BATCH_REPEAT], once[KPB_BATCH_TIMES];
	struct kretprobe **rps = NULL, *rp_array = NULL;
	struct kprobe **kps = NULL, *kp_array = NULL;
	int i, j, ret = -ENOMEM;

	if (kretprobes) {
		rp_array = kvcalloc(n, sizeof(*rp_array), GFP_KERNEL);
		rps = kvcalloc(n, sizeof(*rps), GFP_KERNEL);
		if (!rp_array || !rps)
			goto out;
		for (i = 0; i < n; i++)
			rps[i] = &rp_array[i];
	} else {
		kp_array = kvcalloc(n, sizeof(*kp_array), GFP_KERNEL);
		kps = kvcalloc(n, sizeof(*kps), GFP_KERNEL);
		if (!kp_array || !kps)
			goto out;
		for (i = 0; i < n; i++)
			kps[i] = &kp_array[i];
	}

	for (j = 0; j < KPB_BATCH_REPEAT; j++) {
		ret = kpb_batch_once(kretprobes, n, kps, rps, once);
		if (ret)
			goto out;
		for (i = 0; i < KPB_BATCH_TIMES; i++)
			ns[i][j] = once[i];
	}
	for (i = 0; i < KPB_BATCH_TIMES; i++)
		sort(ns[i], KPB_BATCH_REPEAT, sizeof(u64), kpb_cmp_u64, NULL);

	j = KPB_BATCH_REPEAT / 2;
	snprintf(kpb_result, sizeof(kpb_result),
		 "batch %s n %d register_batch_ns %llu unregister_batch_ns %llu register_single_ns %llu unregister_single_ns %llu\n",
		 kretprobes ? "kretprobes" : "kprobes", n, ns[0][j], ns[1][j],
		 ns[2][j], ns[3][j]);
out:
	kvfree(kps);
	kvfree(kp_array);
	kvfree(rps);
	kvfree(rp_array);
	return ret;
}

static const struct kpb_config *kpb_find_config(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(kpb_configs); i++)
		if (!strcmp(name, kpb_configs[i].name))
			return &kpb_configs[i];
	return NULL;
}

static int kpb_command(const char *cmd, char *arg)
{
	const struct kpb_config *config;
	char *kind;
	long value;

	if (!strcmp(cmd, "teardown") && !arg) {
		kpb_teardown();
		snprintf(kpb_result, sizeof(kpb_result), "teardown\n");
		return 0;
	}
	if (!arg)
		return -EINVAL;
	if (!strcmp(cmd, "setup")) {
		config = kpb_find_config(arg);
		if (!config)
			return -EINVAL;
		snprintf(kpb_result, sizeof(kpb_result), "setup %s\n", arg);
		return kpb_setup(config);
	}
	if (!strcmp(cmd, "measure")) {
		if (kstrtol(arg, 10, &value) || value < KPB_CALLS_PER_ROUND ||
		    value > KPB_MAX_CALLS || value % KPB_CALLS_PER_ROUND)
			return -EINVAL;
		return kpb_measure(value);
	}
	if (!strcmp(cmd, "batch")) {
		kind = strsep(&arg, " ");
		if (!arg || kstrtol(skip_spaces(arg), 10, &value) ||
		    value < 1 || value > KPB_MAX_BATCH)
			return -EINVAL;
		if (strcmp(kind, "kprobes") && strcmp(kind, "kretprobes"))
			return -EINVAL;
		if (kpb_config)
			return -EBUSY;
		return kpb_batch(!strcmp(kind, "kretprobes"), value);
	}
	return -EINVAL;
}

static ssize_t kpb_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char input[64], *cmd, *arg;
	int ret;

	cmd = kst_command(input, sizeof(input), ubuf, count, &arg);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	mutex_lock(&kpb_lock);
	ret = kpb_command(cmd, arg);
	mutex_unlock(&kpb_lock);
	return ret ?: count;
}

static const struct file_operations kpb_run_fops = {
	.owner = THIS_MODULE,
	.write = kpb_run_write,
	.llseek = noop_llseek,
};

static int kpb_result_show(struct seq_file *m, void *v)
{
	mutex_lock(&kpb_lock);
	seq_puts(m, kpb_result);
	mutex_unlock(&kpb_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kpb_result);

static int __init kpb_init(void)
{
	kpb_target_ptr = kpb_target;
	kpb_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(kpb_dir))
		return PTR_ERR(kpb_dir);
	debugfs_create_file("run", 0200, kpb_dir, NULL, &kpb_run_fops);
	debugfs_create_file("result", 0400, kpb_dir, NULL, &kpb_result_fops);
	return 0;
}
module_init(kpb_init);

static void __exit kpb_exit(void)
{
	debugfs_remove_recursive(kpb_dir);
	mutex_lock(&kpb_lock);
	kpb_teardown();
	mutex_unlock(&kpb_lock);
}
module_exit(kpb_exit);

MODULE_DESCRIPTION("Benchmark of kprobe hits and of (batch) registration");
MODULE_LICENSE("GPL");
