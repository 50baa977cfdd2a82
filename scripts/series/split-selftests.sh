#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kselftest target comes in parts (series/NN-selftests-*); some of
# its files grow from part to part (the Makefiles, README, kst_cases.h,
# the drivers that later parts extend: the keys of TAGS in
# scripts/series/selftest-stages.py). They are in no .files list: each
# part's .diff adds its lines, and selftest-stages.py says which part
# adds each line. This script
# rewrites the parts' .diff files from the files as they are in
# selftests/kprobes; scripts/series/gen-series.sh runs it first.
#
# Usage: scripts/series/split-selftests.sh [--check]
#   --check   change nothing; fail if a part's .diff is not what it
#             would write
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

check=
case ${1:-} in
--check) check=1 ;;
'') ;;
*) die "usage: scripts/series/split-selftests.sh [--check]" ;;
esac

diffs=$(mktemp -d /tmp/kprobes-stages.XXXXXX)
trap 'rm -rf "$diffs"' EXIT
python3 "$TOP/scripts/series/selftest-stages.py" "$TOP" "$diffs" >/dev/null
mapfile -t parts < <(find "$TOP/series" -maxdepth 1 -name '[0-9]*-selftests-*.msg' \
	-printf '%f\n' | sed 's/\.msg$//' | LC_ALL=C sort)
stale=0
# Writes stdin to file $1, or with --check compares it; an empty stdin
# means no file.
put() {
	local new=$diffs/put

	cat >"$new"
	if [ -n "$check" ]; then
		if [ -s "$new" ]; then
			cmp -s "$new" "$1" || { say "${1#"$TOP"/} is stale"; stale=1; }
		elif [ -e "$1" ]; then
			say "${1#"$TOP"/} should not exist"
			stale=1
		fi
	elif [ -s "$new" ]; then
		mv "$new" "$1"
	else
		rm -f "$1"
	fi
}
for i in "${!parts[@]}"; do
	part=${parts[$i]} stage=$((i + 1))
	if [ "$stage" = 1 ]; then
		# The first part also carries the hunks on kernel files.
		cat "$TOP/series/$part.base.diff" "$diffs/1.diff" | put "$TOP/series/$part.diff"
	else
		put "$TOP/series/$part.diff" <"$diffs/$stage.diff"
	fi
done
[ $stale = 0 ] || die "the selftest parts are stale: run scripts/series/gen-series.sh"
[ -n "$check" ] || say "== wrote the .diff files of ${#parts[@]} selftest parts"
