// SPDX-License-Identifier: GPL-2.0
/*
 * test_samples - checks the kprobes samples in samples/kprobes
 *
 * Loads each sample from /lib/modules/$(uname -r), makes the probed
 * function run and checks what the sample reports, then unloads it and
 * checks that its probe is gone. A sample that is not installed (built
 * with CONFIG_SAMPLE_KPROBES=m or CONFIG_SAMPLE_KRETPROBES=m and
 * installed with modules_install) is skipped.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "helpers.h"

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
static bool load_sample(struct __test_metadata *_metadata, const char *name)
{
	struct utsname uts;
	char path[256];
	int ret;

	ASSERT_EQ(0, uname(&uts));
	snprintf(path, sizeof(path), "/lib/modules/%s/kernel/samples/kprobes/%s.ko",
		 uts.release, name);
	if (access(path, R_OK))
		SKIP(return false, "%s: %s", path, strerror(errno));
	ret = load_module(path, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", path, strerror(-ret));
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

	if (!load_sample(_metadata, "kprobe_example"))
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

	if (!load_sample(_metadata, "kretprobe_example"))
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

int main(int argc, char **argv)
{
	if (geteuid())
		ksft_exit_skip("the kprobes samples tests must be run as root\n");
	if (access(KPROBES_LIST, R_OK))
		ksft_exit_skip("%s: %s (needs CONFIG_KPROBES and debugfs mounted)\n",
			       KPROBES_LIST, strerror(errno));
	return test_harness_run(argc, argv);
}
