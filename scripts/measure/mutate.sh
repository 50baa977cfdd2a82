#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Measures what the suite catches: applies each mutant (one small change
# to the kernel, a sample or a test module) to the pipeline's tree of the
# kernel (never to the series), rebuilds incrementally, boots, runs the
# suite and says whether a case went red. Restores the tree after each.
#
# The mutants are data, in mutants/kprobes.mutants, one per line:
#   name<TAB>kernels (comma-separated, or "all")<TAB>path in the kernel
#   tree<TAB>text of one line<TAB>its replacement
#   [<TAB>CONFIG_X or !CONFIG_X: only where the kernel's .config has it so]
# The text must occur on exactly one line of the file; \t in it is a tab.
# A mutant of a file the architecture's kernel does not build (another
# architecture's code, rethook.c where kretprobes do without it) is not
# run there (a test module's object is in the source tree).
#
# mutants/kprobes.equivalent lists the mutants no test can observe, one
# per line: name<TAB>kernels<TAB>architectures (comma-separated, or
# "all")<TAB>why. They are not run there unless named, and not counted
# in the score.
#
# With --fixes, the changes are the kernel's fixes instead, each
# reverted in the same tree (a fix, and the later patches of the series
# that change its lines, where it does not revert alone): each must go
# red. The fixes are the series' patches with a Fixes: tag or a Cc:
# stable; REGEX picks them by subject.
#
# Usage: KERNEL=7.3 scripts/measure/mutate.sh [--arch ARCH[-VARIANT]] [--out DIR] [--check] [NAME...]
#        KERNEL=7.3 scripts/measure/mutate.sh --fixes [--arch ARCH[-VARIANT]] [--out DIR] [REGEX...]
#   (default: x86_64, out/mutants/<kernel>-<arch> or out/fixes/<kernel>-<arch>,
#   every mutant or fix)
#   --check  only checks that each mutant applies, then restores the tree
# Prints one line per mutant: killed (by which cases), crashed (the guest
# died or hung: which case ran last), survived, or invalid (did not
# apply or build), then the score and the equivalent mutants; exits
# non-zero if one survived or was invalid. With --fixes: red (killed or
# crashed, and how) or green per fix; non-zero if one stayed green.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

arch=$DEFAULT_LABEL
out=
check_only=
fixes=
while [ $# -gt 0 ]; do
	case $1 in
	--arch) [ $# -ge 2 ] || die "--arch needs a value"; arch=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
	--check) check_only=1; shift ;;
	--fixes) fixes=1; shift ;;
	-*) die "unknown argument: $1" ;;
	*) break ;;
	esac
done
[ -z "$fixes" ] || [ -z "$check_only" ] || die "--check is for mutants, not --fixes"
kind=mutants
[ -z "$fixes" ] || kind=fixes
out=$(realpath -m "${out:-$TOP/out/$kind/$KERNEL-$arch}")
mkdir -p "$out"
# This kernel's lines of $1, without the kernels field, into $2.
for_kernel() {
	awk -F '\t' -v OFS='\t' -v kernel="$KERNEL" '
		/^#/ || NF < 2 { next }
		$2 == "all" || index("," $2 ",", "," kernel ",") { $2 = ""; sub(/\t\t/, "\t"); print }
	' "$1" >"$2"
}
list=$out/mutants.tsv
equivalents=$out/equivalent.tsv
for_kernel "$TOP/mutants/kprobes.mutants" "$list"
for_kernel "$TOP/mutants/kprobes.equivalent" "$equivalents"
[ -n "$fixes" ] || [ -s "$list" ] || die "no mutants for kernel $KERNEL in mutants/kprobes.mutants"
(load_label "$arch") || exit 2
load_arch "${arch%%-*}"
for name in "$@"; do
	if [ -n "$fixes" ]; then
		# bash's =~ says 2 for a pattern that is not a regex.
		rc=0
		[[ "" =~ $name ]] || rc=$?
		[ "$rc" != 2 ] || die "not a regex: $name"
		continue
	fi
	cut -f1 "$list" | grep -x -- "$name" >/dev/null ||
		die "no mutant '$name' for $KERNEL in mutants/kprobes.mutants"
done
# Why mutant $1 cannot be observed on $arch; nothing if it can.
equivalent_why() {
	[ -f "$equivalents" ] || return 0
	awk -F '\t' -v name="$1" -v arch="$arch" '
		$1 == name && ($2 == "all" || index("," $2 ",", "," arch ",")) { print $3; exit }
	' "$equivalents"
}

src=$("$TOP/scripts/apply-series.sh")
tip=$(git -C "$src" rev-parse HEAD)
# A stable kernel runs today's selftests and samples, from the newest
# kernel's tree (build_label() takes it from here).
TESTS_TREE=$(tests_tree "$src")
export TESTS_TREE
obj=$BUILD_ROOT/$arch
restore() {
	git -C "$src" reset -q --hard "$tip"
}
trap restore EXIT
# What the kernel builds decides which mutants apply: build it first.
[ -e "$obj/vmlinux" ] || run_logged "$out/build.log" build_label "$arch" "$src" "$obj"
export KERNEL_CMDLINE_EXTRA="${KERNEL_CMDLINE_EXTRA:-} KPROBES_PASSES=1"
# A guest that a mutant hangs waits for this, not for a whole suite's
# timeout: still several times what one pass takes.
export BOOT_TIMEOUT_OVERRIDE=${BOOT_TIMEOUT_OVERRIDE:-$((BOOT_TIMEOUT / 2))}

# Replaces the one line of $2 (a file) that holds $3 by the line with $4.
mutate() {
	python3 - "$@" <<'EOF'
import sys
path, old, new = (a.replace('\\t', '\t') for a in sys.argv[1:4])
lines = open(path).read().split('\n')
hits = [i for i, l in enumerate(lines) if old in l]
if len(hits) != 1:
    sys.exit('%s: "%s" is on %d lines, not 1' % (path, old, len(hits)))
lines[hits[0]] = lines[hits[0]].replace(old, new)
open(path, 'w').write('\n'.join(lines))
EOF
}

# Boots the mutant with the suite once (log $1, results in $2, more
# kernel parameters in $3) and sets $verdict (survived, killed: a named
# case failed, crashed) and $detail (the cases, or where the guest died),
# as scripts/results.py reads the run's summary.json.
judge() {
	# Not the last run's: a boot that fails early leaves none.
	rm -f "$2/summary.json" "$2/console.log"
	KERNEL_CMDLINE_EXTRA="$KERNEL_CMDLINE_EXTRA ${3:-}" \
		"$TOP/scripts/boot.sh" "${arch%%-*}" "$obj" "$obj/initramfs.cpio" "$2" "$arch" \
		>"$1" 2>&1 || :
	verdict='' detail=''
	read -r verdict detail < <("$TOP/scripts/results.py" verdict "$2") || :
	[ -n "$verdict" ] || die "no verdict for the run in $2 (log: $1)"
}

# Builds the tree as it is (a mutant applied, or a fix reverted), boots it
# with the suite once and sets $verdict and $detail (judge), in log $2
# and $out/$1; false when it does not build.
build_and_judge() {
	local at_boot

	# In subshells: run_logged dies on a failure, which ends only them.
	(run_logged "$2" build_label "$arch" "$src" "$obj") &&
	(run_logged "$2" "$TOP/scripts/mkinitramfs.sh" "${arch%%-*}" "$src" "$obj" \
		"$obj/initramfs.cpio") || return 1
	judge "$2" "$out/$1"
	# The kernel's KUnit kprobes suite runs at boot, before ours: when it
	# kills the guest, ours is asked again without it.
	if [ "$verdict" = crashed ] && grep -q 'never started the tests' "$2"; then
		at_boot=$detail
		judge "$2.kunit-off" "$out/$1-kunit-off" kunit.enable=0
		if [ "$verdict" = survived ] || [ "$verdict" = crashed ]; then
			verdict=crashed detail=$at_boot
		else
			detail="$detail (with KUnit off; with it, at boot: $at_boot)"
		fi
	fi
}

# Whether commit $1 changes something this configuration builds: a fix
# of C or assembler files it does not compile (arm's Thumb-2 code on
# x86_64) cannot change what it runs.
compiled_here() {
	local path

	while read -r path; do
		[[ $path == *.[cS] ]] && ! maybe_compiled "$obj" "$path" || return 0
	done < <(git -C "$src" diff --name-only "$1^" "$1")
	return 1
}

# Reverts fix $1 on the tip. Where a later patch changed the same lines
# (a backport's context), that one is reverted first too, the nearest
# first and no more than needed; $also names them.
revert_fix() {
	local later=() n i

	also=
	restore
	git -C "$src" revert --no-commit "$1" >/dev/null 2>&1 && return
	# shellcheck disable=SC2046 # the fix's files, one word each
	mapfile -t later < <(git -C "$src" rev-list --reverse "$1..$tip" -- \
		$(git -C "$src" diff --name-only "$1^" "$1"))
	for ((n = 1; n <= ${#later[@]}; n++)); do
		restore
		for ((i = n - 1; i >= 0; i--)); do
			git -C "$src" revert --no-commit "${later[i]}" >/dev/null 2>&1 || continue 2
		done
		git -C "$src" revert --no-commit "$1" >/dev/null 2>&1 || continue
		also=$(git -C "$src" show -s --format='"%s"' "${later[@]:0:n}" | paste -sd, | sed 's/,/, /g')
		return
	done
	return 1
}

# Whether subject $1 matches one of the regexes after it (all, if none).
wanted_fix() {
	local subject=$1 re

	shift
	[ $# -gt 0 ] || return 0
	for re in "$@"; do
		[[ ! $subject =~ $re ]] || return 0
	done
	return 1
}

# A run with the same inputs as one that passed gives the same verdicts:
# the series (the tip holds the kernel, and on the newest kernel the
# selftests and the samples; a stable kernel's come from TESTS_TREE; the
# fixes, found by their messages' tags, are reverted each as its
# commit changed the tree: the trees and messages, not the commit ids,
# which re-applying the series changes), the mutants, the scripts, the
# label's config fragments, the compiler and QEMU.
# Not the scripts no mutant's run reads (the gates', the farms', the
# series' and the other measurements): an edit there ran the mutants
# again, about 6 minutes of CI's.
series=$(git -C "$src" rev-parse "$PRISTINE_TAG^{tree}" &&
	git -C "$src" log --format='%T%n%B' "$PRISTINE_TAG..$tip")
verdicts_key=$({
	printf '%s\n' "$series"
	[ "$TESTS_TREE" = "$src" ] || tree_key "$TESTS_TREE"
	echo "$arch $kind $(printf '%q ' "$@")"
	cat "$list" "$equivalents" 2>/dev/null || :
	(load_label "$arch" && config_fragments | xargs -d '\n' cat)
	find "$TOP/scripts" -type f ! -path '*/__pycache__/*' \
		! -path "$TOP/scripts/ci/*" ! -path "$TOP/scripts/farm/*" \
		! -path "$TOP/scripts/series/*" ! -path "$TOP/scripts/test.sh" \
		! -path "$TOP/scripts/run.sh" \
		! \( -path "$TOP/scripts/measure/*" ! -name mutate.sh \) -print0 |
		LC_ALL=C sort -z | xargs -0 cat
	"${CROSS_COMPILE}gcc" --version | head -n 1
	dpkg-query -W -f='${source:Version}\n' "$QEMU_PACKAGE" 2>/dev/null || :
} | digest)
verdicts=$CACHE_DIR/mutants/$KERNEL-$arch-$verdicts_key
if [ -z "$check_only" ] && [ -f "$verdicts" ]; then
	say "   the inputs of a run that passed, unchanged: its verdicts ($verdicts)"
	cat "$verdicts"
	exit 0
fi
: >"$out/verdicts.txt"
report() { say "$*" | tee -a "$out/verdicts.txt"; }

# A kill means something only if the tip, without a mutant or with every
# fix, passes.
if [ -z "$check_only" ]; then
	restore
	if ! (run_logged "$out/baseline.log" build_label "$arch" "$src" "$obj") ||
	   ! (run_logged "$out/baseline.log" "$TOP/scripts/mkinitramfs.sh" "${arch%%-*}" "$src" \
		"$obj" "$obj/initramfs.cpio"); then
		die "the series' tip does not build (log: $out/baseline.log)"
	fi
	judge "$out/baseline.log" "$out/baseline"
	[ "$verdict" = survived ] ||
		die "the suite fails on the series' tip: $detail (log: $out/baseline.log)"
	report "baseline  the suite passes on the series' tip"
fi

if [ -n "$fixes" ]; then
	status=0 red=0 total=0
	for commit in $(git -C "$src" rev-list --reverse --grep='^Fixes: ' --grep='^Cc: stable@' \
			"$PRISTINE_TAG..$tip"); do
		subject=$(git -C "$src" log -1 --format=%s "$commit")
		wanted_fix "$subject" "$@" || continue
		if ! compiled_here "$commit"; then
			say "          \"$subject\" changes nothing compiled here"
			continue
		fi
		total=$((total + 1))
		name=$(git -C "$src" log -1 --format=%f "$commit" | cut -c1-40)
		log=$out/$name.log
		revert_fix "$commit" || die "cannot revert \"$subject\" on the tip"
		[ -z "$also" ] || say "          \"$subject\": reverted with $also, which change its lines after it"
		if ! build_and_judge "$name" "$log"; then
			say "invalid   \"$subject\": without it the kernel does not build (log: $log)"
			status=1
			continue
		fi
		case $verdict in
		survived) report "green     $subject: every case passed without it (log: $log)"; status=1 ;;
		killed | crashed) report "red       $subject: $verdict $detail"; red=$((red + 1)) ;;
		*) die "unknown verdict \"$verdict\" (log: $log)" ;;
		esac
	done
	restore
	[ "$total" -gt 0 ] || die "no fix of the series that $arch compiles matches: $*"
	report "$red of $total fixes red without them ($KERNEL, $arch); logs in $out"
	if [ "$status" = 0 ]; then
		mkdir -p "$CACHE_DIR/mutants"
		cp "$out/verdicts.txt" "$verdicts"
	fi
	exit $status
fi

status=0 killed=0 named=0 total=0 equivalent=()
while IFS=$'\t' read -r name path old new config; do
	case $name in '' | '#'*) continue ;; esac
	[ $# -eq 0 ] || printf '%s\n' "$@" | grep -x -- "$name" >/dev/null || continue
	# The test modules build in the source tree, which the baseline build
	# above just made this architecture's.
	[[ $path != *.c || -e $src/${path%.c}.o ]] || maybe_compiled "$obj" "$path" || continue
	# Code an #ifdef of the .config leaves out cannot make a difference.
	if [ -n "$config" ]; then
		want=y have=n
		[ "${config:0:1}" != '!' ] || want=n
		! grep -qx "${config#!}=y" "$obj/.config" || have=y
		[ "$have" = "$want" ] || continue
	fi
	why=$(equivalent_why "$name")
	if [ -n "$why" ] && [ $# -eq 0 ] && [ -z "$check_only" ]; then
		equivalent+=("$name: $why")
		continue
	fi
	total=$((total + 1))
	restore
	log=$out/$name.log
	if [ -n "$check_only" ]; then
		mutate "$src/$path" "$old" "$new" || status=1
		continue
	fi
	if ! mutate "$src/$path" "$old" "$new" >"$log" 2>&1 || ! build_and_judge "$name" "$log"; then
		say "invalid   $name: did not apply or build (log: $log)"
		status=1
		continue
	fi
	case $verdict in
	survived) report "survived  $name"; status=1 ;;
	killed) report "killed    $name: $detail"; killed=$((killed + 1)) named=$((named + 1)) ;;
	crashed) report "crashed   $name: $detail"; killed=$((killed + 1)) ;;
	*) die "unknown verdict \"$verdict\" (log: $log)" ;;
	esac
done <"$list"
restore
[ -z "$check_only" ] || { say "$total mutants checked"; exit $status; }
report "$killed of $total mutants killed ($KERNEL, $arch), $named of them by a named case; logs in $out"
if [ ${#equivalent[@]} -gt 0 ]; then
	report "${#equivalent[@]} equivalent, not run (mutants/kprobes.equivalent):"
	printf '  %s\n' "${equivalent[@]}" | tee -a "$out/verdicts.txt"
fi
if [ "$status" = 0 ]; then
	mkdir -p "$CACHE_DIR/mutants"
	cp "$out/verdicts.txt" "$verdicts"
fi
# The next run rebuilds what the mutants touched.
exit $status
