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

# Reverts fix $1 on the tip. Where a later patch changed the same lines
# (a backport's context), that one is reverted first too, the nearest
# first and no more than needed; $also names them.
revert_fix() {
	local later=() n i

	also=
	restore
	git -C "$src" revert --no-commit "$1" >/dev/null 2>&1 && return
	# shellcheck disable=SC2046 # the fix's files, one word each
	mapfile -t later < <(git -C "$src" rev-list --reverse "$1..$tip" -- \
		$(git -C "$src" diff --name-only "$1^" "$1"))
	for ((n = 1; n <= ${#later[@]}; n++)); do
		restore
		for ((i = n - 1; i >= 0; i--)); do
			git -C "$src" revert --no-commit "${later[i]}" >/dev/null 2>&1 || continue 2
		done
		git -C "$src" revert --no-commit "$1" >/dev/null 2>&1 || continue
		also=$(git -C "$src" show -s --format='"%s"' "${later[@]:0:n}" | paste -sd, | sed 's/,/, /g')
		return
	done
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
	revert_fix "$commit" || die "cannot revert \"$subject\" on the tip"
	say "== $KERNEL $label without \"$subject\"${also:+ (and without $also, which changes the same lines after it)}"
	run_logged "$out/$name.build.log" build_label "$label" "$src" "$obj"
	run_logged "$out/$name.build.log" "$TOP/scripts/mkinitramfs.sh" "$arch" "$src" "$obj" \
		"$obj/initramfs.cpio"
	"$TOP/scripts/boot.sh" "$arch" "$obj" "$obj/initramfs.cpio" "$out/$name" "$label" \
		>"$out/$name.log" 2>&1 || :
	# The verdict of scripts/mutate.sh, from the run's summary.json.
	read -r verdict detail < <("$TOP/scripts/results.py" verdict "$out/$name")
	if [ "$verdict" = survived ]; then
		say "   NOT caught: every case passed without it (log: $out/$name.log)"
		status=1
	else
		say "   caught ($verdict: $detail):"
		grep -E "FAIL|ERROR" "$out/$name.log" | head -n 8 | sed 's/^ */     /'
	fi
done
restore
# The next run rebuilds what the reverts touched.
exit $status
