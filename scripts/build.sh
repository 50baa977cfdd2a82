#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configures and builds the kernel, its modules (the samples) and the
# kprobes kselftest install for one architecture.
#
# Usage: scripts/build.sh [--kselftest-only|--config-as-is] ARCH[-VARIANT] SOURCE_TREE BUILD_DIR
#   --kselftest-only  only the kselftest, against the kernel built before
#   --config-as-is    build BUILD_DIR/.config as it is, not tinyconfig and
#                     the fragments (a farm's config: check-kselftest-merge.sh)
#   ARCH-VARIANT      adds configs/VARIANT.config (arm-thumb2)
#
# BUILD_DIR is kept between runs (with ccache below the kernel's own
# incremental build): a run with nothing changed rebuilds nothing.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kernel=1
config=fragments
case "${1:-}" in
--kselftest-only) kernel=0; shift ;;
--config-as-is) config=as-is; shift ;;
esac
[ $# -eq 3 ] || die "usage: $0 [--kselftest-only|--config-as-is] ARCH[-VARIANT] SOURCE_TREE BUILD_DIR"
load_label "$1"
src=$(realpath "$2")
obj=$(realpath -m "$3")
mkdir -p "$obj"
export CCACHE_DIR=${CCACHE_DIR:-$CACHE_DIR/ccache}
make_kernel=(make -C "$src" O="$obj" ARCH="$KERNEL_ARCH"
	CROSS_COMPILE="$CROSS_COMPILE" -j"$(nproc)")
selftest=$src/tools/testing/selftests/kprobes
mapfile -t fragments < <(config_fragments)
# Absent from a tree before the series' selftest patch (a bisect step).
[ ! -f "$selftest/config" ] || fragments+=("$selftest/config")

# What the fragments ask for, each option as the last fragment naming it
# sets it (a variant's fragment overrides the architecture's).
wanted() {
	awk '/^CONFIG_/ { option = $0; sub(/=.*/, "", option); want[option] = $0 }
	     /^# CONFIG_[A-Za-z0-9_]* is not set$/ { want[$2] = $0 }
	     END { for (option in want) print want[option] }' "${fragments[@]}" | sort
}

# tinyconfig + fragments, rewritten only when an input changed so that an
# unchanged tree does not reconfigure.
configure() {
	local stamp_file=$obj/.kprobes-config-inputs stamp tmp line

	# The tree's part is what Kconfig reads, not its commit: a bisect step
	# or a fix reverted by check-fixes.sh does not configure again.
	stamp=$( (cat "${fragments[@]}"; echo "$KERNEL_ARCH";
		  git -C "$src" ls-tree -r HEAD 2>/dev/null |
			grep -e Kconfig -e 'configs/' -e 'scripts/kconfig/' ||
			date +%s%N) | sha256sum)
	if [ -f "$obj/.config" ] && [ "$(cat "$stamp_file" 2>/dev/null)" = "$stamp" ]; then
		return
	fi
	say "   configuring: tinyconfig + ${fragments[*]##*/}"
	tmp=$obj/config.tmp
	run_logged "$obj/config.log" "${make_kernel[@]}" KCONFIG_CONFIG=config.tmp tinyconfig
	run_logged "$obj/config.log" "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$tmp" "${fragments[@]}"
	mv "$obj/.config" "$tmp"
	run_logged "$obj/config.log" "${make_kernel[@]}" KCONFIG_CONFIG=config.tmp olddefconfig
	# A requested option that Kconfig dropped (a missing dependency) would
	# otherwise only show up as a confusing test failure.
	while read -r line; do
		grep -qx -- "$line" "$tmp" && continue
		option=${line%%=*}
		# Options the architecture cannot have (scripts/arch/<arch>.conf).
		if [[ " ${KCONFIG_UNAVAILABLE:-} " == *" $option "* ]]; then
			say "   $option: not available on $ARCH_NAME"
			continue
		fi
		# Fine for an option the tree does not define (yet): a bisect step
		# before the patch that adds it.
		if grep -rqsx --include='Kconfig*' "config ${option#CONFIG_}" "$src"; then
			die "$line did not stick in the config (dependency missing?)"
		fi
		say "   $option: not defined in this tree"
	done < <(wanted | grep '^CONFIG_')
	while read -r option; do
		! grep -q "^$option=" "$tmp" || die "$option is set although a fragment unsets it"
	done < <(wanted | sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p')
	if ! cmp -s "$tmp" "$obj/.config"; then
		mv "$tmp" "$obj/.config"
	else
		rm -f "$tmp"
	fi
	echo "$stamp" >"$stamp_file"
}

# Runs make with its output in log $1 and says every 30 s how far it is:
# the files built so far, of how many the biggest build here had.
make_with_progress() {
	local log=$1 steps_file=$obj/.kprobes-build-steps pid status=0 most steps
	local start=$SECONDS next=$((SECONDS + 30))

	shift
	most=$(cat "$steps_file" 2>/dev/null || echo 0)
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		[ "$SECONDS" -ge "$next" ] || continue
		next=$((SECONDS + 30))
		steps=$(grep -c '^  [A-Z]' "$log" || true)
		if [ "$most" -gt 0 ]; then
			progress "$steps files built, $((SECONDS - start)) s (a full build here: $most)"
		else
			progress "$steps files built, $((SECONDS - start)) s"
		fi
	done
	wait "$pid" || status=$?
	steps=$(grep -c '^  [A-Z]' "$log" || true)
	[ "$steps" -le "$most" ] || echo "$steps" >"$steps_file"
	if [ "$status" != 0 ]; then
		tail -n 25 "$log" >&2
		die "failed: $* (full log: $log)"
	fi
}

if [ "$kernel" = 1 ]; then
	if [ "$config" = fragments ]; then
		configure
	else
		[ -f "$obj/.config" ] || die "--config-as-is: $obj/.config is missing"
	fi
	say "   building the kernel and modules (log: $obj/build.log)"
	make_with_progress "$obj/build.log" "${make_kernel[@]}" CC="ccache ${CROSS_COMPILE}gcc"
	rm -rf "$obj/modules-root"
	# Stripped, as distributions and farms install them: a defconfig
	# kernel's modules with their debug info did not fit the guest's
	# memory as an initramfs (check-kselftest-merge.sh --boot).
	run_logged "$obj/install.log" "${make_kernel[@]}" INSTALL_MOD_PATH="$obj/modules-root" \
		INSTALL_MOD_STRIP=1 modules_install
fi
if [ ! -f "$selftest/Makefile" ]; then
	say "   no kprobes kselftest in this tree"
	exit 0
fi
say "   building the kprobes kselftest (log: $obj/kselftest.log)"
# The test modules build in the source tree, which every build directory
# of it shares, and kbuild did not rebuild them after a change of .config
# (seen: modules of a CONFIG_JUMP_LABEL=y kernel loaded into one without).
modules=tools/testing/selftests/kprobes/test_modules
built_for="$obj $(sha256sum <"$obj/.config")"
if [ "$(cat "$src/$modules/.kprobes-built-for" 2>/dev/null)" != "$built_for" ]; then
	git -C "$src" clean -fdxq -- "$modules"
fi
# Static: the guest has busybox and no C library.
run_logged "$obj/kselftest.log" make -C "$src/tools/testing/selftests" TARGETS=kprobes \
	ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" O="$obj" KDIR="$obj" \
	LDFLAGS=-static install
ls "$obj"/kselftest/kselftest_install/kprobes/test_modules/*.ko >/dev/null 2>&1 ||
	die "the kprobes test module was not built (log: $obj/kselftest.log)"
echo "$built_for" >"$src/$modules/.kprobes-built-for"
