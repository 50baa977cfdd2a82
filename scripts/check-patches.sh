#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the kernel's checkpatch.pl --strict on every patch of every
# kernel's series, with that kernel's checkpatch; fails on any error,
# warning or check. The trees have no upstream history, so the ids in
# Fixes: tags cannot be checked here (UNKNOWN_COMMIT_ID): they were
# checked against public kernel history instead.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

status=0
for kernel in $(known_kernels); do
	load_kernel "$kernel"
	KERNEL=$kernel "$TOP/scripts/prepare-tree.sh"
	checkpatch=$LINUX_REPO/scripts/checkpatch.pl
	for patch in "$PATCH_DIR"/0[0-9][0-9][1-9]-*.patch; do
		name=${patch#"$TOP"/patches/}
		# On standard input: given the path of a file git tracks, checkpatch
		# would review it as a source file (-f) instead of as a patch.
		if perl "$checkpatch" --strict --no-tree -q --ignore UNKNOWN_COMMIT_ID - <"$patch"; then
			say "   clean: $name"
		else
			say "   checkpatch found the above in $name"
			status=1
		fi
	done
done
exit $status
