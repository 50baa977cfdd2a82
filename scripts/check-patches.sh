#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the kernel's checkpatch.pl --strict on every patch of every
# kernel's series, with that kernel's checkpatch; fails on any error,
# warning or check, with two exceptions that checkpatch cannot judge here:
# - UNKNOWN_COMMIT_ID: the trees have no upstream history; the ids in the
#   Fixes: tags were checked against public kernel history instead;
# - FILE_PATH_CHANGES ("does MAINTAINERS need updating?") on a patch
#   that adds files without touching MAINTAINERS: checked here instead,
#   every file it adds must be under an F: entry of the series' tip.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# True when MAINTAINERS (file $1) has an F: pattern covering path $2.
maintained() {
	local pattern

	while read -r pattern; do
		pattern=${pattern%/}
		[[ $2 == "$pattern" || $2 == "$pattern"/* ]] && return 0
	done < <(sed -n 's/^F:[[:space:]]*//p' "$1")
	return 1
}

passed=$CACHE_DIR/checkpatch-passed
status=0
for kernel in $(known_kernels); do
	load_kernel "$kernel"
	KERNEL=$kernel "$TOP/scripts/prepare-tree.sh"
	checkpatch=$LINUX_REPO/scripts/checkpatch.pl
	# What checkpatch --no-tree reads besides the patch, and this script.
	checker=$( (cat "$0" "$checkpatch"; cat "$LINUX_REPO"/scripts/spelling.txt \
		"$LINUX_REPO"/scripts/const_structs.checkpatch 2>/dev/null; perl -v) |
		digest)
	maintainers=$(mktemp /tmp/kprobes-maintainers.XXXXXX)
	# MAINTAINERS as the series leaves it.
	cat "$LINUX_REPO/MAINTAINERS" >"$maintainers"
	for patch in $(series_patches); do
		sed -n '/^diff --git a\/MAINTAINERS/,/^diff --git/p' "$patch" |
			sed -n 's/^+\(F:.*\)/\1/p' >>"$maintainers"
	done
	for patch in $(series_patches); do
		name=${patch#"$TOP"/patches/}
		ignore=UNKNOWN_COMMIT_ID
		unmaintained=
		if ! grep -q '^diff --git a/MAINTAINERS' "$patch"; then
			ignore+=,FILE_PATH_CHANGES
			while read -r file; do
				maintained "$maintainers" "$file" || unmaintained+=" $file"
			done < <(awk '/^diff --git/ { f = $4 } /^new file mode/ { print substr(f, 3) }' "$patch")
		fi
		# A patch that passed before with the same checkpatch passes again;
		# its MAINTAINERS coverage is checked every time.
		key="$checker $ignore $(digest <"$patch")"
		if passed_before "$passed" "$key" && [ -z "$unmaintained" ]; then
			say "   clean: $name (checked before)"
			continue
		fi
		# On standard input: given the path of a file git tracks, checkpatch
		# would review it as a source file (-f) instead of as a patch.
		if ! perl "$checkpatch" --strict --no-tree -q --ignore "$ignore" - <"$patch"; then
			say "   checkpatch found the above in $name"
			status=1
		elif [ -n "$unmaintained" ]; then
			say "   $name adds files no MAINTAINERS entry covers:$unmaintained"
			status=1
		else
			say "   clean: $name"
			record_pass "$passed" "$key"
		fi
	done
	rm -f "$maintainers"
done
exit $status
