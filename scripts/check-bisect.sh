#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bisectability: with the patches applied one at a time, every step builds
# the kernel, its modules (the samples) and, from the selftest patch on,
# the kprobes selftests, for each architecture; and the kernel C files a
# patch changes compile with W=1 and sparse (C=1) with no more warnings
# than before the series. Works in a worktree of its own, next to the
# pipeline's tree.
#
# Usage: scripts/check-bisect.sh [ARCH...]   (default: every architecture)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/apply-series.sh" >/dev/null
tip=$(git -C "$LINUX_REPO" rev-parse HEAD)
src=$CACHE_DIR/bisect/linux
if [ ! -d "$src" ]; then
	say "   making the bisect worktree (once)"
	git -C "$LINUX_REPO" worktree add -q --detach "$src" "$tip"
fi
mapfile -t commits < <(git -C "$LINUX_REPO" rev-list --reverse "$PRISTINE_TAG..$tip")
# Kernel C files the series changes, outside samples/ and tools/ (which
# check-build.sh compiles with W=1 and sparse).
mapfile -t kernel_files < <(git -C "$LINUX_REPO" diff --name-only "$PRISTINE_TAG" "$tip" -- '*.c' |
	grep -v -e '^samples/' -e '^tools/' || true)

# Prints the number of W=1 and sparse warnings in each file of
# kernel_files; the warnings of what make rebuilds on the way
# (asm-offsets, arm64's vDSO, ...) are not the file's.
w1_warnings() {
	local obj=$1 file

	for file in "${kernel_files[@]}"; do
		# Compiled for sure: W=1 also runs kernel-doc on the file.
		rm -f "$obj/${file%.c}.o"
		make -C "$src" O="$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
			W=1 C=1 "${file%.c}.o" 2>&1 | grep -cE "$file:[0-9]+(:[0-9]+)?: warning:" || true
	done
}

# Every step is configured for the series' tests, as the tip is: patches
# before the selftest patch change code that only its config enables.
export EXTRA_CONFIGS=$CACHE_DIR/bisect/selftest.config
git -C "$LINUX_REPO" show "$tip:tools/testing/selftests/kprobes/config" >"$EXTRA_CONFIGS"

arches=("$@")
[ ${#arches[@]} -gt 0 ] || mapfile -t arches < <(known_arches)
status=0
for arch in "${arches[@]}"; do
	load_arch "$arch"
	obj=$CACHE_DIR/bisect/build-$arch
	git -C "$src" checkout -q --detach "$PRISTINE_TAG"
	run_logged "$obj.log" "$TOP/scripts/build.sh" "$arch" "$src" "$obj"
	baseline=$(w1_warnings "$obj" | tr '\n' ' ')
	for commit in "${commits[@]}"; do
		git -C "$src" checkout -q --detach "$commit"
		subject=$(git -C "$src" log -1 --format=%s)
		if ! "$TOP/scripts/build.sh" "$arch" "$src" "$obj" >"$obj.log" 2>&1; then
			tail -n 15 "$obj.log"
			say "   $arch: does NOT build at \"$subject\" (log: $obj.log)"
			status=1
			continue
		fi
		warnings=$(w1_warnings "$obj" | tr '\n' ' ')
		if [ "$warnings" != "$baseline" ]; then
			say "   $arch: new W=1 or sparse warnings at \"$subject\" in ${kernel_files[*]}: $baseline-> $warnings"
			status=1
		else
			say "   $arch: builds at \"$subject\""
		fi
	done
done
exit $status
