# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # the variables are for the sourcing scripts
# Shared by the scripts: paths, messages and the per-architecture data.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_DIR=${KPROBES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kprobes-selftests}
PRISTINE_TAG=pristine
# The upstream base; see README.md for why it is the default.
DEFAULT_KERNEL=7.3
# The label a script runs on when not told: the README's first command's.
DEFAULT_LABEL=x86_64

say() { printf '%s\n' "$*"; }
# A line that says how far a long command is: run_logged() lets the
# lines with this mark through.
PROGRESS_MARK='   ... '
progress() { say "$PROGRESS_MARK$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

known_arches() {
	local conf

	for conf in "$TOP"/scripts/arch/*.conf; do
		basename "$conf" .conf
	done
}

# configs/NAME.config that is neither base.config nor an architecture's.
known_variants() {
	local conf name

	for conf in "$TOP"/configs/*.config; do
		name=$(basename "$conf" .config)
		[ "$name" = base ] || [ -f "$TOP/scripts/arch/$name.conf" ] || echo "$name"
	done
}

# What "all" builds and boots: each architecture, and ARCH-VARIANT for
# each kernel variant its scripts/arch/<arch>.conf names in VARIANTS.
known_labels() {
	local arch variant

	for arch in $(known_arches); do
		echo "$arch"
		# shellcheck source=arch/x86_64.conf
		for variant in $(VARIANTS=; . "$TOP/scripts/arch/$arch.conf"; echo "$VARIANTS"); do
			echo "$arch-$variant"
		done
	done
}

known_kernels() {
	local conf

	for conf in "$TOP"/scripts/kernel/*.conf; do
		basename "$conf" .conf
	done | sort -rV
}

# Sets KERNEL_PACKAGE, ... for kernel $1 (see scripts/kernel/7.3.conf) and
# the paths that depend on it: the pristine tree (one git repository in the
# cache whose worktree is the source the pipeline builds, the series
# applied on top), the series' directory and the build directories.
load_kernel() {
	local conf="$TOP/scripts/kernel/$1.conf"

	[ -f "$conf" ] || die "unknown kernel '$1' (known: $(known_kernels | paste -sd' '))"
	# The fields a file may leave out (what scripts/test.sh runs on it).
	TEST_LABELS=
	BISECT_LABELS=
	LAVA_LABELS=
	MUTANTS_LABEL=
	DEBUG_LABEL=
	SOAK_LABEL=
	MERGE_LABELS=
	CLOSES_TAG=Closes
	unset "${!KCONFIG_FRAGMENT_@}"
	# shellcheck source=kernel/7.3.conf
	. "$conf"
	KERNEL=$1
	LINUX_REPO=$CACHE_DIR/linux-$KERNEL
	PATCH_DIR=$TOP/patches
	[ -z "$SERIES_NAME" ] || PATCH_DIR=$TOP/lts/$KERNEL
	BUILD_ROOT=$CACHE_DIR/build-$KERNEL
}

# The patches of the kernel's series, cover letters left out, in the
# order they are applied: upstream, submission by submission
# (patches/NN-NAME/); a stable kernel's test series (lts/<K>/).
series_patches() {
	find "$PATCH_DIR" -maxdepth 2 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort
}

# The lines of series/submissions: NN NAME WAITS PATCHES...
submissions() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/series/submissions"
}

# Makes in directory $1 what get_maintainer.pl reads of the base tree:
# who a submission goes to is decided on the base. It takes an F:
# pattern without a trailing slash for a directory only when that
# directory exists, so the base's directories are made too (empty).
base_maintainers() {
	mkdir -p "$1"
	git -C "$LINUX_REPO" ls-tree -r -d --name-only "$PRISTINE_TAG" | (cd "$1" && xargs mkdir -p)
	for f in MAINTAINERS .get_maintainer.ignore scripts/get_maintainer.pl; do
		git -C "$LINUX_REPO" show "$PRISTINE_TAG:$f" >"$1/$f"
	done
}

# Sets KERNEL_ARCH, CROSS_COMPILE, QEMU, QEMU_ARGS, ... for arch $1; see
# scripts/arch/x86_64.conf for the meaning of each.
load_arch() {
	local conf="$TOP/scripts/arch/$1.conf"

	[ -f "$conf" ] || die "unknown ARCH '$1' (known: $(known_arches | paste -sd' '))"
	# The fields a file may leave out, so that none is left over from the
	# architecture loaded before.
	BUSYBOX_SUITE=
	KCONFIG_UNAVAILABLE=
	VARIANTS=
	DEFCONFIG=defconfig
	QEMU_PATCHES=
	COVERAGE_FILES=
	# shellcheck source=arch/x86_64.conf
	. "$conf"
	ARCH_NAME=$1
}

# The QEMU binary of the loaded architecture: Debian's $QEMU, or, when
# its conf names QEMU_PATCHES, the one scripts/build-qemu.sh builds with
# them, in a directory of the cache named after what it is built from.
qemu_binary() {
	local key

	[ -n "$QEMU_PATCHES" ] || { echo "$QEMU"; return; }
	# shellcheck disable=SC2086 # QEMU_PATCHES is a list of file names
	key=$({ dpkg-query -W -f='${source:Version}' "$QEMU_PACKAGE" 2>/dev/null || :
		cd "$TOP/scripts/qemu" && cat $QEMU_PATCHES ../build-qemu.sh; } | sha256sum | cut -c1-12)
	echo "$CACHE_DIR/qemu/$QEMU-$key/bin/$QEMU"
}

# load_arch for $1, an architecture or ARCH-VARIANT (arm-thumb2): a
# variant adds configs/VARIANT.config to EXTRA_CONFIGS.
load_label() {
	local variant=${1#"${1%%-*}"}

	load_arch "${1%%-*}"
	if [ -n "$variant" ]; then
		# Not grep -q: it stops reading at the first match, and under
		# pipefail the writer's SIGPIPE fails the test (arm64-coverage).
		known_variants | grep -x -- "${variant#-}" >/dev/null ||
			die "unknown variant in '$1' (known: $(known_variants | paste -sd' '))"
		export EXTRA_CONFIGS="${EXTRA_CONFIGS:-} $TOP/configs/${variant#-}.config"
	fi
}

# The config fragments the loaded label's build merges, a path a line,
# in scripts/build.sh's order: base.config, the architecture's, then
# EXTRA_CONFIGS (the caller's: --debug's, --coverage's, build_label()'s;
# then the variant's, which load_label adds). A key of the build hashes
# these, not every configs/*.config: a fragment no label merges changes
# no kernel.
config_fragments() {
	# shellcheck disable=SC2086 # EXTRA_CONFIGS is a list of files
	printf '%s\n' "$TOP/configs/base.config" "$TOP/configs/$ARCH_NAME.config" ${EXTRA_CONFIGS:-}
}

# Dies unless directory $1 (made if missing) has $2 MiB free: a full disk
# fails here, with its name, rather than halfway through a build.
need_space() {
	local dir=$1 need=$2 free

	mkdir -p "$dir" 2>/dev/null || die "cannot create $dir"
	free=$(df -Pm "$dir" | awk 'NR == 2 { print $4 }')
	[ "$free" -ge "$need" ] ||
		die "$dir: $free MiB free, $need MiB needed (full disk? KPROBES_CACHE and --out choose where)"
}

# The URI the machine's apt uses for Debian suite $1; for a suite it does
# not use (trixie-backports on bookworm), the one of its own release.
debian_mirror() {
	local codename release uri

	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	for release in "$1" "$codename"; do
		# shellcheck disable=SC2016 # apt's own $(FIELD) syntax
		uri=$(apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 2>/dev/null |
		      awk -v r="$release" '$1 == r { print $2; exit }')
		[ -z "$uri" ] || { echo "$uri"; return; }
	done
	die "no Debian mirror for $1 or $codename in the machine's apt sources: add one (see sources.list(5))"
}

# Runs apt-get with an apt state of our own in the cache, for one Debian
# suite and architecture ("source" for source packages), in directory
# $3: the machine's apt configuration is not changed, and no root is
# needed. Usage: private_apt SUITE ARCH DIR APT-GET-ARGUMENTS...
private_apt() {
	local suite=$1 deb_arch=$2 dest=$3 apt_dir mirror type=deb
	local apt_opts

	shift 3
	apt_dir=$CACHE_DIR/apt/$suite-$deb_arch
	apt_opts=(-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Etc::SourceList=$apt_dir/sources.list"
		-o "Dir::Etc::SourceParts=$apt_dir/none" -o "Dir::Cache=$apt_dir/cache"
		-o Debug::NoLocking=1)
	if [ "$deb_arch" = source ]; then
		type=deb-src
	else
		apt_opts+=(-o "APT::Architecture=$deb_arch" -o "APT::Architectures=$deb_arch")
	fi
	mirror=$(debian_mirror "$suite")
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache" "$dest"
	echo "$type [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
		>"$apt_dir/sources.list"
	say "   $* ($deb_arch) from $mirror $suite"
	run_logged "$dest/apt.log" apt-get "${apt_opts[@]}" update
	(cd "$dest" && run_logged "$dest/apt.log" apt-get "${apt_opts[@]}" "$@") ||
		die "apt-get $* from $mirror $suite failed (log above)"
}

# Downloads Debian package $1 (name or name=version) for Debian
# architecture $2 from suite $3 into directory $4.
debian_download() {
	private_apt "$3" "$2" "$4" download "$1"
}

# Downloads the Debian source package $1 from suite $2 into directory $3.
debian_download_source() {
	private_apt "$2" source "$3" source --download-only "$1"
}

# Runs a command with its output in a log file; on failure shows the tail
# and the path of the log. Its progress() lines pass through: a cold
# build is ten silent minutes otherwise.
run_logged() {
	local log=$1

	shift
	if ! "$@" 2>&1 | tee -p "$log" | { grep --line-buffered "^${PROGRESS_MARK//./\\.}" || true; }; then
		tail -n 25 "$log" >&2
		die "failed: $* (full log: $log)"
	fi
}

# A check whose verdict depends only on its inputs keeps, in file $1 of
# the cache, a line $2 naming the inputs it passed with: the same inputs
# pass again without the work. A failure is never kept.
passed_before() {
	[ -f "$1" ] && grep -qxF -- "$2" "$1"
}

record_pass() {
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" >>"$1"
}

# A short name for what is on stdin: the keys of the caches above.
digest() {
	sha256sum | cut -c1-16
}

# The tree whose kselftest and samples are built for kernel tree $1: that
# tree, or for a stable kernel the newest kernel's (TESTS_FROM in
# scripts/kernel/<K>.conf), its series applied as NO_FIXES says.
tests_tree() {
	if [ -z "$TESTS_FROM" ]; then
		echo "$1"
	else
		KERNEL=$TESTS_FROM "$TOP/scripts/apply-series.sh"
	fi
}

# A build killed midway (a session's end, a CI timeout) leaves files that
# make then takes as up to date: s390's compressed vmlinux, cut short,
# failed every later boot with "XZ-compressed data is corrupt". Every
# build in a build directory $1 is between these two: the first removes
# what an interrupted build wrote (not .config, written whole by a
# rename), and marks the directory as being built until the second.
# Whether the last build in directory $1 was interrupted: it may have
# deleted the objects it was writing.
build_interrupted() {
	[ -f "$1/.kprobes-building" ]
}

# Whether kernel file $2 (.c or .S) may be compiled in build directory
# $1: it has an object there, or the last build there was interrupted
# and may have deleted it.
maybe_compiled() {
	build_interrupted "$1" || [ -f "$1/${2%.?}.o" ]
}

build_begin() {
	local building=$1/.kprobes-building

	if build_interrupted "$1"; then
		say "   the last build in $1 was interrupted: removing what it wrote"
		find "$1" -newer "$building" ! -type d ! -path "$1/.config" -delete
	fi
	mkdir -p "$1"
	touch "$building"
}

build_end() {
	rm -f "$1/.kprobes-building"
}

# Builds kernel tree $2 for label $1 in build directory $3 (build.sh),
# and for a stable kernel the newest kselftest and samples against it:
# the tree's own kselftest config fragment is merged into its config.
build_label() {
	local label=$1 src=$2 obj=$3 tests selftest_config status=0
	local record_config=KCONFIG_FRAGMENT_${label%%-*}
	local EXTRA_CONFIGS=${EXTRA_CONFIGS:-}

	tests=${TESTS_TREE:-$(tests_tree "$src")}
	build_begin "$obj"
	# The kernel record's options for this architecture, under the names
	# this kernel gives them: configs/ has the newest kernel's.
	if [ -n "${!record_config:-}" ]; then
		printf '%s\n' "${!record_config}" >"$obj/kernel-record.config"
		EXTRA_CONFIGS+=" $obj/kernel-record.config"
	fi
	export EXTRA_CONFIGS
	if [ "$tests" = "$src" ]; then
		"$TOP/scripts/build.sh" "$label" "$src" "$obj" || status=$?
	else
		selftest_config=$tests/tools/testing/selftests/kprobes/config
		EXTRA_CONFIGS="$EXTRA_CONFIGS $selftest_config" \
			"$TOP/scripts/build.sh" "$label" "$src" "$obj" &&
		"$TOP/scripts/build.sh" --kselftest-only "$label" "$tests" "$obj" &&
		"$TOP/scripts/build-samples.sh" "$label" "$tests" "$obj" || status=$?
	fi
	# A build that failed, unlike a killed one (status 128 + signal), left
	# nothing half written (kbuild deletes a target whose command failed):
	# the next one keeps what this one built.
	[ "$status" -gt 128 ] || build_end "$obj"
	return "$status"
}

# Names git tree $1 as it is on disk: its commit's tree and whatever is
# changed or added on top (a mutant is an uncommitted change).
tree_key() {
	{
		git -C "$1" rev-parse 'HEAD^{tree}'
		git -C "$1" status --porcelain
		git -C "$1" diff HEAD
	} | digest
}

# Every script works on one kernel: $KERNEL, or the default. Scripts that
# can do every kernel do so when KERNEL_GIVEN is empty.
KERNEL_GIVEN=${KERNEL:-}
load_kernel "${KERNEL:-$DEFAULT_KERNEL}"
