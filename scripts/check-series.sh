#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fails when patches/ is not what scripts/gen-series.sh makes from the
# sources today, i.e. someone edited a source and forgot to regenerate.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fresh=$(mktemp -d /tmp/kprobes-series-check.XXXXXX)
trap 'rm -rf "$fresh"' EXIT
"$TOP/scripts/gen-series.sh" "$fresh/patches" >/dev/null
if ! diff -ru "$TOP/patches" "$fresh/patches" >"$fresh/diff"; then
	head -n 40 "$fresh/diff"
	die "patches/ is stale: run scripts/gen-series.sh and commit the result"
fi
say "patches/ matches the sources"
