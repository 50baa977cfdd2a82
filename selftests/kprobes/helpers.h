/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the kprobes selftest drivers. */
#ifndef KPROBES_SELFTEST_HELPERS_H
#define KPROBES_SELFTEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>

#define DEBUGFS			"/sys/kernel/debug"
#define KPROBES_LIST		DEBUGFS "/kprobes/list"
#define KPROBES_BLACKLIST	DEBUGFS "/kprobes/blacklist"

int load_module(const char *path, const char *params);
int unload_module(const char *name);
int write_file(const char *path, const char *text);
int read_file(const char *path, char *buf, size_t size);
bool find_in_kprobes_list(const char *needle, char *line, size_t size);
int blacklist_lines(const char *what);
int test_module_path(const char *name, char *path, size_t size);
void sample_path(const char *name, char *path, size_t size);

#endif
