#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the kernel's checkpatch.pl --strict on every patch of the series;
# fails on any error, warning or check.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/prepare-tree.sh"
checkpatch=$LINUX_REPO/scripts/checkpatch.pl
status=0
for patch in "$TOP"/patches/0[0-9][0-9][1-9]-*.patch; do
	# On standard input: given the path of a file git tracks, checkpatch
	# would review it as a source file (-f) instead of as a patch.
	if perl "$checkpatch" --strict --no-tree -q - <"$patch"; then
		say "   clean: ${patch##*/}"
	else
		say "   checkpatch found the above in ${patch##*/}"
		status=1
	fi
done
exit $status
