#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# All the tests: the scripts pass shellcheck, patches/ is what the sources
# make, every patch passes checkpatch --strict, the series applies with
# git am to the pristine tree, its documentation builds without warnings,
# the kprobes selftests and samples pass in QEMU on every architecture in
# scripts/arch/ and on x86_64 and arm64 debug kernels (with a soak), the
# new kernel code is W=1 and sparse clean there, every patch of the series
# builds on its own for every architecture, and the runner reports broken
# guests and bad input clearly.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2046 # a list of architectures
EXTRA_PACKAGES="shellcheck sparse python3-sphinx" "$TOP/scripts/install-deps.sh" $(known_arches)

say "== shellcheck"
shellcheck -x "$TOP"/scripts/*.sh "$TOP"/scripts/arch/*.conf "$TOP"/scripts/guest/init "$TOP/.ci/run"
say "== the series is up to date"
"$TOP/scripts/check-series.sh"
say "== checkpatch --strict"
"$TOP/scripts/check-patches.sh"
say "== the documentation builds without warnings"
"$TOP/scripts/check-docs.sh"
say "== every architecture in QEMU"
status=0
out=${OUT:-$TOP/out}
"$TOP/scripts/run.sh" --arch all --out "$out" || status=1
say "== debug kernels, soak: suite x5, module load/unload x100, kmemleak, slab"
"$TOP/scripts/run.sh" --arch x86_64,arm64 --debug --soak --out "$out/debug" || status=1
say "== W=1 and sparse on the new kernel code"
# shellcheck disable=SC2046 # a list of architectures
"$TOP/scripts/check-build.sh" $(known_arches) || status=1
say "== every patch builds on its own (bisect), every architecture"
"$TOP/scripts/check-bisect.sh" || status=1
say "== the runner fails loudly and leaves no QEMU behind"
"$TOP/scripts/check-runner.sh" || status=1
# The results of every guest, last, for whoever reads the end of the log.
"$TOP/scripts/results.py" summary "$out"/*/summary.json "$out"/debug/*/summary.json || true
exit $status
