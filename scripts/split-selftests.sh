#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kselftest target comes in parts (series/18..40-selftests-*); seven
# of its files grow from part to part (Makefile, .gitignore, README,
# test_modules/Makefile, kst_cases.h, kst_steps.h, kst_insn.h). They are
# in no .files list: each part's .diff adds its lines. scripts/selftest-stages.py says
# which part adds each line (untagged lines belong to part 1); this script
# rewrites the parts' .diff files from the files as they are in
# selftests/kprobes. Run it after editing one of those files, then
# scripts/gen-series.sh, which checks that the series' tip has
# selftests/kprobes exactly.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

diffs=$(mktemp -d /tmp/kprobes-stages.XXXXXX)
trap 'rm -rf "$diffs"' EXIT
python3 "$TOP/scripts/selftest-stages.py" "$TOP" "$diffs" >/dev/null
mapfile -t parts < <(find "$TOP/series" -maxdepth 1 -name '[0-9]*-selftests-*.msg' \
	-printf '%f\n' | sed 's/\.msg$//' | LC_ALL=C sort)
for i in "${!parts[@]}"; do
	part=${parts[$i]} stage=$((i + 1))
	if [ "$stage" = 1 ]; then
		# The first part also carries the hunks on kernel files.
		for dir in "$TOP/series" "$TOP/series/lts-6.12"; do
			cat "$dir/$part.base.diff" "$diffs/1.diff" >"$dir/$part.diff"
		done
	elif [ -s "$diffs/$stage.diff" ]; then
		cp "$diffs/$stage.diff" "$TOP/series/$part.diff"
	else
		rm -f "$TOP/series/$part.diff"
	fi
done
say "== rewrote the .diff files of ${#parts[@]} selftest parts"
