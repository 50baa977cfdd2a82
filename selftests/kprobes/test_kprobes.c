// SPDX-License-Identifier: GPL-2.0
/*
 * test_kprobes - user-space driver of the kprobes API selftests
 *
 * Loads test_modules/kprobes_selftest.ko (next to this program) for each
 * case and runs the case through the module's debugfs interface. Most
 * cases run whole in the kernel; the others hold probes registered while
 * this program checks what user space sees of them in
 * /sys/kernel/debug/kprobes: list, enabled and blacklist. After every case
 * no probe of the test modules may be left in kprobes/list, and the global
 * enable knob is restored.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "helpers.h"

#define TEST_MODULE	"kprobes_selftest"
#define TARGET_MODULE	"kprobes_selftest_target"
#define MODULE_DEBUGFS	DEBUGFS "/" TEST_MODULE
#define KPROBES_ENABLED	DEBUGFS "/kprobes/enabled"
#define KPROBES_BLACKLIST DEBUGFS "/kprobes/blacklist"
/* kprobes/list prints "<addr>  k  <sym>+0x<off>  <module> [FLAGS]" */
#define LISTED_IN(module) "  " module " "

static int load_test_module(const char *name, const char *params)
{
	char path[PATH_MAX + 64];
	int ret;

	ret = test_module_path(name, path, sizeof(path));
	return ret ?: load_module(path, params);
}

/* Runs @command ("<case> [arg]") and returns the module's verdict line. */
static void run_command(struct __test_metadata *_metadata, const char *command,
			char *verdict, size_t size)
{
	char result[512];
	size_t name_len = strcspn(command, " ");
	int ret;

	ret = write_file(MODULE_DEBUGFS "/run", command);
	ASSERT_EQ(0, ret) TH_LOG("running \"%s\": %s", command, strerror(-ret));
	ret = read_file(MODULE_DEBUGFS "/result", result, sizeof(result));
	ASSERT_LT(0, ret) TH_LOG("reading the result: %s", strerror(-ret));
	result[strcspn(result, "\n")] = '\0';
	ASSERT_TRUE(!strncmp(result, command, name_len) && result[name_len] == ' ')
		TH_LOG("result is for another case: %s", result);
	snprintf(verdict, size, "%s", result + name_len + 1);
}

/* Runs a case that must pass; a skip skips the test. */
static void run_case(struct __test_metadata *_metadata, const char *command)
{
	char verdict[512];

	run_command(_metadata, command, verdict, sizeof(verdict));
	if (!strncmp(verdict, "skip: ", 6))
		SKIP(return, "%s", verdict + 6);
	ASSERT_STREQ("pass", verdict) TH_LOG("%s: %s", command, verdict);
}

static void read_hits(struct __test_metadata *_metadata, int hits[3])
{
	char buf[64];
	int n;

	ASSERT_LT(0, read_file(MODULE_DEBUGFS "/hits", buf, sizeof(buf)));
	n = sscanf(buf, "%d %d %d", &hits[0], &hits[1], &hits[2]);
	ASSERT_EQ(3, n) TH_LOG("hits: %s", buf);
}

/*
 * Waits up to 5 s for the kprobes/list line with @needle to show @flag
 * (@present) or not; the line ends up in @line.
 */
static bool wait_in_kprobes_list(const char *needle, const char *flag, bool present,
				 char *line, size_t size)
{
	int i;

	for (i = 0; i < 50; i++) {
		if (find_in_kprobes_list(needle, line, size) &&
		    !strstr(line, flag) == !present)
			return true;
		usleep(100000);
	}
	return false;
}

static void setup_kprobes(struct __test_metadata *_metadata, char *knob, size_t size)
{
	int ret;

	ret = read_file(KPROBES_ENABLED, knob, size);
	ASSERT_LT(0, ret) TH_LOG("%s: %s", KPROBES_ENABLED, strerror(-ret));
	ret = load_test_module(TEST_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TEST_MODULE, strerror(-ret));
}

/* Unloads @name if the test loaded it; no probe of it may be left. */
static void teardown_own_module(struct __test_metadata *_metadata, const char *name,
				bool loaded)
{
	char needle[64], line[512];
	int ret;

	if (loaded) {
		ret = unload_module(name);
		EXPECT_EQ(0, ret) TH_LOG("unloading %s: %s", name, strerror(-ret));
	}
	snprintf(needle, sizeof(needle), LISTED_IN("%s"), name);
	EXPECT_FALSE(find_in_kprobes_list(needle, line, sizeof(line)))
		TH_LOG("probe left registered: %s", line);
}

/* Whatever the case did, leave kprobes as we found them. */
static void teardown_kprobes(struct __test_metadata *_metadata, const char *knob)
{
	write_file(MODULE_DEBUGFS "/run", "release");
	write_file(KPROBES_ENABLED, knob);
	unload_module(TARGET_MODULE);
	teardown_own_module(_metadata, TEST_MODULE, true);
}

/*
 * The cases that run whole in the kernel, one variant each; what each
 * checks is described next to its case_*() function in the module.
 */
FIXTURE(api) {
	char knob[8];
};

FIXTURE_VARIANT(api) {
	const char *name;
};

FIXTURE_VARIANT_ADD(api, kprobe_by_symbol) {
	.name = "kprobe_by_symbol",
};

FIXTURE_VARIANT_ADD(api, kprobe_by_addr) {
	.name = "kprobe_by_addr",
};

FIXTURE_VARIANT_ADD(api, kprobe_symbol_offset) {
	.name = "kprobe_symbol_offset",
};

FIXTURE_VARIANT_ADD(api, kprobe_core_kernel) {
	.name = "kprobe_core_kernel",
};

FIXTURE_VARIANT_ADD(api, kprobe_core_kernel_addr) {
	.name = "kprobe_core_kernel_addr",
};

FIXTURE_VARIANT_ADD(api, kprobe_core_kernel_offset) {
	.name = "kprobe_core_kernel_offset",
};

FIXTURE_VARIANT_ADD(api, kretprobe_by_symbol) {
	.name = "kretprobe_by_symbol",
};

FIXTURE_VARIANT_ADD(api, kretprobe_entry_data) {
	.name = "kretprobe_entry_data",
};

FIXTURE_VARIANT_ADD(api, kretprobe_maxactive_default) {
	.name = "kretprobe_maxactive_default",
};

FIXTURE_VARIANT_ADD(api, probes_same_addr) {
	.name = "probes_same_addr",
};

FIXTURE_VARIANT_ADD(api, err_symbol_and_addr) {
	.name = "err_symbol_and_addr",
};

FIXTURE_VARIANT_ADD(api, err_unknown_symbol) {
	.name = "err_unknown_symbol",
};

FIXTURE_VARIANT_ADD(api, err_bad_offset) {
	.name = "err_bad_offset",
};

FIXTURE_VARIANT_ADD(api, err_kretprobe_offset) {
	.name = "err_kretprobe_offset",
};

FIXTURE_VARIANT_ADD(api, err_kretprobe_data_size) {
	.name = "err_kretprobe_data_size",
};

FIXTURE_VARIANT_ADD(api, err_register_twice) {
	.name = "err_register_twice",
};

FIXTURE_VARIANT_ADD(api, unregister_unregistered) {
	.name = "unregister_unregistered",
};

FIXTURE_VARIANT_ADD(api, recursion_nmissed) {
	.name = "recursion_nmissed",
};

FIXTURE_VARIANT_ADD(api, batch) {
	.name = "batch",
};

FIXTURE_VARIANT_ADD(api, batch_rollback) {
	.name = "batch_rollback",
};

FIXTURE_VARIANT_ADD(api, batch_num_invalid) {
	.name = "batch_num_invalid",
};

FIXTURE_VARIANT_ADD(api, disable_enable) {
	.name = "disable_enable",
};

FIXTURE_VARIANT_ADD(api, register_disabled) {
	.name = "register_disabled",
};

FIXTURE_VARIANT_ADD(api, disable_one_of_two) {
	.name = "disable_one_of_two",
};

FIXTURE_VARIANT_ADD(api, enable_unregistered) {
	.name = "enable_unregistered",
};

FIXTURE_VARIANT_ADD(api, maxactive_exhausted) {
	.name = "maxactive_exhausted",
};

FIXTURE_VARIANT_ADD(api, maxactive_enough) {
	.name = "maxactive_enough",
};

FIXTURE_VARIANT_ADD(api, maxactive_recursive) {
	.name = "maxactive_recursive",
};

FIXTURE_SETUP(api)
{
	setup_kprobes(_metadata, self->knob, sizeof(self->knob));
}

FIXTURE_TEARDOWN(api)
{
	teardown_kprobes(_metadata, self->knob);
}

TEST_F(api, run)
{
	run_case(_metadata, variant->name);
}

/* The cases that check from user space what kprobes show of a probe. */
FIXTURE(kprobes) {
	char knob[8];
};

FIXTURE_SETUP(kprobes)
{
	setup_kprobes(_metadata, self->knob, sizeof(self->knob));
}

FIXTURE_TEARDOWN(kprobes)
{
	teardown_kprobes(_metadata, self->knob);
}

/* A held probe is listed while registered, with [DISABLED] when it is. */
TEST_F(kprobes, list_shows_probes)
{
	char line[512];

	run_case(_metadata, "hold_kprobe");
	ASSERT_TRUE(find_in_kprobes_list("k  kst_target+0x0" LISTED_IN(TEST_MODULE),
					 line, sizeof(line)))
		TH_LOG("the registered probe is not in " KPROBES_LIST);
	EXPECT_EQ(NULL, strstr(line, "[DISABLED]")) TH_LOG("%s", line);

	run_case(_metadata, "hold_kprobe_disabled");
	EXPECT_TRUE(find_in_kprobes_list("[DISABLED]", line, sizeof(line)))
		TH_LOG("no [DISABLED] probe in " KPROBES_LIST);

	run_case(_metadata, "release");
	EXPECT_FALSE(find_in_kprobes_list(LISTED_IN(TEST_MODULE), line, sizeof(line)))
		TH_LOG("still listed after release: %s", line);
}

/* kprobes/enabled: 0 stops every probe, 1 restores the enabled ones. */
TEST_F(kprobes, global_enable_knob)
{
	char knob[8];
	int hits[3];

	run_case(_metadata, "hold_kprobe");
	run_case(_metadata, "hold_kprobe_disabled");

	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	ASSERT_LT(0, read_file(KPROBES_ENABLED, knob, sizeof(knob)));
	EXPECT_EQ('0', knob[0]);
	run_case(_metadata, "call_target");
	read_hits(_metadata, hits);
	EXPECT_EQ(0, hits[0]) TH_LOG("a probe fired while kprobes were disabled");

	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "1"));
	run_case(_metadata, "call_target");
	read_hits(_metadata, hits);
	EXPECT_EQ(1, hits[0]) TH_LOG("the probe did not fire after re-enabling");
	EXPECT_EQ(0, hits[1]) TH_LOG("re-enabling kprobes enabled a disabled probe");
}

/* The module's NOKPROBE_SYMBOL() function is listed and refused. */
TEST_F(kprobes, blacklist_module_function)
{
	char line[512];
	FILE *list;
	int found = 0, neighbour = 0;

	list = fopen(KPROBES_BLACKLIST, "r");
	ASSERT_NE(NULL, list) TH_LOG("%s: %s", KPROBES_BLACKLIST, strerror(errno));
	while (fgets(line, sizeof(line), list)) {
		found += !!strstr(line, "\tkst_blacklisted [" TEST_MODULE "]");
		neighbour += !!strstr(line, "\tkst_neighbour [");
	}
	fclose(list);
	EXPECT_EQ(1, found) TH_LOG("kst_blacklisted is not in " KPROBES_BLACKLIST);
	EXPECT_EQ(0, neighbour) TH_LOG("kst_neighbour is in " KPROBES_BLACKLIST);

	run_case(_metadata, "blacklisted_module_function");
}

/*
 * Several core-kernel entries of the blacklist, picked at run time among
 * those whose name is a single function in /proc/kallsyms.
 */
static int kallsyms_count(const char *name)
{
	char line[512], sym[256], type;
	int count = 0;
	FILE *syms = fopen("/proc/kallsyms", "r");

	if (!syms)
		return -1;
	while (fgets(line, sizeof(line), syms))
		if (sscanf(line, "%*s %c %255s", &type, sym) == 2 &&
		    tolower(type) == 't' && !strcmp(sym, name))
			count++;
	fclose(syms);
	return count;
}

TEST_F(kprobes, blacklist_core_functions)
{
	char line[512], name[256], command[300];
	int tried = 0, entries = 0;
	FILE *list;

	list = fopen(KPROBES_BLACKLIST, "r");
	ASSERT_NE(NULL, list) TH_LOG("%s: %s", KPROBES_BLACKLIST, strerror(errno));
	while (tried < 5 && fgets(line, sizeof(line), list)) {
		/* "0x<start>-0x<end>\t<symbol>"; module entries end in "]" */
		if (sscanf(line, "%*s %255s", name) != 1 || strchr(line, '[') ||
		    strchr(name, '.') || entries++ % 7)
			continue;
		if (kallsyms_count(name) != 1)
			continue;
		snprintf(command, sizeof(command), "blacklisted_symbol %s", name);
		TH_LOG("refused: %s", name);
		run_case(_metadata, command);
		tried++;
	}
	fclose(list);
	EXPECT_LE(3, tried) TH_LOG("only %d usable entries in " KPROBES_BLACKLIST, tried);
}

/* A probe on a module that goes away is [GONE], inert and unregisterable. */
TEST_F(kprobes, probe_on_unloaded_module)
{
	char line[512], addr[32];
	int ret;

	ret = load_test_module(TARGET_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TARGET_MODULE, strerror(-ret));
	run_case(_metadata, "hold_kprobe_gone");
	ASSERT_TRUE(find_in_kprobes_list("kst_gone_target+0x0" LISTED_IN(TARGET_MODULE),
					 line, sizeof(line)))
		TH_LOG("the probe on %s is not listed", TARGET_MODULE);
	/* Once the module is gone the line shows only the address. */
	ret = sscanf(line, "%31s", addr);
	ASSERT_EQ(1, ret);

	ret = unload_module(TARGET_MODULE);
	ASSERT_EQ(0, ret) TH_LOG("unloading %s: %s", TARGET_MODULE, strerror(-ret));
	ASSERT_TRUE(find_in_kprobes_list(addr, line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, "[GONE]")) TH_LOG("after unload: %s", line);

	run_case(_metadata, "enable_gone");
	run_case(_metadata, "release");
	EXPECT_FALSE(find_in_kprobes_list(addr, line, sizeof(line)))
		TH_LOG("still listed after unregistering: %s", line);
}

/* Bad input to the test module changes nothing and says so. */
TEST_F(kprobes, module_rejects_bad_input)
{
	static const char * const bad[] = {
		"", "\n", "   ", "\t\n", "no_such_case", "kprobe_by_symbolx",
		"KPROBE_BY_SYMBOL", "kprobe_by_symbol\x01", "\xff\xfe", "-1",
		"99999999999999999999", "kprobe_by_symbol extra", "release now",
		"blacklisted_symbol", "blacklisted_symbol  ",
		"blacklisted_symbol kprobes_selftest_no_such_symbol",
		"blacklisted_symbol -1",
	};
	char before[512], after[512], hits_before[64], hits_after[64];
	char overlong[4096], long_symbol[400], line[512];
	int i, ret;

	run_case(_metadata, "call_target");
	ASSERT_LT(0, read_file(MODULE_DEBUGFS "/result", before, sizeof(before)));
	ASSERT_LT(0, read_file(MODULE_DEBUGFS "/hits", hits_before, sizeof(hits_before)));

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = write_file(MODULE_DEBUGFS "/run", bad[i]);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("\"%s\": %s", bad[i], strerror(-ret));
	}
	/* Fits the module's buffer, but names no symbol. */
	snprintf(long_symbol, sizeof(long_symbol), "blacklisted_symbol %0*d",
		 (int)sizeof(long_symbol) - 21, 0);
	ret = write_file(MODULE_DEBUGFS "/run", long_symbol);
	EXPECT_EQ(-EINVAL, ret) TH_LOG("%zu bytes: %s", strlen(long_symbol), strerror(-ret));
	memset(overlong, 'a', sizeof(overlong) - 1);
	overlong[sizeof(overlong) - 1] = '\0';
	ret = write_file(MODULE_DEBUGFS "/run", overlong);
	EXPECT_EQ(-EINVAL, ret) TH_LOG("%zu bytes: %s", strlen(overlong), strerror(-ret));

	ASSERT_LT(0, read_file(MODULE_DEBUGFS "/result", after, sizeof(after)));
	EXPECT_STREQ(before, after) TH_LOG("bad input changed the result");
	ASSERT_LT(0, read_file(MODULE_DEBUGFS "/hits", hits_after, sizeof(hits_after)));
	EXPECT_STREQ(hits_before, hits_after) TH_LOG("bad input changed the hits");
	EXPECT_FALSE(find_in_kprobes_list(LISTED_IN(TEST_MODULE), line, sizeof(line)))
		TH_LOG("bad input left a probe: %s", line);
}

/*
 * Optimized kprobes caught by the next step while the optimizer, which
 * runs in a worker 5 jiffies after it is asked, still has work queued for
 * them. Unregistering waits for an RCU grace period: expediting those
 * keeps each case's steps well inside the 5 jiffies.
 */
#define RCU_EXPEDITED	"/sys/kernel/rcu_expedited"
#define OPT_TARGET	"kst_gone_opt_target+"
#define RELOAD_TRIES	20

FIXTURE(optprobe) {
	char knob[8];
	char rcu_expedited[8];
};

FIXTURE_SETUP(optprobe)
{
	setup_kprobes(_metadata, self->knob, sizeof(self->knob));
	if (read_file(RCU_EXPEDITED, self->rcu_expedited, sizeof(self->rcu_expedited)) <= 0)
		self->rcu_expedited[0] = '\0';
}

FIXTURE_TEARDOWN(optprobe)
{
	if (self->rcu_expedited[0])
		write_file(RCU_EXPEDITED, self->rcu_expedited);
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
	run_command(_metadata, "hold_optprobe", verdict, sizeof(verdict));
	if (!strncmp(verdict, "skip: ", 6))
		SKIP(return false, "%s", verdict + 6);
	ASSERT_STREQ("pass", verdict);
	if (rcu_expedited[0])
		write_file(RCU_EXPEDITED, "1");
	return true;
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
	run_case(_metadata, "optprobe_reuse_disabled");
	EXPECT_TRUE(wait_in_kprobes_list(OPT_TARGET, "[OPTIMIZED]", false, line, sizeof(line)))
		TH_LOG("a disabled probe runs optimized: %s", line);
	EXPECT_NE(NULL, strstr(line, "[DISABLED]")) TH_LOG("%s", line);
}

/*
 * An unused optimized probe that was unoptimized by force is freed with
 * its module: when the module comes back, a probe on the same address
 * registers as on a new one.
 */
TEST_F(optprobe, freed_with_its_module)
{
	char verdict[512];
	int tries;

	if (!hold_optimized(_metadata, self->rcu_expedited))
		return;
	run_case(_metadata, "optprobe_force_release");
	/*
	 * Only a probe on the old address shows what was left there: load
	 * the module until it comes back at that address.
	 */
	for (tries = 1; tries <= RELOAD_TRIES; tries++) {
		reload_target(_metadata);
		run_command(_metadata, "optprobe_reregister", verdict, sizeof(verdict));
		if (strncmp(verdict, "skip: ", 6))
			break;
	}
	if (tries > RELOAD_TRIES)
		SKIP(return, "%s never came back at its address", TARGET_MODULE);
	/* Until the optimizer runs, the old probe is still there, as it should. */
	for (tries = 0; tries < 50 && strcmp(verdict, "pass"); tries++) {
		usleep(100000);
		run_command(_metadata, "optprobe_reregister", verdict, sizeof(verdict));
	}
	EXPECT_STREQ("pass", verdict);
}

/*
 * kprobes_torture.ko: threads register, unregister, enable and disable
 * probes at random while every CPU calls their targets; the module checks
 * the invariants and counts violations. KPROBES_TORTURE_SECONDS and
 * KPROBES_TORTURE_THREADS in the environment run it longer or wider.
 */
#define TORTURE_MODULE	"kprobes_torture"
#define TORTURE_STATUS	DEBUGFS "/" TORTURE_MODULE "/status"
/* The module's own limit on its duration parameter, plus slack. */
#define TORTURE_TIMEOUT	(86400 + 600)

FIXTURE(torture) {
	bool loaded;
};

FIXTURE_SETUP(torture)
{
	self->loaded = false;
}

FIXTURE_TEARDOWN(torture)
{
	teardown_own_module(_metadata, TORTURE_MODULE, self->loaded);
}

/* The value of "@key <value>" in kprobes_torture/status, or -1. */
static long torture_value(const char *status, const char *key)
{
	size_t len = strlen(key);
	const char *p;

	for (p = status; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

TEST_F_TIMEOUT(torture, invariants_hold, TORTURE_TIMEOUT)
{
	const char *seconds = getenv("KPROBES_TORTURE_SECONDS");
	const char *threads = getenv("KPROBES_TORTURE_THREADS");
	char params[128], status[1024], summary[1024], line[512], *newline;
	long duration, waited;
	int ret;

	snprintf(params, sizeof(params), "duration=%s threads=%s",
		 seconds ? seconds : "3", threads ? threads : "4");
	ret = load_test_module(TORTURE_MODULE, params);
	ASSERT_EQ(0, ret) TH_LOG("loading %s %s: %s", TORTURE_MODULE, params, strerror(-ret));
	self->loaded = true;

	ASSERT_LT(0, read_file(TORTURE_STATUS, status, sizeof(status)));
	duration = torture_value(status, "duration");
	for (waited = 0; !strstr(status, "state done"); waited++) {
		ASSERT_GT(duration + 120, waited)
			TH_LOG("still running %ld s after its %ld s", waited - duration, duration);
		sleep(1);
		ASSERT_LT(0, read_file(TORTURE_STATUS, status, sizeof(status)));
	}
	/* The counters on one line of log, for the record. */
	snprintf(summary, sizeof(summary), "%s", status);
	while ((newline = strchr(summary, '\n')))
		*newline = ' ';
	TH_LOG("%s", summary);

	EXPECT_EQ(0, torture_value(status, "violations"))
		TH_LOG("invariants broken; the kernel log names them");
	EXPECT_LT(0, torture_value(status, "registers"));
	EXPECT_EQ(torture_value(status, "registers"), torture_value(status, "unregisters"));
	EXPECT_LT(0, torture_value(status, "enables"));
	EXPECT_LT(0, torture_value(status, "disables"));
	EXPECT_LT(0, torture_value(status, "batches"));
	EXPECT_LT(0, torture_value(status, "hits"));
	EXPECT_FALSE(find_in_kprobes_list(LISTED_IN(TORTURE_MODULE), line, sizeof(line)))
		TH_LOG("left registered after the run: %s", line);
}

/* Bad parameters are refused at load: the module does not stay loaded. */
TEST_F(torture, rejects_bad_params)
{
	static const struct {
		const char *params;
		int error;
	} bad[] = {
		{ "threads=0", -EINVAL },
		{ "threads=-1", -EINVAL },
		{ "threads=17", -EINVAL },
		{ "threads=", -EINVAL },
		{ "threads=four", -EINVAL },
		{ "threads=2.5", -EINVAL },
		{ "threads=99999999999", -ERANGE },
		{ "duration=0", -EINVAL },
		{ "duration=-3", -EINVAL },
		{ "duration=86401", -EINVAL },
		{ "duration=1e3", -EINVAL },
		{ "duration=0x", -EINVAL },
		{ "duration=2147483648", -ERANGE },
	};
	char line[512];
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = load_test_module(TORTURE_MODULE, bad[i].params);
		if (!ret)
			unload_module(TORTURE_MODULE);
		EXPECT_EQ(bad[i].error, ret) TH_LOG("%s: %s", bad[i].params, strerror(-ret));
		EXPECT_NE(0, access("/sys/module/" TORTURE_MODULE, F_OK))
			TH_LOG("%s: the module stayed loaded", bad[i].params);
		EXPECT_FALSE(find_in_kprobes_list(LISTED_IN(TORTURE_MODULE), line, sizeof(line)))
			TH_LOG("%s left a probe: %s", bad[i].params, line);
	}
}

#define BENCH_MODULE	"kprobes_bench"
#define BENCH_RUN	DEBUGFS "/" BENCH_MODULE "/run"
#define BENCH_RESULT	DEBUGFS "/" BENCH_MODULE "/result"

FIXTURE(bench) {
	bool loaded;
};

FIXTURE_SETUP(bench)
{
	self->loaded = false;
}

FIXTURE_TEARDOWN(bench)
{
	teardown_own_module(_metadata, BENCH_MODULE, self->loaded);
}

/* kprobes_bench's run file refuses what is not a command, and changes nothing. */
TEST_F(bench, module_rejects_bad_input)
{
	static const char * const bad[] = {
		"", "\n", "   ", "\xff\xfe", "-1", "setup", "setup ",
		"setup no_such_config", "setup kprobe_entry extra",
		"SETUP kprobe_entry", "setup\tkprobe_entry", "teardown now",
		"measure", "measure 0", "measure 999", "measure 1001",
		"measure -1000", "measure 100001000", "measure 1e3",
		"measure 0x3e8", "measure 1000 extra",
		"measure 99999999999999999999", "batch", "batch kprobes",
		"batch kprobes 0", "batch kprobes -8", "batch kprobes 4097",
		"batch kprobes eight", "batch uprobes 8", "batch kprobes 8 8",
	};
	char before[512], after[512], overlong[128], line[512];
	int i, ret;

	ret = load_test_module(BENCH_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", BENCH_MODULE, strerror(-ret));
	self->loaded = true;
	ASSERT_EQ(0, write_file(BENCH_RUN, "measure 1000"));
	ASSERT_LT(0, read_file(BENCH_RESULT, before, sizeof(before)));

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = write_file(BENCH_RUN, bad[i]);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("\"%s\": %s", bad[i], strerror(-ret));
	}
	memset(overlong, 'x', sizeof(overlong) - 1);
	overlong[sizeof(overlong) - 1] = '\0';
	ret = write_file(BENCH_RUN, overlong);
	EXPECT_EQ(-EINVAL, ret) TH_LOG("%zu bytes: %s", strlen(overlong), strerror(-ret));

	ASSERT_LT(0, read_file(BENCH_RESULT, after, sizeof(after)));
	EXPECT_STREQ(before, after) TH_LOG("bad input changed the result");
	EXPECT_FALSE(find_in_kprobes_list(LISTED_IN(BENCH_MODULE), line, sizeof(line)))
		TH_LOG("bad input left a probe: %s", line);
}

int main(int argc, char **argv)
{
	int ret;

	if (geteuid())
		ksft_exit_skip("the kprobes selftests must be run as root\n");
	if (access(KPROBES_LIST, R_OK))
		ksft_exit_skip("%s: %s (needs CONFIG_KPROBES and debugfs mounted)\n",
			       KPROBES_LIST, strerror(errno));

	ret = load_test_module(TEST_MODULE, "");
	if (ret)
		ksft_exit_skip("cannot load test_modules/%s.ko: %s\n", TEST_MODULE,
			       strerror(-ret));
	unload_module(TEST_MODULE);

	return test_harness_run(argc, argv);
}
