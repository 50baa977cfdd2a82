// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the kprobes selftest drivers. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "helpers.h"

/* Returns 0 or -errno; a module left loaded by an earlier run is replaced. */
int load_module(const char *path, const char *params)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, params, 0) ? -errno : 0;
	if (ret == -EEXIST) {
		char name[256];
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(base, "."), base);
		if (!unload_module(name))
			ret = syscall(__NR_finit_module, fd, params, 0) ? -errno : 0;
	}
	close(fd);
	return ret;
}

int unload_module(const char *name)
{
	int tries;

	/* A module whose probe handler is still running needs a moment. */
	for (tries = 0; tries < 100; tries++) {
		if (!syscall(__NR_delete_module, name, O_NONBLOCK))
			return 0;
		if (errno != EAGAIN && errno != EBUSY)
			return -errno;
		usleep(10000);
	}
	return -EBUSY;
}

int write_file(const char *path, const char *text)
{
	ssize_t len = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

int read_file(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	return len;
}

/* Finds the first line of kprobes/list that contains @needle. */
bool find_in_kprobes_list(const char *needle, char *line, size_t size)
{
	FILE *list = fopen(KPROBES_LIST, "r");
	bool found = false;

	if (!list)
		return false;
	while (!found && fgets(line, size, list))
		found = strstr(line, needle);
	fclose(list);
	return found;
}

/* Lines of kprobes/blacklist that contain @what (all if NULL), or -errno. */
int blacklist_lines(const char *what)
{
	FILE *list = fopen(KPROBES_BLACKLIST, "r");
	char line[512];
	int count = 0;

	if (!list)
		return -errno;
	while (fgets(line, sizeof(line), list))
		count += !what || strstr(line, what);
	fclose(list);
	return count;
}

/* Test module @name is in test_modules/ next to this program. */
int test_module_path(const char *name, char *path, size_t size)
{
	char exe[PATH_MAX];
	ssize_t len;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0)
		return -errno;
	exe[len] = '\0';
	snprintf(path, size, "%s/test_modules/%s.ko", dirname(exe), name);
	return 0;
}

/* Where modules_install puts samples/kprobes/@name.ko. */
void sample_path(const char *name, char *path, size_t size)
{
	struct utsname uts;

	uname(&uts);
	snprintf(path, size, "/lib/modules/%s/kernel/samples/kprobes/%s.ko",
		 uts.release, name);
}
