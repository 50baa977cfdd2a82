#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Writes what a test farm (LAVA, KernelCI) takes as it is, from the build
# the runner boots: the kernel image, modules.tar.gz, kselftest.tar.gz (as
# "make kselftest-gen_tar TARGETS=kprobes" packs the kselftest install,
# test modules inside), the runner's initramfs.cpio and manifest.json
# (kernel release, architecture, config fragments, sha256 of each file),
# and the kernel record's own config fragment where it has one.
#
# Usage: scripts/farm/artefacts.sh [--kernel K] --arch ARCH[-VARIANT] --out DIR [--build BUILD_DIR]
#   writes DIR/<K>/<label>/; BUILD_DIR defaults to the runner's
#   ~/.cache/kprobes-selftests/build-<K>/<label>, which is only read.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n 's/^# \{0,1\}//; 3,12p' "$0"
	exit "$1"
}

label=
out=
obj=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) load_kernel "${2:?--kernel needs a value}"; shift 2 ;;
	--arch) label=${2:?--arch needs a value}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	--build) obj=${2:?--build needs a value}; shift 2 ;;
	-h|--help) usage 0 ;;
	*) say "unknown argument: $1" >&2; usage 2 ;;
	esac
done
if [ -z "$label" ] || [ -z "$out" ]; then usage 2; fi
load_label "$label"
obj=${obj:-$BUILD_ROOT/$label}

# Everything is checked before anything is written: a half-written
# artefacts directory would look like a good one to a farm.
[ -d "$obj" ] || die "$obj: no build directory for $KERNEL $label (build it first: scripts/run.sh --kernel $KERNEL --arch $label)"
ksft=$obj/kselftest/kselftest_install
for f in "$KERNEL_IMAGE" include/config/kernel.release initramfs.cpio modules-root/lib/modules \
	kselftest/kselftest_install/run_kselftest.sh kselftest/kselftest_install/kprobes/test_modules; do
	[ -e "$obj/$f" ] || die "$obj/$f is missing: the build of $KERNEL $label is incomplete"
done
release=$(cat "$obj/include/config/kernel.release")

dest=$out/$KERNEL/$label
rm -rf "$dest"
mkdir -p "$dest"
cp "$obj/$KERNEL_IMAGE" "$dest/"
cp "$obj/initramfs.cpio" "$dest/"
# Owned by root, no build-machine names: what "make modules_install" and
# "make kselftest-gen_tar" would give on the farm's side.
tar_opts=(--owner=0 --group=0 --numeric-owner --sort=name)
# Without the build and source links, which name this machine's paths.
tar -czf "$dest/modules.tar.gz" "${tar_opts[@]}" --exclude='lib/modules/*/build' \
	--exclude='lib/modules/*/source' -C "$obj/modules-root" lib
tar -czf "$dest/kselftest.tar.gz" "${tar_opts[@]}" -C "$ksft" .

# The fragments as scripts/build.sh merges them, named from the top of
# this tree; the kselftest's own "config" ships in the tarball, and the
# kernel record's options for the architecture (build_label() in lib.sh)
# beside the manifest.
fragments=()
while read -r f; do
	fragments+=("${f#"$TOP"/}")
done < <(config_fragments)
record_config=KCONFIG_FRAGMENT_$ARCH_NAME
if [ -n "${!record_config:-}" ]; then
	printf '%s\n' "${!record_config}" >"$dest/kernel-record.config"
	fragments+=("kernel-record.config")
fi
fragments+=("tools/testing/selftests/kprobes/config")

python3 - "$dest" "$KERNEL" "$release" "$ARCH_NAME" "$label" "${KERNEL_IMAGE##*/}" "${fragments[@]}" <<'PY'
import hashlib, json, os, sys

dest, kernel, release, arch, label, image = sys.argv[1:7]
files = {}
for name in sorted(os.listdir(dest)):
    with open(os.path.join(dest, name), "rb") as f:
        files[name] = hashlib.file_digest(f, "sha256").hexdigest()
manifest = {"kernel": kernel, "release": release, "arch": arch, "label": label,
            "config_fragments": sys.argv[7:],
            "kernel_image": image, "initramfs": "initramfs.cpio",
            "modules": "modules.tar.gz", "kselftest": "kselftest.tar.gz",
            "sha256": files}
with open(os.path.join(dest, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")
PY
say "$dest: ${KERNEL_IMAGE##*/} initramfs.cpio modules.tar.gz kselftest.tar.gz manifest.json ($release $label)"
