#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark: boots each architecture's kernel (as scripts/run.sh builds
# it) to run selftests/kprobes/kprobes_bench instead of the tests, several
# times, and turns the figures into tables, JSON, CSV and a plot.
#
# Usage: scripts/measure/bench.sh [--arch ARCH[,ARCH...]|all] [--runs N] [--icount]
#                         [--calls N] [--batch-sizes LIST] [--out DIR]
#   --arch         x86_64 (default), the architectures below, or all
#   --runs         boots per architecture (default 5); the hit figures
#                  are reported as the median and spread over the runs,
#                  the batch figures come from the first run
#   --icount       run QEMU with -icount: guest time follows the
#                  instructions executed, not the busy host
#   --calls        calls timed per configuration (default 100000)
#   --batch-sizes  N for the registration figures (default 1,8,64,512,4096)
#   --out          where results go (default: out/bench)
#
# Figures from QEMU (TCG) are the cost of emulated code, not of hardware.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n 's/^# \{0,1\}//; 3,19p' "$0"
	echo "Architectures: $(known_arches | paste -sd' ')"
	exit "$1"
}

arches=$DEFAULT_LABEL
runs=5
icount=
calls=100000
sizes=1,8,64,512,4096
out=$TOP/out/bench
unset ARCH
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arches=${2:?--arch needs a value}; shift 2 ;;
	--runs) runs=${2:?--runs needs a value}; shift 2 ;;
	--icount) icount=1; shift ;;
	--calls) calls=${2:?--calls needs a value}; shift 2 ;;
	--batch-sizes) sizes=${2:?--batch-sizes needs a value}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	-h|--help) usage 0 ;;
	*) say "unknown argument: $1" >&2; usage 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]?$ ]] || die "--runs needs a number from 1 to 99"
[[ $calls =~ ^[1-9][0-9]*000$ ]] || die "--calls needs a multiple of 1000"
[[ $sizes =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--batch-sizes needs a list such as 1,8,64"
[ "$arches" = all ] && arches=$(known_arches | tr '\n' ' ')
arches=${arches//,/ }
for arch in $arches; do
	load_arch "$arch"
done

need_space "$CACHE_DIR" 2048
need_space "$out" 64
# shellcheck disable=SC2086 # a list of architectures
EXTRA_PACKAGES=gnuplot-nox "$TOP/scripts/install-deps.sh" $arches
src=$("$TOP/scripts/apply-series.sh" "")
# Virtual time: 2^0 ns per instruction. One vCPU, as -icount runs them one
# at a time anyway, and with two the arm guest hangs at boot (QEMU 7.2).
[ -z "$icount" ] || export QEMU_EXTRA_ARGS="-icount shift=0,sleep=off -rtc clock=vm -smp 1"

status=0
for arch in $arches; do
	obj=$BUILD_ROOT/$arch
	say "== $arch: build ($src -> $obj)"
	build_label "$arch" "$src" "$obj"
	"$TOP/scripts/mkinitramfs.sh" "$arch" "$src" "$obj" "$obj/initramfs.cpio"
	for run in $(seq "$runs"); do
		say "== $arch: run $run of $runs${icount:+ (-icount)}"
		# The batch figures take long and vary little: once is enough.
		# Under TCG, x86_64 takes about 15 minutes for them (every
		# (un)registration patches code, and QEMU retranslates it).
		run_sizes=$sizes timeout=$((BOOT_TIMEOUT * 6))
		[ "$run" = 1 ] || { run_sizes=0; timeout=$BOOT_TIMEOUT; }
		log=$out/$arch/run$run.log
		mkdir -p "$out/$arch"
		if ! BOOT_TIMEOUT_OVERRIDE=$timeout \
		     KERNEL_CMDLINE_EXTRA="KPROBES_BENCH=1 KPROBES_BENCH_CALLS=$calls KPROBES_BENCH_SIZES=$run_sizes" \
		     "$TOP/scripts/boot.sh" "$arch" "$obj" "$obj/initramfs.cpio" \
		     "$out/$arch/run$run" "$arch-bench" >"$log" 2>&1; then
			grep -v ' PASS ' "$log" | tail -n 5 >&2
			say "error: $arch run $run failed (log: $log)" >&2
			status=1
		fi
	done
done
"$TOP/scripts/measure/bench.py" "$out" ${icount:+--icount} || status=1
exit $status
