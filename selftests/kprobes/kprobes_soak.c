// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes_soak - soak test around runs of the kprobes selftests
 *
 *   kprobes_soak begin [CYCLES]   note the unreclaimable slab, forget the
 *                                 leaks kmemleak knows of, then load and
 *                                 unload the test module and the
 *                                 kretprobe_stats sample CYCLES times each
 *                                 (default 100)
 *   (run the suite as many times as wanted)
 *   kprobes_soak end              kmemleak must find no new leak, and the
 *                                 unreclaimable slab must be back within
 *                                 SLAB_SLACK_KB (+ 10%) of what begin saw
 *
 * The slab figures are taken after dropping the caches and shrinking
 * every slab cache. Not run by default.
 * Each step prints KTAP.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"
#include "helpers.h"

#define KMEMLEAK	DEBUGFS "/kmemleak"

#define BASELINE_FILE	"kprobes_soak.baseline"
#define SLAB_SLACK_KB	1024
#define SLAB_SYSFS	"/sys/kernel/slab"

/*
 * Empties each cache's per-CPU slabs and, under KASAN, its quarantine of
 * freed objects (up to 1/32 of memory): what is left is live objects.
 */
static void shrink_slab_caches(void)
{
	char path[PATH_MAX];
	struct dirent *entry;
	DIR *dir;

	dir = opendir(SLAB_SYSFS);
	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		/* Aliases are links to a cache that has its own entry. */
		if (entry->d_name[0] == '.' || entry->d_type == DT_LNK)
			continue;
		snprintf(path, sizeof(path), SLAB_SYSFS "/%s/shrink", entry->d_name);
		write_file(path, "1");
	}
	closedir(dir);
}

/* SUnreclaim from /proc/meminfo once the caches are dropped, or -1. */
static long unreclaimable_slab_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *meminfo;

	/* Dentries and inodes are reclaimable; drop them all the same. */
	write_file("/proc/sys/vm/drop_caches", "3");
	shrink_slab_caches();
	meminfo = fopen("/proc/meminfo", "r");
	if (!meminfo)
		return -1;
	while (fgets(line, sizeof(line), meminfo))
		if (sscanf(line, "SUnreclaim: %ld kB", &kb) == 1)
			break;
	fclose(meminfo);
	return kb;
}

static void baseline_path(char *path, size_t size)
{
	const char *dir = getenv("TMPDIR");

	snprintf(path, size, "%s/%s", dir ? dir : "/tmp", BASELINE_FILE);
}

/* Loads and unloads @path (module @name) @cycles times; @probe must come and go. */
static void cycle_module(const char *path, const char *name, const char *probe,
			 int cycles)
{
	char line[512];
	int i, ret;

	if (access(path, R_OK)) {
		ksft_test_result_skip("soak.load_unload_%s: %s: %s\n", name, path,
				      strerror(errno));
		return;
	}
	for (i = 0; i < cycles; i++) {
		ret = load_module(path, "");
		if (ret) {
			ksft_test_result_fail("soak.load_unload_%s: load %d: %s\n", name,
					      i + 1, strerror(-ret));
			return;
		}
		if (probe && !find_in_kprobes_list(probe, line, sizeof(line))) {
			unload_module(name);
			ksft_test_result_fail("soak.load_unload_%s: load %d: no \"%s\" probe\n",
					      name, i + 1, probe);
			return;
		}
		ret = unload_module(name);
		if (ret) {
			ksft_test_result_fail("soak.load_unload_%s: unload %d: %s\n", name,
					      i + 1, strerror(-ret));
			return;
		}
		if (probe && find_in_kprobes_list(probe, line, sizeof(line))) {
			ksft_test_result_fail("soak.load_unload_%s: unload %d left %s\n",
					      name, i + 1, line);
			return;
		}
	}
	ksft_test_result_pass("soak.load_unload_%s\n", name);
}

/* Leaks kmemleak finds from now on are new ones (no-op without kmemleak). */
static void kmemleak_forget(void)
{
	if (access(KMEMLEAK, W_OK))
		return;
	write_file(KMEMLEAK, "scan");
	write_file(KMEMLEAK, "clear");
}

static void soak_begin(int cycles)
{
	char path[PATH_MAX + 64];
	long slab;
	FILE *baseline;

	ksft_set_plan(2);
	slab = unreclaimable_slab_kb();
	if (slab < 0)
		ksft_exit_fail_msg("no SUnreclaim in /proc/meminfo\n");
	baseline_path(path, sizeof(path));
	baseline = fopen(path, "w");
	if (!baseline || fprintf(baseline, "%ld\n", slab) < 0 || fclose(baseline))
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	ksft_print_msg("unreclaimable slab before: %ld kB\n", slab);
	/* Leaks found from now on are the soak's. */
	kmemleak_forget();

	if (test_module_path("kprobes_selftest", path, sizeof(path)))
		ksft_exit_fail_msg("readlink /proc/self/exe: %s\n", strerror(errno));
	cycle_module(path, "kprobes_selftest", NULL, cycles);
	sample_path("kretprobe_stats", path, sizeof(path));
	/* at the entry of do_sys_openat2, wherever the architecture puts it */
	cycle_module(path, "kretprobe_stats", "  r  do_sys_openat2+0x", cycles);
}

static void check_kmemleak(void)
{
	char report[4096], *line, *save = NULL;
	int ret;

	if (access(KMEMLEAK, W_OK)) {
		ksft_test_result_skip("soak.kmemleak: %s: %s (needs CONFIG_DEBUG_KMEMLEAK)\n",
				      KMEMLEAK, strerror(errno));
		return;
	}
	/* kmemleak reports objects unreferenced for 5 s, over two scans. */
	sleep(6);
	write_file(KMEMLEAK, "scan");
	write_file(KMEMLEAK, "scan");
	ret = read_file(KMEMLEAK, report, sizeof(report));
	if (ret < 0) {
		ksft_test_result_fail("soak.kmemleak: %s: %s\n", KMEMLEAK, strerror(-ret));
		return;
	}
	if (ret > 0) {
		for (line = strtok_r(report, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			ksft_print_msg("kmemleak: %s\n", line);
		ksft_test_result_fail("soak.kmemleak: leaks found\n");
		return;
	}
	ksft_test_result_pass("soak.kmemleak\n");
}

static void check_slab(void)
{
	char path[PATH_MAX];
	long before = -1, after, allowed;
	FILE *baseline;

	baseline_path(path, sizeof(path));
	baseline = fopen(path, "r");
	if (!baseline || fscanf(baseline, "%ld", &before) != 1) {
		ksft_test_result_fail("soak.slab: no baseline in %s: run \"begin\" first\n",
				      path);
		if (baseline)
			fclose(baseline);
		return;
	}
	fclose(baseline);
	after = unreclaimable_slab_kb();
	allowed = before + before / 10 + SLAB_SLACK_KB;
	ksft_print_msg("unreclaimable slab: %ld kB before, %ld after (%+ld), %ld allowed\n",
		       before, after, after - before, allowed);
	ksft_test_result(after >= 0 && after <= allowed, "soak.slab\n");
}

static void soak_end(void)
{
	ksft_set_plan(2);
	check_kmemleak();
	check_slab();
}

int main(int argc, char **argv)
{
	char *end;
	long cycles = 100;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	if (argc >= 2 && !strcmp(argv[1], "begin") && argc <= 3) {
		if (argc == 3) {
			errno = 0;
			cycles = strtol(argv[2], &end, 10);
			if (errno || *end || end == argv[2] || cycles < 1 || cycles > 100000)
				ksft_exit_fail_msg("CYCLES: \"%s\" is not from 1 to 100000\n",
						   argv[2]);
		}
		soak_begin(cycles);
	} else if (argc == 2 && !strcmp(argv[1], "end")) {
		soak_end();
	} else {
		ksft_exit_fail_msg("usage: %s begin [CYCLES] | end\n", argv[0]);
	}
	/* Not a return: kselftest.h before 6.5 does not mark it __noreturn. */
	ksft_finished();
}
