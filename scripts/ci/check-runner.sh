#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Checks that the runner fails loudly and cleans up: bad arguments (the
# runner's, the gates' and gen-series.sh's, refused before any tree
# changes), an unknown ARCH or kernel, a missing package when not root,
# a full disk, a guest that hangs and a kernel that panics each give a
# clear error and a non-zero exit, a guest that dies in a case is
# reported with the fix the case names, a result line the console cut takes its verdict from the pass's
# saved output, and no QEMU is left running, even when the runner is
# killed; a hung guest's registers are kept.
# Uses the x86_64 build of scripts/run.sh (which run.sh here builds if
# needed, so that a later run.sh finds it its own and builds nothing);
# the hung guest's registers are read as x86's (RIP).
#
# Usage: scripts/ci/check-runner.sh
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# The label the README's first command builds, which CI has built.
label=$DEFAULT_LABEL
tmp=$(mktemp -d /tmp/kprobes-check-runner.XXXXXX)
failed=0
cleanup() {
	! mountpoint -q "$tmp/full" || umount "$tmp/full"
	rm -rf "$tmp"
}
trap cleanup EXIT

# expect_failure NAME TEXT COMMAND...: COMMAND must fail and print TEXT.
expect_failure() {
	local name=$1 text=$2 log=$tmp/$1.log start=$SECONDS status=0

	shift 2
	"$@" >"$log" 2>&1 </dev/null || status=$?
	if [ "$status" != 0 ] && grep -qF -- "$text" "$log"; then
		say "ok    $name: exit $status in $((SECONDS - start))s: $(grep -F -m1 -- "$text" "$log" | sed 's/^ *//')"
	else
		say "FAIL  $name: exit $status, expected a failure saying \"$text\"; output:"
		tail -n 15 "$log" | sed 's/^/      /'
		failed=1
	fi
}

# No QEMU of ours may outlive the check: each was started with a pid file
# below $tmp.
expect_no_qemu() {
	local left

	sleep 1
	left=$(pgrep -af -- "-pidfile $tmp/" || true)
	if [ -z "$left" ]; then
		say "ok    $1: no QEMU left running"
	else
		say "FAIL  $1: QEMU left running: $left"
		pkill -f -- "-pidfile $tmp/" || true
		failed=1
	fi
}

say "   arguments and environment"
expect_failure unknown-arch "unknown ARCH 'sparc'" env ARCH=sparc "$TOP/scripts/run.sh"
expect_failure unknown-arch-option "unknown ARCH 'x86'" "$TOP/scripts/run.sh" --arch x86
expect_failure unknown-argument "unknown argument: --bogus" "$TOP/scripts/run.sh" --bogus
expect_failure unknown-kernel "unknown kernel '7.4' (known: 7.3 6.12 6.1)" \
	"$TOP/scripts/run.sh" --kernel 7.4
expect_failure unknown-kernel-env "unknown kernel '5.10'" env KERNEL=5.10 "$TOP/scripts/run.sh"
expect_failure kernel-without-value "--kernel needs a value" "$TOP/scripts/run.sh" --kernel
expect_failure bad-torture-seconds "--torture-seconds needs a number" \
	"$TOP/scripts/run.sh" --torture-seconds 1e3
expect_failure too-many-torture-seconds "--torture-seconds needs a number" \
	"$TOP/scripts/run.sh" --torture-seconds 86401
expect_failure missing-kernel-tree "no such directory" \
	"$TOP/scripts/run.sh" --kernel-tree "$tmp/no-such-tree"
expect_failure missing-package-not-root "As root, run:" \
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	env EXTRA_PACKAGES=kprobes-no-such-package "$TOP/scripts/install-deps.sh" "$label"
if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/full" && mount -t tmpfs -o size=32m tmpfs "$tmp/full"; then
	expect_failure full-disk "MiB free, 2048 MiB needed" \
		env KPROBES_CACHE="$tmp/full" "$TOP/scripts/run.sh"
	umount "$tmp/full"
else
	say "skip  full-disk: needs root to mount a small tmpfs"
fi

# The gates and the series tools refuse bad arguments before they touch
# anything (check-bisect once applied the series, then died): with a
# cache that is a file, one that went on would fail another way.
no_cache=$tmp/cache-is-a-file
: >"$no_cache"
refuses() { expect_failure "$1" "$2" env KPROBES_CACHE="$no_cache" "${@:3}"; }
refuses bisect-unknown-option "unknown option '--bogus'" "$TOP/scripts/ci/check-bisect.sh" --bogus
refuses bisect-unknown-arch "unknown ARCH 'sparc'" "$TOP/scripts/ci/check-bisect.sh" sparc
refuses build-no-arch "usage:" "$TOP/scripts/ci/check-build.sh"
refuses build-unknown-variant "unknown variant in 'arm-thumb3'" \
	"$TOP/scripts/ci/check-build.sh" arm-thumb3
for gate in check-docs check-patches check-series; do
	refuses "$gate-argument" "(no arguments)" "$TOP/scripts/ci/$gate.sh" x86_64
done
refuses base-not-a-tree "has no v" "$TOP/scripts/ci/check-base.sh" "$tmp"
refuses gen-series-option "usage:" "$TOP/scripts/series/gen-series.sh" --bogus
refuses test-unknown-argument "unknown arguments '--bogus'" env OUT="$tmp/test-out" \
	"$TOP/scripts/test.sh" --bogus
[ ! -e "$tmp/test-out" ] || { say "FAIL  test-unknown-argument: it made $tmp/test-out"; failed=1; }

say "   a console that ends in a crash"
# A case that names the fix it needs, then the kernel dies in it: the
# verdict names both. The kernel's record of what the case needs comes
# in the middle of the line of the previous case's result, as a console
# prints them.
judge() { "$TOP/scripts/results.py" stream "$label" "$tmp/$1" <"$tmp/$1.console"; }
mkdir -p "$tmp/died"
printf '%s\n' "kprobes-ci: tests begin" \
	'ok 1 api.good.run[    0.900000] kprobes selftests: api.bad.run needs "kprobes: A fix"' \
	"[    1.000000] kprobes_selftest: case bad" "[    1.100000] Kernel panic - not syncing" \
	"kprobes-ci-host: qemu-exit 0" >"$tmp/died.console"
expect_failure died-in-case \
	'api.bad.run  (no result: the guest died or hung during it (in the kernel: bad); this kernel may lack "kprobes: A fix")' \
	judge died
if grep -qF '"name": "api.good.run",' "$tmp/died/summary.json"; then
	say "ok    died-in-case: the case before it is named api.good.run"
else
	say "FAIL  died-in-case: no case named api.good.run in $tmp/died/summary.json"
	failed=1
fi

# A fix whose bug kills the kernel in any case is named by the report
# the console shows as it dies, which the suite said at its start.
mkdir -p "$tmp/report"
printf '%s\n' "kprobes-ci: tests begin" \
	'# # a kernel that dies with "Break instruction" may lack "MIPS: A fix" (mips64el)' \
	"[    1.000000] kprobes_selftest: case any" "[    1.100000] Break instruction in kernel code[#1]:" \
	"[    1.200000] Kernel panic - not syncing" "kprobes-ci-host: qemu-exit 0" >"$tmp/report.console"
expect_failure died-with-report \
	'any (in the kernel)  (no result: the guest died or hung during it; the console says "Break instruction": this kernel may lack "MIPS: A fix")' \
	judge report

# The program's output lost as the kernel died (7.3 on mips64el dies in
# its first kretprobe): the kernel log's copy of the same says it. A
# case that needs another architecture's fix is named with both.
mkdir -p "$tmp/report-kmsg"
printf '%s\n' "kprobes-ci: tests begin" "# selftests: kprobes: test_kprobes" \
	'[    0.900000] kprobes selftests: a kernel that dies with "Break instruction" may lack "MIPS: A fix"' \
	"[    1.000000] kprobes selftests: starting api.any.run" \
	'[    1.010000] kprobes selftests: api.any.run needs "powerpc: A fix"' \
	"[    1.050000] kprobes_selftest: case any" "[    1.100000] Break instruction in kernel code[#1]:" \
	"[    1.200000] Kernel panic - not syncing" "kprobes-ci-host: qemu-exit 0" >"$tmp/report-kmsg.console"
expect_failure died-with-report-in-kernel-log \
	'api.any.run  (no result: the guest died or hung during it (in the kernel: any); this kernel may lack "powerpc: A fix"; the console says "Break instruction": this kernel may lack "MIPS: A fix")' \
	judge report-kmsg

# Between two cases, as a torture's threads hit their probes: the verdict
# names the program the guest died in.
mkdir -p "$tmp/between"
printf '%s\n' "kprobes-ci: tests begin" \
	'# # a kernel that dies with "Break instruction" may lack "MIPS: A fix" (mips64el)' \
	"# selftests: kprobes: test_torture" "[    1.100000] Break instruction in kernel code[#1]:" \
	"[    1.200000] Kernel panic - not syncing" "kprobes-ci-host: qemu-exit 0" >"$tmp/between.console"
expect_failure died-between-cases \
	'kprobes: test_torture  (no result: the guest died or hung during it; the console says "Break instruction": this kernel may lack "MIPS: A fix")' \
	judge between

# A test's RUN line, from user space, lost as the kernel died: the kernel
# log's record of its start names it. Records that come after the result
# of their test (its start, the fix it needs) name nothing.
mkdir -p "$tmp/lost"
printf '%s\n' "kprobes-ci: tests begin" "# selftests: kprobes: test_debugfs" "# 1..2" \
	"# #  RUN           kprobes.first ..." "# ok 1 kprobes.first" \
	"[    1.000000] kprobes selftests: starting kprobes.first" \
	'[    1.050000] kprobes selftests: kprobes.first needs "kprobes: A fix"' \
	"[    1.100000] kprobes selftests: starting kprobes.second" \
	"[    1.200000] kprobes_selftest: case list_probe" "[    1.300000] Kernel panic - not syncing" \
	"kprobes-ci-host: qemu-exit 0" >"$tmp/lost.console"
expect_failure died-run-line-lost \
	'kprobes.second  (no result: the guest died or hung during it (in the kernel: list_probe))' \
	judge lost

# The program's output lost as the kernel died in its third test: the
# two before, started in the kernel log, have no result either.
mkdir -p "$tmp/lost-output"
printf '%s\n' "kprobes-ci: tests begin" "# selftests: kprobes: test_kprobes_fatal" \
	"[    1.000000] kprobes selftests: starting api.a.run" \
	"[    1.100000] kprobes selftests: starting api.b.run" \
	"[    1.200000] kprobes selftests: starting api.c.run" \
	"[    1.300000] kprobes_selftest: case c" "[    1.400000] Kernel panic - not syncing" \
	"kprobes-ci-host: qemu-exit 0" >"$tmp/lost-output.console"
expect_failure died-output-lost \
	'api.b.run  (no result: the guest died later in the same program, before the test' \
	judge lost-output

say "   a console that cuts the tests' lines"
# The console printed a kernel record in the middle of a result line, as
# ppc64le's does; the pass's output, which the guest prints again once
# the pass has ended, gives the case its name and verdict.
mkdir -p "$tmp/cut"
ktap=("# selftests: kprobes: test_kprobes" "# 1..1")
printf '%s\n' "kprobes-ci: tests begin" "kprobes-ci: pass 1" "${ktap[@]}" \
	'# ok 1 api.extab[   68.338530] kle_delay_slot.run # SKIP no delay slots' \
	"kprobes-ci: output of pass 1" "${ktap[@]}" \
	'# ok 1 api.extable_delay_slot.run # SKIP no delay slots' \
	"kprobes-ci: output end" "kprobes-ci: tests end" "kprobes-ci: done" \
	"kprobes-ci-host: qemu-exit 0" >"$tmp/cut.console"
judge cut >"$tmp/cut.log" || :
cases=$(python3 -c 'import json, sys
print(" ".join(c["name"] + ":" + c["status"] for c in json.load(open(sys.argv[1]))["cases"]))' \
	"$tmp/cut/summary.json")
if [ "$cases" = "api.extable_delay_slot.run:skip" ]; then
	say "ok    cut-line: the saved output names the case: $cases"
else
	say "FAIL  cut-line: expected api.extable_delay_slot.run:skip, got: $cases"
	failed=1
fi

say "   the verdict of a run that was to go red (mutate.sh)"
# expect_verdict DIR TEXT: results.py verdict on what judge left in DIR.
expect_verdict() {
	local got

	got=$("$TOP/scripts/results.py" verdict "$tmp/$1")
	if [ "$got" = "$2" ]; then
		say "ok    verdict-$1: $got"
	else
		say "FAIL  verdict-$1: expected \"$2\", got \"$got\""
		failed=1
	fi
}
expect_verdict died "crashed the guest died in api.bad.run"
expect_verdict between "crashed the guest died in kprobes: test_torture"
# Not a test the dying guest took the output of: the one it died in.
expect_verdict lost-output "crashed the guest died in api.c.run"
mkdir -p "$tmp/clean"
printf '%s\n' "[    0.000000] Kernel command line: console=ttyS0 kunit.enable=0" \
	"kprobes-ci: tests begin" "kprobes-ci: pass 1" "# selftests: kprobes: test_kprobes" \
	"# 1..1" "# ok 1 api.good.run" "ok 1 selftests: kprobes: test_kprobes" \
	"kprobes-ci: tests end" "kprobes-ci: done" "kprobes-ci-host: qemu-exit 0" >"$tmp/clean.console"
judge clean >/dev/null || :
expect_verdict clean "survived"
mkdir -p "$tmp/failed"
printf '%s\n' "kprobes-ci: tests begin" "kprobes-ci: pass 1" "# selftests: kprobes: test_kprobes" \
	"# 1..2" "# ok 1 api.good.run" "# not ok 2 api.bad.run" "not ok 1 selftests: kprobes: test_kprobes" \
	"kprobes-ci: tests end" "kprobes-ci: done" "kprobes-ci-host: qemu-exit 0" >"$tmp/failed.console"
judge failed >/dev/null || :
expect_verdict failed "killed api.bad.run"
# A stack dump without a WARN or oops line (warn_alloc()'s) is a kernel
# problem too, even while a failslab.* test has allocations fail.
mkdir -p "$tmp/dump"
printf '%s\n' "[    0.000000] Kernel command line: console=ttyS0 kunit.enable=0" \
	"kprobes-ci: tests begin" "kprobes-ci: pass 1" "# selftests: kprobes: test_debugfs" \
	"# 1..1" "[    1.000000] kprobes selftests: starting failslab.registration_fails_cleanly" \
	"[    1.100000] test_debugfs: vmalloc error: size 384, align 0x8, vm_struct allocation failed" \
	"[    1.100001] CPU: 0 UID: 0 PID: 327 Comm: test_debugfs" "[    1.100002] Call Trace:" \
	"[    1.100003]  warn_alloc+0xe7/0x107" "# ok 1 failslab.registration_fails_cleanly" \
	"ok 1 selftests: kprobes: test_debugfs" \
	"kprobes-ci: tests end" "kprobes-ci: done" "kprobes-ci-host: qemu-exit 0" >"$tmp/dump.console"
judge dump >/dev/null || :
expect_verdict dump "crashed kernel problem reported on the console:"

say "   guests that go wrong ($label)"
# stop_when_booted NAME PIDFILE: once the runner started last in the
# background (boot.sh or run.sh) has a QEMU, stops it; none may be left.
stop_when_booted() {
	local runner=$! i

	for i in $(seq 3000); do
		if [ -s "$2" ] || ! kill -0 "$runner" 2>/dev/null; then
			break
		fi
		sleep 0.2
	done
	if [ -s "$2" ]; then
		sleep 2
		kill -TERM "$runner"
		wait "$runner" || :
		expect_no_qemu "$1"
	else
		say "FAIL  $1: no QEMU started in $((i / 5)) s"
		kill -TERM "$runner" 2>/dev/null || :
		wait "$runner" || :
		failed=1
	fi
}
# scripts/run.sh is stopped while its guest runs in the background. It
# builds x86_64 and its initramfs first if the last build there was not
# its own, for the cases below. Not "--": run.sh adds its own parameters
# after these, which would go to sleep.
KERNEL_CMDLINE_EXTRA="rdinit=/bin/busybox sleep 100000" BOOT_TIMEOUT_OVERRIDE=600 \
	"$TOP/scripts/run.sh" --arch "$label" --out "$tmp/run" >"$tmp/run.log" 2>&1 &
stop_when_booted killed-run.sh "$tmp/run/$label/qemu.pid"
obj=$BUILD_ROOT/$label
boot() {
	"$TOP/scripts/boot.sh" "$label" "$obj" "$obj/initramfs.cpio" "$tmp/$1"
}
# PID 1 sleeps instead of running the tests: the guest hangs.
export BOOT_TIMEOUT_OVERRIDE=20 KERNEL_CMDLINE_EXTRA="rdinit=/bin/busybox -- sleep 100000"
expect_failure hung-guest "the guest hung: QEMU was stopped at the timeout" boot hang
expect_no_qemu hung-guest
if grep -q '^RIP=' "$tmp/hang/cpu-state.txt" 2>/dev/null; then
	say "ok    hung-guest: where its CPU was is in cpu-state.txt"
else
	say "FAIL  hung-guest: no registers in $tmp/hang/cpu-state.txt"
	failed=1
fi
# PID 1 exits at once: the kernel panics.
export KERNEL_CMDLINE_EXTRA="rdinit=/bin/busybox -- false"
expect_failure panic "Kernel panic - not syncing" boot panic
expect_no_qemu panic
# The runner is killed while the guest runs.
export BOOT_TIMEOUT_OVERRIDE=600 KERNEL_CMDLINE_EXTRA="rdinit=/bin/busybox -- sleep 100000"
"$TOP/scripts/boot.sh" "$label" "$obj" "$obj/initramfs.cpio" "$tmp/killed" >"$tmp/killed.log" 2>&1 &
stop_when_booted killed-runner "$tmp/killed/qemu.pid"

[ "$failed" = 0 ] || die "the runner mishandled a failure (see above)"
say "   the runner fails loudly and leaves nothing running"
