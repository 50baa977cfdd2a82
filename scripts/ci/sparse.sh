#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prints the path of a sparse that kernel tree $1 accepts (its
# scripts/checker-valid.sh): Debian 12's sparse 0.6.4 where it does (6.1,
# 6.12), else one built once in the cache from the source package of
# Debian unstable, whose sparse knows what newer kernels use
# (__typeof_unqual__ in 7.3).
#
# Usage: scripts/ci/sparse.sh KERNEL_TREE
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die "usage: $0 KERNEL_TREE"
valid() {
	[ "$(sh "$1/scripts/checker-valid.sh" "$2" 2>/dev/null)" = 1 ]
}
# Trees before checker-valid.sh take any sparse.
if [ ! -f "$1/scripts/checker-valid.sh" ] || valid "$1" sparse; then
	command -v sparse
	exit 0
fi
own=$CACHE_DIR/sparse/bin/sparse
if ! valid "$1" "$own"; then
	dir=$CACHE_DIR/sparse
	rm -rf "$dir"
	say "   building sparse from Debian unstable's source (the installed one is too old for $1)" >&2
	debian_download_source sparse sid "$dir/src" >&2
	mkdir -p "$dir/build"
	tar -xzf "$dir"/src/sparse_*.orig.tar.gz -C "$dir/build" --strip-components=1
	run_logged "$dir/build.log" make -C "$dir/build" -j"$(nproc)" PREFIX="$dir" \
		HAVE_LLVM=no HAVE_GTK=no HAVE_SQLITE=no HAVE_LIBXML=no install
	valid "$1" "$own" || die "the sparse built in $dir does not pass $1/scripts/checker-valid.sh either"
fi
echo "$own"
