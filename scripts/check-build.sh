#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds the series' new kernel code with W=1 and sparse (C=1) for each
# architecture: the sample and the selftest modules against the build
# directory of scripts/run.sh, and the changed kernel/kprobes.c in a build
# directory of its own. Fails on any warning, except a kernel-doc one that
# the pristine kprobes.c has too.
#
# Usage: scripts/check-build.sh ARCH...
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

src=$("$TOP/scripts/apply-series.sh")
status=0

# The warnings about file $2 in log $1, without "path:line:", sorted. The
# build of kprobes.o prepares the tree too (arm64's vDSO, with sparse):
# what it finds elsewhere is not the series'.
warning_texts() {
	sed -n "s|^\([^ ]*/\)\{0,1\}$2:[0-9]*:\([0-9]*:\)\{0,1\} warning: |warning: |p" "$1" | sort
}

# kernel/kprobes.o with the config of $obj, in $work: building it there
# leaves the pipeline's vmlinux as it is.
check_kernel_object() {
	local obj=$1 work=$CACHE_DIR/check-build/$arch/kernel
	local make_work=(make -C "$src" O="$work" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE"
		CC="ccache ${CROSS_COMPILE}gcc")
	local log=$work/build.log new

	mkdir -p "$work"
	cmp -s "$obj/.config" "$work/.config" || cp "$obj/.config" "$work/.config"
	rm -f "$work/kernel/kprobes.o"
	git -C "$src" show "$PRISTINE_TAG:kernel/kprobes.c" >"$work/kprobes-pristine.c"
	"$src/scripts/kernel-doc" -none "$work/kprobes-pristine.c" >"$work/pristine.log" 2>&1 || true
	if ! CCACHE_DIR=$CACHE_DIR/ccache "${make_work[@]}" -j"$(nproc)" \
		olddefconfig kernel/kprobes.o W=1 C=1 >"$log" 2>&1; then
		tail -n 20 "$log"
		say "   $arch kernel/kprobes.c: does not build (log: $log)"
		return 1
	fi
	new=$(comm -23 <(warning_texts "$log" kernel/kprobes.c) \
		<(warning_texts "$work/pristine.log" kprobes-pristine.c))
	if [ -n "$new" ]; then
		echo "$new"
		say "   $arch kernel/kprobes.c: NOT clean (log: $log)"
		return 1
	fi
	say "   $arch kernel/kprobes.c: W=1 and sparse clean"
}
for arch in "$@"; do
	load_arch "$arch"
	obj=$CACHE_DIR/build/$arch
	[ -f "$obj/Module.symvers" ] || die "$obj is not built: run scripts/run.sh --arch $arch first"
	for dir in samples/kprobes tools/testing/selftests/kprobes/test_modules; do
		# A copy, so that the checked objects are not the pipeline's.
		work=$CACHE_DIR/check-build/$arch/$dir
		rm -rf "$work"
		mkdir -p "$work"
		find "$src/$dir" -maxdepth 1 \( -name '*.[ch]' -o -name Makefile \) \
			-exec cp -t "$work" {} +
		log=$work/build.log
		if ! make -C "$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
			M="$work" W=1 C=1 modules >"$log" 2>&1 || grep -q "warning:" "$log"; then
			grep -E "warning:|error:" "$log" || tail -n 20 "$log"
			say "   $arch $dir: NOT clean (log: $log)"
			status=1
		else
			say "   $arch $dir: W=1 and sparse clean"
		fi
	done
	check_kernel_object "$obj" || status=1
done
exit $status
