/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel fixes the kprobes selftests are known to catch, by the
 * subject of each patch. CI farms run these selftests on stable kernels,
 * which may lack some of them: a test names the fixes it needs before it
 * starts, so that its failure, or a console that ends in an oops, says
 * which fix to look for.
 *
 * The cases that kill a kernel without their fix (KST_CASE_FATAL in
 * test_modules/kst_cases.h) run last, in test_kprobes_fatal, after every
 * other program has reported.
 *
 * Include after ../kselftest.h (ARRAY_SIZE(), __printf()).
 */
#ifndef KST_FIXES_H
#define KST_FIXES_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct kst_fix {
	const char *test;	/* as in its TAP line */
	const char *subject;	/* the fix's */
	const char *without;	/* what a kernel without it did, and where */
};

static const struct kst_fix kst_fixes[] = {
	{ "api.unregister_unregistered.run",
	  "kprobes: Skip kretprobes that are not registered in unregister_kretprobes()",
	  "an oops, every architecture" },
	{ "optprobe.freed_with_its_module",
	  "kprobes: Free unused optimized kprobes on unloaded modules",
	  "a WARN, x86_64 and arm" },
	{ "optprobe.reused_by_disabled_probe",
	  "kprobes: Do not enable an unused optimized kprobe for a disabled kprobe",
	  "a failure, x86_64" },
	{ "api.probes_same_addr.run",
	  "kprobes: Disarm a kprobe on ftrace from the ftrace_ops it was armed in",
	  "a WARN and an oops, x86_64" },
	{ "api.recursion_nmissed_aggregate.run",
	  "kprobes: Disarm a kprobe on ftrace from the ftrace_ops it was armed in",
	  "a WARN and an oops, ppc64le" },
	{ "kprobes.global_knob_covers_enabled_probes",
	  "kprobes: Fix enable_kprobe() while all kprobes are disarmed",
	  "a failure, every architecture" },
	{ "kprobes.global_knob_covers_enabled_aggregate",
	  "kprobes: Fix enable_kprobe() while all kprobes are disarmed",
	  "a failure, every architecture" },
	{ "api.kprobe_by_symbol.run",
	  "ARM: kprobes: Keep the Thumb emulation's operands out of r0-r7",
	  "an oops, Thumb-2 arm" },
	{ "api.kprobe_by_symbol.run",
	  "ARM: kprobes: Emulate a one-register Thumb PUSH/POP without LDM/STM",
	  "an oops, Thumb-2 arm" },
	{ "kprobes.blacklist_module_function",
	  "kprobes: Start a blacklist entry at its symbol, not at the pointer",
	  "a failure, Thumb-2 arm" },
	{ "kprobes.blacklist_core_functions",
	  "kprobes: Start a blacklist entry at its symbol, not at the pointer",
	  "a failure, Thumb-2 arm" },
	{ "kprobes.probe_on_module_init",
	  "kprobes: Start a blacklist entry at its symbol, not at the pointer",
	  "a failure, ppc64le" },
	{ "sample.kprobe_example",
	  "kprobes: Start a blacklist entry at its symbol, not at the pointer",
	  "a failure, ppc64le" },
	{ "api.err_ipmodify_busy.run",
	  "kprobes: Return the error of arm_kprobe() from register_kprobe()",
	  "a failure, x86_64" },
	{ "failslab.registration_fails_cleanly",
	  "objpool: Do not warn when the vmalloc() of a slot falls back to kmalloc()",
	  "a stack dump of a vmalloc error, every architecture with FAILSLAB" },
	{ "api.kprobe_by_addr.run",
	  "x86/ftrace: Call an ftrace_ops callback at an odd address, do not jump",
	  "an oops, x86_64 built by GCC before 14" },
	{ "api.kprobe_changes_execution_path.run",
	  "kprobes: Disarm a kprobe on ftrace from the ftrace_ops it was armed in",
	  "a WARN and an oops, x86_64" },
	{ "api.kprobe_changes_execution_path.run",
	  "powerpc/kprobes: Keep a function's entry probe within the function",
	  "a failure, ppc64le" },
	{ "sample.kretprobe_stats_reset_under_load",
	  "powerpc/kprobes: Do not restore r13 when leaving an optprobe detour",
	  "an oops, ppc64le with CONFIG_PREEMPT" },
	{ "sample.kretprobe_stats_reset_under_load",
	  "powerpc/ftrace: Do not restore r13 in ftrace_regs_caller",
	  "an oops, ppc64le with CONFIG_PREEMPT" },
	{ "api.extable_site.run",
	  "MIPS: kprobes: Report a fault in a single-stepped instruction at its address",
	  "an oops, mips64el" },
	{ "api.extable_delay_slot.run",
	  "MIPS: kprobes: Report a fault in a single-stepped instruction at its address",
	  "an oops, mips64el" },
	{ "api.err_bad_offset.run",
	  "MIPS: kprobes: Refuse a kprobe at a misaligned address",
	  "a failure, then an oops, mips64el" },
	{ "api.kprobe_insns.run",
	  "MIPS: kprobes: Finish a probe whose delay slot is skipped",
	  "an oops, mips64el" },
	{ "api.kprobe_insns.run",
	  "MIPS: kprobes: Run the delay slot of a branch likely only when taken",
	  "a failure, mips64el" },
	{ "api.kprobe_insns.run",
	  "x86/kprobes: Decrement the count before testing it in the LOOP emulation",
	  "a failure, x86_64 and i386" },
	{ "kprobes.insn_slot_pages",
	  "riscv/kprobe: reclaim insn_slot on kprobe unregistration",
	  "a failure, riscv64" },
};

/*
 * The fixes whose bug kills the kernel in whatever case runs when it
 * strikes, so that no case can be put last for it: each by what the
 * console says as the kernel dies.
 */
struct kst_death {
	const char *console;	/* the first line of the report */
	const char *subject;	/* the fix's */
	const char *without;	/* where, and on which architecture */
};

static const struct kst_death kst_deaths[] = {
	{ "Break instruction in kernel code",
	  "MIPS: kprobes: Handle a kernel break with interrupts disabled",
	  "at an instruction slot's address, mips64el" },
	{ "rethook: Return address not found!",
	  "powerpc/kprobes: Do not restore r13 when leaving an optprobe detour",
	  "a task moved to another CPU in an optprobe, ppc64le with CONFIG_PREEMPT" },
};

/*
 * Writes one record to the kernel log (one write, one record), at
 * KERN_WARNING: the console shows it unless its loglevel is 4 or less.
 */
static inline __printf(2, 3) void kst_kmsg(int kmsg, const char *fmt, ...)
{
	char line[512] = "<4>";
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(line + 3, sizeof(line) - 3, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	len += 3;
	if (len >= (int)sizeof(line))
		len = sizeof(line) - 1;
	if (write(kmsg, line, len) != len)
		fprintf(stderr, "# /dev/kmsg: %s\n", strerror(errno));
}

/* What a dying kernel's console says, and the fix it may lack. */
#define KST_DEATH_FMT	"a kernel that dies with \"%s\" may lack \"%s\""

/*
 * Before the first test: what the console of a kernel that dies means,
 * on the program's output and in the kernel log, which gets to the
 * console when the output of a program that ran just before is lost.
 */
static inline void kst_name_deaths(void)
{
	int kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kst_deaths); i++) {
		fprintf(stderr, "# " KST_DEATH_FMT " (%s)\n", kst_deaths[i].console,
			kst_deaths[i].subject, kst_deaths[i].without);
		if (kmsg >= 0)
			kst_kmsg(kmsg, "kprobes selftests: " KST_DEATH_FMT "\n",
				 kst_deaths[i].console, kst_deaths[i].subject);
	}
	if (kmsg >= 0)
		close(kmsg);
}

/* How many fixes @test (as in its TAP line) is known to need. */
static inline int kst_fixes_of(const char *test)
{
	int n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kst_fixes); i++)
		n += !strcmp(kst_fixes[i].test, test);
	return n;
}

/*
 * Before a test: writes its name to the kernel log, and prints the fixes
 * it is known to need, so that its failure names them, and writes them
 * to the kernel log too. A panic flushes the kernel log to the console
 * (with a loglevel above 4), but what a program prints may not get there
 * when its kernel dies: the console still names the test that killed it.
 * @variant is the fixture variant's name, or NULL.
 */
static inline void kst_name_test(const char *fixture, const char *variant,
				 const char *test)
{
	int kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	char name[256];
	size_t i;

	snprintf(name, sizeof(name), "%s.%s%s%s", fixture, variant ?: "",
		 variant ? "." : "", test);
	if (kmsg >= 0)
		kst_kmsg(kmsg, "kprobes selftests: starting %s\n", name);
	for (i = 0; i < ARRAY_SIZE(kst_fixes); i++) {
		if (strcmp(kst_fixes[i].test, name))
			continue;
		fprintf(stderr, "# %s needs \"%s\" (without it: %s)\n",
			name, kst_fixes[i].subject, kst_fixes[i].without);
		if (kmsg >= 0)
			kst_kmsg(kmsg, "kprobes selftests: %s needs \"%s\"\n",
				 name, kst_fixes[i].subject);
	}
	if (kmsg >= 0)
		close(kmsg);
}

#endif /* KST_FIXES_H */
