// SPDX-License-Identifier: GPL-2.0
/*
 * test_debugfs - what user space sees of probes in /sys/kernel/debug/kprobes
 *
 * Steps of test_modules/kprobes_selftest.ko hold probes registered while
 * this program checks kprobes/list ([DISABLED]), kprobes/enabled (the
 * global knob) and kprobes/blacklist; it also feeds bad input to the
 * module's own debugfs files. After every test no probe of the test
 * module may be left in kprobes/list, and the global knob is restored.
 */
#include <ctype.h>
#include <fcntl.h>

#include "../kselftest_harness.h"
#include "kst_harness.h"
#include "kst_fixture.h"

static void read_hits(struct __test_metadata *_metadata, int hits[2])
{
	char buf[64];
	int n;

	ASSERT_LT(0, read_file(MODULE_DEBUGFS "/hits", buf, sizeof(buf)));
	n = sscanf(buf, "%d %d", &hits[0], &hits[1]);
	ASSERT_EQ(2, n) TH_LOG("hits: %s", buf);
}

/* A held probe is listed while registered, with [DISABLED] when it is. */
TEST_F(kprobes, list_shows_probes)
{
	char line[512];

	run_case(_metadata, STEP(hold_kprobe));
	ASSERT_TRUE(find_held_in_kprobes_list(_metadata, "held", 'k', line, sizeof(line)))
		TH_LOG("the registered probe is not in " KPROBES_LIST);
	EXPECT_TRUE(!strstr(line, "[DISABLED]")) TH_LOG("%s", line);

	run_case(_metadata, STEP(hold_kprobe_disabled));
	EXPECT_TRUE(find_in_kprobes_list("[DISABLED]", line, sizeof(line)))
		TH_LOG("no [DISABLED] probe in " KPROBES_LIST);

	run_case(_metadata, STEP(release));
	EXPECT_FALSE(find_in_kprobes_list(LISTED_IN(TEST_MODULE), line, sizeof(line)))
		TH_LOG("still listed after release: %s", line);
}

#define KPTR_RESTRICT	"/proc/sys/kernel/kptr_restrict"

/* An address of zeros only opens @line: "0000...  " or "0x0000...-". */
static bool hides_address(const char *line)
{
	if (!strncmp(line, "0x", 2))
		line += 2;
	if (*line != '0')
		return false;
	line += strspn(line, "0");
	return *line == ' ' || *line == '-';
}

/*
 * kptr_restrict at 2 hides every address of kprobes/list and
 * kprobes/blacklist, from root too, as it does those of /proc/kallsyms;
 * at 1 root sees them.
 */
TEST_F(kprobes, kptr_restrict_hides_addresses)
{
	char saved[8], line[512];
	int ret, entries = 0, shown = 0;
	FILE *list;

	ret = read_file(KPTR_RESTRICT, saved, sizeof(saved));
	if (ret <= 0)
		SKIP(return, "%s: %s", KPTR_RESTRICT, ret ? strerror(-ret) : "empty");
	run_case(_metadata, STEP(hold_kprobe));
	ASSERT_TRUE(find_held_in_kprobes_list(_metadata, "held", 'k', line, sizeof(line)));

	ret = write_file(KPTR_RESTRICT, "2");
	EXPECT_EQ(0, ret) TH_LOG("%s: %s", KPTR_RESTRICT, strerror(-ret));
	EXPECT_TRUE(find_held_in_kprobes_list(_metadata, "held", 'k', line, sizeof(line)));
	EXPECT_TRUE(hides_address(line)) TH_LOG("kptr_restrict 2: %s", line);
	list = fopen(KPROBES_BLACKLIST, "r");
	EXPECT_TRUE(!!list) TH_LOG("%s: %s", KPROBES_BLACKLIST, strerror(errno));
	while (list && fgets(line, sizeof(line), list)) {
		entries++;
		shown += !hides_address(line);
	}
	if (list)
		fclose(list);
	EXPECT_LT(0, entries) TH_LOG(KPROBES_BLACKLIST " is empty");
	EXPECT_EQ(0, shown) TH_LOG("kptr_restrict 2: %d of %d blacklist entries show an address",
				   shown, entries);

	ret = write_file(KPTR_RESTRICT, "1");
	EXPECT_EQ(0, ret) TH_LOG("%s: %s", KPTR_RESTRICT, strerror(-ret));
	EXPECT_TRUE(find_held_in_kprobes_list(_metadata, "held", 'k', line, sizeof(line)));
	EXPECT_FALSE(hides_address(line)) TH_LOG("kptr_restrict 1, as root: %s", line);
	ret = write_file(KPTR_RESTRICT, saved);
	EXPECT_EQ(0, ret) TH_LOG("restoring %s: %s", KPTR_RESTRICT, strerror(-ret));
}

/*
 * Where kprobes use ftrace, a probe on a function's ftrace site (its
 * entry, after an ENDBR on x86 with IBT) is listed with [FTRACE].
 */
TEST_F(kprobes, list_shows_ftrace)
{
	char line[512], verdict[512];

	run_command(_metadata, STEP(kprobes_on_ftrace), verdict, sizeof(verdict));
	if (!strncmp(verdict, "skip: ", 6))
		SKIP(return, "%s", verdict + 6);
	ASSERT_STREQ("pass", verdict);
	run_case(_metadata, STEP(hold_kprobe));
	ASSERT_TRUE(find_in_kprobes_list("k  kst_target+0x", line, sizeof(line)))
		TH_LOG("the registered probe is not in " KPROBES_LIST);
	EXPECT_TRUE(!!strstr(line, "[FTRACE]")) TH_LOG("%s", line);
}

/* kprobes/enabled: 0 stops every probe, 1 restores the enabled ones. */
TEST_F(kprobes, global_enable_knob)
{
	char knob[8];
	int hits[2];

	run_case(_metadata, STEP(hold_kprobe));
	run_case(_metadata, STEP(hold_kprobe_disabled));

	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	/* 0 again changes nothing. */
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	ASSERT_LT(0, read_file(KPROBES_ENABLED, knob, sizeof(knob)));
	EXPECT_EQ('0', knob[0]);
	run_case(_metadata, STEP(call_target));
	read_hits(_metadata, hits);
	EXPECT_EQ(0, hits[0]) TH_LOG("a probe fired while kprobes were disabled");

	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "1"));
	run_case(_metadata, STEP(call_target));
	read_hits(_metadata, hits);
	EXPECT_EQ(1, hits[0]) TH_LOG("the probe did not fire after re-enabling");
	EXPECT_EQ(0, hits[1]) TH_LOG("re-enabling kprobes enabled a disabled probe");
}

/*
 * Setting kprobes/enabled to 1 again leaves a disabled probe unarmed, off
 * the function's entry too, where it is a breakpoint whose handler does
 * not check the flag: it does not fire, and its breakpoint is not in the
 * text (which alone shows it where the probe is in an aggregate).
 */
TEST_F(kprobes, global_knob_leaves_disabled_off_entry)
{
	int hits[2];

	run_case(_metadata, STEP(hold_kprobe_disabled_inner));
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "1"));
	run_case(_metadata, STEP(call_target));
	read_hits(_metadata, hits);
	EXPECT_EQ(0, hits[1]) TH_LOG("setting kprobes/enabled armed a disabled probe");
	run_case(_metadata, STEP(held_disabled_unarmed));
}

/*
 * With kprobes/enabled at 0 and held probe @held just @what, it stays
 * unarmed; setting the knob again arms it. Armed already, it would be
 * armed twice: that ends the test.
 */
static void check_knob_arms_later(struct __test_metadata *_metadata, int held,
				  const char *what)
{
	int hits[2];

	run_case(_metadata, STEP(call_target));
	read_hits(_metadata, hits);
	ASSERT_EQ(0, hits[held]) TH_LOG("a probe %s while kprobes were disabled fired", what);

	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "1"));
	run_case(_metadata, STEP(call_target));
	read_hits(_metadata, hits);
	EXPECT_EQ(1, hits[held]) TH_LOG("not armed when kprobes were enabled again");
}

TEST_F(kprobes, global_knob_covers_new_probes)
{
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	run_case(_metadata, STEP(hold_kprobe));
	check_knob_arms_later(_metadata, 0, "registered");
}

TEST_F(kprobes, global_knob_covers_enabled_probes)
{
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	run_case(_metadata, STEP(hold_kprobe_disabled));
	run_case(_metadata, STEP(enable_held_disabled));
	check_knob_arms_later(_metadata, 1, "enabled");
}

/*
 * The same for a kprobe that shares its address with disabled ones only:
 * enabling it while kprobes/enabled is 0 enables their aggregate probe
 * too, which setting the knob again arms.
 */
TEST_F(kprobes, global_knob_covers_enabled_aggregate)
{
	int hits[2];

	run_case(_metadata, STEP(hold_kprobe));
	run_case(_metadata, STEP(hold_kprobe_disabled));
	run_case(_metadata, STEP(disable_held));
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	run_case(_metadata, STEP(enable_held_disabled));
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "1"));
	run_case(_metadata, STEP(call_target));
	read_hits(_metadata, hits);
	EXPECT_EQ(0, hits[0]) TH_LOG("a disabled probe fired");
	EXPECT_EQ(1, hits[1]) TH_LOG("a probe enabled while kprobes were disabled did not fire");
}

/*
 * While kprobes/enabled is 0, a kprobe that joins a disabled one on its
 * address is registered unarmed, and is armed when the knob is set again.
 * Then, with the knob at 0 again, it is disabled, the other is enabled
 * and both are unregistered: setting the knob arms neither (a kprobe
 * left in the hash would be armed and fire).
 */
TEST_F(kprobes, global_knob_covers_changing_aggregate)
{
	int hits[2];

	run_case(_metadata, STEP(hold_kprobe_disabled));
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	run_case(_metadata, STEP(hold_kprobe));
	check_knob_arms_later(_metadata, 0, "joining a disabled one");

	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	run_case(_metadata, STEP(disable_held));
	run_case(_metadata, STEP(enable_held_disabled));
	run_case(_metadata, STEP(release));
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "1"));
	run_case(_metadata, STEP(call_target));
	read_hits(_metadata, hits);
	EXPECT_EQ(1, hits[0]) TH_LOG("a probe disabled and unregistered while disarmed fired");
	EXPECT_EQ(0, hits[1]) TH_LOG("a probe unregistered while kprobes were disabled fired");
}

/*
 * What kprobes/enabled takes is a kstrtobool(): anything else fails with
 * -EINVAL, and the knob and the probes stay as they were, armed or not.
 * The held probe fires once in all: at the call while armed.
 */
static void check_knob_refuses(struct __test_metadata *_metadata, char state)
{
	static const char * const bad[] = { "2", "x", "o", "-1", " 1", "\n" };
	char knob[8];
	int i, ret, hits[2];

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = write_file(KPROBES_ENABLED, bad[i]);
		EXPECT_EQ(-EINVAL, ret)
			TH_LOG("\"%s\" to %c: %s", bad[i], state, strerror(-ret));
	}
	ASSERT_LT(0, read_file(KPROBES_ENABLED, knob, sizeof(knob)));
	EXPECT_EQ(state, knob[0]) TH_LOG("bad input changed the knob");
	run_case(_metadata, STEP(call_target));
	read_hits(_metadata, hits);
	EXPECT_EQ(1, hits[0]) TH_LOG("after bad input to %c: %d hits", state, hits[0]);
}

TEST_F(kprobes, global_knob_rejects_bad_input)
{
	run_case(_metadata, STEP(hold_kprobe));
	check_knob_refuses(_metadata, '1');
	ASSERT_EQ(0, write_file(KPROBES_ENABLED, "0"));
	check_knob_refuses(_metadata, '0');
}

/* The module's NOKPROBE_SYMBOL() and noinstr functions are listed and refused. */
TEST_F(kprobes, blacklist_module_function)
{
	EXPECT_EQ(1, blacklist_lines("\tkst_blacklisted [" TEST_MODULE "]"))
		TH_LOG("kst_blacklisted is not once in " KPROBES_BLACKLIST);
	EXPECT_EQ(1, blacklist_lines("\tkst_noinstr [" TEST_MODULE "]"))
		TH_LOG("kst_noinstr is not once in " KPROBES_BLACKLIST);
	EXPECT_EQ(0, blacklist_lines("\tkst_neighbour ["))
		TH_LOG("kst_neighbour is in " KPROBES_BLACKLIST);

	run_case(_metadata, STEP(blacklisted_module_function));
}

#define BLACKLIST_CANDIDATES	64

/*
 * How many text symbols of /proc/kallsyms have each of the @n @names, in
 * one read: a read of it takes seconds in an emulated guest.
 */
static int kallsyms_counts(char names[][256], int *counts, int n)
{
	char line[512], sym[256], type;
	FILE *syms = fopen("/proc/kallsyms", "r");
	int i;

	if (!syms)
		return -errno;
	memset(counts, 0, n * sizeof(*counts));
	while (fgets(line, sizeof(line), syms)) {
		if (sscanf(line, "%*s %c %255s", &type, sym) != 2 || tolower(type) != 't')
			continue;
		for (i = 0; i < n; i++)
			if (!strcmp(sym, names[i]))
				counts[i]++;
	}
	fclose(syms);
	return 0;
}

/*
 * Several core-kernel entries of the blacklist, picked at run time among
 * those whose name is a single function in /proc/kallsyms: every 7th, and
 * the last, as the architecture's own areas come last (arm64's are above
 * .kprobes.text, whose end arch_within_kprobe_blacklist() tests).
 */
TEST_F(kprobes, blacklist_core_functions)
{
	char line[512], command[300], name[256], last[256] = "";
	char names[BLACKLIST_CANDIDATES][256];
	int counts[BLACKLIST_CANDIDATES];
	int i, ret, n = 0, tried = 0, entries = 0;
	FILE *list;

	list = fopen(KPROBES_BLACKLIST, "r");
	ASSERT_TRUE(!!list) TH_LOG("%s: %s", KPROBES_BLACKLIST, strerror(errno));
	while (fgets(line, sizeof(line), list)) {
		/* "0x<start>-0x<end>\t<symbol>"; module entries end in "]" */
		if (sscanf(line, "%*s %255s", name) != 1 || strchr(line, '[') ||
		    strchr(name, '.'))
			continue;
		strcpy(last, name);
		if (n < BLACKLIST_CANDIDATES - 1 && !(entries++ % 7))
			strcpy(names[n++], name);
	}
	fclose(list);
	if (*last && (!n || strcmp(names[n - 1], last)))
		strcpy(names[n++], last);
	ret = kallsyms_counts(names, counts, n);
	ASSERT_EQ(0, ret) TH_LOG("/proc/kallsyms: %s", strerror(-ret));
	if (n && counts[n - 1] != 1)
		TH_LOG("the last entry, %s, is not one function in kallsyms", names[n - 1]);
	for (i = n - 1; i >= 0 && tried < 5; i--) {
		if (counts[i] != 1)
			continue;
		/* The bound is for GCC, which cannot tell names[i] ends inside. */
		snprintf(command, sizeof(command), "%s %.*s", STEP(blacklisted_symbol),
			 (int)sizeof(names[i]) - 1, names[i]);
		TH_LOG("refused: %s", names[i]);
		run_case(_metadata, command);
		tried++;
	}
	EXPECT_LE(3, tried) TH_LOG("only %d usable entries in " KPROBES_BLACKLIST, tried);
}

#define KPROBES_TEXT_CANDIDATES	8

/*
 * A symbol a linker script may provide at a section's start or end,
 * as scripts/kallsyms tells them: "__" first, "_start" or "_end" last.
 */
static bool section_marker(const char *sym)
{
	size_t len = strlen(sym);

	return !strncmp(sym, "__", 2) &&
	       ((len > 6 && !strcmp(sym + len - 6, "_start")) ||
		(len > 4 && !strcmp(sym + len - 4, "_end")));
}

/*
 * The first functions of .kprobes.text (marked __kprobes), without a
 * suffix (foo.cold), and their addresses as /proc/kallsyms prints them:
 * "%px", as kprobes/blacklist does. kallsyms sorts by address, but lists
 * a function before the section markers at its address: the section is
 * found from the markers' addresses, not from where they stand. Returns
 * how many, or -errno; sets *why when the section cannot be found.
 */
static int kprobes_text_functions(char names[][256], char addrs[][32], int n,
				  const char **why)
{
	unsigned long long addr, start = 0, end = 0;
	char line[512], sym[256], type;
	FILE *syms = fopen("/proc/kallsyms", "r");
	int found = 0, seen = 0;

	*why = NULL;
	if (!syms)
		return -errno;
	while (seen != 3 && fgets(line, sizeof(line), syms)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) != 3)
			continue;
		if (!strcmp(sym, "__kprobes_text_start")) {
			start = addr;
			seen |= 1;
		} else if (!strcmp(sym, "__kprobes_text_end")) {
			end = addr;
			seen |= 2;
		}
	}
	if (seen != 3)
		*why = "no __kprobes_text_start and _end in /proc/kallsyms";
	else if (!end)
		*why = "kptr_restrict hides the addresses in /proc/kallsyms";
	else if (start == end)
		*why = ".kprobes.text is empty";
	rewind(syms);
	while (!*why && found < n && fgets(line, sizeof(line), syms)) {
		if (sscanf(line, "%31s %c %255s", addrs[found], &type, names[found]) != 3)
			continue;
		addr = strtoull(addrs[found], NULL, 16);
		if (addr >= end)	/* sorted: the section is behind */
			break;
		if (addr >= start && tolower(type) == 't' &&
		    !strchr(names[found], '.') && !section_marker(names[found]))
			found++;
	}
	fclose(syms);
	return found;
}

/*
 * Each function of .kprobes.text has an entry in kprobes/blacklist (a
 * NOKPROBE_SYMBOL() may give it a second), and is refused.
 */
TEST_F(kprobes, blacklist_kprobes_text)
{
	char names[KPROBES_TEXT_CANDIDATES][256], addrs[KPROBES_TEXT_CANDIDATES][32];
	char needle[40], command[300];
	int counts[KPROBES_TEXT_CANDIDATES];
	int i, n, ret, tried = 0;
	const char *why;

	n = kprobes_text_functions(names, addrs, KPROBES_TEXT_CANDIDATES, &why);
	ASSERT_LE(0, n) TH_LOG("/proc/kallsyms: %s", strerror(-n));
	if (why)
		SKIP(return, "%s", why);
	if (!n)
		SKIP(return, "no function without a suffix in .kprobes.text");
	ret = kallsyms_counts(names, counts, n);
	ASSERT_EQ(0, ret) TH_LOG("/proc/kallsyms: %s", strerror(-ret));
	for (i = 0; i < n; i++) {
		/* One of several functions of that name may be elsewhere. */
		if (counts[i] != 1)
			continue;
		/* The bounds are for GCC, as in blacklist_core_functions. */
		snprintf(needle, sizeof(needle), "0x%.*s-", (int)sizeof(addrs[i]) - 1, addrs[i]);
		ret = blacklist_lines(needle);
		ASSERT_LE(0, ret) TH_LOG(KPROBES_BLACKLIST ": %s", strerror(-ret));
		EXPECT_LE(1, ret) TH_LOG("%s (%s) has no entry in " KPROBES_BLACKLIST,
					 names[i], addrs[i]);
		EXPECT_GE(2, ret) TH_LOG("%s (%s) has %d entries in " KPROBES_BLACKLIST,
					 names[i], addrs[i], ret);
		snprintf(command, sizeof(command), "%s %.*s", STEP(blacklisted_symbol),
			 (int)sizeof(names[i]) - 1, names[i]);
		TH_LOG("refused: %s", names[i]);
		run_case(_metadata, command);
		tried++;
	}
	if (!tried)
		SKIP(return, "no function of .kprobes.text has a name of its own");
}

/*
 * A part the compiler splits off a blacklisted function (foo.cold,
 * foo.part.0) is a symbol of its own, outside foo's entry of the
 * blacklist, and is refused by its name before the '.'. The test
 * module's kst_blacklisted.part.0 is named so by hand.
 */
TEST_F(kprobes, blacklist_suffixed_part)
{
	char name[1][256] = { "kst_blacklisted.part.0" };
	int count, ret;

	ASSERT_EQ(1, blacklist_lines("\tkst_blacklisted [" TEST_MODULE "]"))
		TH_LOG("kst_blacklisted is not once in " KPROBES_BLACKLIST);
	ret = kallsyms_counts(name, &count, 1);
	ASSERT_EQ(0, ret) TH_LOG("/proc/kallsyms: %s", strerror(-ret));
	ASSERT_EQ(1, count) TH_LOG("%s is not once in /proc/kallsyms", name[0]);

	run_case(_metadata, STEP(blacklisted_suffixed_part));
}

/* The pages of instruction slots that kallsyms lists. */
static int slot_pages(void)
{
	char name[1][256] = { "kprobe_insn_page" };
	int pages, ret;

	ret = kallsyms_counts(name, &pages, 1);
	return ret ? ret : pages;
}

/*
 * With P pages of instruction slots listed, probes on 3 pages' worth of
 * slots more than P pages hold make the slot cache take 3 pages more at
 * least; once they are gone, it gives back every page but those of
 * other probes (P at most) and the one it always keeps. Nothing else may
 * register kprobes meanwhile. Holding the probes alone took 20 s on an
 * arm kernel with KCOV in QEMU: more time than a test's default 30 s.
 */
TEST_F_TIMEOUT(kprobes, insn_slot_pages, 120)
{
	int before, held, after;
	char command[64];

	before = slot_pages();
	ASSERT_LE(0, before) TH_LOG("/proc/kallsyms: %s", strerror(-before));
	snprintf(command, sizeof(command), "%s %d", STEP(hold_slot_probes), before);
	if (!run_case(_metadata, command))
		return;
	held = slot_pages();
	run_case(_metadata, STEP(release));
	after = slot_pages();
	TH_LOG("kprobe_insn_page: %d before the probes, %d with them, %d after them",
	       before, held, after);
	EXPECT_LE(before + 3, held);
	EXPECT_GE(before > 1 ? before : 1, after);
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
		"hold_slot_probes", "hold_slot_probes x", "hold_slot_probes -1",
		"hold_slot_probes 4097",
	};
	char before[512], after[512], hits_before[64], hits_after[64];
	char overlong[4096], line[512];
	char long_symbol[400];
	int i, ret;

	run_case(_metadata, STEP(call_target));
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

#define FAILSLAB	DEBUGFS "/failslab"

/*
 * Registering, and opening kprobes/ files, while allocations fail.
 * failslab fails only allocations that may not sleep unless its
 * ignore-gfp-wait is N, only those of caches marked for it if its
 * cache-filter is Y, and dumps a stack for each failure it makes unless
 * its verbose is 0: all three are set for each test, then restored.
 */
static const char * const failslab_knobs[] = {
	FAILSLAB "/ignore-gfp-wait", FAILSLAB "/cache-filter", FAILSLAB "/verbose",
};

static const char * const failslab_values[] = { "N", "N", "0" };
#define FAILSLAB_KNOBS	3

FIXTURE(failslab) {
	char knob[8];
	char saved[FAILSLAB_KNOBS][16];
	bool set;
};

FIXTURE_SETUP(failslab)
{
	int i;

	kst_name_test(_metadata->fixture->name, NULL, _metadata->name);
	if (access(FAILSLAB, F_OK))
		SKIP(return, "no %s: CONFIG_FAILSLAB or CONFIG_FAULT_INJECTION_DEBUG_FS is not set",
		     FAILSLAB);
	for (i = 0; i < FAILSLAB_KNOBS; i++)
		ASSERT_LT(0, read_file(failslab_knobs[i], self->saved[i], sizeof(self->saved[i])))
			TH_LOG("reading failslab's knob %d", i);
	setup_kprobes(_metadata, self->knob, sizeof(self->knob));
	/* Checked by the tests: the teardown restores them only after a setup that returned. */
	self->set = true;
	for (i = 0; i < FAILSLAB_KNOBS; i++)
		self->set &= !write_file(failslab_knobs[i], failslab_values[i]);
}

FIXTURE_TEARDOWN(failslab)
{
	int i;

	for (i = 0; i < FAILSLAB_KNOBS; i++)
		EXPECT_EQ(0, write_file(failslab_knobs[i], self->saved[i]))
			TH_LOG("restoring failslab's knob %d", i);
	teardown_kprobes(_metadata, self->knob);
}

/* Each allocation of a registration failing in turn gives -ENOMEM, and no probe. */
TEST_F_TIMEOUT(failslab, registration_fails_cleanly, 120)
{
	ASSERT_TRUE(self->set) TH_LOG("setting failslab's knobs failed");
	run_case(_metadata, STEP(register_without_memory));
}

/*
 * Opens @path with the @nth allocation of this thread failing: @nth_fd is
 * its /proc/thread-self/fail-nth, opened before, since an open allocates.
 * *@failed: whether the open came to that allocation.
 */
static int open_failing(int nth_fd, const char *path, int nth, bool *failed)
{
	char count[16];
	int fd, err, len;

	*failed = false;
	len = snprintf(count, sizeof(count), "%d", nth);
	if (pwrite(nth_fd, count, len, 0) != len)
		return -errno;
	fd = open(path, O_RDONLY);
	err = errno;
	/* What is left of the count: 0 once the allocation failed. */
	len = pread(nth_fd, count, sizeof(count) - 1, 0);
	*failed = len > 0 && count[0] == '0';
	if (pwrite(nth_fd, "0", 1, 0) != 1)
		return -errno;
	if (fd < 0)
		return -err;
	close(fd);
	return 0;
}

/* Opening kprobes/list or blacklist with each allocation failing: -ENOMEM, or it opens. */
TEST_F(failslab, open_fails_cleanly)
{
	static const char * const paths[] = { KPROBES_LIST, KPROBES_BLACKLIST };
	int i, nth, ret, nomem, nth_fd;
	bool failed, usercopy;

	ASSERT_TRUE(self->set) TH_LOG("setting failslab's knobs failed");
	/* fail-nth counts every fault-injection point: getname()'s copy too. */
	usercopy = !access(DEBUGFS "/fail_usercopy", F_OK);
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	ASSERT_LE(0, nth_fd) TH_LOG("/proc/thread-self/fail-nth: %s", strerror(errno));
	for (i = 0; i < 2; i++) {
		nomem = 0;
		for (nth = 1; nth <= 256; nth++) {
			ret = open_failing(nth_fd, paths[i], nth, &failed);
			ASSERT_TRUE(!ret || ret == -ENOMEM || (usercopy && ret == -EFAULT))
				TH_LOG("%s, allocation %d failing: %s", paths[i], nth,
				       strerror(-ret));
			nomem += !!ret;
			if (!failed)
				break;
		}
		EXPECT_FALSE(failed) TH_LOG("%s: more than 256 allocations", paths[i]);
		EXPECT_LT(0, nomem) TH_LOG("%s: no allocation failed", paths[i]);
	}
	close(nth_fd);
}

int main(int argc, char **argv)
{
	skip_unless_ready(TEST_MODULE);
	return test_harness_run(argc, argv);
}
