#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tests a change must pass (CI's), or with --full all of them.
#
# Always: the scripts pass shellcheck, patches/ is what the sources make,
# every patch of every kernel's series passes checkpatch --strict and
# applies with git am to its pristine tree, the documentation builds
# without warnings, every architecture's defconfig keeps kprobes/config
# through "make kselftest-merge", today's test modules and samples build
# against each stable kernel without a warning (on the default label),
# and the runner reports broken guests and bad input clearly. On the
# labels of the kernel's MERGE_LABELS (scripts/kernel/<K>.conf), or with
# --full on every label its record names: every patch builds on its own (bisect); the kprobes selftests,
# the samples and the kernel's kprobes KUnit suite pass in QEMU; LAVA
# gives the runner's verdicts; the mutants are killed; the backports
# pass where the code of their fixes runs; the debug kernels (one with a
# soak) report nothing; the new kernel code is W=1 and sparse clean and
# the selftest programs build without a warning.
#
# Usage: scripts/test.sh [--full]
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# Runs gate $1 (the command after it), keeps going when it fails, and
# records how long it took: the table at the end says where CI's time goes.
# Each gate's output is kept in $out/gates/N.log; the end of a failed
# gate's is shown again last, where a CI log cut to its tail still has it.
status=0
timings=()
failures=()
gate() {
	local name=$1 start=$SECONDS verdict=ok log

	shift
	log=$out/gates/$((${#timings[@]} + 1)).log
	if ! { say "== $name" && "$@"; } 2>&1 | tee "$log"; then
		verdict=FAILED
		status=1
		failures+=("$log")
	fi
	timings+=("$(printf '%6d s  %-6s  %s' $((SECONDS - start)) "$verdict" "$name")")
}

full=0
case $#:${1-} in
0:) ;;
1:--full) full=1 ;;
*) die "unknown arguments '$*' (usage: $0 [--full])" ;;
esac

# The labels of the list $1 (of the loaded kernel) that this run checks:
# every one with --full, else those in the kernel's MERGE_LABELS. From
# an empty cache CI's 90 minutes hold about six kernel builds on two
# cores, and --full makes 23 and the bisect's steps (docs/pipeline.md).
gated() {
	local label picked=()

	[ "$1" != all ] || set -- "$(known_labels)"
	for label in $1; do
		[ $full = 1 ] || [[ " $MERGE_LABELS " == *" $label "* ]] || continue
		picked+=("$label")
	done
	echo "${picked[*]}"
}

# Gate $1 on the labels $3 of those in $2, the command after them. The
# labels left out are named at the end; with none left the gate does not
# run.
not_run=()
gate_on() {
	local name=$1 all=$2 labels=$3 label left=()

	shift 3
	[ "$all" != all ] || all=$(known_labels)
	for label in $all; do
		[[ " $labels " == *" $label "* ]] || left+=("$label")
	done
	[ ${#left[@]} = 0 ] || not_run+=("$name: ${left[*]}")
	[ -z "$labels" ] || gate "$name ($labels)" "$@"
}

out=${OUT:-$TOP/out}
rm -rf "$out/gates"
mkdir -p "$out/gates"
upstream=$DEFAULT_KERNEL
# What runs on which label: TEST_LABELS and the rest in scripts/kernel/.
load_kernel "$upstream"
mapfile -t backports < <(known_kernels | grep -vx "$upstream")
# shellcheck disable=SC2046 # a list of architectures
gate "install the packages" env EXTRA_PACKAGES="shellcheck sparse python3-sphinx lava-dispatcher" \
	"$TOP/scripts/install-deps.sh" $(known_arches)
gate "shellcheck" shellcheck -x "$TOP"/scripts/*.sh "$TOP"/scripts/*/*.sh "$TOP"/scripts/arch/*.conf \
	"$TOP"/scripts/kernel/*.conf "$TOP"/scripts/guest/init "$TOP"/scripts/guest/lava-init \
	"$TOP"/scripts/guest/ktap-lava "$TOP/.ci/run"
gate "the series are up to date" "$TOP/scripts/ci/check-series.sh"
gate "checkpatch --strict, every series" "$TOP/scripts/ci/check-patches.sh"
gate "the documentation builds without warnings" env KERNEL="$upstream" "$TOP/scripts/ci/check-docs.sh"
# Before the QEMU run: it builds the base and each patch in the same
# build directories, and leaves them at the tip.
labels=$(gated "$BISECT_LABELS")
# shellcheck disable=SC2086 # a list of labels
gate_on "$upstream: every patch builds on its own (bisect)" "$BISECT_LABELS" "$labels" \
	env KERNEL="$upstream" "$TOP/scripts/ci/check-bisect.sh" $labels
labels=$(gated "$TEST_LABELS")
gate_on "$upstream: in QEMU" "$TEST_LABELS" "$labels" \
	"$TOP/scripts/run.sh" --kernel "$upstream" --arch "${labels// /,}" --out "$out/$upstream"
# Right after the QEMU run, whose builds and summaries it takes: a farm's
# way (the kselftest tarball under LAVA) must give the runner's verdicts.
for arch in $LAVA_LABELS; do
	gate_on "$upstream: LAVA (lava-run) runs the kselftest tarball, the runner's verdicts" \
		"$arch" "$(gated "$arch")" "$TOP/scripts/ci/check-lava.sh" --kernel "$upstream" --arch "$arch" \
		--summary "$out/$upstream/$arch/summary.json" --out "$out/lava"
done
# Configs only, no kernel build: every architecture fits in CI's time.
# shellcheck disable=SC2046 # a list of architectures
gate "$upstream: defconfig + make kselftest-merge keeps kprobes/config, every architecture" \
	env KERNEL="$upstream" "$TOP/scripts/ci/check-kselftest-merge.sh" $(known_arches)
# No kernel build either: today's test modules and samples against each
# stable kernel's modules_prepare, as farms build them, on the default
# label (with --full on each label the kernel runs on).
for kernel in "${backports[@]}"; do
	labels=$DEFAULT_LABEL
	[ $full = 0 ] || labels=$(load_kernel "$kernel" && echo "$TEST_LABELS")
	# shellcheck disable=SC2086 # a list of labels
	gate "$kernel: today's test modules and samples build against it ($labels)" \
		env KERNEL="$kernel" "$TOP/scripts/ci/check-stable-build.sh" $labels
done
# Proves the mutation tool still works: one mutant per area (registration
# checks, kretprobe misses, kprobes/list, x86's ftrace path, the sample),
# each killed by a named case. The whole gate is scripts/measure/mutate.sh.
gate_on "$upstream: the mutation tool, a mutant per area" "$MUTANTS_LABEL" "$(gated "$MUTANTS_LABEL")" \
	env KERNEL="$upstream" "$TOP/scripts/measure/mutate.sh" --arch "$MUTANTS_LABEL" --out "$out/mutants" \
	reg-blacklist-ignored kretprobe-rethook-miss-not-counted list-no-disabled \
	x86-ftrace-pre-return-ignored stats-int-as-long
for kernel in "${backports[@]}"; do
	all=$(load_kernel "$kernel" && echo "$TEST_LABELS")
	labels=$(load_kernel "$kernel" && gated "$TEST_LABELS")
	gate_on "$kernel: the backport in QEMU" "$all" "$labels" \
		"$TOP/scripts/run.sh" --kernel "$kernel" --arch "${labels// /,}" --out "$out/$kernel"
done
# The soak on one debug kernel: arm64's took 535 s, x86_64's, whose guest
# runs on one host thread, 807 s; the other debug kernel runs the suite
# twice, as every other kernel does. scripts/run.sh --debug --soak runs either.
debug=${DEBUG_LABEL:+$DEBUG_LABEL-debug}
gate_on "$upstream: debug kernel" "$debug" "$(gated "$debug")" \
	"$TOP/scripts/run.sh" --kernel "$upstream" --arch "$DEBUG_LABEL" --debug \
	--out "$out/$upstream-debug"
soak=${SOAK_LABEL:+$SOAK_LABEL-debug}
gate_on "$upstream: debug kernel, soak: suite x5, module load/unload x100, kmemleak, slab" \
	"$soak" "$(gated "$soak")" "$TOP/scripts/run.sh" --kernel "$upstream" --arch "$SOAK_LABEL" \
	--debug --soak --out "$out/$upstream-debug"
labels=$(gated all)
# shellcheck disable=SC2086 # a list of labels
gate_on "$upstream: W=1 and sparse on the new kernel code, selftest programs without warnings" \
	all "$labels" env KERNEL="$upstream" "$TOP/scripts/ci/check-build.sh" $labels
gate "the runner fails loudly and leaves no QEMU behind" "$TOP/scripts/ci/check-runner.sh"

# The results of every guest and the time of every gate, last, for whoever
# reads the end of the log; the mutants' guests fail on purpose.
mapfile -t summaries < <(find "$out" -mindepth 3 -maxdepth 3 -name summary.json \
	-not -path "$out/mutants/*" | sort)
"$TOP/scripts/results.py" summary "${summaries[@]}" || true
for log in "${failures[@]}"; do
	say "== FAILED: $(sed -n '1s/^== //p' "$log") (the end of $log)"
	tail -n 25 "$log"
done
say "== time per gate"
printf '%s\n' "${timings[@]}"
if [ ${#not_run[@]} -gt 0 ]; then
	say "== left out (scripts/test.sh --full runs them)"
	printf '  %s\n' "${not_run[@]}"
fi
say "total: $((SECONDS / 60)) min $((SECONDS % 60)) s"
exit $status
