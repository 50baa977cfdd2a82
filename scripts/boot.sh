#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boots the kernel and initramfs under QEMU (TCG), streams the results as
# the guest runs and judges the run with scripts/results.py.
#
# Usage: scripts/boot.sh ARCH BUILD_DIR INITRAMFS OUTDIR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 4 ] || die "usage: $0 ARCH BUILD_DIR INITRAMFS OUTDIR"
load_arch "$1"
obj=$2
initramfs=$3
outdir=$4
timeout=${BOOT_TIMEOUT_OVERRIDE:-$BOOT_TIMEOUT}
mkdir -p "$outdir"

# shellcheck disable=SC2206 # QEMU_ARGS is a list of words
qemu_cmd=("$QEMU" $QEMU_ARGS -nographic -no-reboot
	-kernel "$obj/$KERNEL_IMAGE" -initrd "$initramfs"
	-append "console=$CONSOLE loglevel=6 oops=panic panic=-1 ${KERNEL_CMDLINE_EXTRA:-}")
echo "${qemu_cmd[*]}" >"$outdir/qemu-cmdline"

# The status line tells results.py how QEMU ended (124: timed out).
{
	status=0
	timeout -k 10 "$timeout" "${qemu_cmd[@]}" </dev/null 2>&1 || status=$?
	echo "kprobes-ci-host: qemu-exit $status"
} | "$TOP/scripts/results.py" stream "$ARCH_NAME" "$outdir"
