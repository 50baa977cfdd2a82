// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes_bench - what a probe hit costs, and how (batch) registration scales
 *
 * Usage: kprobes_bench [-c CALLS] [-b N[,N...]|-b 0]
 *   -c  calls timed per configuration (a multiple of 1000; default 100000)
 *   -b  batch sizes to time register/unregister for (default
 *       1,8,64,512,4096; 0 skips them)
 *
 * Loads test_modules/kprobes_bench.ko (next to this program) and times
 * calls of one function with each kind of probe on it, then registration
 * of N kprobes and N kretprobes with the batch APIs against N single
 * calls. Prints KTAP (one line per measurement), "# bench,..." lines for
 * scripts, and two tables. Not part of the default kselftest run.
 *
 * Kprobe optimization (/proc/sys/debug/kprobes-optimization) is off while
 * it measures, so that the figures are of the breakpoint path, except for
 * kprobe_optimized; the knob is restored at the end.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"
#include "helpers.h"

#define BENCH_MODULE	"kprobes_bench"
#define BENCH_RUN	DEBUGFS "/" BENCH_MODULE "/run"
#define BENCH_RESULT	DEBUGFS "/" BENCH_MODULE "/result"
#define OPTIMIZATION	"/proc/sys/debug/kprobes-optimization"
#define MAX_SIZES	16

/* What each configuration is, for the table. */
static const struct {
	const char *name;
	const char *what;
} configs[] = {
	{ "none", "unprobed call (baseline)" },
	{ "kprobe_entry", "kprobe at function entry" },
	{ "kprobe_inner", "kprobe inside the function (breakpoint)" },
	{ "kprobe_optimized", "optimized kprobe inside the function" },
	{ "kretprobe", "kretprobe" },
	{ "kretprobe_entry", "kretprobe + entry_handler + data" },
	{ "kretprobe_timed", "... + local_clock() at entry and return" },
	{ "kprobe_kretprobe", "kprobe + kretprobe, one function" },
	{ "sample", "kretprobe_stats sample" },
};

#define NR_CONFIGS	ARRAY_SIZE(configs)

static double median_ns[NR_CONFIGS];
static char saved_optimization[8];

/* Writes a command, formatted as by printf(), to the module's run file. */
#define command(...) ({						\
	char __cmd[128];					\
	snprintf(__cmd, sizeof(__cmd), __VA_ARGS__);		\
	write_file(BENCH_RUN, __cmd);				\
})

static void set_optimization(const char *value)
{
	if (saved_optimization[0])
		write_file(OPTIMIZATION, value);
}

static int load_sample(void)
{
	char path[PATH_MAX];

	sample_path("kretprobe_stats", path, sizeof(path));
	return load_module(path, "funcs=kpb_target");
}

/* The calls kretprobe_stats counted on kpb_target, or -1. */
static long sample_calls(void)
{
	char stats[4096], *line;
	long calls;

	if (read_file(DEBUGFS "/kretprobe_stats/stats", stats, sizeof(stats)) <= 0)
		return -1;
	line = strstr(stats, " calls ");
	if (!line || sscanf(line, " calls %ld", &calls) != 1)
		return -1;
	return calls;
}

/* Times configuration @i; false when it does not apply here. */
static bool time_config(int i, long calls)
{
	const char *name = configs[i].name, *setup = name;
	char result[256], median[32];
	int ret;

	if (!strcmp(name, "kprobe_optimized")) {
		if (!saved_optimization[0]) {
			ksft_test_result_skip("hit.%s: no %s\n", name, OPTIMIZATION);
			return false;
		}
		set_optimization("1");
	}
	if (!strcmp(name, "sample")) {
		ret = load_sample();
		if (ret) {
			ksft_test_result_skip("hit.%s: loading kretprobe_stats: %s\n", name,
					      strerror(-ret));
			return false;
		}
		setup = "none";
	}
	ret = command("setup %s", setup);
	if (ret == -EOPNOTSUPP) {
		set_optimization("0");
		ksft_test_result_skip("hit.%s: not optimized in time (no optprobes here)\n",
				      name);
		return false;
	}
	if (!ret)
		ret = command("measure %ld", calls);
	if (!ret)
		ret = read_file(BENCH_RESULT, result, sizeof(result)) < 0 ? -EIO : 0;
	command("teardown");
	set_optimization("0");
	if (!strcmp(name, "sample")) {
		/* Its probe must have seen every call. */
		if (!ret && sample_calls() < calls) {
			snprintf(result, sizeof(result), "the sample counted %ld of %ld calls",
				 sample_calls(), calls);
			ret = -EBADE;
		}
		unload_module("kretprobe_stats");
	}

	if (ret || sscanf(result, "measure %*s calls %*d median_ns %31s", median) != 1) {
		ksft_test_result_fail("hit.%s: %s\n", name,
				      ret && ret != -EBADE ? strerror(-ret) : result);
		return false;
	}
	median_ns[i] = strtod(median, NULL);
	ksft_print_msg("bench,hit,%s,%s,%ld\n", name, median, calls);
	ksft_test_result_pass("hit.%s\n", name);
	return true;
}

static void time_batch(const char *kind, long n)
{
	unsigned long long t[4];
	char result[256];
	int ret;

	ret = command("batch %s %ld", kind, n);
	if (!ret && read_file(BENCH_RESULT, result, sizeof(result)) < 0)
		ret = -EIO;
	/* "... register_batch_ns X unregister_batch_ns X register_single_ns X ..." */
	if (ret || sscanf(result, "batch %*s n %*d %*s %llu %*s %llu %*s %llu %*s %llu",
			  &t[0], &t[1], &t[2], &t[3]) != 4) {
		ksft_test_result_fail("batch.%s.%ld: %s\n", kind, n, ret ? strerror(-ret) : result);
		return;
	}
	ksft_print_msg("bench,batch,%s,%ld,%llu,%llu,%llu,%llu\n", kind, n,
		       t[0], t[1], t[2], t[3]);
	ksft_test_result_pass("batch.%s.%ld\n", kind, n);
}

static int parse_sizes(char *arg, long *sizes)
{
	char *tok, *end;
	int n = 0;

	for (tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		errno = 0;
		sizes[n] = strtol(tok, &end, 10);
		if (errno || *end || end == tok || sizes[n] < 0 || sizes[n] > 4096 ||
		    n == MAX_SIZES)
			ksft_exit_fail_msg("-b: \"%s\" is not a list of sizes from 1 to 4096\n",
					   tok);
		if (sizes[n])
			n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	long sizes[MAX_SIZES] = { 1, 8, 64, 512, 4096 }, calls = 100000;
	char path[PATH_MAX + 64], *end;
	int nr_sizes = 5, i, j, opt, ret, plain = 2;
	double cost, plain_cost;

	while ((opt = getopt(argc, argv, "c:b:")) != -1) {
		switch (opt) {
		case 'c':
			errno = 0;
			calls = strtol(optarg, &end, 10);
			if (errno || *end || calls < 1000 || calls > 100000000 ||
			    calls % 1000)
				ksft_exit_fail_msg("-c %s: needs a multiple of 1000 up to 10^8\n",
						   optarg);
			break;
		case 'b':
			nr_sizes = parse_sizes(optarg, sizes);
			break;
		default:
			ksft_exit_fail_msg("usage: %s [-c CALLS] [-b N[,N...]|-b 0]\n", argv[0]);
		}
	}

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	if (access(KPROBES_LIST, R_OK))
		ksft_exit_skip("%s: %s (needs CONFIG_KPROBES and debugfs mounted)\n",
			       KPROBES_LIST, strerror(errno));
	ret = test_module_path(BENCH_MODULE, path, sizeof(path));
	if (!ret)
		ret = load_module(path, "");
	if (ret)
		ksft_exit_skip("cannot load %s: %s\n", path, strerror(-ret));
	if (read_file(OPTIMIZATION, saved_optimization, sizeof(saved_optimization)) <= 0)
		saved_optimization[0] = '\0';
	set_optimization("0");

	ksft_set_plan(NR_CONFIGS + 2 * nr_sizes);
	for (i = 0; i < NR_CONFIGS; i++)
		if (!time_config(i, calls))
			median_ns[i] = -1;
	for (i = 0; i < 2; i++)
		for (j = 0; j < nr_sizes; j++)
			time_batch(i ? "kretprobes" : "kprobes", sizes[j]);

	set_optimization(saved_optimization);
	unload_module(BENCH_MODULE);

	ksft_print_msg("%-40s %12s %8s\n", "ns per hit, baseline subtracted", "ns", "ratio");
	for (i = 0; i < NR_CONFIGS; i++) {
		if (median_ns[i] < 0)
			continue;
		if (!i) {
			ksft_print_msg("%-40s %12.3f\n", configs[i].what, median_ns[0]);
			continue;
		}
		cost = median_ns[i] - median_ns[0];
		plain_cost = median_ns[plain] - median_ns[0];
		ksft_print_msg("%-40s %12.3f %8.2f\n", configs[i].what, cost,
			       plain_cost > 0 ? cost / plain_cost : 0);
	}
	ksft_print_msg("(ratio: to the kprobe inside the function, breakpoint path)\n");
	ksft_finished();
}
