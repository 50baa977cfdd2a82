#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Makes the cached pristine kernel tree once: Debian's linux-source-6.12
# tarball, committed to git with a fixed identity and date so that its commit
# id (the series' base-commit) is the same on every machine.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if git -C "$LINUX_REPO" rev-parse -q --verify "refs/tags/$PRISTINE_TAG" >/dev/null 2>&1; then
	exit 0
fi

[ -f "$LINUX_TARBALL" ] || die "$LINUX_TARBALL not found: install linux-source-6.12"
version=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown)
say "== preparing the pristine tree from $LINUX_TARBALL ($version)"
tmp=$LINUX_REPO.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
tar -xJf "$LINUX_TARBALL" -C "$tmp" --strip-components=1
cd "$tmp"
git init -q
git config gc.auto 0
git config core.untrackedCache true
git add -A -f
export GIT_AUTHOR_NAME="Debian kernel source" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
git commit -q -m "Debian linux-source-6.12 $version"
git tag "$PRISTINE_TAG"
cd - >/dev/null
rm -rf "$LINUX_REPO"
mv "$tmp" "$LINUX_REPO"
say "   $(git -C "$LINUX_REPO" rev-parse "$PRISTINE_TAG") $(git -C "$LINUX_REPO" log -1 --format=%s)"
