#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# All the tests: the scripts pass shellcheck, patches/ is what the sources
# make, every patch passes checkpatch --strict, the series applies with
# git am to the pristine tree, and the kprobes selftests pass in QEMU on
# every architecture in scripts/arch/.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2046 # a list of architectures
EXTRA_PACKAGES=shellcheck "$TOP/scripts/install-deps.sh" $(known_arches)

say "== shellcheck"
shellcheck -x "$TOP"/scripts/*.sh "$TOP"/scripts/arch/*.conf "$TOP"/scripts/guest/init "$TOP/.ci/run"
say "== the series is up to date"
"$TOP/scripts/check-series.sh"
say "== checkpatch --strict"
"$TOP/scripts/check-patches.sh"
say "== every architecture in QEMU"
"$TOP/scripts/run.sh" --arch all
