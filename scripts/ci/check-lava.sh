#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the kprobes kselftest under LAVA (lava-run, no server, file://
# artefacts) on the runner's build and checks that LAVA's per-case results
# are the runner's: same cases, same verdicts (its summary.json).
# artefacts -> job -> LAVA's schema check -> lava-run -> comparison.
#
# Usage: scripts/ci/check-lava.sh [--kernel K] --arch ARCH[-VARIANT] [options]   (as root)
#   --build DIR      build directory (default: the runner's, in the cache)
#   --artefacts DIR  take the artefacts in DIR/<K>/<label> as they are
#                    (default: write them from the build to OUT/artefacts)
#   --summary FILE   the runner's summary.json (default: out/<label>/summary.json)
#   --job FILE       run this job in place of the generated one
#   --out OUT        default: out/lava; OUT/<K>/<label> keeps the job, the
#                    device, lava-run's log (job.log) and its output
# Exits non-zero, saying why, on a missing artefact, a job LAVA rejects, a
# LAVA job that fails or does not finish (a guest that dies), or a case
# whose verdict differs.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n 's/^# \{0,1\}//; 3,18p' "$0"
	exit "$1"
}

label=
build=
artefacts=
summary=
job=
out=$TOP/out/lava
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) load_kernel "${2:?--kernel needs a value}"; shift 2 ;;
	--arch) label=${2:?--arch needs a value}; shift 2 ;;
	--build) build=${2:?--build needs a value}; shift 2 ;;
	--artefacts) artefacts=${2:?--artefacts needs a value}; shift 2 ;;
	--summary) summary=${2:?--summary needs a value}; shift 2 ;;
	--job) job=${2:?--job needs a value}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	-h|--help) usage 0 ;;
	*) say "unknown argument: $1" >&2; usage 2 ;;
	esac
done
[ -n "$label" ] || usage 2
load_label "$label"
summary=${summary:-$TOP/out/$label/summary.json}
[ -f "$summary" ] || die "$summary: no runner results to compare with (scripts/run.sh --kernel $KERNEL --arch $label, or --summary)"
[ "$(id -u)" = 0 ] || die "lava-run needs root"
command -v lava-run >/dev/null || die "no lava-run: apt-get install lava-dispatcher"
dir=$out/$KERNEL/$label
mkdir -p "$dir"

if [ -z "$artefacts" ]; then
	artefacts=$out/artefacts
	say "== $label: artefacts ($artefacts/$KERNEL/$label)"
	"$TOP/scripts/farm/artefacts.sh" --kernel "$KERNEL" --arch "$label" --out "$artefacts" ${build:+--build "$build"}
fi
say "== $label: LAVA job ($dir/job.yaml)"
"$TOP/scripts/farm/lava-job.sh" --kernel "$KERNEL" --arch "$label" --artefacts "$artefacts" --out "$dir"
[ -z "$job" ] || cp "$job" "$dir/job.yaml"
"$TOP/scripts/farm/lava.py" validate "$dir/job.yaml"

# lava-run writes its log, results included, to stderr only.
say "== $label: lava-run (log: $dir/job.log)"
rm -rf "$dir/lava"
start=$SECONDS
status=0
lava-run --job-id "$$" --output-dir "$dir/lava" --device "$dir/device.yaml" \
	"$dir/job.yaml" 2>"$dir/job.log" || status=$?
say "   lava-run exit $status after $((SECONDS - start)) s"

# lava-run exits 0 on some failures (a test step that fails, a guest that
# is gone): the job's result, the test's and the cases decide.
say "== $label: LAVA against $summary"
"$TOP/scripts/farm/lava.py" compare "$dir/job.log" "$summary" | tee "$dir/compare.txt" ||
	die "LAVA does not confirm the runner's results (above; LAVA log: $dir/job.log)"
