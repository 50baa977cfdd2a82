#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerates the patch series of a kernel from its sources: for each
# series/NN-*.msg, copies the files named in NN-*.files from this
# repository to their kernel paths, applies NN-*.diff (hunks on existing
# kernel files) and commits on top of the kernel's pristine tree; then runs
# git format-patch with a cover letter built from series/cover-letter.txt.
#
# The upstream series (patches/) is made from series/ as it is. A stable
# backport, series/stable-<K>/, holds only what differs for kernel K:
# NN-*.diff and NN-*.msg in place of the upstream ones, NN-*.drop (why the
# patch is left out) and cover-letter.txt, and may add a patch of its own
# (a prerequisite taken from upstream, NN-*.author naming its author).
# The new files (NN-*.files) are the same for every kernel.
#
# Usage: scripts/gen-series.sh [OUTPUT_ROOT]       every kernel's series
#        KERNEL=6.1 scripts/gen-series.sh [OUTPUT_DIR]   one kernel's
# (defaults: patches/ and its stable-<K>/ directories)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../series/series.conf
. "$TOP/series/series.conf"

if [ -z "$KERNEL_GIVEN" ]; then
	root=$(realpath -m "${1:-$TOP/patches}")
	for kernel in $(known_kernels); do
		load_kernel "$kernel"
		KERNEL=$kernel "$0" "$root${SERIES_NAME:+/$SERIES_NAME}"
	done
	exit 0
fi

out=$(realpath -m "${1:-$PATCH_DIR}")
overrides=$TOP/series/$SERIES_NAME

# Repository path -> kernel path.
kernel_path() {
	case "$1" in
	selftests/*) echo "tools/testing/$1" ;;
	*) echo "$1" ;;
	esac
}

# The repository's files under a path, committed or not, minus ignored ones
# (build outputs of an out-of-tree module build, for example).
source_files() {
	git -C "$TOP" ls-files --cached --others --exclude-standard -- "$1" |
		while read -r f; do [ -e "$TOP/$f" ] && echo "$f"; done
}

# The kernel's version of series file $1 (NN-name.diff, ...): its own if
# the backport has one, else its SERIES_FALLBACK's, else the upstream one.
series_file() {
	local dir

	for dir in ${SERIES_NAME:+"$overrides"} ${SERIES_FALLBACK:+"$TOP/series/$SERIES_FALLBACK"} \
		   "$TOP/series"; do
		[ -f "$dir/$1" ] && { echo "$dir/$1"; return; }
	done
	return 0
}

# The upstream patches, minus those the backport drops, plus those only
# the backport has (a prerequisite from upstream, with its NN-*.author).
patches=()
while read -r name; do
	[ -z "$SERIES_NAME" ] || [ ! -f "$overrides/$name.drop" ] || continue
	patches+=("$name")
done < <(for msg in "$TOP"/series/[0-9]*.msg ${SERIES_NAME:+"$overrides"/[0-9]*.msg}; do
		[ -f "$msg" ] && basename "$msg" .msg
	done | LC_ALL=C sort -u)

"$TOP/scripts/prepare-tree.sh"
work=$(mktemp -d /tmp/kprobes-series.XXXXXX)
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
tree=$work/linux

# Only the paths the series touches are checked out: a full checkout of the
# kernel would cost more than the rest of this script together.
patterns=()
for name in "${patches[@]}"; do
	files=$(series_file "$name.files")
	diff=$(series_file "$name.diff")
	if [ -n "$files" ]; then
		while read -r path; do
			[ -n "$path" ] && patterns+=("/$(kernel_path "$path")")
		done <"$files"
	fi
	if [ -n "$diff" ]; then
		while read -r path; do
			patterns+=("/$path")
		done < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$diff")
	fi
done

git clone -q --shared --no-checkout "$LINUX_REPO" "$tree"
git -C "$tree" sparse-checkout set --no-cone "${patterns[@]}"
git -C "$tree" checkout -q --detach "$PRISTINE_TAG"

export GIT_AUTHOR_NAME=$SERIES_AUTHOR_NAME GIT_AUTHOR_EMAIL=$SERIES_AUTHOR_EMAIL
export GIT_COMMITTER_NAME=$SERIES_AUTHOR_NAME GIT_COMMITTER_EMAIL=$SERIES_AUTHOR_EMAIL
export GIT_AUTHOR_DATE=$SERIES_DATE GIT_COMMITTER_DATE=$SERIES_DATE

for name in "${patches[@]}"; do
	files=$(series_file "$name.files")
	diff=$(series_file "$name.diff")
	if [ -n "$files" ]; then
		while read -r path; do
			[ -n "$path" ] || continue
			mapfile -t found < <(source_files "$path")
			[ ${#found[@]} -gt 0 ] || die "$files: nothing at $path"
			for f in "${found[@]}"; do
				mkdir -p "$tree/$(dirname "$(kernel_path "$f")")"
				cp "$TOP/$f" "$tree/$(kernel_path "$f")"
			done
		done <"$files"
	fi
	if [ -n "$diff" ]; then
		git -C "$tree" apply "$diff" || die "$diff does not apply to $KERNEL"
	fi
	# -f: the Debian tree's .gitignore ignores everything at the top level.
	git -C "$tree" add -A -f
	author=$(series_file "$name.author")
	git -C "$tree" commit -q -F "$(series_file "$name.msg")" \
		${author:+--author="$(cat "$author")"}
done

# Files that grow from patch to patch come from .diff hunks
# (scripts/split-selftests.sh): the tip must hold the new files exactly as
# they are here, and no others.
for dir in selftests samples Documentation; do
	[ -d "$tree/$(kernel_path "$dir/")" ] || continue
	while read -r f; do
		cmp -s "$TOP/$f" "$tree/$(kernel_path "$f")" ||
			die "$KERNEL: the series' $(kernel_path "$f") is not $f: run scripts/split-selftests.sh"
	done < <(source_files "$dir")
done
extra=$(cd "$tree/tools/testing" && find selftests/kprobes -type f 2>/dev/null |
	while read -r f; do [ -e "$TOP/$f" ] || echo "$f"; done)
[ -z "$extra" ] || die "$KERNEL: the series adds files that $TOP does not have: $extra"

mkdir -p "$out"
rm -f "$out"/*.patch
prefix=$SERIES_SUBJECT_PREFIX${SERIES_NAME:+ $KERNEL.y}
git -C "$tree" format-patch -q --cover-letter --no-signature \
	--subject-prefix="$prefix" \
	--base="$(git -C "$tree" rev-parse "$PRISTINE_TAG")" \
	-o "$out" "$PRISTINE_TAG..HEAD"

# Blank context lines as empty lines (what diff --suppress-blank-empty
# writes, and git apply accepts): a lone space would read as trailing
# whitespace wherever the patch is not parsed as a patch (checkpatch on a
# file that git tracks, mail clients).
sed -i 's/^ $//' "$out"/0*.patch

# Fill the cover letter's placeholders from its cover-letter.txt.
cover=$out/0000-cover-letter.patch
python3 - "$cover" "$(series_file cover-letter.txt)" <<'PY'
import sys
cover_path, text_path = sys.argv[1:]
subject, _, blurb = open(text_path).read().partition("\n")
cover = open(cover_path).read()
cover = cover.replace("*** SUBJECT HERE ***", subject.strip())
cover = cover.replace("*** BLURB HERE ***", blurb.strip())
open(cover_path, "w").write(cover)
PY
say "== $KERNEL: $(find "$out" -maxdepth 1 -name '*.patch' | wc -l) files in ${out#"$TOP"/}"
