// SPDX-License-Identifier: GPL-2.0
/*
 * test_kprobes - the cases of the kprobes API that run whole in the kernel
 *
 * Loads test_modules/kprobes_selftest.ko (next to this program) for each
 * case of test_modules/kst_cases.h, runs it through the module's debugfs
 * interface and prints one TAP line, api.<case>.run. What each case
 * checks is described next to its case_*() function in the module. After
 * every case no probe of the test modules may be left in kprobes/list,
 * and the global enable knob is restored.
 */
#include "../kselftest_harness.h"
#include "kst_harness.h"

FIXTURE(api) {
	char knob[8];
};

FIXTURE_VARIANT(api) {
	const char *name;
};

/*
 * One variant per line of kst_cases.h, named as the case.
 *
 * A case that kills a kernel without its fix (KST_CASE_FATAL) is not this
 * program's but test_kprobes_fatal's, which is this file built with
 * KST_FATAL and runs last: on such a kernel every other kprobes test
 * reports first.
 */
#define KST_VARIANT(case_name)						\
	static const char kst_name_##case_name[] = #case_name;		\
	FIXTURE_VARIANT_ADD(api, case_name) {				\
		.name = kst_name_##case_name,				\
	}
/* The other program's case: a declaration, for the list's semicolon. */
#define KST_ELSEWHERE(case_name)					\
	extern const char kst_name_##case_name[]
#ifdef KST_FATAL
#define KST_CASE(case_name)		KST_ELSEWHERE(case_name)
#define KST_CASE_FATAL(case_name)	KST_VARIANT(case_name)
#else
#define KST_CASE(case_name)		KST_VARIANT(case_name)
#define KST_CASE_FATAL(case_name)	KST_ELSEWHERE(case_name)
#endif
#include "test_modules/kst_cases.h"

FIXTURE_SETUP(api)
{
	kst_name_test(_metadata->fixture->name, variant->name, _metadata->name);
	setup_kprobes(_metadata, self->knob, sizeof(self->knob));
}

FIXTURE_TEARDOWN(api)
{
	teardown_kprobes(_metadata, self->knob);
}

TEST_F(api, run)
{
#ifdef KST_FATAL
	char test[128];

	snprintf(test, sizeof(test), "api.%s.run", variant->name);
	ASSERT_LT(0, kst_fixes_of(test))
		TH_LOG("%s kills a kernel without a fix that kst_fixes.h does not name", test);
#endif
	run_case(_metadata, variant->name);
}

int main(int argc, char **argv)
{
	skip_unless_ready(TEST_MODULE);
	kst_name_deaths();
	return test_harness_run(argc, argv);
}
