// SPDX-License-Identifier: GPL-2.0
/*
 * test_kprobes_fatal - the cases of test_kprobes that kill a kernel
 * without their fix (KST_CASE_FATAL in test_modules/kst_cases.h)
 *
 * The last program of the target: on a stable kernel that lacks a fix,
 * every other test has reported when the kernel dies here, and the
 * console's last lines name the case and the fix (kst_fixes.h).
 */
#define KST_FATAL
#include "test_kprobes.c"
