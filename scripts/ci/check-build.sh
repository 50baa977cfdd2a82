#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds the series' new kernel code (the sample and the selftest modules)
# with W=1 and sparse (C=1) against each architecture's build directory
# from scripts/run.sh (KERNEL: default the upstream one); fails on any
# warning or error (sparse reports some as errors and goes on: kbuild
# does not fail), and when sparse cannot run. It also compiles the selftest
# programs anew with the architecture's compiler, and fails on a warning
# there too: 32-bit compilers warn where 64-bit ones do not.
#
# Usage: scripts/ci/check-build.sh ARCH[-VARIANT]...
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -gt 0 ] || die "usage: $0 ARCH[-VARIANT]..."
for label in "$@"; do
	[[ $label != -* ]] || die "unknown option '$label' (usage: $0 ARCH[-VARIANT]...)"
	(load_label "$label") || exit 2
done
src=$("$TOP/scripts/apply-series.sh")
sparse=$("$TOP/scripts/ci/sparse.sh" "$src")
passed=$BUILD_ROOT/check-build-passed
status=0
for label in "$@"; do
	arch=${label%%-*}
	load_arch "$arch"
	obj=$BUILD_ROOT/$label
	[ -f "$obj/Module.symvers" ] || die "$obj is not built: run scripts/run.sh --arch $label first"
	# The verdict depends on the tree (the code and the headers), the
	# label's config, the compiler, sparse and this script.
	key="$label $(tree_key "$src") $( (cat "$obj/.config" "$0" "$sparse"
		"${CROSS_COMPILE}gcc" --version) | digest)"
	if passed_before "$passed" "$key"; then
		say "   $label: W=1 and sparse clean before, with the same tree, config and tools"
		continue
	fi
	label_status=0
	# Anew, in a directory of its own: the pipeline's build is
	# incremental, and its log shows only what it compiled last.
	programs=$CACHE_DIR/check-build/$label/programs
	rm -rf "$programs"
	mkdir -p "$programs"
	if ! make -C "$src/tools/testing/selftests/kprobes" ARCH="$KERNEL_ARCH" \
		CROSS_COMPILE="$CROSS_COMPILE" OUTPUT="$programs" TEST_GEN_MODS_DIR= \
		LDFLAGS=-static >"$programs/build.log" 2>&1 ||
	   grep -q "warning:" "$programs/build.log"; then
		grep -m 4 -A2 -E "warning:|error:" "$programs/build.log" || tail -n 20 "$programs/build.log"
		say "   $label selftest programs: NOT clean (log: $programs/build.log)"
		label_status=1
	else
		say "   $label selftest programs: no warnings"
	fi
	for dir in samples/kprobes tools/testing/selftests/kprobes/test_modules; do
		# A copy, so that the checked objects are not the pipeline's.
		work=$CACHE_DIR/check-build/$label/$dir
		rm -rf "$work"
		mkdir -p "$work"
		find "$src/$dir" -maxdepth 1 \( -name '*.[chS]' -o -name Makefile \) \
			-exec cp -t "$work" {} +
		log=$work/build.log
		# kbuild only warns when it cannot run the checker: that is a failure.
		if ! make -C "$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
			M="$work" W=1 C=1 CHECK="$sparse" modules >"$log" 2>&1 ||
		   grep -q -e "warning:" -e "error:" -e "not available or not up to date" "$log"; then
			grep -E "warning:|error:" "$log" || tail -n 20 "$log"
			say "   $label $dir: NOT clean (log: $log)"
			label_status=1
		else
			say "   $label $dir: W=1 and sparse clean"
		fi
	done
	if [ "$label_status" = 0 ]; then
		record_pass "$passed" "$key"
	else
		status=1
	fi
done
exit $status
