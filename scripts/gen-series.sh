#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerates the patch series from its sources: for each series/NN-*.msg,
# copies the files named in NN-*.files from this repository to their kernel
# paths, applies NN-*.diff (hunks on existing kernel files) and commits on
# top of the pristine tree; then runs git format-patch with a cover letter
# built from series/cover-letter.txt.
#
# Usage: scripts/gen-series.sh [OUTPUT_DIR]   (default: patches/)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../series/series.conf
. "$TOP/series/series.conf"

out=$(realpath -m "${1:-$TOP/patches}")

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

"$TOP/scripts/prepare-tree.sh"
work=$(mktemp -d /tmp/kprobes-series.XXXXXX)
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
tree=$work/linux

# Only the paths the series touches are checked out: a full checkout of the
# kernel would cost more than the rest of this script together.
patterns=()
for files in "$TOP"/series/[0-9]*.files; do
	while read -r path; do
		[ -n "$path" ] && patterns+=("/$(kernel_path "$path")")
	done <"$files"
done
for diff in "$TOP"/series/[0-9]*.diff; do
	[ -f "$diff" ] || continue
	while read -r path; do
		patterns+=("/$path")
	done < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$diff")
done

git clone -q --shared --no-checkout "$LINUX_REPO" "$tree"
git -C "$tree" sparse-checkout set --no-cone "${patterns[@]}"
git -C "$tree" checkout -q --detach "$PRISTINE_TAG"

export GIT_AUTHOR_NAME=$SERIES_AUTHOR_NAME GIT_AUTHOR_EMAIL=$SERIES_AUTHOR_EMAIL
export GIT_COMMITTER_NAME=$SERIES_AUTHOR_NAME GIT_COMMITTER_EMAIL=$SERIES_AUTHOR_EMAIL
export GIT_AUTHOR_DATE=$SERIES_DATE GIT_COMMITTER_DATE=$SERIES_DATE

for msg in "$TOP"/series/[0-9]*.msg; do
	patch=${msg%.msg}
	if [ -f "$patch.files" ]; then
		while read -r path; do
			[ -n "$path" ] || continue
			mapfile -t found < <(source_files "$path")
			[ ${#found[@]} -gt 0 ] || die "$patch.files: nothing at $path"
			for f in "${found[@]}"; do
				mkdir -p "$tree/$(dirname "$(kernel_path "$f")")"
				cp "$TOP/$f" "$tree/$(kernel_path "$f")"
			done
		done <"$patch.files"
	fi
	if [ -f "$patch.diff" ]; then
		git -C "$tree" apply "$patch.diff" || die "$patch.diff does not apply"
	fi
	# -f: the Debian tree's .gitignore ignores everything at the top level.
	git -C "$tree" add -A -f
	git -C "$tree" commit -q -F "$msg"
done

rm -rf "$out"
mkdir -p "$out"
git -C "$tree" format-patch -q --cover-letter --no-signature \
	--subject-prefix="$SERIES_SUBJECT_PREFIX" \
	--base="$(git -C "$tree" rev-parse "$PRISTINE_TAG")" \
	-o "$out" "$PRISTINE_TAG..HEAD"

# Blank context lines as empty lines (what diff --suppress-blank-empty
# writes, and git apply accepts): a lone space would read as trailing
# whitespace wherever the patch is not parsed as a patch (checkpatch on a
# file that git tracks, mail clients).
sed -i 's/^ $//' "$out"/0*.patch

# Fill the cover letter's placeholders from series/cover-letter.txt.
cover=$out/0000-cover-letter.patch
python3 - "$cover" "$TOP/series/cover-letter.txt" <<'PY'
import sys
cover_path, text_path = sys.argv[1:]
subject, _, blurb = open(text_path).read().partition("\n")
cover = open(cover_path).read()
cover = cover.replace("*** SUBJECT HERE ***", subject.strip())
cover = cover.replace("*** BLURB HERE ***", blurb.strip())
open(cover_path, "w").write(cover)
PY
say "== $(find "$out" -name '*.patch' | wc -l) files in ${out#"$TOP"/}"
