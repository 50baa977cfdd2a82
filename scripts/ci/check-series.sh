#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fails when patches/ or lts/ is not what scripts/series/gen-series.sh makes
# from the sources today (someone edited a source and forgot to
# regenerate), when a submission in patches/ does not apply alone with
# git am to its base, or when a mail's To: and Cc: are not what the
# base tree's get_maintainer.pl prints for it.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ $# = 0 ] || die "usage: $0 (no arguments)"

# What gen-series.sh reads: the series' sources, patches/ and lts/ as
# committed, the scripts it runs, git (whose version format-patch
# writes), perl (get_maintainer.pl's) and each kernel's pristine tree.
# The same inputs make the same patches.
inputs_key() {
	local kernel

	(cd "$TOP" && git ls-files --cached --others --exclude-standard -z -- \
		Documentation samples selftests series patches lts scripts/kernel \
		scripts/series scripts/prepare-tree.sh scripts/lib.sh "$0" |
		xargs -0 sha256sum 2>&1) || true
	git --version
	perl -v
	for kernel in $(known_kernels); do
		load_kernel "$kernel"
		git -C "$LINUX_REPO" rev-parse "$PRISTINE_TAG^{tree}"
	done
}

# The submissions that submission $1 (NN) waits on, and those they wait
# on, in the order of series/submissions.
waited_on() {
	local nn waits wanted=" $1 " grew=1

	while [ $grew = 1 ]; do
		grew=0
		while read -r nn _ waits _; do
			[[ $wanted == *" $nn "* ]] || continue
			for w in ${waits//,/ }; do
				[ "$w" != - ] && [[ $wanted != *" $w "* ]] && { wanted+="$w "; grew=1; }
			done
		done < <(submissions)
	done
	submissions | while read -r nn name _; do
		[ "$nn" = "$1" ] || [[ $wanted != *" $nn "* ]] || echo "$nn-$name"
	done
}

# Submission $1 (patches/NN-NAME) on the pristine upstream tree, after
# only those it waits on, in a scratch checkout of the paths they touch.
applies_alone() {
	local dir=$1 work=$2/am mails=() paths dep nn

	nn=${dir##*/}
	for dep in $(waited_on "${nn%%-*}") "${dir##*/}"; do
		mapfile -t -O "${#mails[@]}" mails < <(find "$TOP/patches/$dep" -name '[0-9]*.patch' \
			! -name '0000-*' | sort)
	done
	rm -rf "$work"
	git clone -q --shared --no-checkout "$LINUX_REPO" "$work"
	mapfile -t paths < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|/\1|p' "${mails[@]}" | sort -u)
	git -C "$work" sparse-checkout set --no-cone "${paths[@]}"
	git -C "$work" checkout -q --detach "$PRISTINE_TAG"
	if ! git -C "$work" am -q "${mails[@]}" >"$work.log" 2>&1; then
		cat "$work.log"
		say "${dir#"$TOP"/} does not apply to the pristine $KERNEL tree after what it waits on"
		return 1
	fi
}

passed=$CACHE_DIR/series-passed
# Made before the key, which names them: from an empty cache a key taken
# first named none, and the next run's did not match it.
for kernel in $(known_kernels); do
	KERNEL=$kernel "$TOP/scripts/prepare-tree.sh"
done
key=$(inputs_key | digest)
if passed_before "$passed" "$key"; then
	say "patches/ and lts/ matched these sources before"
	exit 0
fi
fresh=$(mktemp -d /tmp/kprobes-series-check.XXXXXX)
trap 'rm -rf "$fresh"' EXIT
status=0
"$TOP/scripts/series/split-selftests.sh" --check || status=1
"$TOP/scripts/series/gen-series.sh" "$fresh" >/dev/null
for dir in patches lts; do
	if ! diff -ru "$TOP/$dir" "$fresh/$dir" >"$fresh/diff"; then
		head -n 40 "$fresh/diff"
		say "$dir/ is stale: run scripts/series/gen-series.sh and commit the result"
		status=1
	fi
done

load_kernel "$DEFAULT_KERNEL"
base_maintainers "$fresh/base"
for dir in "$TOP"/patches/[0-9][0-9]-*/; do
	dir=${dir%/}
	applies_alone "$dir" "$fresh" || status=1
	"$TOP/scripts/series/recipients.py" check "$fresh/base" "$dir" || status=1
done
[ $status -eq 0 ] || die "the series are not what the sources and the base make (above)"
record_pass "$passed" "$key"
say "patches/ and lts/ match the sources; each submission applies alone, to get_maintainer.pl's recipients"
