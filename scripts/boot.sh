#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boots the kernel and initramfs under QEMU (TCG), streams the results as
# the guest runs and judges the run with scripts/results.py.
#
# Usage: scripts/boot.sh ARCH BUILD_DIR INITRAMFS OUTDIR [LABEL]
#   LABEL names the run in the results (default: ARCH)
# The guest is stopped after the architecture's BOOT_TIMEOUT (a run of
# the suite twice) times BOOT_TIMEOUT_FACTOR plus BOOT_TIMEOUT_EXTRA
# seconds, or after BOOT_TIMEOUT_OVERRIDE seconds.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 4 ] || [ $# -eq 5 ] || die "usage: $0 ARCH BUILD_DIR INITRAMFS OUTDIR [LABEL]"
load_arch "$1"
obj=$2
initramfs=$3
outdir=$4
label=${5:-$1}
timeout=${BOOT_TIMEOUT_OVERRIDE:-$((BOOT_TIMEOUT * ${BOOT_TIMEOUT_FACTOR:-1} + ${BOOT_TIMEOUT_EXTRA:-0}))}
mkdir -p "$outdir"
# Short: a unix socket's path has at most 107 bytes, $outdir may not.
monitor=$(mktemp -u "${TMPDIR:-/tmp}/kprobes-qemu-XXXXXX.sock")

"$TOP/scripts/build-qemu.sh" "$1" >&2
# No display and no network, unless QEMU_EXTRA_ARGS asks for them: the
# guests need neither, and the default VGA of pseries and NIC of malta
# need option ROMs (packages seabios, ipxe-qemu) that only another QEMU
# package installs.
# log_buf_len: the KUnit results of the boot, which only the dmesg dump
# after the tests shows, must outlive the suite's kernel records: a
# soak's five passes overflow the default 128 KiB.
# shellcheck disable=SC2206 # QEMU_ARGS and QEMU_EXTRA_ARGS are lists of words
qemu_cmd=("$(qemu_binary)" -nographic -vga none -nic none $QEMU_ARGS ${QEMU_EXTRA_ARGS:-}
	-no-reboot
	-kernel "$obj/$KERNEL_IMAGE" -initrd "$initramfs"
	-append "console=$CONSOLE loglevel=6 log_buf_len=4M oops=panic panic=-1 ${KERNEL_CMDLINE_EXTRA:-}"
	-monitor "unix:$monitor,server=on,wait=off")
echo "${qemu_cmd[*]}" >"$outdir/qemu-cmdline"

# Whatever stops this script stops QEMU too.
pidfile=$outdir/qemu.pid
stop_qemu() {
	[ ! -s "$pidfile" ] || kill "$(cat "$pidfile")" 2>/dev/null || true
	rm -f "$pidfile"
}
trap stop_qemu EXIT
trap 'stop_qemu; exit 143' TERM
trap 'stop_qemu; exit 130' INT

# Just before the timeout stops a hung guest: where each of its CPUs is.
rm -f "$outdir/cpu-state.txt"
{
	sleep "$((timeout > 10 ? timeout - 5 : timeout / 2))" &&
		"$TOP/scripts/qemu-monitor.py" "$monitor" info registers -a \
			>"$outdir/cpu-state.txt" 2>&1
} </dev/null >/dev/null 2>&1 &
watchdog=$!
# Its sleep first: the watchdog then ends without asking anything.
trap 'pkill -P $watchdog 2>/dev/null || :; kill $watchdog 2>/dev/null || :; stop_qemu; rm -f "$monitor"' EXIT

# The status line tells results.py how QEMU ended (124: timed out). In
# the background, so that a signal runs the traps at once.
{
	status=0
	timeout -k 10 "$timeout" "${qemu_cmd[@]}" -pidfile "$pidfile" </dev/null 2>&1 ||
		status=$?
	echo "kprobes-ci-host: qemu-exit $status"
} | "$TOP/scripts/results.py" stream "$label" "$outdir" &
wait $!
