#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerates the patch series of a kernel from its sources: for each
# series/NN-*.msg, copies the files named in NN-*.files from this
# repository to their kernel paths, applies NN-*.diff (hunks on existing
# kernel files) and commits on top of the kernel's pristine tree; then runs
# git format-patch with a cover letter.
#
# The upstream kernel gets one submission per tree, in the order of
# series/submissions: patches/NN-NAME/, with the cover letter
# series/covers/NAME.txt and, in each mail, the To: and Cc: that the
# base tree's scripts/get_maintainer.pl gives for it. A stable kernel
# gets one series of test material in lts/<K>/, made from
# series/lts-<K>/, which holds only what differs for that kernel:
# NN-*.diff and NN-*.msg in place of the upstream ones, NN-*.drop (why
# the patch is left out) and cover-letter.txt, and may add a patch of
# its own (a prerequisite taken from upstream, NN-*.author naming its
# author). The new files (NN-*.files) are the same for every kernel.
#
# No mail carries a Signed-off-by: the commits are by the placeholder of
# series/series.conf, and scripts/series/export-series.sh gives the submitter's
# own From: and Signed-off-by: to the copies that are sent.
#
# Without OUTPUT_ROOT, the selftest parts' .diff files are written first,
# from selftests/ (scripts/series/split-selftests.sh): a change anywhere in
# selftests/, samples/, Documentation/ or series/ needs this one command,
# then a commit.
#
# Usage: scripts/series/gen-series.sh [OUTPUT_ROOT]       every kernel's series
#        KERNEL=6.1 scripts/series/gen-series.sh [OUTPUT_DIR]   one kernel's
# (defaults: patches/ and lts/<K>/)
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../../series/series.conf
. "$TOP/series/series.conf"

if [ $# -gt 1 ] || [[ ${1:-} == -* ]]; then
	die "usage: $0 [OUTPUT_ROOT] (KERNEL=K: [OUTPUT_DIR])"
fi
if [ -z "$KERNEL_GIVEN" ]; then
	root=$(realpath -m "${1:-$TOP}")
	# Into patches/ and lts/: from the sources as they are. Elsewhere
	# (scripts/ci/check-series.sh): from series/ as it is.
	[ $# -gt 0 ] || "$TOP/scripts/series/split-selftests.sh"
	for kernel in $(known_kernels); do
		load_kernel "$kernel"
		KERNEL=$kernel "$0" "$root/${PATCH_DIR#"$TOP"/}"
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

# series/NN-name for patch number NN.
patch_name() {
	local msg

	for msg in "$TOP/series/$1"-*.msg; do
		[ -f "$msg" ] || die "series/submissions: no series/$1-*.msg"
		basename "$msg" .msg
	done
}

# Whether patch $1 changes the kernel itself: a path outside samples/,
# the selftests, Documentation/ and MAINTAINERS. A stable kernel's series
# has only those: the newest samples and selftests are built out of tree
# against it (scripts/build.sh), as CI farms run them.
changes_kernel() {
	local files diff

	files=$(series_file "$1.files")
	diff=$(series_file "$1.diff")
	{
		[ -z "$files" ] || cat "$files"
		[ -z "$diff" ] || sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$diff"
	} | grep -v -e '^$' -e '^samples/' -e '^selftests/' -e '^tools/testing/selftests/' \
		-e '^Documentation/' -e '^MAINTAINERS$' >/dev/null	# -q: SIGPIPE (lib.sh)
}

# Upstream: the patches of each submission, in the order of
# series/submissions; submission[i] names the submission of patches[i].
# A backport: the upstream patches, minus those it drops, plus those
# only it has (a prerequisite from upstream, with its NN-*.author).
patches=()
submission=()
if [ -z "$SERIES_NAME" ]; then
	while read -r nn name _waits numbers; do
		for n in $numbers; do
			patches+=("$(patch_name "$n")")
			submission+=("$nn-$name")
		done
	done < <(submissions)
	[ "$(printf '%s\n' "${patches[@]}" | sort -u | wc -l)" -eq "$(find "$TOP/series" \
		-maxdepth 1 -name '[0-9]*.msg' | wc -l)" ] ||
		die "series/submissions does not name each series/NN-*.msg once"
else
	while read -r name; do
		[ ! -f "$overrides/$name.drop" ] || continue
		changes_kernel "$name" || continue
		patches+=("$name")
	done < <(for msg in "$TOP"/series/[0-9]*.msg "$overrides"/[0-9]*.msg; do
			[ -f "$msg" ] && basename "$msg" .msg
		done | LC_ALL=C sort -u)
fi

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

commits=()
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
	sed "s/^Closes: /$CLOSES_TAG: /" "$(series_file "$name.msg")" >"$work/msg"
	git -C "$tree" commit -q -F "$work/msg" ${author:+--author="$(cat "$author")"}
	commits+=("$(git -C "$tree" rev-parse HEAD)")
done

# Files that grow from patch to patch come from .diff hunks
# (scripts/series/split-selftests.sh): the tip must hold the new files exactly as
# they are here, and no others. A stable kernel's series adds none.
if [ -z "$SERIES_NAME" ]; then
	for dir in selftests samples Documentation; do
		[ -d "$tree/$(kernel_path "$dir/")" ] || continue
		while read -r f; do
			cmp -s "$TOP/$f" "$tree/$(kernel_path "$f")" ||
				die "$KERNEL: the series' $(kernel_path "$f") is not $f: is it in a .files list?"
		done < <(source_files "$dir")
	done
	extra=$(cd "$tree/tools/testing" && find selftests/kprobes -type f 2>/dev/null |
		while read -r f; do [ -e "$TOP/$f" ] || echo "$f"; done)
	[ -z "$extra" ] || die "$KERNEL: the series adds files that $TOP does not have: $extra"
fi

# git format-patch of commits $2..$3 into directory $1, with subject
# prefix $4 and the cover letter from file $5 (a subject line, then the
# blurb) and text $6 after it. Blank context lines become empty lines
# (what diff --suppress-blank-empty writes, and git apply accepts): a
# lone space would read as trailing whitespace wherever the patch is not
# parsed as a patch (checkpatch on a file that git tracks, mail clients).
# The blob ids on the index lines have 12 digits, as commit ids in the
# kernel's changelogs: git lengthens a shorter id that is ambiguous, and the
# kernel repository of a cache that has built more holds more objects.
format_series() {
	local dir=$1 from=$2 to=$3 prefix=$4 text=$5 more=$6

	mkdir -p "$dir"
	rm -f "$dir"/*.patch
	git -C "$tree" -c core.abbrev=12 format-patch -q --cover-letter --no-signature --zero-commit \
		--subject-prefix="$prefix" -o "$dir" "$from..$to"
	sed -i 's/^ $//' "$dir"/0*.patch
	python3 - "$dir/0000-cover-letter.patch" "$text" "$more" <<'PY'
import sys
import textwrap
cover_path, text_path, more = sys.argv[1:]
subject, _, blurb = open(text_path).read().partition("\n")
if more.strip():
    blurb = blurb.strip() + "\n\n" + textwrap.fill(more.strip(), 72)
cover = open(cover_path).read()
cover = cover.replace("*** SUBJECT HERE ***", subject.strip())
cover = cover.replace("*** BLURB HERE ***", blurb)
open(cover_path, "w").write(cover)
PY
}

if [ -n "$SERIES_NAME" ]; then
	format_series "$out" "$PRISTINE_TAG" HEAD "$LTS_SUBJECT_PREFIX $KERNEL.y" \
		"$(series_file cover-letter.txt)" ""
	say "== $KERNEL: $(find "$out" -maxdepth 1 -name '*.patch' | wc -l) files in ${out#"$TOP"/}"
	exit 0
fi

# A failing test names the fixes it needs by subject, from
# selftests/kprobes/kst_fixes.h (the second line of each entry): each
# must be the subject of a fix in the series, or a farm's report would
# send its reader after a patch that does not exist.
while read -r subject; do
	grep -qlxF -- "$subject" "$TOP"/series/[0-9]*.msg ||
		die "selftests/kprobes/kst_fixes.h: \"$subject\" is no patch's subject in series/"
done < <(awk '/^\t\{ "/ { getline; if (match($0, /"[^"]*"/)) print substr($0, RSTART + 1, RLENGTH - 2) }' \
	"$TOP/selftests/kprobes/kst_fixes.h")

# The base tree's MAINTAINERS and get_maintainer.pl, for the recipients.
base_maintainers "$work/base"

# One submission per line of series/submissions, in patches/NN-NAME/.
mkdir -p "$out"
find "$out" -mindepth 1 -maxdepth 1 -type d -name '[0-9][0-9]-*' -exec rm -rf {} +
first=0
while read -r nn name waits numbers; do
	count=$(wc -w <<<"$numbers")
	last=$((first + count - 1))
	dir=$out/$nn-$name
	from=${commits[$first]}^
	more="Based on $UPSTREAM_BASE. Series $nn of $(submissions | wc -l): the fixes, one series per tree, then the samples, the selftests and the documentation."
	if [ "$waits" = - ]; then
		more+=" It depends on none of the others."
	else
		more+=" It is to be merged after: $(submissions |
			awk -v w=",$waits," 'index(w, "," $1 ",") { printf "%s%s", sep, $2; sep = ", " }')."
	fi
	format_series "$dir" "$from" "${commits[$last]}" "$SERIES_SUBJECT_PREFIX" \
		"$TOP/series/covers/$name.txt" "$more"
	"$TOP/scripts/series/recipients.py" write "$work/base" "$dir"
	first=$((last + 1))
done < <(submissions)
say "== $KERNEL: $(find "$out" -name '*.patch' | wc -l) files in $(submissions | wc -l) submissions in ${out#"$TOP"/}"
