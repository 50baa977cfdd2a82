#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Proves that the suite catches what each fix of a kernel's series fixes:
# for every patch with a Fixes: tag or a Cc: stable, reverts it in the
# pipeline's tree (not in the series), builds, boots and runs the suite,
# and expects the run to fail. Prints the cases that failed without each
# fix, restores the tree and exits non-zero when a fix made no difference.
#
# Usage: KERNEL=7.3 scripts/check-fixes.sh [ARCH[-VARIANT]] [OUT]
#   ARCH       default x86_64; ARCH-VARIANT adds configs/VARIANT.config
#              (arm-thumb2), as in scripts/run.sh
#   OUT        default out/fixes
#   FIXES      env: only the fixes whose subject matches this regex
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

label=${1:-$DEFAULT_LABEL}
arch=${label%%-*}
out=$(realpath -m "${2:-$TOP/out/fixes}")
mkdir -p "$out"
(load_label "$label") || exit 2
load_arch "$arch"
src=$("$TOP/scripts/apply-series.sh")
tip=$(git -C "$src" rev-parse HEAD)
obj=$BUILD_ROOT/$label
restore() {
	git -C "$src" reset -q --hard "$tip"
}
trap restore EXIT
export KERNEL_CMDLINE_EXTRA="${KERNEL_CMDLINE_EXTRA:-} KPROBES_PASSES=1"

# Whether commit $1 changes something this configuration builds: a fix
# of C or assembler files it does not compile (arm's Thumb-2 code on
# x86_64) cannot change what it runs.
compiled_here() {
	local path

	while read -r path; do
		[[ $path == *.[cS] ]] && [ ! -f "$obj/${path%.?}.o" ] || return 0
	done < <(git -C "$src" diff --name-only "$1^" "$1")
	return 1
}

# compiled_here needs the tip's objects.
[ -e "$obj/vmlinux" ] || run_logged "$out/tip.build.log" build_label "$label" "$src" "$obj"
status=0
for commit in $(git -C "$src" rev-list --reverse --grep='^Fixes: ' --grep='^Cc: stable@' "$PRISTINE_TAG..$tip"); do
	subject=$(git -C "$src" log -1 --format=%s "$commit")
	[[ $subject =~ ${FIXES:-.} ]] || continue
	if ! compiled_here "$commit"; then
		say "== $KERNEL $label: \"$subject\" changes nothing compiled here"
		continue
	fi
	name=$(git -C "$src" log -1 --format=%f "$commit" | cut -c1-40)
	restore
	git -C "$src" revert --no-commit "$commit" >/dev/null ||
		die "cannot revert \"$subject\" on the tip"
	say "== $KERNEL $label without \"$subject\""
	run_logged "$out/$name.build.log" build_label "$label" "$src" "$obj"
	run_logged "$out/$name.build.log" "$TOP/scripts/mkinitramfs.sh" "$arch" "$src" "$obj" \
		"$obj/initramfs.cpio"
	if "$TOP/scripts/boot.sh" "$arch" "$obj" "$obj/initramfs.cpio" "$out/$name" "$label" \
		>"$out/$name.log" 2>&1; then
		say "   NOT caught: every case passed without it (log: $out/$name.log)"
		status=1
	else
		say "   caught:"
		grep -E "FAIL|ERROR" "$out/$name.log" | head -n 8 | sed 's/^ */     /'
	fi
done
restore
# The next run rebuilds what the reverts touched.
exit $status
