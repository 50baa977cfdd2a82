// SPDX-License-Identifier: GPL-2.0
/*
 * test_torture - runs test_modules/kprobes_torture.ko and checks its verdict
 */
#include <stdlib.h>

#include "../kselftest_harness.h"
#include "kst_harness.h"

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

FIXTURE(torture) {};

FIXTURE_SETUP(torture)
{
	kst_name_test(_metadata->fixture->name, NULL, _metadata->name);
}

FIXTURE_TEARDOWN(torture)
{
	teardown_own_module(_metadata, TORTURE_MODULE);
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

/*
 * Bad parameters are refused at load: the module does not stay loaded.
 * Failed loads are slow on 32-bit ARM under QEMU (see test_samples.c).
 */
TEST_F_TIMEOUT(torture, rejects_bad_params, 90)
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

int main(int argc, char **argv)
{
	skip_unless_found(TORTURE_MODULE);
	return test_harness_run(argc, argv);
}
