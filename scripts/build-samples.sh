#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds samples/kprobes of a newer tree out of tree against a kernel
# built before, as a user builds a sample, and installs them where the
# kernel's own samples go: a stable kernel runs the newest samples.
#
# Usage: scripts/build-samples.sh ARCH[-VARIANT] SAMPLES_TREE BUILD_DIR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: $0 ARCH[-VARIANT] SAMPLES_TREE BUILD_DIR"
load_label "$1"
samples=$(realpath "$2")/samples/kprobes
obj=$(realpath "$3")
src=$(realpath "$obj/source")
make_kernel=(make -C "$src" O="$obj" ARCH="$KERNEL_ARCH"
	CROSS_COMPILE="$CROSS_COMPILE" -j"$(nproc)" M="$obj/samples-oot")

say "   building $samples out of tree (log: $obj/samples.log)"
# In a copy: kbuild puts an external module's objects next to its
# sources, and the newer tree's own builds use O=. The copies keep their
# times, so that an unchanged sample is not rebuilt.
mkdir -p "$obj/samples-oot"
rm -f "$obj"/samples-oot/*.c
cp -p "$samples"/*.c "$obj/samples-oot/"
cp -p "$TOP/scripts/kernel/samples.Kbuild" "$obj/samples-oot/Kbuild"
run_logged "$obj/samples.log" "${make_kernel[@]}" modules
run_logged "$obj/samples-install.log" "${make_kernel[@]}" INSTALL_MOD_PATH="$obj/modules-root" \
	INSTALL_MOD_DIR=kernel/samples/kprobes INSTALL_MOD_STRIP=1 modules_install
