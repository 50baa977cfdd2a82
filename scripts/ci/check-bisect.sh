#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bisectability of a kernel's series (KERNEL, default the upstream one):
# with the patches applied one at a time, each step builds what it
# changes, for each architecture, and the kernel C files a patch changes
# compile with W=1 and sparse (C=1) with no more warnings than before the
# series.
#
# It works in the pipeline's own tree and build directories: the base is
# built first, each step rebuilds only what its patch changed, and the
# tree is left at the series' tip, so the QEMU run after it builds almost
# nothing. A step is built as much as it can matter: a patch on the
# kselftest alone builds the kselftest on the first architecture (the
# tip's is built on every one by the QEMU run), one on Documentation/
# alone builds nothing (the documentation gate builds it), one on C
# files that the architecture's kernel does not compile (arm's Thumb-2
# code elsewhere) or on another architecture's arch/ directory builds
# nothing either; one that only modifies C or assembler files, whose tree
# another label built and linked whole, compiles those files (with W=1
# and sparse) once the label has built whole in this run and passed its
# last step, and builds whole if they use a symbol its last link lacks;
# any other builds the kernel, its modules and, once it exists, the
# kselftest.
#
# A step whose tree was built and checked before on the architecture,
# with the same compiler, sparse, fragments and scripts, is not built
# again (BUILD_ROOT/bisect-verified-ARCH): a run rebuilds only the steps
# of the patches that changed and of those after them.
#
# Usage: scripts/ci/check-bisect.sh [ARCH[-VARIANT]...]
#   (default: every architecture and variant, as run.sh --arch all)
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# The labels first: a misspelt one stops the run before the tree changes.
arches=("$@")
[ ${#arches[@]} -gt 0 ] || mapfile -t arches < <(known_labels)
for arch in "${arches[@]}"; do
	[[ $arch != -* ]] || die "unknown option '$arch' (usage: $0 [ARCH[-VARIANT]...])"
	(load_label "$arch") || exit 2
done

src=$("$TOP/scripts/apply-series.sh")
tip=$(git -C "$src" rev-parse HEAD)
mapfile -t commits < <(git -C "$src" rev-list --reverse "$PRISTINE_TAG..$tip")
# Kernel C files the series changes, outside samples/ and tools/ (which
# check-build.sh compiles with W=1 and sparse).
mapfile -t kernel_files < <(git -C "$src" diff --name-only "$PRISTINE_TAG" "$tip" -- '*.c' |
	grep -v -e '^samples/' -e '^tools/' || true)
trap 'git -C "$src" checkout -q --detach "$tip"' EXIT
sparse=$("$TOP/scripts/ci/sparse.sh" "$src")

# What step $1 needs built in build directory $2: kernel, kselftest,
# nothing, or "unused" when it changes only C or assembler files not
# compiled there, or files of another architecture (arch/X/, which a
# build directory of X has).
step_kind() {
	local paths path

	paths=$(git -C "$src" diff --name-only "$1^" "$1")
	if grep -qv -e '^tools/testing/selftests/' -e '^Documentation/' <<<"$paths"; then
		while read -r path; do
			if [[ $path == arch/*/* ]] && [ ! -d "$2/$(cut -d/ -f1-2 <<<"$path")" ]; then
				continue
			fi
			if [[ $path != *.[cS] ]] || maybe_compiled "$2" "$path"; then
				echo kernel
				return
			fi
		done <<<"$paths"
		echo unused
	elif grep -q '^tools/testing/selftests/kprobes/' <<<"$paths"; then
		echo kselftest
	else
		echo nothing
	fi
}

# Prints the number of W=1 and sparse warnings in each file of
# kernel_files; the warnings of what make rebuilds on the way
# (asm-offsets, arm64's vDSO, ...) are not the file's.
w1_warnings() {
	local obj=$1 file targets=()

	for file in "${kernel_files[@]}"; do
		# Not compiled for this configuration (Thumb-2 code on x86_64).
		[ -f "$obj/${file%.c}.o" ] || continue
		# Compiled for sure: W=1 also runs kernel-doc on the file.
		rm -f "$obj/${file%.c}.o"
		targets+=("${file%.c}.o")
	done
	# One make for all: each make spends seconds on its prepare stage.
	if [ ${#targets[@]} -gt 0 ]; then
		make -k -C "$src" O="$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
			W=1 C=1 CHECK="$sparse" "${targets[@]}" >"$obj/w1.log" 2>&1 || true
		! grep -q "not available or not up to date" "$obj/w1.log" ||
			die "sparse cannot check: $(grep -m1 "not available" "$obj/w1.log")"
	fi
	for file in "${kernel_files[@]}"; do
		if [[ " ${targets[*]} " == *" ${file%.c}.o "* ]]; then
			grep -cE "$file:[0-9]+(:[0-9]+)?: warning:" "$obj/w1.log" || true
		else
			echo -
		fi
	done
}

# The objects to compile at step $1 in build directory $2 in place of a
# whole build: the step only modifies C and assembler files compiled
# there (no header, Makefile or Kconfig, nothing added or removed), and
# its tree was built and linked whole, with these objects, on another
# label (BUILD_ROOT/bisect-linked). A step that changes kernel/kprobes.c
# took 28 to 36 s to build and link, and 20 to 26 s more for W=1 and
# sparse; compiling the one file with W=1 and sparse takes 5 to 9 s.
# Fails when the step builds the whole kernel here.
step_objects() {
	local commit=$1 obj=$2 status path objects=()

	! build_interrupted "$obj" || return 1
	while read -r status path; do
		if [[ $path == arch/*/* ]] && [ ! -d "$obj/$(cut -d/ -f1-2 <<<"$path")" ]; then
			continue
		fi
		[ "$status" = M ] && [[ $path == *.[cS] ]] || return 1
		! maybe_compiled "$obj" "$path" || objects+=("${path%.?}.o")
	done < <(git -C "$src" diff --name-status "$commit^" "$commit" -- . \
		':!tools/testing/selftests/' ':!Documentation/')
	[ ${#objects[@]} -gt 0 ] || return 1
	linked_on "$commit" "${objects[@]}" >/dev/null || return 1
	printf '%s\n' "${objects[@]}"
}

# The label on which the tree of step $1 was built and linked whole with
# objects $2... in it (arm's link of a step does not hold Thumb-2 code).
linked_on() {
	local commit=$1 tree label

	shift
	tree=$(git -C "$src" rev-parse "$commit^{tree}")
	while read -r label; do
		if (cd "$BUILD_ROOT/$label" 2>/dev/null && ls "$@" >/dev/null 2>&1); then
			echo "$label"
			return
		fi
	done < <(awk -v tree="$tree" '$1 == tree { print $2 }' "$linked")
	return 1
}

# Compiles objects $2... in build directory $1 with W=1 and sparse, and
# prints the warnings of each file of kernel_files as w1_warnings() does;
# the files it does not compile keep their count of the base, which the
# label's previous step matched (the caller's "ready").
compile_objects() {
	local obj=$1 i=0 file
	local -a counts

	shift
	make -C "$src" O="$obj" ARCH="$KERNEL_ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
		W=1 C=1 CHECK="$sparse" "$@" >"$obj/w1.log" 2>&1 || return
	! grep -q "not available or not up to date" "$obj/w1.log" ||
		die "sparse cannot check: $(grep -m1 "not available" "$obj/w1.log")"
	read -ra counts <<<"$baseline"
	for file in "${kernel_files[@]}"; do
		if [[ " $* " == *" ${file%.c}.o "* ]]; then
			grep -cE "$file:[0-9]+(:[0-9]+)?: warning:" "$obj/w1.log" || true
		else
			echo "${counts[i]}"
		fi
		i=$((i + 1))
	done
}

# Whether every symbol that objects $2... use is in the kernel last linked
# in build directory $1: what the link of another label cannot show
# (a libgcc helper of a 32-bit kernel, a function only some architectures
# define). A symbol that is new in this step is not there either: the
# step then builds whole.
symbols_linked() {
	local obj=$1

	shift
	"${CROSS_COMPILE}nm" -u "${@/#/$obj/}" |
		awk 'NR == FNR { linked[$3] = 1; next }
		     $1 == "U" && !($2 in linked) { missing = 1 }
		     END { exit missing }' "$obj/System.map" -
}

# Every step is configured for the series' tests, as the tip is: patches
# before the selftest patch change code that only its config enables.
mkdir -p "$BUILD_ROOT"
export EXTRA_CONFIGS=$BUILD_ROOT/bisect-selftest.config
git -C "$src" show "$tip:tools/testing/selftests/kprobes/config" >"$EXTRA_CONFIGS"

# What a verified step has been checked for. The key of a step holds
# this, not this script's text: an edit of a comment or of the output
# here sent every step of every label to be built again (hours). An edit
# that changes what a step is checked for changes this line. A step
# compiled in place of a whole build (step_objects) has the same key:
# its tree was linked on another label, and its objects use only symbols
# this label's kernel has.
CHECKS="builds (step_kind), W=1 and sparse no worse than the base (w1_warnings), v1"

# A tree that built (and was counted) before, with the same compiler,
# sparse, config fragments, build script and checks, builds the same
# again: each architecture keeps the keys of its verified steps, and a
# run redoes only the steps whose tree is new (those of the patches that
# changed and of the ones after them).
tool_key() {
	{
		"${CROSS_COMPILE}gcc" --version | head -n 1
		# Contents only: a clean clone has other paths.
		# This label's own data: another architecture's does not
		# change what this one builds.
		# config_fragments' list, in the order the first walks were
		# keyed with: a new order would verify every step again.
		local variant=${1#"${1%%-*}"}
		cat "$sparse" "$TOP/configs/base.config" "$TOP/configs/$ARCH_NAME.config" \
			${variant:+"$TOP/configs/${variant#-}.config"} "$EXTRA_CONFIGS" \
			"$TOP/scripts/arch/$ARCH_NAME.conf" "$TOP/scripts/build.sh" | sha1sum
		echo "$CHECKS"
		echo "$1"
	} | sha1sum | cut -c1-16
}

# The trees of the steps that built and linked whole, on which label.
linked=$BUILD_ROOT/bisect-linked
touch "$linked"

status=0
for arch in "${arches[@]}"; do
	load_arch "${arch%%-*}"
	obj=$BUILD_ROOT/$arch
	log=$BUILD_ROOT/bisect-$arch.log
	verified=$BUILD_ROOT/bisect-verified-$arch
	touch "$verified"
	key=$(tool_key "$arch")
	base_key="$key $(git -C "$src" rev-parse "$PRISTINE_TAG^{tree}") ${kernel_files[*]} base:"
	baseline=$(grep -F "$base_key" "$verified" | head -n 1 | cut -d: -f2 || true)
	baseline_built=
	if [ -n "$baseline" ]; then
		say "   $arch: the base built before (W=1, sparse:$baseline)"
	else
		baseline_built=1
		git -C "$src" checkout -q --detach "$PRISTINE_TAG"
		say "   $arch: building the base"
		started=$SECONDS
		build_begin "$obj"
		run_logged "$log" "$TOP/scripts/build.sh" "$arch" "$src" "$obj"
		build_end "$obj"
		baseline=" $(w1_warnings "$obj" | tr '\n' ' ')"
		echo "$base_key$baseline" >>"$verified"
		say "   $arch: the base built in $((SECONDS - started)) s (W=1, sparse:$baseline)"
	fi
	built_parent=${baseline_built:-}
	# Whether the build directory holds this run's configuration and a
	# step whose warnings matched the base: a step may then compile only.
	ready=${baseline_built:-}
	step=0
	for commit in "${commits[@]}"; do
		step=$((step + 1))
		subject="$step of ${#commits[@]}: $(git -C "$src" log -1 --format=%s "$commit")"
		step_key="$key $(git -C "$src" rev-parse "$commit^{tree}") ok"
		if grep -qxF "$step_key" "$verified"; then
			say "   $arch: built before at \"$subject\""
			built_parent=
			ready=
			continue
		fi
		kind=$(step_kind "$commit" "$obj")
		case $kind in
		nothing)
			say "   $arch: nothing to build at \"$subject\""
			continue ;;
		unused)
			say "   $arch: not compiled here: \"$subject\""
			continue ;;
		kselftest)
			# The kselftest is the same C for every architecture: each
			# step builds on the first, the tip on all (the QEMU gate).
			if [ "$arch" != "${arches[0]}" ]; then
				say "   $arch: kselftest built on ${arches[0]} at \"$subject\""
				continue
			fi
			build=("$TOP/scripts/build.sh" --kselftest-only)
			# After skipped steps the kernel built is another tree's.
			[ -n "$built_parent" ] || build=("$TOP/scripts/build.sh") ;;
		kernel)
			build=("$TOP/scripts/build.sh")
			if [ -n "$ready" ] && compile=$(step_objects "$commit" "$obj"); then
				mapfile -t objects <<<"$compile"
				git -C "$src" checkout -q --detach "$commit"
				started=$SECONDS
				build_begin "$obj"
				if ! warnings=" $(compile_objects "$obj" "${objects[@]}" | tr '\n' ' ')"; then
					build_end "$obj"
					tail -n 15 "$obj/w1.log"
					say "   $arch: does NOT compile at \"$subject\" (log: $obj/w1.log)"
					status=1
					ready=
					continue
				fi
				build_end "$obj"
				if ! symbols_linked "$obj" "${objects[@]}"; then
					say "   $arch: ${objects[*]} use symbols that the last kernel linked here lacks: building whole"
				elif [ "$warnings" != "$baseline" ]; then
					say "   $arch: new W=1 or sparse warnings at \"$subject\" in ${kernel_files[*]}:$baseline->$warnings"
					status=1
					ready=
					continue
				else
					say "   $arch: compiles at \"$subject\" (${objects[*]}, $((SECONDS - started)) s; linked on $(linked_on "$commit" "${objects[@]}"); W=1 and sparse:$warnings)"
					echo "$step_key" >>"$verified"
					continue
				fi
			fi ;;
		esac
		# Only a step that builds moves the tree: a checkout rewrites the
		# files of every later patch (x86's kprobes/core.c and
		# samples/Kconfig for an ARM patch on arm64), and each label's
		# next build compiles again what depends on them.
		git -C "$src" checkout -q --detach "$commit"
		built_parent=1
		started=$SECONDS
		build_begin "$obj"
		if ! "${build[@]}" "$arch" "$src" "$obj" >"$log" 2>&1; then
			# Unlike a killed build, one that failed left nothing half
			# written (kbuild deletes a target whose command failed):
			# the next step must not take it for interrupted and delete
			# what it wrote (the config's auto.conf among them).
			build_end "$obj"
			tail -n 15 "$log"
			say "   $arch: does NOT build at \"$subject\" (log: $log)"
			status=1
			ready=
			continue
		fi
		build_end "$obj"
		built=$((SECONDS - started))
		ready=
		if [ ${#kernel_files[@]} = 0 ] ||
		   git -C "$src" diff --quiet "$commit^" "$commit" -- "${kernel_files[@]}"; then
			say "   $arch: builds at \"$subject\" ($kind, ${built} s)"
		else
			warnings=" $(w1_warnings "$obj" | tr '\n' ' ')"
			if [ "$warnings" != "$baseline" ]; then
				say "   $arch: new W=1 or sparse warnings at \"$subject\" in ${kernel_files[*]}:$baseline->$warnings"
				status=1
				continue
			fi
			say "   $arch: builds at \"$subject\" ($kind, ${built} s, W=1 and sparse $((SECONDS - started - built)) s:$warnings)"
		fi
		echo "$step_key" >>"$verified"
		if [ "$kind" = kernel ]; then
			echo "$(git -C "$src" rev-parse "$commit^{tree}") $arch" >>"$linked"
			ready=1
		fi
	done
done
exit $status
