#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Checks the target's config the way test farms use it: on the
# architecture's defconfig (DEFCONFIG in scripts/arch/<arch>.conf),
# "make kselftest-merge" merges the config of every selftest target of
# the series' tree; each option that
# tools/testing/selftests/kprobes/config asks for must come out with its
# value (merge_config.sh only warns when Kconfig drops one, and the
# target would then skip or fail on the farm's kernel).
#
# With --boot it then builds that kernel, boots it and runs the suite on
# it as scripts/run.sh does (a defconfig kernel with every target's
# options: a long cold build, so not a gate of scripts/test.sh).
#
# Usage: [KERNEL=K] scripts/ci/check-kselftest-merge.sh [--boot] [ARCH...]  (default: x86_64)
# The configs and builds stay in <cache>/build-<K>/kselftest-merge-<arch>/,
# the results of --boot in out/kselftest-merge/<arch>/.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

boot=0
if [ "${1:-}" = --boot ]; then
	boot=1
	shift
fi
[ $# -gt 0 ] || set -- "$DEFAULT_LABEL"
for arch in "$@"; do
	(load_arch "$arch") || exit 2
done
src=$("$TOP/scripts/apply-series.sh")
wanted=$src/tools/testing/selftests/kprobes/config
[ -f "$wanted" ] || die "$wanted is missing: is the series applied?"

passed=$BUILD_ROOT/kselftest-merge-passed
failed=0
summaries=()
# The farm's config has no KUnit, so no kprobes KUnit suite at boot.
export KERNEL_CMDLINE_EXTRA="${KERNEL_CMDLINE_EXTRA:-} kunit.enable=0"
for arch in "$@"; do
	load_arch "$arch"
	obj=$BUILD_ROOT/kselftest-merge-$arch
	mkdir -p "$obj"
	# What the merged config depends on: the tree (Kconfig, defconfigs,
	# every target's config), the architecture's data, the compilers
	# (Kconfig asks them what they support) and this script.
	key="$arch $(tree_key "$src") $( (cat "$0" "$TOP/scripts/arch/$arch.conf"
		gcc --version; "${CROSS_COMPILE}gcc" --version) | digest)"
	if [ "$boot" = 0 ] && passed_before "$passed" "$key"; then
		say "== $KERNEL $arch: kept the options of kprobes/config before, with the same tree and tools"
		continue
	fi
	make_kernel=(make -C "$src" O="$obj" ARCH="$KERNEL_ARCH"
		CROSS_COMPILE="$CROSS_COMPILE")
	run_logged "$obj/merge.log" "${make_kernel[@]}" "$DEFCONFIG"
	run_logged "$obj/merge.log" "${make_kernel[@]}" kselftest-merge
	lost=0
	while read -r line; do
		grep -qx -- "$line" "$obj/.config" && continue
		# Options the architecture cannot have (scripts/arch/<arch>.conf).
		[[ " $KCONFIG_UNAVAILABLE " != *" ${line%%=*} "* ]] || continue
		say "   $arch: $line asked for, the merged config has:" \
			"$(grep -E "^(# )?${line%%=*}[= ]" "$obj/.config" || echo nothing)"
		lost=$((lost + 1))
	done < <(grep '^CONFIG_' "$wanted")
	if [ "$lost" -eq 0 ]; then
		say "== $KERNEL $arch: defconfig + kselftest-merge keeps the $(grep -c '^CONFIG_' "$wanted") options of kprobes/config"
		record_pass "$passed" "$key"
	else
		say "== $KERNEL $arch: kprobes/config options lost: $lost (log: $obj/merge.log)"
		failed=1
		continue
	fi
	[ "$boot" = 1 ] || continue
	outdir=$TOP/out/kselftest-merge/$arch
	rm -rf "$outdir"
	mkdir -p "$outdir"
	summaries+=("$outdir/summary.json")
	if "$TOP/scripts/build.sh" --config-as-is "$arch" "$src" "$obj" &&
	   "$TOP/scripts/mkinitramfs.sh" "$arch" "$src" "$obj" "$obj/initramfs.cpio"; then
		"$TOP/scripts/boot.sh" "$arch" "$obj" "$obj/initramfs.cpio" "$outdir" \
			"kselftest-merge-$arch" || failed=1
	else
		failed=1
	fi
done
if [ "${#summaries[@]}" -gt 0 ]; then
	"$TOP/scripts/results.py" summary "${summaries[@]}" || failed=1
fi
exit "$failed"
