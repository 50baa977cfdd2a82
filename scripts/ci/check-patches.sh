#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the kernel's checkpatch.pl --strict on every patch of every
# kernel's series, with that kernel's checkpatch: the upstream
# submissions as scripts/series/export-series.sh makes them to be sent (signed
# off by a throw-away identity that exists only for this check), the
# stable kernels' test series as committed (no sign-off: they are not
# sent). Fails on any error, warning or check, with two exceptions that
# checkpatch cannot judge here:
# - UNKNOWN_COMMIT_ID: the trees have no upstream history; the ids in the
#   Fixes: tags were checked against public kernel history instead;
# - FILE_PATH_CHANGES ("does MAINTAINERS need updating?") on a patch
#   that adds files without touching MAINTAINERS: checked here instead,
#   every file it adds must be under an F: entry of the series' tip;
# and the false positives that series/checkpatch-exceptions names, each
# for one patch, with why.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ $# = 0 ] || die "usage: $0 (no arguments)"

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
exported=$(mktemp -d /tmp/kprobes-export.XXXXXX)
trap 'rm -rf "$exported"' EXIT
# Without an identity, the export refuses and writes nothing.
if GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
	"$TOP/scripts/series/export-series.sh" --out "$exported/none" >/dev/null 2>&1 ||
	[ -e "$exported/none" ]; then
	say "   scripts/series/export-series.sh did not refuse to export without a git identity"
	status=1
fi
printf '[user]\n\tname = Export Check\n\temail = export-check@invalid\n' >"$exported/gitconfig"
GIT_CONFIG_GLOBAL=$exported/gitconfig GIT_CONFIG_NOSYSTEM=1 \
	"$TOP/scripts/series/export-series.sh" --out "$exported" >/dev/null
for kernel in $(known_kernels); do
	load_kernel "$kernel"
	KERNEL=$kernel "$TOP/scripts/prepare-tree.sh"
	if [ -z "$SERIES_NAME" ]; then
		mapfile -t patches < <(find "$exported" -mindepth 2 -name '[0-9]*.patch' ! -name '0000-*' | sort)
		signoff=
	else
		mapfile -t patches < <(series_patches)
		signoff=,MISSING_SIGN_OFF,NO_AUTHOR_SIGN_OFF
	fi
	checkpatch=$LINUX_REPO/scripts/checkpatch.pl
	# What checkpatch --no-tree reads besides the patch, and this script.
	checker=$( (cat "$0" "$checkpatch"; cat "$LINUX_REPO"/scripts/spelling.txt \
		"$LINUX_REPO"/scripts/const_structs.checkpatch 2>/dev/null; perl -v) |
		digest)
	maintainers=$(mktemp /tmp/kprobes-maintainers.XXXXXX)
	# MAINTAINERS as the series leaves it.
	cat "$LINUX_REPO/MAINTAINERS" >"$maintainers"
	for patch in "${patches[@]}"; do
		sed -n '/^diff --git a\/MAINTAINERS/,/^diff --git/p' "$patch" |
			sed -n 's/^+\(F:.*\)/\1/p' >>"$maintainers"
	done
	for patch in "${patches[@]}"; do
		name=${patch#"$exported"/}
		name=${name#"$TOP"/}
		ignore=UNKNOWN_COMMIT_ID$signoff
		# The patch's mail name without its number, as in the exceptions.
		ignore+=$(awk -F '\t' -v p="${patch##*/}" '!/^#/ && NF >= 3 && $1 == substr(p, 6) { printf ",%s", $2 }' \
			"$TOP/series/checkpatch-exceptions")
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
