// SPDX-License-Identifier: GPL-2.0
/*
 * test_unloaded - a kprobe on a module that is unloaded under it
 *
 * A step of test_modules/kprobes_selftest.ko registers a kprobe on a
 * function of test_modules/kprobes_selftest_target.ko; this program
 * unloads that module and checks that the probe shows as [GONE] in
 * kprobes/list, cannot be enabled, never fires and unregisters cleanly.
 * A probe on the module's init function is gone once the module is live;
 * one on a module that is going is refused.
 */
#include <stdlib.h>

#include "../kselftest_harness.h"
#include "kst_harness.h"
#include "kst_fixture.h"

/*
 * A probe on a module that goes away, registered by the step @hold, is
 * [GONE], inert and unregisterable.
 */
static void check_probe_on_unloaded_module(struct __test_metadata *_metadata,
					   const char *hold)
{
	char line[512], addr[32];
	int ret;

	ret = load_test_module(TARGET_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TARGET_MODULE, strerror(-ret));
	run_case(_metadata, hold);
	ASSERT_TRUE(find_held_in_kprobes_list(_metadata, "gone", 'k', line, sizeof(line)))
		TH_LOG("the probe on %s is not listed", TARGET_MODULE);
	/* Once the module is gone the line shows only the address. */
	ret = sscanf(line, "%31s", addr);
	ASSERT_EQ(1, ret);

	ret = unload_module(TARGET_MODULE);
	ASSERT_EQ(0, ret) TH_LOG("unloading %s: %s", TARGET_MODULE, strerror(-ret));
	ASSERT_TRUE(find_in_kprobes_list(addr, line, sizeof(line)));
	EXPECT_TRUE(!!strstr(line, "[GONE]")) TH_LOG("after unload: %s", line);

	run_case(_metadata, STEP(enable_gone));
	run_case(_metadata, STEP(release));
	EXPECT_FALSE(find_in_kprobes_list(addr, line, sizeof(line)))
		TH_LOG("still listed after unregistering: %s", line);
}

TEST_F(kprobes, probe_on_unloaded_module)
{
	check_probe_on_unloaded_module(_metadata, STEP(hold_kprobe_gone));
}

/*
 * The same off a function's entry, where the probe is a breakpoint or an
 * optimized jump on every architecture, not an ftrace site.
 */
TEST_F(kprobes, probe_off_entry_on_unloaded_module)
{
	check_probe_on_unloaded_module(_metadata, STEP(hold_kprobe_gone_off_entry));
}

/*
 * Two probes on the address, an aggregate probe: once the module is gone,
 * each of them is [GONE] and refuses enable_kprobe().
 */
TEST_F(kprobes, aggregate_on_unloaded_module)
{
	char line[512], addr[32];
	int ret, gone = 0;
	FILE *list;

	ret = load_test_module(TARGET_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TARGET_MODULE, strerror(-ret));
	run_case(_metadata, STEP(hold_kprobe_gone));
	run_case(_metadata, STEP(hold_second_kprobe_gone));
	ASSERT_TRUE(find_held_in_kprobes_list(_metadata, "gone", 'k', line, sizeof(line)))
		TH_LOG("the probes on %s are not listed", TARGET_MODULE);
	ret = sscanf(line, "%31s", addr);
	ASSERT_EQ(1, ret);

	ret = unload_module(TARGET_MODULE);
	ASSERT_EQ(0, ret) TH_LOG("unloading %s: %s", TARGET_MODULE, strerror(-ret));
	list = fopen(KPROBES_LIST, "r");
	ASSERT_TRUE(!!list) TH_LOG("%s: %s", KPROBES_LIST, strerror(errno));
	while (fgets(line, sizeof(line), list))
		gone += !strncmp(line, addr, strlen(addr)) && strstr(line, "[GONE]");
	fclose(list);
	ASSERT_EQ(2, gone) TH_LOG("lines of %s with [GONE] after the unload", addr);

	run_case(_metadata, STEP(enable_gone));
}

/*
 * A probe on a module's __init function, registered as the module comes
 * (a module notifier of the test module's): it fires as the function
 * runs, and once the module is live, its init text freed, it is [GONE]
 * and refuses enable_kprobe(). Left armed, it would be a breakpoint in
 * freed memory. A new probe there, as the module goes live, is refused
 * (-ENOENT); a probe on its core text, registered with the first, is
 * not gone. It skips where the function is not in init text
 * (powerpc loads a module's .init sections with its core).
 */
TEST_F(kprobes, probe_on_module_init)
{
	int ret;

	run_case(_metadata, STEP(hold_kprobe_init));
	ret = load_test_module(TARGET_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TARGET_MODULE, strerror(-ret));
	run_case(_metadata, STEP(check_kprobe_init));
	run_case(_metadata, STEP(release));
}

/*
 * A new probe on a module that is going away, registered from a module
 * notifier as it goes (its text is still there): refused (-ENOENT), as
 * kprobes cannot hold the module while the probe is armed.
 */
TEST_F(kprobes, probe_on_going_module)
{
	int ret;

	run_case(_metadata, STEP(watch_module_going));
	ret = load_test_module(TARGET_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TARGET_MODULE, strerror(-ret));
	ret = unload_module(TARGET_MODULE);
	ASSERT_EQ(0, ret) TH_LOG("unloading %s: %s", TARGET_MODULE, strerror(-ret));
	run_case(_metadata, STEP(check_module_going));
	run_case(_metadata, STEP(release));
}

#define TARGET_KPROBES_TEXT	"/sys/module/" TARGET_MODULE "/sections/.kprobes.text"

/*
 * The module's entries: one for its NOKPROBE_SYMBOL() function, in .text,
 * and those of its .kprobes.text, from the section's start on. The
 * section need not start at a symbol (on ppc64le a TOC offset word comes
 * first, which kallsyms counts in the function before it), and that
 * function is not on the blacklist. Addresses are read 64-bit wide: the
 * kernel's may be wider than this program's long.
 */
static void check_module_entries(struct __test_metadata *_metadata)
{
	unsigned long long section, start;
	int ret, area = 0, at_section = 0, before = 0;
	char line[512];
	FILE *list;

	ret = read_file(TARGET_KPROBES_TEXT, line, sizeof(line));
	ASSERT_LT(0, ret) TH_LOG("%s: %s", TARGET_KPROBES_TEXT, strerror(-ret));
	section = strtoull(line, NULL, 16);
	if (!section)
		SKIP(return, "%s reads 0: addresses hidden (kptr_restrict)",
		     TARGET_KPROBES_TEXT);

	list = fopen(KPROBES_BLACKLIST, "r");
	ASSERT_TRUE(!!list) TH_LOG("%s: %s", KPROBES_BLACKLIST, strerror(errno));
	while (fgets(line, sizeof(line), list)) {
		if (!strstr(line, " [" TARGET_MODULE "]"))
			continue;
		start = 0;
		ret = sscanf(line, "0x%llx", &start);
		EXPECT_EQ(1, ret) TH_LOG("%s", line);
		if (start >= section) {
			area++;
			at_section += start == section;
			continue;
		}
		before++;
		EXPECT_TRUE(!!strstr(line, "\tkst_gone_nokprobe ["))
			TH_LOG(".kprobes.text is at 0x%llx: %s", section, line);
	}
	fclose(list);
	EXPECT_EQ(1, before) TH_LOG("entries before .kprobes.text");
	EXPECT_EQ(1, at_section) TH_LOG("entries from the start of .kprobes.text");
	EXPECT_LE(2, area) TH_LOG("entries in .kprobes.text");
}

/*
 * Each __kprobes and NOKPROBE_SYMBOL() function of a module is on the
 * blacklist while the module is loaded, and the blacklist is as before
 * once it is gone: an entry left behind would refuse probes on the next
 * module loaded there.
 */
TEST_F(kprobes, blacklist_leaves_with_module)
{
	int before, ret;

	before = blacklist_lines(NULL);
	ASSERT_LE(0, before) TH_LOG("%s: %s", KPROBES_BLACKLIST, strerror(-before));
	ret = load_test_module(TARGET_MODULE, "");
	ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", TARGET_MODULE, strerror(-ret));
	EXPECT_EQ(1, blacklist_lines("\tkst_gone_kprobes_text [" TARGET_MODULE "]"));
	EXPECT_EQ(1, blacklist_lines("\tkst_gone_kprobes_text2 [" TARGET_MODULE "]"));
	check_module_entries(_metadata);

	ret = unload_module(TARGET_MODULE);
	ASSERT_EQ(0, ret) TH_LOG("unloading %s: %s", TARGET_MODULE, strerror(-ret));
	EXPECT_EQ(before, blacklist_lines(NULL))
		TH_LOG("lines of %s before %s was loaded, and after", KPROBES_BLACKLIST,
		       TARGET_MODULE);
}

int main(int argc, char **argv)
{
	skip_unless_ready(TEST_MODULE);
	skip_unless_ready(TARGET_MODULE);
	return test_harness_run(argc, argv);
}
