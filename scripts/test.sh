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

# Runs gate $1 (the command after it), keeps going when it fails, and
# records how long it took: the table at the end says where CI's time goes.
status=0
timings=()
gate() {
	local name=$1 start=$SECONDS verdict=ok

	shift
	say "== $name"
	"$@" || { verdict=FAILED; status=1; }
	timings+=("$(printf '%6d s  %-6s  %s' $((SECONDS - start)) "$verdict" "$name")")
}

out=${OUT:-$TOP/out}
# shellcheck disable=SC2046 # a list of architectures
gate "install the packages" env EXTRA_PACKAGES="shellcheck sparse python3-sphinx" \
	"$TOP/scripts/install-deps.sh" $(known_arches)
gate "shellcheck" shellcheck -x "$TOP"/scripts/*.sh "$TOP"/scripts/arch/*.conf \
	"$TOP"/scripts/guest/init "$TOP/.ci/run"
gate "the series is up to date" "$TOP/scripts/check-series.sh"
gate "checkpatch --strict" "$TOP/scripts/check-patches.sh"
gate "the documentation builds without warnings" "$TOP/scripts/check-docs.sh"
gate "every architecture in QEMU" "$TOP/scripts/run.sh" --arch all --out "$out"
gate "debug kernels, soak: suite x5, module load/unload x100, kmemleak, slab" \
	"$TOP/scripts/run.sh" --arch x86_64,arm64 --debug --soak --out "$out/debug"
# shellcheck disable=SC2046 # a list of architectures
gate "W=1 and sparse on the new kernel code" "$TOP/scripts/check-build.sh" $(known_arches)
gate "every patch builds on its own (bisect), every architecture" "$TOP/scripts/check-bisect.sh"
gate "the runner fails loudly and leaves no QEMU behind" "$TOP/scripts/check-runner.sh"

# The results of every guest and the time of every gate, last, for whoever
# reads the end of the log.
"$TOP/scripts/results.py" summary "$out"/*/summary.json "$out"/debug/*/summary.json || true
say "== time per gate"
printf '%s\n' "${timings[@]}"
say "total: $((SECONDS / 60)) min $((SECONDS % 60)) s"
exit $status
