// SPDX-License-Identifier: GPL-2.0
/*
 * test_bench - checks that test_modules/kprobes_bench.ko, the module of
 * the kprobes_bench program, refuses bad input
 */
#include "../kselftest_harness.h"
#include "kst_harness.h"

#define BENCH_MODULE	"kprobes_bench"
#define BENCH_RUN	DEBUGFS "/" BENCH_MODULE "/run"
#define BENCH_RESULT	DEBUGFS "/" BENCH_MODULE "/result"

FIXTURE(bench) {};

FIXTURE_SETUP(bench)
{
	kst_name_test(_metadata->fixture->name, NULL, _metadata->name);
}

FIXTURE_TEARDOWN(bench)
{
	teardown_own_module(_metadata, BENCH_MODULE);
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
	skip_unless_ready(BENCH_MODULE);
	return test_harness_run(argc, argv);
}
