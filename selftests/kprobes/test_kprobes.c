// SPDX-License-Identifier: GPL-2.0
/*
 * test_kprobes - user-space driver of the kprobes selftests
 *
 * Loads test_modules/kprobes_selftest.ko (next to this program) for each
 * case, runs the case through the module's debugfs interface and checks
 * what user space can see of it: the result the module reports, and that no
 * probe of the module is left in /sys/kernel/debug/kprobes/list.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "helpers.h"

#define TEST_MODULE	"kprobes_selftest"
#define MODULE_DEBUGFS	DEBUGFS "/" TEST_MODULE

static char module_path[PATH_MAX];

/* The module is in test_modules/ next to this program, wherever installed. */
static void find_module(void)
{
	char exe[PATH_MAX];
	ssize_t len;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0)
		ksft_exit_fail_msg("readlink /proc/self/exe: %s\n", strerror(errno));
	exe[len] = '\0';
	snprintf(module_path, sizeof(module_path), "%s/test_modules/%s.ko",
		 dirname(exe), TEST_MODULE);
}

/*
 * Runs one case of the test module. The module reports
 * "<case> pass", "<case> fail: <why>" or "<case> skip: <why>".
 */
static void run_module_case(struct __test_metadata *_metadata, const char *name)
{
	char result[512], line[512];
	const char *verdict;
	int ret;

	ret = write_file(MODULE_DEBUGFS "/run", name);
	ASSERT_EQ(0, ret) TH_LOG("running case %s: %s", name, strerror(-ret));
	ret = read_file(MODULE_DEBUGFS "/result", result, sizeof(result));
	ASSERT_LT(0, ret) TH_LOG("reading the result: %s", strerror(-ret));
	result[strcspn(result, "\n")] = '\0';
	ASSERT_EQ(0, strncmp(result, name, strlen(name)))
		TH_LOG("result is for another case: %s", result);
	verdict = result + strlen(name) + 1;

	EXPECT_EQ(NULL, find_in_kprobes_list("[" TEST_MODULE "]", line, sizeof(line)))
		TH_LOG("probe left registered: %s", line);
	if (!strncmp(verdict, "skip: ", 6))
		SKIP(return, "%s", verdict + 6);
	EXPECT_STREQ("pass", verdict);
}

FIXTURE(kprobes) {};

FIXTURE_SETUP(kprobes)
{
	int ret = load_module(module_path, "");

	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TEST_MODULE, strerror(-ret));
}

FIXTURE_TEARDOWN(kprobes)
{
	int ret = unload_module(TEST_MODULE);

	EXPECT_EQ(0, ret) TH_LOG("unloading %s: %s", TEST_MODULE, strerror(-ret));
}

/* A kprobe by symbol name: pre and post handlers once per hit, none after. */
TEST_F(kprobes, kprobe_by_symbol)
{
	run_module_case(_metadata, "kprobe_by_symbol");
}

/* A kretprobe by symbol name sees every return value, errnos included. */
TEST_F(kprobes, kretprobe_by_symbol)
{
	run_module_case(_metadata, "kretprobe_by_symbol");
}

int main(int argc, char **argv)
{
	int ret;

	if (geteuid())
		ksft_exit_skip("the kprobes selftests must be run as root\n");
	if (access(KPROBES_LIST, R_OK))
		ksft_exit_skip("%s: %s (needs CONFIG_KPROBES and debugfs mounted)\n",
			       KPROBES_LIST, strerror(errno));

	find_module();
	ret = load_module(module_path, "");
	if (ret)
		ksft_exit_skip("cannot load %s: %s\n", module_path, strerror(-ret));
	unload_module(TEST_MODULE);

	return test_harness_run(argc, argv);
}
