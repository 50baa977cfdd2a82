#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Writes a LAVA device and job for the artefacts of scripts/farm/artefacts.sh,
# from scripts/arch/<arch>.conf: the QEMU device, the deploy of kernel,
# initramfs, modules and kselftest tarball (file:// URLs), the boot, and a
# test that runs run_kselftest.sh -c kprobes, one LAVA case per KTAP line.
#
# Usage: scripts/farm/lava-job.sh [--kernel K] --arch ARCH[-VARIANT] --artefacts DIR --out OUTDIR
#   DIR as given to scripts/farm/artefacts.sh --out; writes OUTDIR/device.yaml,
#   OUTDIR/job.yaml and OUTDIR/guest.tar (the guest's /init and ktap-lava)
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n 's/^# \{0,1\}//; 3,10p' "$0"
	exit "$1"
}

label=
artefacts=
out=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) load_kernel "${2:?--kernel needs a value}"; shift 2 ;;
	--arch) label=${2:?--arch needs a value}; shift 2 ;;
	--artefacts) artefacts=${2:?--artefacts needs a value}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	-h|--help) usage 0 ;;
	*) say "unknown argument: $1" >&2; usage 2 ;;
	esac
done
if [ -z "$label" ] || [ -z "$artefacts" ] || [ -z "$out" ]; then usage 2; fi
load_label "$label"
dir=$artefacts/$KERNEL/$label
[ -f "$dir/manifest.json" ] || die "$dir/manifest.json is missing: run scripts/farm/artefacts.sh --kernel $KERNEL --arch $label --out $artefacts"
mkdir -p "$out"

# What LAVA puts over the runner's initramfs: a shell as /init, and the
# KTAP-to-LAVA filter the test definition pipes the suite through.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
install -D -m 755 "$TOP/scripts/guest/lava-init" "$stage/init"
install -D -m 755 "$TOP/scripts/guest/ktap-lava" "$stage/usr/bin/ktap-lava"
tar -cf "$out/guest.tar" --owner=0 --group=0 --numeric-owner -C "$stage" init usr

# The architecture's data, from its conf only; KERNEL_CMDLINE_EXTRA and
# QEMU_EXTRA_ARGS as scripts/boot.sh takes them.
"$TOP/scripts/build-qemu.sh" "$ARCH_NAME"
QEMU=$(qemu_binary)
export ARCH_NAME DEB_ARCH QEMU QEMU_ARGS CONSOLE BOOT_TIMEOUT
"$TOP/scripts/farm/lava.py" job "$dir" "$out/guest.tar" "$out"
