#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Puts a kernel's series (KERNEL=7.3|6.12|6.1) on a kernel tree and prints
# the tree's path.
#
# Without an argument: the kernel's cached pristine tree. The series is applied with
# git am to the pristine commit in a scratch checkout (the user's flow), and
# the cached tree then moves to the result, which rewrites only the files
# that changed, so the next build recompiles only what depends on them.
#
# With a tree (a developer's own git checkout): the series is applied on top
# with git am unless it is applied already.
#
# NO_FIXES=1 leaves out the fixes: every mail that changes a file outside
# samples/, tools/, Documentation/ and MAINTAINERS. What is left is the
# samples, the selftests and the documentation on the kernel as it is,
# as a CI farm runs today's selftests on a kernel that lacks the fixes.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# True when mail $1 changes the kernel itself.
is_fix() {
	sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$1" |
		grep -qv -e '^samples/' -e '^tools/' -e '^Documentation/' -e '^MAINTAINERS$'
}

mapfile -t patches < <(series_patches)
[ ${#patches[@]} -gt 0 ] || die "no patches in $PATCH_DIR: run scripts/series/gen-series.sh"
if [ -n "${NO_FIXES:-}" ]; then
	for i in "${!patches[@]}"; do
		! is_fix "${patches[$i]}" || unset "patches[$i]"
	done
	patches=("${patches[@]}")
fi

# True when every patch reverse-applies, newest first, to the tree's HEAD;
# works in a scratch index, so the tree is not touched.
series_applied() {
	local tree=$1 index i
	local ret=0

	index=$(mktemp /tmp/kprobes-index.XXXXXX)
	GIT_INDEX_FILE=$index git -C "$tree" read-tree HEAD
	for ((i = ${#patches[@]} - 1; i >= 0; i--)); do
		if ! GIT_INDEX_FILE=$index git -C "$tree" apply --cached -R \
			"${patches[$i]}" 2>/dev/null; then
			ret=1
			break
		fi
	done
	rm -f "$index"
	return $ret
}

apply_to_own_tree() {
	local tree
	local log=/tmp/kprobes-git-am.log

	tree=$(realpath "$1")
	git -C "$tree" rev-parse --git-dir >/dev/null 2>&1 ||
		die "$tree is not a git tree: the series is applied with git am"
	if series_applied "$tree"; then
		say "== series already applied in $tree" >&2
	else
		git -C "$tree" diff --quiet HEAD ||
			die "$tree has uncommitted changes: commit or stash them first"
		if ! git -C "$tree" am -q "${patches[@]}" >"$log" 2>&1; then
			git -C "$tree" am --abort >/dev/null 2>&1 || true
			cat "$log" >&2
			die "the $KERNEL series (${PATCH_DIR#"$TOP"/}) does not apply to $tree ($(git -C "$tree" describe --always)): is it a $KERNEL tree? choose the series with --kernel"
		fi
		say "== applied the series to $tree ($(git -C "$tree" describe --always))" >&2
	fi
	echo "$tree"
}

apply_to_pristine_tree() {
	local stamp=$LINUX_REPO.series
	local sum work tip

	"$TOP/scripts/prepare-tree.sh" >&2
	sum=$(cat /dev/null "${patches[@]}" | sha256sum | cut -d' ' -f1)
	# The stamp names the series and the commit it left the tree at: a
	# tree that is clean but elsewhere (a bisect step, when the bisect
	# was killed before it could check out the tip) is not the series.
	if [ "$(cat "$stamp" 2>/dev/null)" = "$sum $(git -C "$LINUX_REPO" rev-parse HEAD)" ] &&
	   git -C "$LINUX_REPO" diff --quiet HEAD; then
		echo "$LINUX_REPO"
		return
	fi

	if [ ${#patches[@]} -gt 0 ]; then
		say "== git am ${PATCH_DIR#"$TOP"/}/ onto the pristine $KERNEL tree" >&2
	else
		say "== the pristine $KERNEL tree, no patch (--no-fixes)" >&2
	fi
	work=$(mktemp -d /tmp/kprobes-am.XXXXXX)
	git clone -q --shared --no-checkout "$LINUX_REPO" "$work/linux"
	mapfile -t paths < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|/\1|p' /dev/null "${patches[@]}" | sort -u)
	git -C "$work/linux" sparse-checkout set --no-cone "${paths[@]}"
	git -C "$work/linux" checkout -q --detach "$PRISTINE_TAG"
	# None: a stable kernel without its fixes, which are all it carries
	# (git am, like cat and sed above, would read stdin).
	if [ ${#patches[@]} -gt 0 ] &&
	   ! git -C "$work/linux" am -q "${patches[@]}" >"$work/am.log" 2>&1; then
		cat "$work/am.log" >&2
		rm -rf "$work"
		die "the $KERNEL series does not apply to its pristine tree: run scripts/series/gen-series.sh"
	fi
	tip=$(git -C "$work/linux" rev-parse HEAD)
	git -C "$LINUX_REPO" fetch -q "$work/linux" "$tip"
	git -C "$LINUX_REPO" checkout -q -f --detach "$tip"
	rm -rf "$work"
	echo "$sum $tip" >"$stamp"
	echo "$LINUX_REPO"
}

if [ $# -gt 0 ] && [ -n "$1" ]; then
	apply_to_own_tree "$1"
else
	apply_to_pristine_tree
fi
