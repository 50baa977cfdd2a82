#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Makes the cached pristine tree of a kernel (KERNEL=7.3|6.12|6.1) once:
# Debian's linux-source package of the version in scripts/kernel/<K>.conf,
# committed to git with a fixed identity and date so that its commit id
# (the series' base-commit) is the same on every machine.
#
# The package comes from the Debian mirror the machine's apt sources
# already name, through an apt state of our own in the cache: the
# machine's apt configuration is not changed, and no root is needed.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if git -C "$LINUX_REPO" rev-parse -q --verify "refs/tags/$PRISTINE_TAG" >/dev/null 2>&1; then
	exit 0
fi

# The URI the machine's apt uses for suite $1; for a suite it does not use
# (trixie-backports on bookworm), the one of its own release.
debian_mirror() {
	local codename uri

	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	for release in "$1" "$codename"; do
		uri=$(apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 2>/dev/null |
		      awk -v r="$release" '$1 == r { print $2; exit }')
		[ -z "$uri" ] || { echo "$uri"; return; }
	done
	die "no Debian mirror for $1 or $codename in the machine's apt sources: add one (see sources.list(5))"
}

# Downloads $KERNEL_PACKAGE=$KERNEL_PACKAGE_VERSION into directory $1.
download_source() {
	local dest=$1 apt_dir=$CACHE_DIR/apt/$KERNEL_SUITE mirror
	local apt_opts=(-o "Dir::State::Lists=$apt_dir/lists"
		-o "Dir::Etc::SourceList=$apt_dir/sources.list"
		-o "Dir::Etc::SourceParts=$apt_dir/none"
		-o "Dir::Cache=$apt_dir/cache" -o Debug::NoLocking=1)

	mirror=$(debian_mirror "$KERNEL_SUITE")
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $KERNEL_SUITE main" \
		>"$apt_dir/sources.list"
	say "   $KERNEL_PACKAGE $KERNEL_PACKAGE_VERSION from $mirror $KERNEL_SUITE"
	run_logged "$dest/apt.log" apt-get "${apt_opts[@]}" update
	(cd "$dest" && run_logged "$dest/apt.log" apt-get "${apt_opts[@]}" \
		download "$KERNEL_PACKAGE=$KERNEL_PACKAGE_VERSION") ||
		die "could not download $KERNEL_PACKAGE $KERNEL_PACKAGE_VERSION (log above); is the mirror reachable?"
}

say "== preparing the pristine $KERNEL tree"
tmp=$LINUX_REPO.tmp
rm -rf "$tmp"
mkdir -p "$tmp/linux"
download_source "$tmp"
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
rm -rf "$tmp"
say "   $(git -C "$LINUX_REPO" rev-parse "$PRISTINE_TAG") $(git -C "$LINUX_REPO" log -1 --format=%s)"
