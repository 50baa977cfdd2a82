#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fails when patches/ is not what scripts/gen-series.sh makes from the
# sources today, i.e. someone edited a source and forgot to regenerate.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# What gen-series.sh reads: the series' sources, patches/ as committed,
# the scripts it runs, git (whose version format-patch writes) and each
# kernel's pristine tree. The same inputs make the same patches.
inputs_key() {
	local kernel

	(cd "$TOP" && git ls-files --cached --others --exclude-standard -z -- \
		Documentation samples selftests series patches scripts/kernel \
		scripts/gen-series.sh scripts/prepare-tree.sh scripts/lib.sh "$0" |
		xargs -0 sha256sum 2>&1) || true
	git --version
	for kernel in $(known_kernels); do
		load_kernel "$kernel"
		git -C "$LINUX_REPO" rev-parse -q --verify "$PRISTINE_TAG^{tree}" || echo none
	done
}

passed=$CACHE_DIR/series-passed
key=$(inputs_key | digest)
if passed_before "$passed" "$key"; then
	say "patches/ matched these sources before"
	exit 0
fi
fresh=$(mktemp -d /tmp/kprobes-series-check.XXXXXX)
trap 'rm -rf "$fresh"' EXIT
"$TOP/scripts/gen-series.sh" "$fresh/patches" >/dev/null
if ! diff -ru "$TOP/patches" "$fresh/patches" >"$fresh/diff"; then
	head -n 40 "$fresh/diff"
	die "patches/ is stale: run scripts/gen-series.sh and commit the result"
fi
record_pass "$passed" "$key"
say "patches/ matches the sources"
