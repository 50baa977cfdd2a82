# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # the variables are for the sourcing scripts
# Shared by the scripts: paths, messages and the per-architecture data.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_DIR=${KPROBES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kprobes-selftests}
PRISTINE_TAG=pristine
# The upstream base; see README.md for why it is the default.
DEFAULT_KERNEL=7.3

say() { printf '%s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

known_arches() {
	local conf

	for conf in "$TOP"/scripts/arch/*.conf; do
		basename "$conf" .conf
	done
}

known_kernels() {
	local conf

	for conf in "$TOP"/scripts/kernel/*.conf; do
		basename "$conf" .conf
	done | sort -rV
}

# Sets KERNEL_PACKAGE, ... for kernel $1 (see scripts/kernel/7.3.conf) and
# the paths that depend on it: the pristine tree (one git repository in the
# cache whose worktree is the source the pipeline builds, the series
# applied on top), the series' directory and the build directories.
load_kernel() {
	local conf="$TOP/scripts/kernel/$1.conf"

	[ -f "$conf" ] || die "unknown kernel '$1' (known: $(known_kernels | tr '\n' ' '))"
	# shellcheck source=kernel/7.3.conf
	. "$conf"
	KERNEL=$1
	LINUX_REPO=$CACHE_DIR/linux-$KERNEL
	PATCH_DIR=$TOP/patches${SERIES_NAME:+/$SERIES_NAME}
	BUILD_ROOT=$CACHE_DIR/build-$KERNEL
}

# Sets KERNEL_ARCH, CROSS_COMPILE, QEMU, QEMU_ARGS, ... for arch $1; see
# scripts/arch/x86_64.conf for the meaning of each.
load_arch() {
	local conf="$TOP/scripts/arch/$1.conf"

	[ -f "$conf" ] || die "unknown ARCH '$1' (known: $(known_arches | tr '\n' ' '))"
	# shellcheck source=arch/x86_64.conf
	. "$conf"
	ARCH_NAME=$1
}

# Dies unless directory $1 (made if missing) has $2 MiB free: a full disk
# fails here, with its name, rather than halfway through a build.
need_space() {
	local dir=$1 need=$2 free

	mkdir -p "$dir" 2>/dev/null || die "cannot create $dir"
	free=$(df -Pm "$dir" | awk 'NR == 2 { print $4 }')
	[ "$free" -ge "$need" ] ||
		die "$dir: $free MiB free, $need MiB needed (full disk? KPROBES_CACHE and --out choose where)"
}

# Runs a command with its output in a log file; on failure shows the tail
# and the path of the log.
run_logged() {
	local log=$1

	shift
	if ! "$@" >"$log" 2>&1; then
		tail -n 25 "$log" >&2
		die "failed: $* (full log: $log)"
	fi
}

# Every script works on one kernel: $KERNEL, or the default. Scripts that
# can do every kernel do so when KERNEL_GIVEN is empty.
KERNEL_GIVEN=${KERNEL:-}
load_kernel "${KERNEL:-$DEFAULT_KERNEL}"
