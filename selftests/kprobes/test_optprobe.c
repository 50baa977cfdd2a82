// SPDX-License-Identifier: GPL-2.0
/*
 * test_optprobe - optimized kprobes on a module that comes and goes
 *
 * Optimized kprobes caught by the next step while the optimizer, which
 * runs in a worker 5 jiffies after it is asked, still has work queued for
 * them. Unregistering waits for an RCU grace period: expediting those
 * keeps each case's steps well inside the 5 jiffies. The steps are those
 * of test_modules/kprobes_selftest.ko, the probes on
 * test_modules/kprobes_selftest_target.ko.
 *
 * Five more cases probe _bcd2bin(), in kernel text, where every
 * architecture with optprobes optimizes: powerpc does not in modules.
 *
 * The cases skip where kprobes are not optimized (no CONFIG_OPTPROBES,
 * or /proc/sys/debug/kprobes-optimization off).
 */
#include "../kselftest_harness.h"
#include "kst_harness.h"

/*
 * Tries, 100 ms apart, to see what the optimizer did: 10 s, as long as
 * the test module waits for it (KST_OPTIMIZE_WAIT_S), which an emulated
 * guest on a busy host needed.
 */
#define OPTIMIZER_TRIES	100

/*
 * Waits for the kprobes/list line with @needle to show @flag (@present)
 * or not; the line ends up in @line.
 */
static bool wait_in_kprobes_list(const char *needle, const char *flag, bool present,
				 char *line, size_t size)
{
	int i;

	for (i = 0; i < OPTIMIZER_TRIES; i++) {
		if (find_in_kprobes_list(needle, line, size) &&
		    !strstr(line, flag) == !present)
			return true;
		usleep(100000);
	}
	return false;
}

#define RCU_EXPEDITED	"/sys/kernel/rcu_expedited"
#define OPTIMIZATION	"/proc/sys/debug/kprobes-optimization"
#define OPT_TARGET	"kst_gone_opt_target+"
#define CORE_OPT_TARGET	"  _bcd2bin+0x"
#define RELOAD_TRIES	20

FIXTURE(optprobe) {
	char knob[8];
	char rcu_expedited[8];
	char optimization[8];
};

FIXTURE_SETUP(optprobe)
{
	kst_name_test(_metadata->fixture->name, NULL, _metadata->name);
	setup_kprobes(_metadata, self->knob, sizeof(self->knob));
	if (read_file(RCU_EXPEDITED, self->rcu_expedited, sizeof(self->rcu_expedited)) <= 0)
		self->rcu_expedited[0] = '\0';
	if (read_file(OPTIMIZATION, self->optimization, sizeof(self->optimization)) <= 0)
		self->optimization[0] = '\0';
}

FIXTURE_TEARDOWN(optprobe)
{
	if (self->rcu_expedited[0])
		write_file(RCU_EXPEDITED, self->rcu_expedited);
	if (self->optimization[0])
		write_file(OPTIMIZATION, self->optimization);
	teardown_kprobes(_metadata, self->knob);
}

static void reload_target(struct __test_metadata *_metadata)
{
	int ret;

	ret = unload_module(TARGET_MODULE);
	ASSERT_EQ(0, ret) TH_LOG("unloading %s: %s", TARGET_MODULE, strerror(-ret));
	ret = load_test_module(TARGET_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TARGET_MODULE, strerror(-ret));
}

/*
 * An optimized kprobe on the target module, then RCU expedited. The module
 * is loaded twice: the second time it lands where it will land again.
 * False when the case was skipped: no optimized probe here.
 */
static bool hold_optimized(struct __test_metadata *_metadata, const char *rcu_expedited)
{
	char verdict[512];
	int ret;

	ret = load_test_module(TARGET_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TARGET_MODULE, strerror(-ret));
	reload_target(_metadata);
	run_command(_metadata, STEP(hold_optprobe), verdict, sizeof(verdict));
	if (!strncmp(verdict, "skip: ", 6))
		SKIP(return false, "%s", verdict + 6);
	ASSERT_STREQ("pass", verdict);
	if (rcu_expedited[0])
		write_file(RCU_EXPEDITED, "1");
	return true;
}

/* The optimized kprobe inside _bcd2bin(), in kernel text. */
static bool hold_core_optimized(struct __test_metadata *_metadata)
{
	char knob[8], verdict[512];

	if (read_file(OPTIMIZATION, knob, sizeof(knob)) > 0 && knob[0] == '0')
		SKIP(return false, "%s is 0: kprobes are not optimized", OPTIMIZATION);
	run_command(_metadata, STEP(hold_core_optprobe), verdict, sizeof(verdict));
	if (!strncmp(verdict, "skip: ", 6))
		SKIP(return false, "%s", verdict + 6);
	ASSERT_STREQ("pass", verdict);
	return true;
}

/* The kprobes/list line of the probe at the lowest offset in _bcd2bin(). */
static bool find_first_core_probe(char *line, size_t size)
{
	FILE *list = fopen(KPROBES_LIST, "r");
	unsigned long offset, lowest = ULONG_MAX;
	char buf[512], *at;

	if (!list)
		return false;
	while (fgets(buf, sizeof(buf), list)) {
		at = strstr(buf, CORE_OPT_TARGET);
		if (!at)
			continue;
		offset = strtoul(at + strlen(CORE_OPT_TARGET), NULL, 16);
		if (offset < lowest) {
			lowest = offset;
			snprintf(line, size, "%s", buf);
		}
	}
	fclose(list);
	return lowest != ULONG_MAX;
}

/*
 * An optimized kprobe inside a core-kernel function: its pre_handler runs
 * once per call, the function returns what it did, and once the probe is
 * unregistered nothing of it is left in kprobes/list or in the code.
 */
TEST_F(optprobe, core_kernel_hit_per_call)
{
	char line[512];
	int i;

	if (!hold_core_optimized(_metadata))
		return;
	ASSERT_TRUE(find_in_kprobes_list(CORE_OPT_TARGET, line, sizeof(line)))
		TH_LOG("the optimized probe is not in " KPROBES_LIST);
	EXPECT_TRUE(!!strstr(line, "[OPTIMIZED]")) TH_LOG("%s", line);
	run_case(_metadata, STEP(unregister_core_optprobe));
	for (i = 0; i < 50 && find_in_kprobes_list(CORE_OPT_TARGET, line, sizeof(line)); i++)
		usleep(100000);
	EXPECT_FALSE(find_in_kprobes_list(CORE_OPT_TARGET, line, sizeof(line)))
		TH_LOG("left in " KPROBES_LIST ": %s", line);
}

/*
 * A probe with a post_handler on the address of an optimized probe in
 * kernel text unoptimizes it at once: each call runs the post_handler.
 */
TEST_F(optprobe, core_kernel_post_handler_unoptimizes)
{
	char line[512];

	if (!hold_core_optimized(_metadata))
		return;
	run_case(_metadata, STEP(core_optprobe_add_post_handler));
	ASSERT_TRUE(find_in_kprobes_list(CORE_OPT_TARGET, line, sizeof(line)))
		TH_LOG("the probes are not in " KPROBES_LIST);
	EXPECT_TRUE(!strstr(line, "[OPTIMIZED]")) TH_LOG("%s", line);
	run_case(_metadata, STEP(unregister_core_optprobe));
}

/*
 * Once the probe with the post_handler is gone, the optimized probe, alone
 * on its address again, is optimized again.
 */
TEST_F(optprobe, core_kernel_reoptimized_without_post_handler)
{
	char line[512];

	if (!hold_core_optimized(_metadata))
		return;
	run_case(_metadata, STEP(core_optprobe_add_post_handler));
	run_case(_metadata, STEP(core_optprobe_remove_post_handler));
	ASSERT_TRUE(find_in_kprobes_list(CORE_OPT_TARGET, line, sizeof(line)))
		TH_LOG("the probe is not in " KPROBES_LIST);
	EXPECT_TRUE(!!strstr(line, "[OPTIMIZED]")) TH_LOG("%s", line);
	run_case(_metadata, STEP(unregister_core_optprobe));
}

/*
 * x86's jump covers the instructions after the probed one: a probe on one
 * of them puts the optimized probe back on its breakpoint, which it keeps
 * when the optimizer is asked again for every probe (the sysctl); once
 * that probe is gone, each call runs the first one's pre_handler alone.
 */
TEST_F(optprobe, core_kernel_jump_not_over_probe)
{
	char line[512];

	if (!hold_core_optimized(_metadata))
		return;
	if (!run_case(_metadata, STEP(core_optprobe_cover_next)))
		return;
	ASSERT_EQ(0, write_file(OPTIMIZATION, "0"));
	ASSERT_EQ(0, write_file(OPTIMIZATION, "1"));
	ASSERT_TRUE(find_first_core_probe(line, sizeof(line)))
		TH_LOG("the probes are not in " KPROBES_LIST);
	/* Fatal: the teardown takes the jump away before anything calls it. */
	ASSERT_FALSE(!!strstr(line, "[OPTIMIZED]"))
		TH_LOG("optimized over the other probe's breakpoint: %s", line);
	run_case(_metadata, STEP(core_optprobe_uncover));
	run_case(_metadata, STEP(unregister_core_optprobe));
}

/*
 * debug.kprobes-optimization: 0 puts every optimized probe back on its
 * breakpoint before the write returns, and reads back 0; a value out of
 * 0..1 is refused and changes nothing; 1 optimizes the probes again.
 */
TEST_F(optprobe, optimization_sysctl)
{
	static const char * const bad[] = { "2", "-1", "x" };
	char line[512], value[8];
	int i, ret;

	if (!hold_core_optimized(_metadata))
		return;
	ASSERT_TRUE(wait_in_kprobes_list(CORE_OPT_TARGET, "[OPTIMIZED]", true, line, sizeof(line)))
		TH_LOG("never optimized: %s", line);
	ASSERT_EQ(0, write_file(OPTIMIZATION, "0"));
	ASSERT_TRUE(find_in_kprobes_list(CORE_OPT_TARGET, line, sizeof(line)));
	EXPECT_FALSE(!!strstr(line, "[OPTIMIZED]")) TH_LOG("optimized at 0: %s", line);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = write_file(OPTIMIZATION, bad[i]);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("\"%s\": %s", bad[i], strerror(-ret));
	}
	ASSERT_LT(0, read_file(OPTIMIZATION, value, sizeof(value)));
	EXPECT_STREQ("0\n", value);
	ASSERT_EQ(0, write_file(OPTIMIZATION, "1"));
	EXPECT_TRUE(wait_in_kprobes_list(CORE_OPT_TARGET, "[OPTIMIZED]", true, line, sizeof(line)))
		TH_LOG("not optimized again at 1: %s", line);
	ASSERT_LT(0, read_file(OPTIMIZATION, value, sizeof(value)));
	EXPECT_STREQ("1\n", value);
}

/* kprobes/list shows an optimized probe with [OPTIMIZED]. */
TEST_F(optprobe, listed_as_optimized)
{
	char line[512];

	if (!hold_optimized(_metadata, self->rcu_expedited))
		return;
	ASSERT_TRUE(find_in_kprobes_list(OPT_TARGET, line, sizeof(line)))
		TH_LOG("the optimized probe is not in " KPROBES_LIST);
	EXPECT_TRUE(!!strstr(line, "[OPTIMIZED]")) TH_LOG("%s", line);
}

/*
 * A probe with a post_handler on the address of an optimized probe
 * unoptimizes it, and kprobes/list says so.
 */
TEST_F(optprobe, post_handler_unoptimizes)
{
	char line[512];

	if (!hold_optimized(_metadata, self->rcu_expedited))
		return;
	run_case(_metadata, STEP(optprobe_add_post_handler));
	ASSERT_TRUE(find_in_kprobes_list(OPT_TARGET, line, sizeof(line)))
		TH_LOG("the probes are not in " KPROBES_LIST);
	EXPECT_TRUE(!strstr(line, "[OPTIMIZED]")) TH_LOG("%s", line);
}

/*
 * A disabled kprobe that takes over the unused optimized probe on its
 * address leaves it disabled: it gets unoptimized and stays so.
 */
TEST_F(optprobe, reused_by_disabled_probe)
{
	char line[512];

	if (!hold_optimized(_metadata, self->rcu_expedited))
		return;
	run_case(_metadata, STEP(optprobe_reuse_disabled));
	EXPECT_TRUE(wait_in_kprobes_list(OPT_TARGET, "[OPTIMIZED]", false, line, sizeof(line)))
		TH_LOG("a disabled probe runs optimized: %s", line);
	EXPECT_TRUE(!!strstr(line, "[DISABLED]")) TH_LOG("%s", line);
}

/*
 * An unused optimized probe that was unoptimized by force is freed with
 * its module: when the module comes back, a probe on the same address
 * registers as on a new one.
 */
TEST_F(optprobe, freed_with_its_module)
{
	char verdict[512];
	int tries, reloads;

	if (!hold_optimized(_metadata, self->rcu_expedited))
		return;
	run_case(_metadata, STEP(optprobe_force_release));
	/*
	 * Only a probe on the old address shows what was left there: load
	 * the module until it comes back at that address. Until the
	 * optimizer runs, the old probe is still there, as it should: try
	 * again. The module's address is only known once a probe
	 * registers, so a "skip" may come after a "fail".
	 */
	reload_target(_metadata);
	for (tries = 0, reloads = 1; tries < OPTIMIZER_TRIES; tries++) {
		run_command(_metadata, STEP(optprobe_reregister), verdict, sizeof(verdict));
		if (!strcmp(verdict, "pass"))
			break;
		if (!strncmp(verdict, "skip: ", 6)) {
			if (reloads++ == RELOAD_TRIES)
				SKIP(return, "%s never came back at its address",
				     TARGET_MODULE);
			reload_target(_metadata);
			continue;
		}
		usleep(100000);
	}
	if (!strncmp(verdict, "skip: ", 6))
		SKIP(return, "%s", verdict + 6);
	EXPECT_STREQ("pass", verdict);
}

int main(int argc, char **argv)
{
	skip_unless_ready(TEST_MODULE);
	skip_unless_ready(TARGET_MODULE);
	return test_harness_run(argc, argv);
}
