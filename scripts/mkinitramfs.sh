#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Packs the guest's initramfs: busybox-static for the architecture, the
# kprobes kselftest install, the kernel's modules (the samples) and
# scripts/guest/init; uses the kernel's own usr/gen_initramfs.sh.
#
# Usage: scripts/mkinitramfs.sh ARCH SOURCE_TREE BUILD_DIR OUTPUT
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 4 ] || die "usage: $0 ARCH SOURCE_TREE BUILD_DIR OUTPUT"
load_arch "$1"
src=$(realpath "$2")
obj=$(realpath "$3")
output=$(realpath -m "$4")

# busybox-static of the guest's architecture, from the Debian release of
# this machine or the first of the architecture's BUSYBOX_SUITE that has
# it, cached.
busybox=$CACHE_DIR/busybox/$DEB_ARCH/bin/busybox
if [ ! -x "$busybox" ]; then
	dir=$CACHE_DIR/busybox/$DEB_ARCH
	rm -rf "$dir"
	for suite in ${BUSYBOX_SUITE:-$(. /etc/os-release && echo "$VERSION_CODENAME")}; do
		(debian_download busybox-static "$DEB_ARCH" "$suite" "$dir/deb") && break
		say "   no busybox-static:$DEB_ARCH from $suite"
	done
	dpkg-deb -x "$dir"/deb/busybox-static_*.deb "$dir"
	# Debian 13 and later ship it in /usr/bin.
	if [ ! -e "$busybox" ] && [ -x "$dir/usr/bin/busybox" ]; then
		mkdir -p "$dir/bin"
		ln -s ../usr/bin/busybox "$busybox"
	fi
	[ -x "$busybox" ] || die "no busybox in busybox-static:$DEB_ARCH"
fi

root=$obj/initramfs-root
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,root,lib}
cp "$busybox" "$root/bin/busybox"
install -m 755 "$TOP/scripts/guest/init" "$root/init"
install -D -m 755 "$TOP/scripts/guest/timeout" "$root/usr/bin/timeout"
cp -a "$obj/kselftest/kselftest_install" "$root/kselftest"
cp -a "$obj/modules-root/lib/modules" "$root/lib/modules"

cat >"$obj/initramfs.list" <<LIST
nod /dev/console 0600 0 0 c 5 1
LIST
# gen_initramfs.sh looks for usr/gen_init_cpio relative to the current
# directory: the kernel build directory.
(cd "$obj" && run_logged "$obj/initramfs.log" "$src/usr/gen_initramfs.sh" \
	-o "$output" -u 0 -g 0 "$root" "$obj/initramfs.list")
