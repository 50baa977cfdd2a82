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
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "helpers.h"
#include "kst_fixes.h"

#define STATS_DIR	DEBUGFS "/kretprobe_stats"
#define STATS_FUNC	"do_sys_openat2"
/*
 * A probe on @func's entry in kprobes/list: at +0x0, or where the
 * architecture puts an entry probe (its ftrace call, an ELFv2 local entry).
 */
#define ENTRY_OF(func)	func "+0x"
/* test_modules/kprobes_sample_target.ko: targets with chosen returns */
#define TARGET_MODULE	"kprobes_sample_target"
#define TARGET_CALL	DEBUGFS "/" TARGET_MODULE "/call"

/* Opens the kernel log so that kmsg_find() sees only what comes next. */
static int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * Copies into @found the first kernel log record since the last call
 * that holds @needle (its text), and reads the rest; false if none does.
 */
static bool kmsg_grab(int kmsg, const char *needle, char *found, size_t size)
{
	char record[2048], *text;
	ssize_t len;

	found[0] = '\0';
	for (;;) {
		len = read(kmsg, record, sizeof(record) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* records were overwritten; go on */
		if (len <= 0)
			break;
		record[len] = '\0';
		text = strchr(record, ';');	/* after "level,seq,time,flags;" */
		if (!found[0] && strstr(record, needle))
			snprintf(found, size, "%s", text ? text + 1 : record);
	}
	return found[0];
}

/* Reads the kernel log records logged since the last call. */
static bool kmsg_find(int kmsg, const char *needle)
{
	char found[2048];

	return kmsg_grab(kmsg, needle, found, sizeof(found));
}

FIXTURE(sample) {
	const char *loaded;
	bool target_loaded;
	pid_t callers[2];
	int kmsg;
};

FIXTURE_SETUP(sample)
{
	kst_name_test(_metadata->fixture->name, NULL, _metadata->name);
	self->loaded = NULL;
	self->target_loaded = false;
	memset(self->callers, 0, sizeof(self->callers));
	self->kmsg = kmsg_open_at_end();
	ASSERT_LE(0, self->kmsg) TH_LOG("/dev/kmsg: %s", strerror(errno));
}

static void stop_callers(pid_t *callers, int n);

FIXTURE_TEARDOWN(sample)
{
	int ret;

	close(self->kmsg);
	stop_callers(self->callers, ARRAY_SIZE(self->callers));
	if (self->loaded) {
		ret = unload_module(self->loaded);
		EXPECT_EQ(0, ret) TH_LOG("unloading %s: %s", self->loaded, strerror(-ret));
	}
	if (self->target_loaded) {
		ret = unload_module(TARGET_MODULE);
		EXPECT_EQ(0, ret) TH_LOG("unloading " TARGET_MODULE ": %s", strerror(-ret));
	}
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

/* False, and a skip that says what sample @name @needs, if not installed. */
static bool sample_installed(struct __test_metadata *_metadata, const char *name,
			     const char *needs)
{
	char path[256];

	sample_path(name, path, sizeof(path));
	if (access(path, R_OK))
		SKIP(return false, "%s: %s (%s)", path, strerror(errno), needs);
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
	ASSERT_TRUE(find_in_kprobes_list("  k  " ENTRY_OF("kernel_clone"), line, sizeof(line)))
		TH_LOG("no kprobe on kernel_clone in " KPROBES_LIST);
	/* Its handlers are __kprobes: each of them is on the blacklist. */
	EXPECT_EQ(1, blacklist_lines("\thandler_pre [kprobe_example]"));
	EXPECT_EQ(1, blacklist_lines("\thandler_post [kprobe_example]"));
	kmsg_find(self->kmsg, "");
	ASSERT_LT(0, fork_and_reap());
	/* "p->addr = " on most architectures, "p->addr, " on s390. */
	EXPECT_TRUE(kmsg_find(self->kmsg, "<kernel_clone> p->addr"))
		TH_LOG("the pre-handler logged nothing for a fork()");
	self->loaded = NULL;
	unload_sample(_metadata, "kprobe_example", ENTRY_OF("kernel_clone"));
}

/* kretprobe_example: logs what kernel_clone returned, the child's pid. */
TEST_F(sample, kretprobe_example)
{
	char line[512], expected[64];
	pid_t child;

	if (!load_sample(_metadata, "kretprobe_example", ""))
		return;
	self->loaded = "kretprobe_example";
	ASSERT_TRUE(find_in_kprobes_list("  r  " ENTRY_OF("kernel_clone"), line, sizeof(line)))
		TH_LOG("no kretprobe on kernel_clone in " KPROBES_LIST);
	kmsg_find(self->kmsg, "");
	child = fork_and_reap();
	ASSERT_LT(0, child);
	snprintf(expected, sizeof(expected), "kernel_clone returned %d and took ", child);
	EXPECT_TRUE(kmsg_find(self->kmsg, expected))
		TH_LOG("no \"%s\" in the kernel log", expected);
	self->loaded = NULL;
	unload_sample(_metadata, "kretprobe_example", ENTRY_OF("kernel_clone"));
}

#define MAX_ERRNO_LINES	16

/* What kretprobe_stats shows for one function. */
struct func_stats {
	unsigned long calls, ok, failed, missed, nested;
	unsigned long long min_ns, avg_ns, max_ns;
	int nr_errnos;
	char errno_name[MAX_ERRNO_LINES][32];
	unsigned long errno_count[MAX_ERRNO_LINES];
};

/* Parses the lines of @func in the stats; false if it is not there. */
static bool parse_stats(char *buf, const char *func, struct func_stats *st)
{
	char *line, *save = NULL, head[160];
	bool in_func = false;

	memset(st, 0, sizeof(*st));
	snprintf(head, sizeof(head), "%s: ", func);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != ' ') {
			if (in_func)
				break;
			in_func = !strncmp(line, head, strlen(head));
			continue;
		}
		if (!in_func)
			continue;
		if (sscanf(line, " calls %lu ok %lu failed %lu",
			   &st->calls, &st->ok, &st->failed) == 3 ||
		    sscanf(line, " missed %lu (", &st->missed) == 1 ||
		    sscanf(line, " nested %lu (", &st->nested) == 1 ||
		    sscanf(line, " latency_ns min %llu avg %llu max %llu",
			   &st->min_ns, &st->avg_ns, &st->max_ns) == 3)
			continue;
		if (st->nr_errnos < MAX_ERRNO_LINES &&
		    sscanf(line, " errno %31s %lu", st->errno_name[st->nr_errnos],
			   &st->errno_count[st->nr_errnos]) == 2)
			st->nr_errnos++;
	}
	return in_func;
}

static void read_stats(struct __test_metadata *_metadata, const char *func,
		       struct func_stats *st)
{
	char buf[16384];
	int ret;

	ret = read_file(STATS_DIR "/stats", buf, sizeof(buf));
	ASSERT_LT(0, ret) TH_LOG("%s: %s", STATS_DIR "/stats", strerror(-ret));
	ASSERT_TRUE(parse_stats(buf, func, st)) TH_LOG("no %s in the stats", func);
}

/* The count of error @name (-ENOENT; -2 without CONFIG_SYMBOLIC_ERRNAME). */
static unsigned long errno_count(const struct func_stats *st, const char *name, int err)
{
	char number[16];
	int i;

	snprintf(number, sizeof(number), "%d", -err);
	for (i = 0; i < st->nr_errnos; i++)
		if (!strcmp(st->errno_name[i], name) || !strcmp(st->errno_name[i], number))
			return st->errno_count[i];
	return 0;
}

static unsigned long errno_total(const struct func_stats *st)
{
	unsigned long total = 0;
	int i;

	for (i = 0; i < st->nr_errnos; i++)
		total += st->errno_count[i];
	return total;
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

#define MISSING_FILE	"/kprobes-selftest-no-such-file"

/*
 * kretprobe_stats on the open path: N opens of an existing file and M of a
 * missing one give M -ENOENT failures and sane latencies; disabling
 * freezes the counts, enabling resumes them.
 */
TEST_F(sample, kretprobe_stats)
{
	const int n = 20, m = 7;
	struct func_stats before, after, frozen, resumed;
	char line[512];

	if (!load_sample(_metadata, "kretprobe_stats", "funcs=" STATS_FUNC "/int"))
		return;
	self->loaded = "kretprobe_stats";
	ASSERT_TRUE(find_in_kprobes_list("  r  " ENTRY_OF(STATS_FUNC), line, sizeof(line)));

	ASSERT_EQ(0, write_file(STATS_DIR "/control", "reset"));
	read_stats(_metadata, STATS_FUNC, &before);
	ASSERT_EQ(0, open_times("/proc/self/stat", n));
	ASSERT_EQ(m, open_times(MISSING_FILE, m));
	read_stats(_metadata, STATS_FUNC, &after);

	/*
	 * Other processes open files too (a farm's board runs systemd and
	 * udev), and so does reading the stats: at least this test's opens
	 * are counted. Exact counts need functions that nothing else calls:
	 * the sample target module's.
	 */
	EXPECT_LE(m, errno_count(&after, "-ENOENT", -ENOENT));
	EXPECT_LE(m, after.failed);
	EXPECT_LE(n, after.ok - before.ok);
	EXPECT_EQ(after.calls, after.ok + after.failed);
	EXPECT_EQ(0, after.missed);
	EXPECT_EQ(0, after.nested);
	/*
	 * Not min_ns: local_clock() need not advance during a short call
	 * (with an unstable TSC it stalls within a tick, as 6.1 does under
	 * QEMU TCG), but some calls took time.
	 */
	EXPECT_LT(0, after.max_ns);
	EXPECT_LE(after.min_ns, after.avg_ns);
	EXPECT_LE(after.avg_ns, after.max_ns);

	ASSERT_EQ(0, write_file(STATS_DIR "/control", "disable"));
	read_stats(_metadata, STATS_FUNC, &before);
	open_times("/proc/self/stat", n);
	open_times(MISSING_FILE, m);
	read_stats(_metadata, STATS_FUNC, &frozen);
	EXPECT_EQ(before.calls, frozen.calls) TH_LOG("counting while disabled");
	EXPECT_TRUE(find_in_kprobes_list("[DISABLED]", line, sizeof(line)));

	ASSERT_EQ(0, write_file(STATS_DIR "/control", "enable"));
	open_times(MISSING_FILE, m);
	read_stats(_metadata, STATS_FUNC, &resumed);
	EXPECT_LE(errno_count(&frozen, "-ENOENT", -ENOENT) + m,
		  errno_count(&resumed, "-ENOENT", -ENOENT)) TH_LOG("not counting after enable");

	self->loaded = NULL;
	unload_sample(_metadata, "kretprobe_stats", ENTRY_OF(STATS_FUNC));
}

#define OPEN_FAILURES_NEEDS	" needs HAVE_FUNCTION_ARG_ACCESS_API or ARM"

/*
 * kretprobe_open_failures: a failing open is logged with the file name,
 * read from user space in the entry handler; a successful one is not.
 */
TEST_F(sample, kretprobe_open_failures)
{
	/*
	 * On the stack, which is mapped: the entry handler reads the name
	 * without faulting, and a forked test has not touched every page
	 * of its string literals.
	 */
	char missing[] = MISSING_FILE;
	char line[512];

	if (!sample_installed(_metadata, "kretprobe_open_failures",
			      "CONFIG_SAMPLE_KRETPROBE_OPEN_FAILURES" OPEN_FAILURES_NEEDS))
		return;
	if (!load_sample(_metadata, "kretprobe_open_failures", ""))
		return;
	self->loaded = "kretprobe_open_failures";
	ASSERT_TRUE(find_in_kprobes_list("  r  " ENTRY_OF(STATS_FUNC), line, sizeof(line)));

	kmsg_find(self->kmsg, "");
	ASSERT_EQ(0, open_times("/proc/self/stat", 1));
	EXPECT_FALSE(kmsg_find(self->kmsg, "open(\"/proc/self/stat\")"))
		TH_LOG("a successful open was logged");
	ASSERT_EQ(1, open_times(missing, 1));
	/* -ENOENT by name with CONFIG_SYMBOLIC_ERRNAME, else -2 */
	EXPECT_TRUE(kmsg_find(self->kmsg, "open(\"" MISSING_FILE "\") = -"))
		TH_LOG("no \"open(\\\"%s\\\") = -ENOENT\" in the kernel log", MISSING_FILE);

	self->loaded = NULL;
	unload_sample(_metadata, "kretprobe_open_failures", ENTRY_OF(STATS_FUNC));
}

/* Bad control commands are refused and change nothing. */
TEST_F(sample, kretprobe_stats_bad_input)
{
	static const char * const bad_commands[] = {
		"", "\n", "   ", "bogus", "ENABLE", "enable now", "reset\x01",
		"-1", "99999999999999999999", "\xff\xfe",
		"resetresetresetresetreset",
	};
	struct func_stats before, after;
	char stats[4096];
	int i, ret;

	if (!load_sample(_metadata, "kretprobe_stats", "funcs=" STATS_FUNC "/int"))
		return;
	self->loaded = "kretprobe_stats";
	open_times(MISSING_FILE, 3);
	/* Disabled, the counts hold still while the commands are written. */
	ASSERT_EQ(0, write_file(STATS_DIR "/control", "disable"));
	read_stats(_metadata, STATS_FUNC, &before);
	ASSERT_LT(0, before.calls);

	for (i = 0; i < ARRAY_SIZE(bad_commands); i++) {
		ret = write_file(STATS_DIR "/control", bad_commands[i]);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("\"%s\": %s", bad_commands[i], strerror(-ret));
	}
	ASSERT_LT(0, read_file(STATS_DIR "/stats", stats, sizeof(stats)));
	EXPECT_TRUE(!!strstr(stats, STATS_FUNC ": disabled,")) TH_LOG("%s", stats);
	read_stats(_metadata, STATS_FUNC, &after);
	EXPECT_EQ(before.calls, after.calls) TH_LOG("a bad command reset or counted");
	EXPECT_EQ(errno_total(&before), errno_total(&after));
	EXPECT_EQ(0, write_file(STATS_DIR "/control", "enable"));
}

/* A core-kernel function in the blacklist, present on every architecture. */
#define BLACKLISTED_FUNC	"notify_die"

/*
 * Loading with @params fails with @error, leaves nothing behind, and
 * logs why: @message, or for -EINVAL at least something.
 */
static void load_bad_params(struct __test_metadata *_metadata, int kmsg, const char *name,
			    const char *params, int error, const char *message)
{
	char line[512], path[256];
	int ret;

	sample_path(name, path, sizeof(path));
	kmsg_find(kmsg, "");
	ret = load_module(path, params);
	if (!ret)
		unload_module(name);
	EXPECT_EQ(error, ret) TH_LOG("%.40s: %s", params, strerror(-ret));
	snprintf(path, sizeof(path), "/sys/module/%s", name);
	EXPECT_NE(0, access(path, F_OK))
		TH_LOG("%.40s: the module stayed loaded", params);
	EXPECT_FALSE(find_in_kprobes_list("  r  ", line, sizeof(line)))
		TH_LOG("%.40s left a kretprobe: %s", params, line);
	if (message)
		EXPECT_TRUE(kmsg_find(kmsg, message))
			TH_LOG("%.40s: no \"%s\" in the kernel log", params, message);
}

#define NO_SUCH_FUNCTION	"(no such function)"
#define NOT_NAME_KIND	"is not name/kind"

/*
 * Bad parameters are refused at load, named in the kernel log, and leave
 * no probe behind. A function that does not exist is -EINVAL, not the
 * -ENOENT that insmod reports as "Unknown symbol in module". A load
 * that fails took up to 0.85 s on 32-bit ARM under QEMU (26 in 22 s),
 * where freeing a module's memory stops every vCPU for its TLB flushes.
 */
TEST_F_TIMEOUT(sample, kretprobe_stats_bad_params, 150)
{
	static const struct {
		const char *params;
		int error;
		const char *message;
	} bad[] = {
		{ "funcs=", -EINVAL, "no function to probe" },
		{ "funcs=,, ,", -EINVAL, "no function to probe" },
		{ "funcs=kprobes_selftest_no_such_function", -EINVAL, NO_SUCH_FUNCTION },
		{ "funcs=" STATS_FUNC ",kprobes_selftest_no_such_function", -EINVAL,
		  NO_SUCH_FUNCTION },
		{ "funcs=" BLACKLISTED_FUNC, -EINVAL, "cannot probe " BLACKLISTED_FUNC },
		{ "funcs=a,b,c,d,e,f,g,h,i", -E2BIG, "more than 8 functions" },
		{ "funcs=" STATS_FUNC "," STATS_FUNC, -EINVAL, "listed twice" },
		{ "funcs=" STATS_FUNC "/float", -EINVAL, NOT_NAME_KIND },
		{ "funcs=" STATS_FUNC "/int/int", -EINVAL, NO_SUCH_FUNCTION },
		{ "funcs=/int", -EINVAL, NOT_NAME_KIND },
		/* The kind after a ':' is read as a module's function. */
		{ "funcs=" STATS_FUNC ":int", -EINVAL, NO_SUCH_FUNCTION },
		{ "funcs=" STATS_FUNC "+0x10", -EINVAL, NO_SUCH_FUNCTION },
		{ "funcs=" STATS_FUNC "\x01", -EINVAL, NO_SUCH_FUNCTION },
		{ "maxactive=-1", -EINVAL, "not within 0..4096" },
		{ "maxactive=", -EINVAL, NULL },
		{ "maxactive=many", -EINVAL, NULL },
		{ "maxactive=1.5", -EINVAL, NULL },
		{ "maxactive=4097", -EINVAL, "not within 0..4096" },
		{ "maxactive=2147483648", -ERANGE, NULL },
		{ "maxactive=99999999999999999999", -ERANGE, NULL },
	};
	/* A name longer than KSYM_NAME_LEN; a list longer than the parameter. */
	char long_name[6 + 600 + 1], long_list[6 + 5000 + 1];
	char path[256];
	int i;

	sample_path("kretprobe_stats", path, sizeof(path));
	if (access(path, R_OK))
		SKIP(return, "%s: %s", path, strerror(errno));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		load_bad_params(_metadata, self->kmsg, "kretprobe_stats", bad[i].params,
				bad[i].error, bad[i].message);
	snprintf(long_name, sizeof(long_name), "funcs=%0600d", 0);
	load_bad_params(_metadata, self->kmsg, "kretprobe_stats", long_name, -EINVAL,
			NO_SUCH_FUNCTION);
	snprintf(long_list, sizeof(long_list), "funcs=%05000d", 0);
	load_bad_params(_metadata, self->kmsg, "kretprobe_stats", long_list, -ENOSPC, NULL);
}

/* Loads test_modules/kprobes_sample_target.ko, whose functions tests probe. */
static void load_target(struct __test_metadata *_metadata, bool *loaded)
{
	char path[PATH_MAX];
	int ret;

	ASSERT_EQ(0, test_module_path(TARGET_MODULE, path, sizeof(path)));
	ret = load_module(path, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", path, strerror(-ret));
	*loaded = true;
}

/* Makes the target module call @target with @value, @times times. */
static void call_target(struct __test_metadata *_metadata, const char *target,
			long value, int times)
{
	char call[64];
	int i, ret;

	snprintf(call, sizeof(call), "%s %ld", target, value);
	for (i = 0; i < times; i++) {
		ret = write_file(TARGET_CALL, call);
		ASSERT_EQ(0, ret) TH_LOG("\"%s\" > %s: %s", call, TARGET_CALL, strerror(-ret));
	}
}

#define RETURN_KINDS_PARAMS \
	"funcs=kst_sample_int/int,kst_sample_long/long,kst_sample_errptr/errptr," \
	"kst_sample_ptr/ptr,kst_sample_bool/bool,kst_sample_void/void"

/*
 * Each kind of return value is classified as its C type says: exact
 * failure counts for an int, a long, an ERR_PTR() and a NULL-or-pointer
 * target, on every architecture.
 */
TEST_F(sample, kretprobe_stats_return_kinds)
{
	/* Successes and failures both: the edges of [-MAX_ERRNO, -1] too. */
	static const long values[] = { 0, 7, 2147483647, -4096, -2, -2, -22, -4095 };
	struct func_stats st;
	int i;

	load_target(_metadata, &self->target_loaded);
	if (!load_sample(_metadata, "kretprobe_stats", RETURN_KINDS_PARAMS))
		return;
	self->loaded = "kretprobe_stats";

	for (i = 0; i < ARRAY_SIZE(values); i++) {
		call_target(_metadata, "int", values[i], 1);
		call_target(_metadata, "long", values[i], 1);
	}
	call_target(_metadata, "errptr", -ENOMEM, 2);
	call_target(_metadata, "errptr", 0, 3);
	call_target(_metadata, "ptr", 0, 3);
	call_target(_metadata, "ptr", 1, 2);
	call_target(_metadata, "bool", 0, 3);
	call_target(_metadata, "bool", 1, 2);
	call_target(_metadata, "void", -ENOENT, 2);

	read_stats(_metadata, "kst_sample_int", &st);
	EXPECT_EQ(8, st.calls);
	EXPECT_EQ(4, st.failed);
	EXPECT_EQ(2, errno_count(&st, "-ENOENT", -ENOENT));
	EXPECT_EQ(1, errno_count(&st, "-EINVAL", -EINVAL));
	EXPECT_EQ(1, errno_count(&st, "other", 0));
	read_stats(_metadata, "kst_sample_long", &st);
	EXPECT_EQ(8, st.calls);
	EXPECT_EQ(4, st.failed);
	EXPECT_EQ(2, errno_count(&st, "-ENOENT", -ENOENT));
	EXPECT_EQ(1, errno_count(&st, "-EINVAL", -EINVAL));
	read_stats(_metadata, "kst_sample_errptr", &st);
	EXPECT_EQ(5, st.calls);
	EXPECT_EQ(2, st.failed);
	EXPECT_EQ(2, errno_count(&st, "-ENOMEM", -ENOMEM));
	read_stats(_metadata, "kst_sample_ptr", &st);
	EXPECT_EQ(5, st.calls);
	EXPECT_EQ(3, st.failed);
	EXPECT_EQ(0, st.nr_errnos) TH_LOG("a NULL has no errno");
	EXPECT_EQ(st.calls, st.ok + st.failed);
	read_stats(_metadata, "kst_sample_bool", &st);
	EXPECT_EQ(5, st.calls);
	EXPECT_EQ(3, st.failed) TH_LOG("false is a failure");
	EXPECT_EQ(0, st.nr_errnos);
	read_stats(_metadata, "kst_sample_void", &st);
	EXPECT_EQ(2, st.calls);
	EXPECT_EQ(0, st.failed) TH_LOG("a void function cannot fail");
}

/*
 * A module's function, named as kallsyms names it, module:function: the
 * kind comes after a '/', and the ':' is the symbol's.
 */
TEST_F(sample, kretprobe_stats_module_function)
{
	struct func_stats st;

	load_target(_metadata, &self->target_loaded);
	if (!load_sample(_metadata, "kretprobe_stats",
			 "funcs=" TARGET_MODULE ":kst_sample_int/int"))
		return;
	self->loaded = "kretprobe_stats";

	call_target(_metadata, "int", -ENOENT, 2);
	call_target(_metadata, "int", 3, 1);
	read_stats(_metadata, TARGET_MODULE ":kst_sample_int", &st);
	EXPECT_EQ(3, st.calls);
	EXPECT_EQ(2, errno_count(&st, "-ENOENT", -ENOENT));
}

/*
 * Both miss counters: with maxactive=1, a call made while the function
 * is already in flight finds no free instance (missed); a call made from
 * a kprobe's handler is not run at all (nested).
 */
TEST_F(sample, kretprobe_stats_misses)
{
	struct func_stats st;

	load_target(_metadata, &self->target_loaded);
	if (!load_sample(_metadata, "kretprobe_stats",
			 "funcs=kst_sample_recurse/int,kst_sample_int/int maxactive=1"))
		return;
	self->loaded = "kretprobe_stats";

	call_target(_metadata, "recurse", 4, 1);
	call_target(_metadata, "nested", -2, 3);
	read_stats(_metadata, "kst_sample_recurse", &st);
	EXPECT_EQ(1, st.calls);
	EXPECT_EQ(3, st.missed) TH_LOG("calls in flight beyond maxactive=1");
	EXPECT_EQ(0, st.nested);
	read_stats(_metadata, "kst_sample_int", &st);
	EXPECT_EQ(0, st.calls);
	EXPECT_EQ(0, st.missed);
	EXPECT_EQ(3, st.nested) TH_LOG("calls from a kprobe's handler");

	/*
	 * reset starts the miss counters from zero too, and the counts of a
	 * function not called since, whose CPU counts have not started anew
	 */
	ASSERT_EQ(0, write_file(STATS_DIR "/control", "reset"));
	call_target(_metadata, "nested", 1, 1);
	read_stats(_metadata, "kst_sample_int", &st);
	EXPECT_EQ(1, st.nested);
	read_stats(_metadata, "kst_sample_recurse", &st);
	EXPECT_EQ(0, st.missed);
	EXPECT_EQ(0, st.calls) TH_LOG("a call from before the reset");
}

/* Moves the calling thread to @cpu; false if it cannot run there. */
static bool run_on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return !sched_setaffinity(0, sizeof(set), &set);
}

/*
 * A reset clears every CPU's counts, not only those of the CPUs that
 * count again after it: calls made on CPU 0 before a reset do not show
 * after it, when only CPU 1 has counted since.
 */
TEST_F(sample, kretprobe_stats_reset_other_cpu)
{
	struct func_stats st;

	if (!run_on_cpu(1))
		SKIP(return, "needs a second CPU: %s", strerror(errno));
	load_target(_metadata, &self->target_loaded);
	if (!load_sample(_metadata, "kretprobe_stats", "funcs=kst_sample_int/int"))
		return;
	self->loaded = "kretprobe_stats";

	ASSERT_TRUE(run_on_cpu(0));
	call_target(_metadata, "int", -2, 3);
	ASSERT_EQ(0, write_file(STATS_DIR "/control", "reset"));
	ASSERT_TRUE(run_on_cpu(1));
	call_target(_metadata, "int", -2, 1);
	read_stats(_metadata, "kst_sample_int", &st);
	EXPECT_EQ(1, st.calls) TH_LOG("calls from before the reset on another CPU");
	EXPECT_EQ(1, st.failed);
}

/*
 * The latency of three long calls and a short one: max, min, and an
 * average that only a sum of more than 32 bits of nanoseconds gives.
 */
TEST_F(sample, kretprobe_stats_latency)
{
	struct func_stats st;

	load_target(_metadata, &self->target_loaded);
	if (!load_sample(_metadata, "kretprobe_stats", "funcs=kst_sample_sleep/int"))
		return;
	self->loaded = "kretprobe_stats";

	/*
	 * 1.5 s by the sleep's jiffies; local_clock() may see a little less
	 * (1.198 s for 1.2 s, seen under QEMU TCG), still above 2^30 ns.
	 * Three of them add up to more than 2^32 ns.
	 */
	call_target(_metadata, "sleep", 1500, 3);
	call_target(_metadata, "sleep", 0, 1);
	read_stats(_metadata, "kst_sample_sleep", &st);
	EXPECT_EQ(4, st.calls);
	EXPECT_LE(1ULL << 30, st.max_ns);
	EXPECT_GT(1ULL << 30, st.min_ns);
	/* (3 * 1.5 s + a short call) / 4: wrapped at 2^32, well below 2^30 */
	EXPECT_LE(1ULL << 30, st.avg_ns);
	EXPECT_GE(st.max_ns, st.avg_ns);
}

/* Whether the kernel has a symbol named @symbol (kallsyms). */
static bool kallsyms_has(const char *symbol)
{
	char line[256], name[128];
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return false;
	/* "address type name [module]" */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*c %127s", name) == 1 && !strcmp(name, symbol);
	fclose(f);
	return found;
}

/* The symbol of the kmalloc() family's sized call: renamed in 6.10. */
static const char *kmalloc_symbol(void)
{
	if (kallsyms_has("__kmalloc_noprof"))
		return "__kmalloc_noprof";
	return kallsyms_has("__kmalloc") ? "__kmalloc" : NULL;
}

/* Allocations: failures of kmalloc() are the NULLs it returns. */
TEST_F(sample, kretprobe_stats_kmalloc)
{
	const char *symbol = kmalloc_symbol();
	char params[128];
	struct func_stats before, after;

	ASSERT_TRUE(!!symbol) TH_LOG("neither __kmalloc_noprof nor __kmalloc in /proc/kallsyms");
	load_target(_metadata, &self->target_loaded);
	snprintf(params, sizeof(params), "funcs=%s/ptr", symbol);
	if (!load_sample(_metadata, "kretprobe_stats", params))
		return;
	self->loaded = "kretprobe_stats";

	read_stats(_metadata, symbol, &before);
	/* Above KMALLOC_MAX_SIZE on every architecture and page size. */
	call_target(_metadata, "kmalloc", 1L << 30, 3);
	call_target(_metadata, "kmalloc", 64, 2);
	read_stats(_metadata, symbol, &after);
	EXPECT_EQ(3, after.failed - before.failed);
	EXPECT_LE(5, after.calls - before.calls);
	EXPECT_EQ(0, after.nr_errnos);
}

/* The new samples read arguments where the architecture can tell them. */
#define ARGS_NEEDS	" needs HAVE_FUNCTION_ARG_ACCESS_API, ARM or 64-bit MIPS"
#define ARGS_LOGGED \
	"kst_sample_args(0x1000, 0x1001, 0x1002, 0x1003, 0x1004, 0x1005, 0x1006, 0x1007)"

/*
 * kprobe_args: a call is logged with its arguments, eight here, so that
 * on x86_64, i386, ARM and s390 some come from the stack (and the
 * register ones are not taken for them); after max_calls calls,
 * the calls are counted and not logged.
 */
TEST_F(sample, kprobe_args)
{
	static const char * const bad_params[] = {
		"nargs=9", "func=kprobes_selftest_no_such_function", "func=",
	};
	char found[512];
	int i;

	if (!sample_installed(_metadata, "kprobe_args", "CONFIG_SAMPLE_KPROBE_ARGS" ARGS_NEEDS))
		return;
	for (i = 0; i < ARRAY_SIZE(bad_params); i++)
		load_bad_params(_metadata, self->kmsg, "kprobe_args", bad_params[i], -EINVAL,
				i ? NO_SUCH_FUNCTION : "not within 0..8");
	load_target(_metadata, &self->target_loaded);
	if (!load_sample(_metadata, "kprobe_args", "func=kst_sample_args nargs=8 max_calls=2"))
		return;
	self->loaded = "kprobe_args";

	kmsg_find(self->kmsg, "");
	call_target(_metadata, "args", 0x1000, 1);
	EXPECT_TRUE(kmsg_grab(self->kmsg, "kst_sample_args(", found, sizeof(found)));
	EXPECT_TRUE(!!strstr(found, ARGS_LOGGED)) TH_LOG("logged: %s", found);
	call_target(_metadata, "args", -1, 1);
	EXPECT_TRUE(kmsg_find(self->kmsg, "kst_sample_args(0x"))
		TH_LOG("the second call was not logged");
	call_target(_metadata, "args", 0x3000, 1);
	EXPECT_FALSE(kmsg_find(self->kmsg, "kst_sample_args(0x"))
		TH_LOG("a call after max_calls=2 was logged");
	self->loaded = NULL;
	unload_sample(_metadata, "kprobe_args", ENTRY_OF("kst_sample_args"));
	EXPECT_TRUE(kmsg_find(self->kmsg, "kst_sample_args: 3 calls, 0 missed"))
		TH_LOG("no count of the calls at unload");
}

/*
 * kretprobe_kmalloc: the size each kmalloc() was asked for, kept by the
 * entry handler, is logged with the pointer it returned, from each entry
 * of the kmalloc family: a size known only at run time, a constant size
 * from a kmalloc cache and one above them, and a size that fails.
 */
TEST_F(sample, kretprobe_kmalloc)
{
	static const struct {
		const char *target;
		long value;
		const char *logged;
	} calls[] = {
		{ "kmalloc", 100019, "kmalloc(100019) = " },
		{ "kmalloc_const", 0, "kmalloc(3001) = " },
		{ "kmalloc_const", 1, "kmalloc(100003) = " },
		{ "kmalloc", 1L << 30, "kmalloc(1073741824) = NULL" },
	};
	char found[512];
	int i;

	if (!sample_installed(_metadata, "kretprobe_kmalloc",
			      "CONFIG_SAMPLE_KRETPROBE_KMALLOC" ARGS_NEEDS))
		return;
	if (!kallsyms_has("__kmalloc_cache_noprof"))
		SKIP(return, "no __kmalloc_cache_noprof: the sample probes 6.11's kmalloc()");
	load_target(_metadata, &self->target_loaded);
	if (!load_sample(_metadata, "kretprobe_kmalloc", "min_size=3001 max_calls=10000"))
		return;
	self->loaded = "kretprobe_kmalloc";

	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		kmsg_find(self->kmsg, "");
		call_target(_metadata, calls[i].target, calls[i].value, 1);
		EXPECT_TRUE(kmsg_grab(self->kmsg, calls[i].logged, found, sizeof(found)))
			TH_LOG("no \"%s\" in the kernel log", calls[i].logged);
		/* The three that succeed must not show as NULL. */
		EXPECT_EQ(i == 3, !!strstr(found, "NULL")) TH_LOG("logged: %s", found);
	}
	self->loaded = NULL;
	unload_sample(_metadata, "kretprobe_kmalloc", ENTRY_OF("__kmalloc_noprof"));
}

/* Kills and reaps the callers started, and forgets them. */
static void stop_callers(pid_t *callers, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (callers[i] > 0) {
			kill(callers[i], SIGKILL);
			waitpid(callers[i], NULL, 0);
		}
		callers[i] = 0;
	}
}

/*
 * Has the target module call kst_sample_int(@value) in a loop until
 * killed, or until its parent dies: thousands of calls to each write,
 * many more return handlers a second than a loop of system calls gives.
 */
static pid_t start_caller(int value)
{
	char call[64];
	pid_t pid;

	snprintf(call, sizeof(call), "int %d 10000", value);
	pid = fork();
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			write_file(TARGET_CALL, call);
	}
	return pid;
}

static time_t monotonic_seconds(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec;
}

/*
 * What every read must show, however the handlers race with it. ok is
 * printed as calls - failed: more failures than calls still add up.
 */
static bool stats_consistent(const struct func_stats *st)
{
	return st->failed <= st->calls && st->ok + st->failed == st->calls &&
	       errno_total(st) <= st->failed;
}

/*
 * reset while other CPUs' handlers run: every read shows consistent
 * counts (calls == ok + failed, no more errnos than failures), and once
 * the load stops a reset counts exactly the calls that follow it.
 */
TEST_F_TIMEOUT(sample, kretprobe_stats_reset_under_load, 120)
{
	/* A round without a call for this long: the callers do not run. */
	const time_t stall_seconds = 10;
	const int rounds = 200, m = 5;
	struct func_stats st;
	unsigned long seen = 0;
	time_t deadline;
	char call[64];
	int i, reads = 0, bad = 0;

	load_target(_metadata, &self->target_loaded);
	if (!load_sample(_metadata, "kretprobe_stats", "funcs=kst_sample_int/int"))
		return;
	self->loaded = "kretprobe_stats";

	self->callers[0] = start_caller(0);
	ASSERT_LT(0, self->callers[0]) TH_LOG("fork: %s", strerror(errno));
	self->callers[1] = start_caller(-ENOENT);
	ASSERT_LT(0, self->callers[1]) TH_LOG("fork: %s", strerror(errno));
	for (i = 0; i < rounds; i++) {
		if (i % 2) {
			ASSERT_EQ(0, write_file(STATS_DIR "/control", "reset"));
			seen = 0;
		}
		/*
		 * A round ends with a read that saw more calls than the round
		 * began with: handlers ran during every round. The pause gives
		 * the callers a CPU when they have none of their own, as in a
		 * QEMU guest whose vCPUs share one host thread.
		 */
		deadline = monotonic_seconds() + stall_seconds;
		for (;;) {
			read_stats(_metadata, "kst_sample_int", &st);
			if (!stats_consistent(&st) && !bad++)
				TH_LOG("read %d: calls %lu ok %lu failed %lu errnos %lu",
				       reads, st.calls, st.ok, st.failed,
				       errno_total(&st));
			reads++;
			if (st.calls > seen || monotonic_seconds() >= deadline)
				break;
			usleep(200);
		}
		ASSERT_LT(seen, st.calls)
			TH_LOG("round %d: no call in %ld s: the callers do not run", i,
			       (long)stall_seconds);
		seen = st.calls;
	}
	EXPECT_EQ(0, bad) TH_LOG("%d of %d reads inconsistent", bad, reads);
	stop_callers(self->callers, ARRAY_SIZE(self->callers));

	ASSERT_EQ(0, write_file(STATS_DIR "/control", "reset"));
	snprintf(call, sizeof(call), "int %d %d", -ENOENT, m);
	ASSERT_EQ(0, write_file(TARGET_CALL, call));
	read_stats(_metadata, "kst_sample_int", &st);
	EXPECT_EQ(m, st.failed) TH_LOG("calls after a reset under load");
	EXPECT_EQ(m, errno_count(&st, "-ENOENT", -ENOENT));
}

/* The target module refuses what it cannot do, and calls nothing. */
TEST_F(sample, sample_target_bad_input)
{
	static const char * const bad[] = {
		"", "int", "int x", "bogus 1", "int 4294967296", "sleep 2001",
		"sleep -1", "recurse 0", "recurse 17", "errptr -4096", "kmalloc -1",
		"int 1 2 3", "int 1 0", "int 1 100001", "int 1 x", "long 1 2",
		"int 4294967296 2", "kmalloc_const 2", "kmalloc_const -1", "bool x",
	};
	struct func_stats st;
	int i, ret;

	load_target(_metadata, &self->target_loaded);
	if (!load_sample(_metadata, "kretprobe_stats", RETURN_KINDS_PARAMS))
		return;
	self->loaded = "kretprobe_stats";

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = write_file(TARGET_CALL, bad[i]);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("\"%s\": %s", bad[i], strerror(-ret));
	}
	read_stats(_metadata, "kst_sample_int", &st);
	EXPECT_EQ(0, st.calls) TH_LOG("kst_sample_int() called on bad input");
	read_stats(_metadata, "kst_sample_long", &st);
	EXPECT_EQ(0, st.calls) TH_LOG("kst_sample_long() called on bad input");
}

/*
 * The cases that kill a kernel without their fix run in
 * test_samples_fatal, this file built with KST_FATAL, which runs after
 * every other program of the target but test_kprobes_fatal: on such a
 * kernel every other test has reported when it dies. test_samples runs
 * the others. Returns argv with a -t (test_samples_fatal) or -T of each
 * such case after the command line's own filters, which the harness
 * tries first; sets *argc to its length.
 */
static char **fatal_filters(int *argc, char **argv)
{
	static char * const fatal[] = { "kretprobe_stats_reset_under_load" };
	static char *args[64];
#ifdef KST_FATAL
	char *filter = "-t";
#else
	char *filter = "-T";
#endif
	int i, n = 0;

	if (*argc + 2 * ARRAY_SIZE(fatal) >= ARRAY_SIZE(args))
		ksft_exit_fail_msg("%d arguments: too many\n", *argc - 1);
	for (i = 0; i < *argc; i++)
		args[n++] = argv[i];
	for (i = 0; i < ARRAY_SIZE(fatal); i++) {
		args[n++] = filter;
		args[n++] = fatal[i];
	}
	*argc = n;
	return args;
}

int main(int argc, char **argv)
{
	if (geteuid())
		ksft_exit_skip("the kprobes samples tests must be run as root\n");
	if (access(KPROBES_LIST, R_OK))
		ksft_exit_skip("%s: %s (needs CONFIG_KPROBES and debugfs mounted)\n",
			       KPROBES_LIST, strerror(errno));
	argv = fatal_filters(&argc, argv);
	return test_harness_run(argc, argv);
}
