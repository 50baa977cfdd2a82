#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds the QEMU an architecture runs when its scripts/arch/<arch>.conf
# names QEMU_PATCHES: Debian's own source of the installed $QEMU_PACKAGE
# (the same version, so its firmware in /usr/share/qemu fits), with the
# patches of scripts/qemu/ on top, one target, into the cache. Does
# nothing when the architecture runs Debian's QEMU as it is, or when the
# binary is built already.
#
# Usage: scripts/build-qemu.sh ARCH
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 ARCH"
load_arch "$1"
[ -n "$QEMU_PATCHES" ] || exit 0
binary=$(qemu_binary)
[ -x "$binary" ] && exit 0

read -r source version < <(dpkg-query -W -f='${source:Package} ${source:Version}\n' "$QEMU_PACKAGE") ||
	die "$QEMU_PACKAGE is not installed (scripts/install-deps.sh $1)"
dir=$(dirname "$(dirname "$binary")")
need_space "$dir" 3000
rm -rf "$dir/src" "$dir/build"
say "== $QEMU: Debian's $source $version with $QEMU_PATCHES"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
debian_download_source "$source=$version" "$codename" "$dir/download"
# dpkg-source applies Debian's own patches; apt checked the files against
# the signed index already.
run_logged "$dir/build.log" dpkg-source --no-check -x "$dir"/download/*.dsc "$dir/src"
for patch in $QEMU_PATCHES; do
	run_logged "$dir/build.log" patch -d "$dir/src" -p1 -i "$TOP/scripts/qemu/$patch"
done
mkdir -p "$dir/build"
(cd "$dir/build" && run_logged "$dir/build.log" ../src/configure --prefix=/usr \
	--target-list="${QEMU#qemu-system-}-softmmu" --without-default-features \
	--disable-docs --disable-tools --disable-werror --enable-trace-backends=nop)
run_logged "$dir/build.log" ninja -C "$dir/build" -j "$(nproc)" "$QEMU"
# QEMU looks for its firmware in ../share/qemu from its binary: there,
# Debian's, of the same version.
ln -sfn /usr/share "$dir/share"
mkdir -p "$dir/bin"
cp "$dir/build/$QEMU" "$binary.tmp"
mv "$binary.tmp" "$binary"
rm -rf "$dir/src" "$dir/build" "$dir/download"
say "   $binary"
