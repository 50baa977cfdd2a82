#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# All the tests: the scripts pass shellcheck, patches/ is what the sources
# make, every patch of every kernel's series passes checkpatch --strict
# and applies with git am to its pristine tree, the documentation builds
# without warnings; on the upstream kernel (7.3) every patch builds on its
# own (bisect) and the kprobes selftests, the samples and the kernel's
# kprobes KUnit suite pass in QEMU on every architecture in scripts/arch/
# and its variants, and on debug kernels (one with a soak); LAVA gives the
# runner's verdicts; every architecture's defconfig keeps kprobes/config
# through "make kselftest-merge"; the backports pass where the code of
# their fixes runs; the new kernel code is W=1 and sparse clean, the
# selftest programs build without a warning on every architecture; and
# the runner reports broken guests and bad input clearly. Which label
# each of these runs on is in the kernel's record, scripts/kernel/<K>.conf.
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
# shellcheck disable=SC2086 # a list of labels
gate "$upstream: every patch builds on its own (bisect): ${BISECT_LABELS// /, }" \
	env KERNEL="$upstream" "$TOP/scripts/ci/check-bisect.sh" $BISECT_LABELS
gate "$upstream: in QEMU: $TEST_LABELS" \
	"$TOP/scripts/run.sh" --kernel "$upstream" --arch "${TEST_LABELS// /,}" --out "$out/$upstream"
# Right after the QEMU run, whose builds and summaries it takes: a farm's
# way (the kselftest tarball under LAVA) must give the runner's verdicts.
for arch in $LAVA_LABELS; do
	gate "$upstream: LAVA (lava-run) runs the kselftest tarball, the runner's verdicts ($arch)" \
		"$TOP/scripts/ci/check-lava.sh" --kernel "$upstream" --arch "$arch" \
		--summary "$out/$upstream/$arch/summary.json" --out "$out/lava"
done
# shellcheck disable=SC2046 # a list of architectures
gate "$upstream: defconfig + make kselftest-merge keeps kprobes/config, every architecture" \
	env KERNEL="$upstream" "$TOP/scripts/ci/check-kselftest-merge.sh" $(known_arches)
# Proves the mutation tool still works: one mutant per area (registration
# checks, kretprobe misses, kprobes/list, x86's ftrace path, the sample),
# each killed by a named case. The whole gate is scripts/measure/mutate.sh.
gate "$upstream: the mutation tool, a mutant per area ($MUTANTS_LABEL)" \
	env KERNEL="$upstream" "$TOP/scripts/measure/mutate.sh" --arch "$MUTANTS_LABEL" --out "$out/mutants" \
	reg-blacklist-ignored kretprobe-rethook-miss-not-counted list-no-disabled \
	x86-ftrace-pre-return-ignored stats-int-as-long
for kernel in "${backports[@]}"; do
	labels=$(load_kernel "$kernel" && echo "$TEST_LABELS")
	gate "$kernel: the backport in QEMU: $labels" \
		"$TOP/scripts/run.sh" --kernel "$kernel" --arch "${labels// /,}" --out "$out/$kernel"
done
# The soak on one debug kernel: arm64's took 535 s, x86_64's, whose guest
# runs on one host thread, 807 s; the other debug kernel runs the suite
# twice, as every other kernel does. scripts/run.sh --debug --soak runs either.
gate "$upstream: debug kernel ($DEBUG_LABEL)" \
	"$TOP/scripts/run.sh" --kernel "$upstream" --arch "$DEBUG_LABEL" --debug \
	--out "$out/$upstream-debug"
gate "$upstream: debug kernel, soak: suite x5, module load/unload x100, kmemleak, slab ($SOAK_LABEL)" \
	"$TOP/scripts/run.sh" --kernel "$upstream" --arch "$SOAK_LABEL" --debug --soak \
	--out "$out/$upstream-debug"
# shellcheck disable=SC2046 # a list of architectures
gate "$upstream: W=1 and sparse on the new kernel code, selftest programs without warnings" \
	env KERNEL="$upstream" "$TOP/scripts/ci/check-build.sh" $(known_labels)
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
say "total: $((SECONDS / 60)) min $((SECONDS % 60)) s"
exit $status
