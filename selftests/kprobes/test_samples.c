// SPDX-License-Identifier: GPL-2.0
/*
 * test_samples - checks the kprobes samples in samples/kprobes
 *
 * Loads each sample from /lib/modules/$(uname -r), makes the probed
 * function run and checks what the sample reports, then unloads it and
 * checks that its probe is gone. A sample that is not installed (built
 * with CONFIG_SAMPLE_KPROBES=m, CONFIG_SAMPLE_KRETPROBES=m or
 * CONFIG_SAMPLE_KRETPROBE_STATS=m and installed with modules_install) is
 * skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "helpers.h"

/* Opens the kernel log so that kmsg_find() sees only what comes next. */
static int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Reads the kernel log records logged since the last call. */
static bool kmsg_find(int kmsg, const char *needle)
{
	char record[2048];
	bool found = false;
	ssize_t len;

	for (;;) {
		len = read(kmsg, record, sizeof(record) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* records were overwritten; go on */
		if (len <= 0)
			break;
		record[len] = '\0';
		if (strstr(record, needle))
			found = true;
	}
	return found;
}

FIXTURE(sample) {
	const char *loaded;
	int kmsg;
};

FIXTURE_SETUP(sample)
{
	self->loaded = NULL;
	self->kmsg = kmsg_open_at_end();
	ASSERT_LE(0, self->kmsg) TH_LOG("/dev/kmsg: %s", strerror(errno));
}

FIXTURE_TEARDOWN(sample)
{
	int ret;

	close(self->kmsg);
	if (!self->loaded)
		return;
	ret = unload_module(self->loaded);
	EXPECT_EQ(0, ret) TH_LOG("unloading %s: %s", self->loaded, strerror(-ret));
}

/* Loads samples/kprobes/@name.ko; false, and a skip, when not installed. */
static bool load_sample(struct __test_metadata *_metadata, const char *name,
			const char *params)
{
	char path[256];
	int ret;

	sample_path(name, path, sizeof(path));
	if (access(path, R_OK))
		SKIP(return false, "%s: %s", path, strerror(errno));
	ret = load_module(path, params);
	ASSERT_EQ(0, ret) TH_LOG("loading %s %s: %s", path, params, strerror(-ret));
	return true;
}

/* Unloads sample @name and checks that its @probe is gone. */
static void unload_sample(struct __test_metadata *_metadata, const char *name,
			  const char *probe)
{
	char line[512];
	int ret;

	ret = unload_module(name);
	ASSERT_EQ(0, ret) TH_LOG("unloading %s: %s", name, strerror(-ret));
	EXPECT_FALSE(find_in_kprobes_list(probe, line, sizeof(line)))
		TH_LOG("probe left after unloading: %s", line);
}

/* Forks a child that exits at once; kernel_clone() returns its pid. */
static pid_t fork_and_reap(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

/* kprobe_example: a kprobe on kernel_clone logs each hit. */
TEST_F(sample, kprobe_example)
{
	char line[512];

	if (!load_sample(_metadata, "kprobe_example", ""))
		return;
	self->loaded = "kprobe_example";
	ASSERT_TRUE(find_in_kprobes_list("  k  kernel_clone+0x0", line, sizeof(line)))
		TH_LOG("no kprobe on kernel_clone in " KPROBES_LIST);
	kmsg_find(self->kmsg, "");
	ASSERT_LT(0, fork_and_reap());
	EXPECT_TRUE(kmsg_find(self->kmsg, "<kernel_clone> p->addr = "))
		TH_LOG("the pre-handler logged nothing for a fork()");
	self->loaded = NULL;
	unload_sample(_metadata, "kprobe_example", "kernel_clone+0x0");
}

/* kretprobe_example: logs what kernel_clone returned, the child's pid. */
TEST_F(sample, kretprobe_example)
{
	char line[512], expected[64];
	pid_t child;

	if (!load_sample(_metadata, "kretprobe_example", ""))
		return;
	self->loaded = "kretprobe_example";
	ASSERT_TRUE(find_in_kprobes_list("  r  kernel_clone+0x0", line, sizeof(line)))
		TH_LOG("no kretprobe on kernel_clone in " KPROBES_LIST);
	kmsg_find(self->kmsg, "");
	child = fork_and_reap();
	ASSERT_LT(0, child);
	snprintf(expected, sizeof(expected), "kernel_clone returned %d and took ", child);
	EXPECT_TRUE(kmsg_find(self->kmsg, expected))
		TH_LOG("no \"%s\" in the kernel log", expected);
	self->loaded = NULL;
	unload_sample(_metadata, "kretprobe_example", "kernel_clone+0x0");
}

#define STATS_DIR	DEBUGFS "/kretprobe_stats"
#define STATS_FUNC	"do_sys_openat2"
#define LOG_FAILURES	"/sys/module/kretprobe_stats/parameters/log_failures"

/* What kretprobe_stats shows for STATS_FUNC. */
struct func_stats {
	unsigned long calls, ok, failed, enoent, hist_sum;
	unsigned long long min_ns, avg_ns, max_ns;
	int missed;
};

static void read_stats(struct __test_metadata *_metadata, struct func_stats *st)
{
	char buf[8192], *line, *save = NULL;
	unsigned long lo, hi, count;
	int ret, fields = 0;

	memset(st, 0, sizeof(*st));
	ret = read_file(STATS_DIR "/stats", buf, sizeof(buf));
	ASSERT_LT(0, ret) TH_LOG("%s: %s", STATS_DIR "/stats", strerror(-ret));
	ASSERT_EQ(0, strncmp(buf, STATS_FUNC ": ", strlen(STATS_FUNC) + 2))
		TH_LOG("unexpected stats: %s", buf);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " calls %lu ok %lu failed %lu (%*u%%) missed %d",
			   &st->calls, &st->ok, &st->failed, &st->missed) == 4)
			fields++;
		if (sscanf(line, " latency_ns min %llu avg %llu max %llu",
			   &st->min_ns, &st->avg_ns, &st->max_ns) == 3)
			fields++;
		/* -ENOENT by name with CONFIG_SYMBOLIC_ERRNAME, else -2 */
		if (sscanf(line, " errno -ENOENT %lu", &count) == 1 ||
		    sscanf(line, " errno -2 %lu", &count) == 1)
			st->enoent = count;
		if (sscanf(line, " hist_ns %lu-%lu %lu", &lo, &hi, &count) == 3)
			st->hist_sum += count;
	}
	EXPECT_LE(1, fields) TH_LOG("no counts in the stats");
}

/* Opens @path @times times; returns how many opens failed. */
static int open_times(const char *path, int times)
{
	int i, fd, failed = 0;

	for (i = 0; i < times; i++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			failed++;
		else
			close(fd);
	}
	return failed;
}

/*
 * kretprobe_stats on the open path: N opens of an existing file and M of a
 * missing one give M -ENOENT failures, sane latencies and a histogram that
 * sums to the calls; disabling freezes the counts, enabling resumes them.
 */
TEST_F(sample, kretprobe_stats)
{
	const int n = 20, m = 7;
	struct func_stats before, after, frozen, resumed;
	char line[512];

	if (!load_sample(_metadata, "kretprobe_stats", "funcs=" STATS_FUNC ":int"))
		return;
	self->loaded = "kretprobe_stats";
	ASSERT_TRUE(find_in_kprobes_list("  r  " STATS_FUNC "+0x0", line, sizeof(line)));

	ASSERT_EQ(0, write_file(STATS_DIR "/control", "reset"));
	read_stats(_metadata, &before);
	ASSERT_EQ(0, open_times("/proc/self/stat", n));
	ASSERT_EQ(m, open_times("/kprobes-selftest-no-such-file", m));
	read_stats(_metadata, &after);

	/* Reading the stats opens a file too: one or two more successes. */
	EXPECT_EQ(m, after.enoent);
	EXPECT_EQ(m, after.failed);
	EXPECT_LE(n, after.ok - before.ok);
	EXPECT_GE(n + 2, after.ok - before.ok);
	EXPECT_EQ(after.calls, after.ok + after.failed);
	EXPECT_EQ(after.calls, after.hist_sum);
	EXPECT_EQ(0, after.missed);
	/*
	 * Not min_ns: local_clock() need not advance during a short call
	 * (with an unstable TSC it stalls within a tick, as 6.1 does under
	 * QEMU TCG), but some calls took time.
	 */
	EXPECT_LT(0, after.max_ns);
	EXPECT_LE(after.min_ns, after.avg_ns);
	EXPECT_LE(after.avg_ns, after.max_ns);

	ASSERT_EQ(0, write_file(STATS_DIR "/control", "disable"));
	read_stats(_metadata, &before);
	open_times("/proc/self/stat", n);
	open_times("/kprobes-selftest-no-such-file", m);
	read_stats(_metadata, &frozen);
	EXPECT_EQ(before.calls, frozen.calls) TH_LOG("counting while disabled");
	EXPECT_TRUE(find_in_kprobes_list("[DISABLED]", line, sizeof(line)));

	ASSERT_EQ(0, write_file(STATS_DIR "/control", "enable"));
	open_times("/kprobes-selftest-no-such-file", m);
	read_stats(_metadata, &resumed);
	EXPECT_EQ(frozen.enoent + m, resumed.enoent) TH_LOG("not counting after enable");

	/* log_failures names the failing call, its arguments and error. */
	ASSERT_EQ(0, write_file(LOG_FAILURES, "1"));
	kmsg_find(self->kmsg, "");
	open_times("/kprobes-selftest-no-such-file", 1);
	EXPECT_TRUE(kmsg_find(self->kmsg, STATS_FUNC "(0x"))
		TH_LOG("log_failures=1 logged no failing call");
	ASSERT_EQ(0, write_file(LOG_FAILURES, "0"));

	self->loaded = NULL;
	unload_sample(_metadata, "kretprobe_stats", STATS_FUNC "+0x0");
}

/* Bad control commands and parameter writes are refused and change nothing. */
TEST_F(sample, kretprobe_stats_bad_input)
{
	static const char * const bad_commands[] = {
		"", "\n", "   ", "bogus", "ENABLE", "enable now", "reset\x01",
		"-1", "99999999999999999999", "\xff\xfe",
		"resetresetresetresetreset",
	};
	static const char * const bad_bools[] = { "\n", "maybe", "2", "-1", "xyz" };
	struct func_stats before, after;
	char state[32];
	int i, ret;

	if (!load_sample(_metadata, "kretprobe_stats", "funcs=" STATS_FUNC ":int"))
		return;
	self->loaded = "kretprobe_stats";
	open_times("/kprobes-selftest-no-such-file", 3);
	/* Disabled, the counts hold still while the commands are written. */
	ASSERT_EQ(0, write_file(STATS_DIR "/control", "disable"));
	read_stats(_metadata, &before);
	ASSERT_LT(0, before.calls);

	for (i = 0; i < ARRAY_SIZE(bad_commands); i++) {
		ret = write_file(STATS_DIR "/control", bad_commands[i]);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("\"%s\": %s", bad_commands[i], strerror(-ret));
	}
	ASSERT_LT(0, read_file(STATS_DIR "/control", state, sizeof(state)));
	EXPECT_STREQ("disabled\n", state);
	read_stats(_metadata, &after);
	EXPECT_EQ(before.calls, after.calls) TH_LOG("a bad command reset or counted");
	EXPECT_EQ(before.enoent, after.enoent);
	EXPECT_EQ(0, write_file(STATS_DIR "/control", "enable"));

	for (i = 0; i < ARRAY_SIZE(bad_bools); i++) {
		ret = write_file(LOG_FAILURES, bad_bools[i]);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("log_failures \"%s\": %s", bad_bools[i],
					       strerror(-ret));
	}
	ASSERT_LT(0, read_file(LOG_FAILURES, state, sizeof(state)));
	EXPECT_STREQ("N\n", state);
}

/* A core-kernel function in the blacklist, present on every architecture. */
#define BLACKLISTED_FUNC	"notify_die"

/* Loading with @params fails with @error and leaves nothing behind. */
static void load_bad_params(struct __test_metadata *_metadata, const char *path,
			    const char *params, int error)
{
	char line[512];
	int ret;

	ret = load_module(path, params);
	if (!ret)
		unload_module("kretprobe_stats");
	EXPECT_EQ(error, ret) TH_LOG("%.40s: %s", params, strerror(-ret));
	EXPECT_NE(0, access("/sys/module/kretprobe_stats", F_OK))
		TH_LOG("%.40s: the module stayed loaded", params);
	EXPECT_FALSE(find_in_kprobes_list("  r  ", line, sizeof(line)))
		TH_LOG("%.40s left a kretprobe: %s", params, line);
}

/* Bad parameters are refused at load and leave no probe behind. */
TEST_F(sample, kretprobe_stats_bad_params)
{
	static const struct {
		const char *params;
		int error;
	} bad[] = {
		{ "funcs=", -EINVAL },
		{ "funcs=,, ,", -EINVAL },
		{ "funcs=kprobes_selftest_no_such_function", -ENOENT },
		{ "funcs=" STATS_FUNC ",kprobes_selftest_no_such_function", -ENOENT },
		{ "funcs=" BLACKLISTED_FUNC, -EINVAL },
		{ "funcs=a,b,c,d,e,f,g,h,i", -E2BIG },
		{ "funcs=" STATS_FUNC "," STATS_FUNC, -EINVAL },
		{ "funcs=" STATS_FUNC ":float", -EINVAL },
		{ "funcs=:int", -EINVAL },
		{ "funcs=" STATS_FUNC "+0x10", -ENOENT },
		{ "funcs=" STATS_FUNC "\x01", -ENOENT },
		{ "maxactive=-1", -EINVAL },
		{ "maxactive=", -EINVAL },
		{ "maxactive=many", -EINVAL },
		{ "maxactive=1.5", -EINVAL },
		{ "maxactive=4097", -EINVAL },
		{ "maxactive=2147483648", -ERANGE },
		{ "maxactive=99999999999999999999", -ERANGE },
		{ "skip_kthreads=maybe", -EINVAL },
		{ "skip_kthreads=", -EINVAL },
		{ "skip_kthreads=2", -EINVAL },
		{ "log_failures=-1", -EINVAL },
	};
	/* A name longer than KSYM_NAME_LEN; a list longer than the parameter. */
	char long_name[6 + 600 + 1], long_list[6 + 5000 + 1];
	char path[256];
	int i;

	sample_path("kretprobe_stats", path, sizeof(path));
	if (access(path, R_OK))
		SKIP(return, "%s: %s", path, strerror(errno));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		load_bad_params(_metadata, path, bad[i].params, bad[i].error);
	snprintf(long_name, sizeof(long_name), "funcs=%0600d", 0);
	load_bad_params(_metadata, path, long_name, -E2BIG);
	snprintf(long_list, sizeof(long_list), "funcs=%05000d", 0);
	load_bad_params(_metadata, path, long_list, -ENOSPC);
}

int main(int argc, char **argv)
{
	if (geteuid())
		ksft_exit_skip("the kprobes samples tests must be run as root\n");
	if (access(KPROBES_LIST, R_OK))
		ksft_exit_skip("%s: %s (needs CONFIG_KPROBES and debugfs mounted)\n",
			       KPROBES_LIST, strerror(errno));
	return test_harness_run(argc, argv);
}
