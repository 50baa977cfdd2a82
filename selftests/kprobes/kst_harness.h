/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the drivers of the kprobes selftests share: loading the test
 * modules, running a case or step of kprobes_selftest.ko and reading its
 * verdict, and the set-up and teardown that leave kprobes as they were.
 * Include after ../kselftest_harness.h.
 */
#ifndef KST_HARNESS_H
#define KST_HARNESS_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "kst_fixes.h"

#define TEST_MODULE	"kprobes_selftest"
#define TARGET_MODULE	"kprobes_selftest_target"
#define MODULE_DEBUGFS	DEBUGFS "/" TEST_MODULE
#define KPROBES_ENABLED	DEBUGFS "/kprobes/enabled"
/* kprobes/list prints "<addr>  k  <sym>+0x<off>  <module> [FLAGS]" */
#define LISTED_IN(module) "  " module " "

/*
 * STEP(name): the name of a step of the module (test_modules/kst_steps.h),
 * to run. A step misspelt in a driver does not compile; a string would
 * fail only when the test runs.
 */
#define KST_STEP(name)							\
	static const char kst_step_##name[] __attribute__((unused)) = #name
#define KST_STEP_ARG(name)	KST_STEP(name)
#define KST_PART(name)		struct kst_part_##name
#include "test_modules/kst_steps.h"
#define STEP(name)		kst_step_##name

static inline int load_test_module(const char *name, const char *params)
{
	char path[PATH_MAX + 64];
	int ret;

	ret = test_module_path(name, path, sizeof(path));
	return ret ?: load_module(path, params);
}

/* Runs @command ("<case> [arg]") and returns the module's verdict line. */
static inline void run_command(struct __test_metadata *_metadata, const char *command,
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

/*
 * Runs a case or step that must pass. A skip skips the test, and returns
 * false: a test with more to do after the step returns then.
 */
static inline bool run_case(struct __test_metadata *_metadata, const char *command)
{
	char verdict[512];

	run_command(_metadata, command, verdict, sizeof(verdict));
	if (!strncmp(verdict, "skip: ", 6))
		SKIP(return false, "%s", verdict + 6);
	ASSERT_STREQ("pass", verdict) TH_LOG("%s: %s", command, verdict);
	return true;
}

/* Saves the global knob in @knob and loads the test module. */
static inline void setup_kprobes(struct __test_metadata *_metadata, char *knob, size_t size)
{
	int ret;

	ret = read_file(KPROBES_ENABLED, knob, size);
	ASSERT_LT(0, ret) TH_LOG("%s: %s", KPROBES_ENABLED, strerror(-ret));
	ret = load_test_module(TEST_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TEST_MODULE, strerror(-ret));
}

/* Unloads @name if it is loaded; no probe of it may be left. */
static inline void teardown_own_module(struct __test_metadata *_metadata, const char *name)
{
	char needle[64], line[512];
	int ret;

	ret = unload_module(name);
	EXPECT_TRUE(!ret || ret == -ENOENT) TH_LOG("unloading %s: %s", name, strerror(-ret));
	snprintf(needle, sizeof(needle), LISTED_IN("%s"), name);
	EXPECT_FALSE(find_in_kprobes_list(needle, line, sizeof(line)))
		TH_LOG("probe left registered: %s", line);
}

/*
 * The kprobes/list line of the first probe that the module's debugfs file
 * @file ("held", "gone") locates as "kst_target+0x8/0x24 [module]": where
 * kprobes put a function's entry probe depends on the architecture (its
 * ftrace call, an ELFv2 local entry), so the module tells.
 */
static inline bool find_held_in_kprobes_list(struct __test_metadata *_metadata,
					     const char *file, char type,
					     char *line, size_t size)
{
	char path[128], held[256], where[128], module[64], needle[256];
	int ret;

	snprintf(path, sizeof(path), MODULE_DEBUGFS "/%s", file);
	ret = read_file(path, held, sizeof(held));
	if (ret < 0) {
		TH_LOG("%s: %s", path, strerror(-ret));
		return false;
	}
	if (sscanf(held, "%127[^/]/%*x [%63[^]]]", where, module) != 2) {
		TH_LOG("%s has no probe on a module: %s", path, held);
		return false;
	}
	snprintf(needle, sizeof(needle), "%c  %s" LISTED_IN("%s"), type, where, module);
	if (!find_in_kprobes_list(needle, line, size)) {
		TH_LOG("not in " KPROBES_LIST ": \"%s\"", needle);
		return false;
	}
	return true;
}

/*
 * Whatever the case did, leave kprobes as we found them: no probe held,
 * the global knob restored and no test module loaded.
 */
static inline void teardown_kprobes(struct __test_metadata *_metadata, const char *knob)
{
	write_file(MODULE_DEBUGFS "/run", STEP(release));
	write_file(KPROBES_ENABLED, knob);
	unload_module(TARGET_MODULE);	/* if a case loaded it */
	teardown_own_module(_metadata, TEST_MODULE);
}

/*
 * Skips the whole program unless run as root with kprobes and debugfs,
 * and unless test module @name is there: a module that does its work at
 * load is only looked for.
 */
static inline void skip_unless_found(const char *name)
{
	char path[PATH_MAX + 64];
	int ret;

	if (geteuid())
		ksft_exit_skip("the kprobes selftests must be run as root\n");
	if (access(KPROBES_LIST, R_OK))
		ksft_exit_skip("%s: %s (needs CONFIG_KPROBES and debugfs mounted)\n",
			       KPROBES_LIST, strerror(errno));
	ret = test_module_path(name, path, sizeof(path));
	if (!ret && access(path, R_OK))
		ret = -errno;
	if (ret)
		ksft_exit_skip("no test_modules/%s.ko: %s\n", name, strerror(-ret));
}

/* As skip_unless_found(), and unless test module @name loads. */
static inline void skip_unless_ready(const char *name)
{
	int ret;

	skip_unless_found(name);
	ret = load_test_module(name, "");
	if (ret)
		ksft_exit_skip("cannot load test_modules/%s.ko: %s\n", name, strerror(-ret));
	unload_module(name);
}

#endif /* KST_HARNESS_H */
