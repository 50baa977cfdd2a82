#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The submissions are for upstream's release (UPSTREAM_BASE in
# scripts/kernel/<K>.conf), but built and tested on Debian's source
# package of it, which is that release plus Debian's patches. git am
# gives the same result on both when each kernel file the series
# changes (and so takes its context from) is the same in both: this
# prints, for each such file, its git blob id in Debian's tree. With an
# upstream git tree, it compares them with the release's and fails on
# any difference.
#
# Usage: scripts/ci/check-base.sh [UPSTREAM_GIT_TREE]
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -le 1 ] || die "usage: $0 [UPSTREAM_GIT_TREE]"
upstream=${1:-}
[ -z "$upstream" ] ||
	git -C "$upstream" rev-parse -q --verify "$UPSTREAM_BASE^{commit}" >/dev/null 2>&1 ||
	die "$upstream has no $UPSTREAM_BASE (a git tree with the stable tags)"
"$TOP/scripts/prepare-tree.sh"
mapfile -t patches < <(series_patches)
# Files the series changes that the base has (new files need no context).
mapfile -t files < <(awk '/^diff --git/ { f = substr($3, 3) } /^index / { print f }' \
	"${patches[@]}" | sort -u | while read -r f; do
		git -C "$LINUX_REPO" cat-file -e "$PRISTINE_TAG:$f" 2>/dev/null && echo "$f"
	done)
status=0
printf '%-40s %-40s %s\n' "file" "blob in $KERNEL_PACKAGE $KERNEL_PACKAGE_VERSION" \
	"${upstream:+$UPSTREAM_BASE}"
for f in "${files[@]}"; do
	ours=$(git -C "$LINUX_REPO" rev-parse "$PRISTINE_TAG:$f")
	theirs=
	if [ -n "$upstream" ]; then
		theirs=$(git -C "$upstream" rev-parse -q --verify "$UPSTREAM_BASE:$f" || echo missing)
		[ "$theirs" = "$ours" ] || { theirs="DIFFERS ($theirs)"; status=1; }
		[ "$theirs" != "$ours" ] || theirs=same
	fi
	printf '%-40s %-40s %s\n' "$f" "$ours" "$theirs"
done
[ -n "$upstream" ] || exit 0
[ $status -eq 0 ] || die "Debian's tree differs from $UPSTREAM_BASE in a file the series changes"
say "every file the series changes is the same in $UPSTREAM_BASE"
