/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture "kprobes" of a program whose cases hold probes with the
 * steps of kprobes_selftest.ko while they check from user space what
 * kprobes do with them: each case starts with the module loaded, and
 * teardown_kprobes() leaves kprobes as the case found them.
 */
#ifndef KST_FIXTURE_H
#define KST_FIXTURE_H

#include "../kselftest_harness.h"
#include "kst_harness.h"

FIXTURE(kprobes) {
	char knob[8];
};

FIXTURE_SETUP(kprobes)
{
	kst_name_test(_metadata->fixture->name, NULL, _metadata->name);
	setup_kprobes(_metadata, self->knob, sizeof(self->knob));
}

FIXTURE_TEARDOWN(kprobes)
{
	teardown_kprobes(_metadata, self->knob);
}

#endif /* KST_FIXTURE_H */
