#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The main job: build a kernel with the series, boot it in QEMU, run the
# kprobes kselftests and print the results, for one or more architectures.
#
# Usage: scripts/run.sh [--arch ARCH[,ARCH...]|all] [--kernel K] [--kernel-tree DIR]
#                       [--out DIR] [--debug] [--soak] [--torture-seconds N]
#                       [--no-fixes] [--coverage]
#   --arch         x86_64 (default), the labels below, or all (env: ARCH);
#                  LABEL-VARIANT adds configs/VARIANT.config (arm-thumb2)
#   --kernel       7.3 (default: the upstream base), 6.12 or 6.1: Debian's
#                  linux-source-K with that kernel's series (env: KERNEL);
#                  a stable kernel's series is its fixes, and 7.3's
#                  selftests and samples are built out of tree against it
#   --kernel-tree  a git kernel tree of your own instead; the series of
#                  --kernel is applied on top with git am unless it is
#                  there already                            (env: KERNEL_TREE)
#   --out          where results go (default: out/)         (env: OUT)
#   --debug        a debug kernel: configs/debug.config (KASAN, lockdep,
#                  kmemleak, ...); results in OUT/ARCH-debug
#   --soak         load and unload the test module and the sample 100
#                  times, run the suite 5 times, then check kmemleak and
#                  the slab
#   --torture-seconds N  run the torture case for N s (default 3)
#   --no-fixes     the kernel as Debian ships it, none of the fixes, with
#                  the series' samples and selftests (7.3's for a stable
#                  kernel), as a CI farm runs today's selftests; results in
#                  OUT/ARCH-nofixes. The kernel's KUnit kprobes suite is
#                  not run (kunit.enable=0): on x86 it oopses at boot
#                  without "x86/ftrace: Call an ftrace_ops callback at an
#                  odd address", before any selftest could run (the
#                  selftests then die in their first kprobe on ftrace)
#   --coverage     gcov of the kprobes code (scripts/measure/coverage.sh): line
#                  and branch coverage per file in OUT/ARCH-coverage/
#                  coverage.txt, and with lcov an HTML report beside it
#
# Exits non-zero on any failing or missing case, a boot failure, a hung
# guest, or a kernel problem report or taint on the console.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	sed -n 's/^# \{0,1\}//; 3,35p' "$0"
	echo "Labels: $(known_labels | paste -sd' ')"
	exit "$1"
}

arches=${ARCH:-$DEFAULT_LABEL}
kernel_tree=${KERNEL_TREE:-}
out=${OUT:-$TOP/out}
variant=
nofixes=
coverage=
cmdline=
passes=2
torture_seconds=0
# The kernel's make reads ARCH from the environment too.
unset ARCH
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arches=${2:?--arch needs a value}; shift 2 ;;
	--kernel) load_kernel "${2:?--kernel needs a value: one of $(known_kernels | paste -sd' ')}"; shift 2 ;;
	--kernel-tree) kernel_tree=${2:?--kernel-tree needs a value}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	--debug) variant+=-debug; EXTRA_CONFIGS="${EXTRA_CONFIGS:-} $TOP/configs/debug.config"; shift ;;
	--coverage)
		variant+=-coverage coverage=1 cmdline+=" KPROBES_COVERAGE=1"
		EXTRA_CONFIGS="${EXTRA_CONFIGS:-} $TOP/configs/coverage.config"
		export EXTRA_PACKAGES="${EXTRA_PACKAGES:-} lcov"
		shift ;;
	--no-fixes) nofixes=-nofixes; cmdline+=" kunit.enable=0"; export NO_FIXES=1; shift ;;
	--soak) passes=5; cmdline+=" KPROBES_SOAK=1"; shift ;;
	--torture-seconds)
		if ! [[ ${2:-} =~ ^[1-9][0-9]{0,4}$ ]] || [ "$2" -gt 86400 ]; then
			die "--torture-seconds needs a number of seconds from 1 to 86400"
		fi
		torture_seconds=$2
		cmdline+=" KPROBES_TORTURE_SECONDS=$2"
		shift 2 ;;
	-h|--help) usage 0 ;;
	*) say "unknown argument: $1" >&2; usage 2 ;;
	esac
done
[ "$arches" = all ] && arches=$(known_labels | tr '\n' ' ')
arches=${arches//,/ }
for label in $arches; do
	(load_label "$label") || exit 2
done
[ -z "$kernel_tree" ] || [ -d "$kernel_tree" ] || die "--kernel-tree $kernel_tree: no such directory"

# The scripts below work on this kernel.
export KERNEL

# Where the time goes, printed at the end: "phase seconds" lines.
phases=()
phase_start=$SECONDS
phase_done() {
	phases+=("$(printf '%6d s  %s' $((SECONDS - phase_start)) "$1")")
	phase_start=$SECONDS
}

# A cold run fills about 1.5 GiB with the kernel tree and 0.5 GiB per build.
need_space "$CACHE_DIR" 2048
need_space "$out" 64
# shellcheck disable=SC2046 # a list of architectures
"$TOP/scripts/install-deps.sh" $(tr ' ' '\n' <<<"$arches" | sed 's/-.*//' | sort -u)
phase_done "packages"
src=$("$TOP/scripts/apply-series.sh" "$kernel_tree")
# shellcheck disable=SC2086 # a list of labels
[ -z "$coverage" ] || "$TOP/scripts/measure/coverage.sh" instrument "$src" $arches
# A stable kernel runs the newest selftests and samples, as farms do.
TESTS_TREE=$(tests_tree "$src")
export TESTS_TREE
phase_done "$KERNEL tree and series"
if [ -n "$kernel_tree" ]; then
	builds=$CACHE_DIR/build-$(echo "$src" | sha1sum | cut -c1-8)
else
	builds=$BUILD_ROOT
fi

# What a label's build depends on, and what the last build left behind.
# A build from the same inputs as the last one that succeeded there is
# not redone: kbuild and the kselftest build took 49 to 63 s per label
# to find that nothing had changed. Any build since (a bisect step, a
# mutant, a failed build) rewrote build.log or kselftest.log, so its
# key differs and the next run builds again. The scripts in the key are
# those the build runs; mkinitramfs.sh runs every time.
build_key() {
	local label=$1 obj=$2

	{
		tree_key "$src"
		tree_key "$TESTS_TREE"
		cat "$TOP/scripts/build.sh" "$TOP/scripts/build-samples.sh" "$TOP/scripts/lib.sh" \
			"$TOP/scripts/arch/${label%%-*}.conf" "$TOP/scripts/kernel/samples.Kbuild"
		# Where the gates run this kernel does not change how it
		# builds, nor do the comments.
		grep -v -e '^[A-Z_]*LABELS\?=' -e '^#' "$TOP/scripts/kernel/$KERNEL.conf"
		echo "$label ${EXTRA_CONFIGS:-}"
		(load_label "$label" && config_fragments | xargs -d '\n' cat &&
			"${CROSS_COMPILE}gcc" --version | head -n 1)
		stat -c '%n %s %y' "$obj/.config" "$obj/vmlinux" "$obj/build.log" \
			"$obj/kselftest.log" "$obj/modules-root"
	} 2>&1 | sha256sum
}

summaries=()
status=0
[ -z "${EXTRA_CONFIGS:-}" ] || export EXTRA_CONFIGS
# The guest runs the suite, and so the torture, this many times: the
# hung-guest timeout, each architecture's for two passes, grows with that
# (x86_64's debug kernel was still in the soak's fourth pass at 600 s).
export KERNEL_CMDLINE_EXTRA="${KERNEL_CMDLINE_EXTRA:-}$cmdline KPROBES_PASSES=$passes"
export BOOT_TIMEOUT_FACTOR=$(((passes + 1) / 2))
export BOOT_TIMEOUT_EXTRA=$((passes * torture_seconds))
# Each guest runs in the background, while the next label builds and its
# guest boots: a TCG guest keeps one or two host threads busy, a build
# every CPU. At most max_guests run at once (KPROBES_GUESTS); builds run
# at a lower priority, so that a guest's timeouts see the time it had.
max_guests=${KPROBES_GUESTS:-2}
[[ $max_guests =~ ^[1-9]$ ]] || die "KPROBES_GUESTS=$max_guests: a number of guests from 1 to 9"
running=0
# A runner that ends, stopped or not, stops its guests: boot.sh stops
# QEMU on TERM. A build runs in the background too, so that a signal
# stops the runner at once, not when the build ends.
# shellcheck disable=SC2317 # called by the traps
stop_guests() {
	local job

	for job in $(jobs -p); do
		pkill -TERM -P "$job" || :
		kill -TERM "$job" 2>/dev/null || :
	done
}
trap stop_guests EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP
# Waits for one guest to end.
reap_guest() {
	wait -n || status=1
	running=$((running - 1))
}
nth=0
total=$(wc -w <<<"$arches")
for arch_label in $arches; do
	nth=$((nth + 1))
	arch=${arch_label%%-*}
	label=$arch_label$variant$nofixes
	outdir=$out/$label
	obj=$builds/$label
	rm -rf "$outdir"
	mkdir -p "$outdir"
	summaries+=("$outdir/summary.json")
	say "== $label ($nth of $total): build $KERNEL ($src -> $obj)"
	built_from=$obj/.kprobes-built-from
	if [ -f "$built_from" ] && [ "$(cat "$built_from")" = "$(build_key "$arch_label" "$obj")" ]; then
		say "   built before from these sources and scripts, and not since: not rebuilt"
	else
		rm -f "$built_from"
		(renice -n $(($(nice) + 5)) -p "$BASHPID" >/dev/null
		 build_label "$arch_label" "$src" "$obj") &
		if wait "$!"; then
			build_key "$arch_label" "$obj" >"$built_from"
		else
			build_failed=1
		fi
	fi
	if [ -z "${build_failed:-}" ]; then
		phase_done "$label: build"
		"$TOP/scripts/mkinitramfs.sh" "$arch" "$src" "$obj" "$obj/initramfs.cpio" ||
			build_failed=1
	fi
	if [ -n "${build_failed:-}" ]; then
		printf '{"arch": "%s", "ok": false, "cases": [], "problems": ["build failed"], "counts": {"pass": 0, "fail": 0, "skip": 0}}\n' \
			"$label" >"$outdir/summary.json"
		status=1
		unset build_failed
		continue
	fi
	phase_done "$label: initramfs"
	if [ "$running" -ge "$max_guests" ]; then
		reap_guest
		phase_done "$label: waiting for a guest to end"
	fi
	say "== $label: boot and test (console: $outdir/console.log)"
	(
		start=$SECONDS rc=0
		"$TOP/scripts/boot.sh" "$arch" "$obj" "$obj/initramfs.cpio" "$outdir" "$label" || rc=$?
		[ -z "$coverage" ] ||
			"$TOP/scripts/measure/coverage.sh" report "$arch_label" "$src" "$obj" "$outdir" || rc=1
		printf '%6d s  %s\n' $((SECONDS - start)) "$label: boot and test" >"$outdir/time"
		exit "$rc"
	) &
	running=$((running + 1))
	phase_start=$SECONDS
done
while [ "$running" -gt 0 ]; do
	reap_guest
done
phase_done "waiting for the last guests"
for summary in "${summaries[@]}"; do
	[ ! -f "${summary%/*}/time" ] || phases+=("$(cat "${summary%/*}/time")")
done

"$TOP/scripts/results.py" summary "${summaries[@]}" | tee "$out/summary.txt" || status=1
say "results: $out/<arch>/{console.log,results.tap,summary.json}"
say "time per phase:"
printf '%s\n' "${phases[@]}"
exit $status
