#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Installs the Debian packages the pipeline needs for the given
# architectures. As root it runs apt-get; otherwise it prints the apt-get
# line to run and fails.
#
# Usage: scripts/install-deps.sh ARCH... (EXTRA_PACKAGES adds more). The
# kernel sources come from scripts/prepare-tree.sh, not from here.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

packages="make gcc flex bison bc libelf-dev libssl-dev xz-utils rsync kmod debian-archive-keyring
	python3 git ccache perl busybox-static"
packages+=" ${EXTRA_PACKAGES:-}"
for arch in "$@"; do
	load_arch "$arch"
	packages+=" $QEMU_PACKAGE $TOOLCHAIN_PACKAGES"
	# What scripts/build-qemu.sh needs to build QEMU from Debian's source.
	[ -z "$QEMU_PATCHES" ] ||
		packages+=" dpkg-dev patch pkg-config meson ninja-build libglib2.0-dev libpixman-1-dev"
done

missing=()
for pkg in $packages; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	say "Missing Debian packages. As root, run:"
	say "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
	exit 1
fi
say "== installing ${missing[*]}"
log=$(mktemp /tmp/kprobes-apt.XXXXXX.log)
export DEBIAN_FRONTEND=noninteractive
# An index that fails to download (a mirror mid-sync) need not be one the
# packages come from: the install below is the real check.
apt-get update >"$log" 2>&1 || say "   apt-get update reported errors (log: $log); installing anyway"
run_logged "$log.install" apt-get install -y --no-install-recommends "${missing[@]}"
rm -f "$log" "$log.install"
