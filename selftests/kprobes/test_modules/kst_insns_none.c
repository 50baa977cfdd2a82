// SPDX-License-Identifier: GPL-2.0
/* The instruction cases of an architecture that has no kst_insns_<arch>.S. */
#include "kst_insns.h"

const struct kst_insn kst_insns[] = { { } };
const unsigned int kst_nr_insns;
