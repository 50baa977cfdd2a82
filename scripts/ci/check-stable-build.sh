#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds the newest kernel's kprobes test modules and samples out of tree
# against a stable kernel (KERNEL=6.12|6.1, its series of fixes applied),
# as a CI farm builds today's kselftests for every stable kernel: on the
# architecture's defconfig with kprobes/config merged, after only "make
# modules_prepare", so that no kernel is built. Fails on any compiler
# warning (W=1) or error: a test module that needs an API the stable
# kernel lacks must skip for that reason, not break the farm's build.
#
# Usage: KERNEL=K scripts/ci/check-stable-build.sh ARCH[-VARIANT]...
# The builds stay in <cache>/build-<K>/stable-build-<label>/.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -gt 0 ] || die "usage: KERNEL=K $0 ARCH[-VARIANT]..."
[ -n "$TESTS_FROM" ] || die "KERNEL=$KERNEL is not a stable kernel (its record has no TESTS_FROM)"
for label in "$@"; do
	[[ $label != -* ]] || die "unknown option '$label' (usage: KERNEL=K $0 ARCH[-VARIANT]...)"
	(load_label "$label") || exit 2
done
src=$("$TOP/scripts/apply-series.sh")
tests=$(tests_tree "$src")
export CCACHE_DIR=${CCACHE_DIR:-$CACHE_DIR/ccache}
passed=$BUILD_ROOT/stable-build-passed
status=0
for label in "$@"; do
	EXTRA_CONFIGS=
	load_label "$label"
	obj=$BUILD_ROOT/stable-build-$label
	# The verdict depends on both trees, the architecture's and the
	# kernel's records, the samples' Kbuild, the compiler and this script.
	# shellcheck disable=SC2086 # EXTRA_CONFIGS is a list of files
	key="$label $(tree_key "$src") $(tree_key "$tests") $( (cat "$0" \
		"$TOP/scripts/arch/$ARCH_NAME.conf" "$TOP/scripts/kernel/$KERNEL.conf" \
		"$TOP/scripts/kernel/samples.Kbuild" $EXTRA_CONFIGS; "${CROSS_COMPILE}gcc" --version) | digest)"
	if passed_before "$passed" "$key"; then
		say "   $KERNEL $label: built against it before, with the same trees and tools"
		continue
	fi
	mkdir -p "$obj"
	make_kernel=(make -C "$src" O="$obj" ARCH="$KERNEL_ARCH"
		CROSS_COMPILE="$CROSS_COMPILE" -j"$(nproc)")
	# The kernel record's options under this kernel's names.
	record_config=KCONFIG_FRAGMENT_${label%%-*}
	printf '%s\n' "${!record_config:-}" >"$obj/kernel-record.config"
	run_logged "$obj/defconfig.log" "${make_kernel[@]}" "$DEFCONFIG"
	# In $obj: merge_config.sh leaves its temporary files where it runs.
	# shellcheck disable=SC2086 # EXTRA_CONFIGS is a list of files
	(cd "$obj" && run_logged "$obj/merge.log" "$src/scripts/kconfig/merge_config.sh" -m \
		-O "$obj" "$obj/.config" $EXTRA_CONFIGS "$obj/kernel-record.config" \
		"$tests/tools/testing/selftests/kprobes/config")
	run_logged "$obj/olddefconfig.log" "${make_kernel[@]}" olddefconfig
	# olddefconfig drops an option whose dependencies are missing: then
	# the samples' Kbuild would build no kretprobe sample, and pass.
	for option in CONFIG_KPROBES CONFIG_KRETPROBES; do
		grep -qx "$option=y" "$obj/.config" || die "$KERNEL $label: $option is not set in $obj/.config"
	done
	run_logged "$obj/prepare.log" "${make_kernel[@]}" CC="ccache ${CROSS_COMPILE}gcc" \
		modules_prepare
	label_status=0
	for dir in tools/testing/selftests/kprobes/test_modules samples/kprobes; do
		# A copy: kbuild writes an external module's objects beside it.
		work=$obj/oot/$dir
		rm -rf "$work"
		mkdir -p "$work"
		find "$tests/$dir" -maxdepth 1 \( -name '*.[chS]' -o -name Makefile \) \
			-exec cp -t "$work" {} +
		# The newest samples/Makefile needs the newest Kconfig's options.
		[ "$dir" != samples/kprobes ] ||
			cp "$TOP/scripts/kernel/samples.Kbuild" "$work/Kbuild"
		log=$work/build.log
		# No Module.symvers without a kernel build: modpost warns that it
		# is missing and of the kernel's symbols it cannot see (some, then
		# how many more); every other warning, the assembler's and
		# modpost's included, counts.
		if ! "${make_kernel[@]}" M="$work" W=1 KBUILD_MODPOST_WARN=1 modules >"$log" 2>&1 ||
		   grep -iE "(warning|error):" "$log" | grep -vE \
			-e 'Module\.symvers is missing' -e 'modpost: "[^"]*" \[[^]]*\] undefined!' \
			-e 'modpost: suppressed [0-9]+ unresolved symbol warnings' |
			grep . >/dev/null; then
			grep -iE "(warning|error):" "$log" || tail -n 20 "$log"
			say "   $KERNEL $label $dir: does NOT build cleanly against it (log: $log)"
			label_status=1
		else
			say "   $KERNEL $label $dir: builds against it with W=1, no warning"
		fi
	done
	if [ "$label_status" = 0 ]; then
		record_pass "$passed" "$key"
	else
		status=1
	fi
done
exit $status
