/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_command.h - the commands that user space writes to the test
 * modules' debugfs files: a word, and what follows it
 */
#ifndef _KST_COMMAND_H
#define _KST_COMMAND_H

#include <linux/err.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/*
 * Copies the @count bytes written at @ubuf into @buf of @size, without
 * the white space around them (echo's newline), and returns their first
 * word; *@arg is what follows it, without leading white space, or NULL.
 * A write that does not fit is -EINVAL: it is refused, not cut short.
 */
static inline char *kst_command(char *buf, size_t size, const char __user *ubuf,
				size_t count, char **arg)
{
	char *word;

	if (count >= size)
		return ERR_PTR(-EINVAL);
	if (copy_from_user(buf, ubuf, count))
		return ERR_PTR(-EFAULT);
	buf[count] = '\0';
	*arg = strim(buf);
	word = strsep(arg, " ");
	if (*arg)
		*arg = skip_spaces(*arg);
	return word;
}

#endif /* _KST_COMMAND_H */
