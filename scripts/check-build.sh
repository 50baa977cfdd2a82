#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds the series' new kernel code (the sample and the selftest modules)
# with W=1 and sparse (C=1) against each architecture's build directory
# from scripts/run.sh (KERNEL: default the upstream one); fails on any
# warning, and when sparse cannot run.
#
# Usage: scripts/check-build.sh ARCH...
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

src=$("$TOP/scripts/apply-series.sh")
sparse=$("$TOP/scripts/sparse.sh" "$src")
status=0
for arch in "$@"; do
	load_arch "$arch"
	obj=$BUILD_ROOT/$arch
	[ -f "$obj/Module.symvers" ] || die "$obj is not built: run scripts/run.sh --arch $arch first"
	for dir in samples/kprobes tools/testing/selftests/kprobes/test_modules; do
		# A copy, so that the checked objects are not the pipeline's.
		work=$CACHE_DIR/check-build/$arch/$dir
		rm -rf "$work"
		mkdir -p "$work"
		find "$src/$dir" -maxdepth 1 \( -name '*.[chS]' -o -name Makefile \) \
			-exec cp -t "$work" {} +
		log=$work/build.log
		# kbuild only warns when it cannot run the checker: that is a failure.
		if ! make -C "$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
			M="$work" W=1 C=1 CHECK="$sparse" modules >"$log" 2>&1 ||
		   grep -q -e "warning:" -e "not available or not up to date" "$log"; then
			grep -E "warning:|error:" "$log" || tail -n 20 "$log"
			say "   $arch $dir: NOT clean (log: $log)"
			status=1
		else
			say "   $arch $dir: W=1 and sparse clean"
		fi
	done
done
exit $status
