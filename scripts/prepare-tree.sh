#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Makes the cached pristine tree of a kernel (KERNEL=7.3|6.12|6.1) once:
# Debian's linux-source package of the version in scripts/kernel/<K>.conf,
# committed to git with a fixed identity and date so that its commit id
# (the series' base-commit) is the same on every machine.
#
# The package comes from the Debian mirror the machine's apt sources
# already name (debian_download in lib.sh).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if git -C "$LINUX_REPO" rev-parse -q --verify "refs/tags/$PRISTINE_TAG" >/dev/null 2>&1; then
	exit 0
fi

say "== preparing the pristine $KERNEL tree"
tmp=$LINUX_REPO.tmp
rm -rf "$tmp"
# Nothing half-made stays behind for the next run to trust: the tree
# only takes its place, tagged, at the end.
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/linux"
debian_download "$KERNEL_PACKAGE=$KERNEL_PACKAGE_VERSION" "$(dpkg --print-architecture)" "$KERNEL_SUITE" "$tmp"
dpkg-deb --fsys-tarfile "$tmp"/"${KERNEL_PACKAGE}"_*.deb |
	tar -xO "./usr/src/$KERNEL_PACKAGE.tar.xz" |
	tar -xJ -C "$tmp/linux" --strip-components=1
cd "$tmp/linux"
git init -q
git config gc.auto 0
git config core.untrackedCache true
# A throw-away cache: speed over size.
git config core.looseCompression 0
git add -A -f
export GIT_AUTHOR_NAME="Debian kernel source" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
git commit -q -m "Debian $KERNEL_PACKAGE $KERNEL_PACKAGE_VERSION"
git tag "$PRISTINE_TAG"
cd - >/dev/null
rm -rf "$LINUX_REPO"
mv "$tmp/linux" "$LINUX_REPO"
say "   $(git -C "$LINUX_REPO" rev-parse "$PRISTINE_TAG") $(git -C "$LINUX_REPO" log -1 --format=%s)"
