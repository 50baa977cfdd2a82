#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds the documentation the series changes with the kernel's Sphinx
# setup (make htmldocs SPHINXDIRS=...) and fails on any warning in a file
# the series touches. Warnings elsewhere are the base tree's own.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ $# = 0 ] || die "usage: [KERNEL=K] $0 (no arguments)"

src=$("$TOP/scripts/apply-series.sh")
mapfile -t patches < <(series_patches)
mapfile -t docs < <(sed -n 's|^diff --git a/\(Documentation/[^ ]*\.rst\) b/.*|\1|p' \
	"${patches[@]}" | sort -u)
[ ${#docs[@]} -gt 0 ] || { say "no documentation in the series"; exit 0; }
# The directories below Documentation/ that hold them.
dirs=$(printf '%s\n' "${docs[@]}" | cut -d/ -f2 | sort -u | tr '\n' ' ')
log=$CACHE_DIR/htmldocs.log
run_logged "$log" make -C "$src" O="$CACHE_DIR/htmldocs" SPHINXDIRS="$dirs" htmldocs
status=0
for doc in "${docs[@]}"; do
	if grep -E "$doc:[0-9]*: (WARNING|ERROR)" "$log"; then
		status=1
	else
		say "   no warnings: $doc"
	fi
done
[ $status = 0 ] || die "documentation warnings above (full log: $log)"
