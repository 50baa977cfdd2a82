#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Makes the mails to send of one or more submissions (patches/NN-NAME/,
# default: all of them): the committed copies with your own name in From:
# and your Signed-off-by: added to each patch, from git config user.name
# and user.email. Refuses without them. The mails keep the To: and Cc:
# that get_maintainer.pl gave; send them with git send-email or b4.
#
# Usage: scripts/series/export-series.sh [--out DIR] [NN-NAME...]
#   (default DIR: out/export)
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../../series/series.conf
. "$TOP/series/series.conf"

usage() {
	say "usage: $0 [--out DIR] [NN-NAME...]"
	say "submissions: $(find "$TOP/patches" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | paste -sd' ')"
	exit 2
}

out=$TOP/out/export
while [ $# -gt 0 ]; do
	case "$1" in
	--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) say "error: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || mapfile -t -d ' ' argv < <(cd "$TOP/patches" && printf '%s ' [0-9][0-9]-*)
[ $# -eq 0 ] || argv=("$@")
dirs=()
for name in "${argv[@]}"; do
	name=$(basename "$name")
	[ -d "$TOP/patches/$name" ] || { say "error: no submission $name in patches/" >&2; usage; }
	dirs+=("$TOP/patches/$name")
done

user=$(git -C "$TOP" config user.name || true)
mail=$(git -C "$TOP" config user.email || true)
if [ -z "$user" ] || [ -z "$mail" ]; then
	die "no git identity: set yours with git config user.name and user.email; the mails are sent in your name and signed off by you"
fi

cat <<EOF
Signing off as: $user <$mail>
Your Signed-off-by: certifies the Developer's Certificate of Origin 1.1
(Documentation/process/submitting-patches.rst): that you wrote the patch
or have the right to submit it under the kernel's licence, and that the
contribution and your sign-off are public and kept. Send these mails only
if that is true for you.
EOF

for dir in "${dirs[@]}"; do
	dest=$out/$(basename "$dir")
	rm -rf "$dest"
	mkdir -p "$dest"
	for patch in "$dir"/*.patch; do
		copy=$dest/$(basename "$patch")
		# The first From: is the mail's author, and the cover letter's
		# shortlog names the author too; nothing else is touched. A
		# patch resent as its author posted it keeps its author, whom
		# git send-email names in the body.
		awk -v from="From: $user <$mail>" -v draft="$SERIES_AUTHOR_NAME (" -v user="$user (" \
			-v placeholder="From: $SERIES_AUTHOR_NAME <$SERIES_AUTHOR_EMAIL>" \
			'!done && /^From: / { print ($0 == placeholder ? from : $0); done = 1; next }
			 index($0, draft) == 1 && /^[^ ]+.*\([0-9]+\):$/ { $0 = user substr($0, length(draft) + 1) }
			 { print }' "$patch" >"$copy"
		[[ $copy == */0000-cover-letter.patch ]] && continue
		# interpret-trailers puts the trailer after the others, above "---".
		git interpret-trailers --in-place --if-exists addIfDifferent \
			--trailer "Signed-off-by: $user <$mail>" "$copy"
	done
	say "   ${dest#"$TOP"/}: $(find "$dest" -name '*.patch' | wc -l) mails"
done
say "send with: git send-email --dry-run $out/NN-NAME/*.patch (then without --dry-run)"
