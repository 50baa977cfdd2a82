#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Kernel coverage of the kprobes code (scripts/run.sh --coverage): gcov
# on the core's files and on the COVERAGE_FILES of each architecture's
# record (scripts/arch/<arch>.conf), read from /sys/kernel/debug/gcov in
# the guest after the suite.
#
# Usage: scripts/measure/coverage.sh instrument SRC LABEL...
#          has kbuild compile each file of the labels with gcov: a
#          "GCOV_PROFILE_<file>.o := y" line in its directory's Makefile,
#          an uncommitted change (scripts/apply-series.sh undoes it)
#        scripts/measure/coverage.sh report LABEL SRC BUILD_DIR OUT_DIR
#          takes the counters out of OUT_DIR/console.log, prints line and
#          branch coverage per file (a Markdown table) into
#          OUT_DIR/coverage.txt, and, with lcov installed, an HTML report
#          into OUT_DIR/coverage/
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# The core's files, on every architecture.
CORE_FILES="kernel/kprobes.c kernel/trace/rethook.c lib/objpool.c"

usage() {
	sed -n 's/^# \{0,1\}//; 8,16p' "$0" >&2
	exit 2
}

files_of() {
	load_label "$1"
	# shellcheck disable=SC2086 # lists of files
	printf '%s\n' $CORE_FILES $COVERAGE_FILES
}

# True when C file $1 declares a __naked function without __no_profile:
# gcc puts gcov's counter updates in naked functions too, where they
# clobber registers that the function's own assembler relies on (arm's
# __kretprobe_trampoline() without its __no_profile returned 1 from every
# kretprobed call, and the kernel's KUnit kprobes suite oopsed at boot).
naked() {
	awk '/^[a-z].*__naked/ && !/__no_profile/ { found = 1 } END { exit !found }' "$1"
}

instrument() {
	local src=$1 file makefile line

	shift
	for label in "$@"; do
		files_of "$label"
	done | sort -u | while read -r file; do
		makefile=$src/$(dirname "$file")/Makefile
		line="GCOV_PROFILE_$(basename "$file" .c).o := y"
		[ -f "$src/$file" ] || continue
		if naked "$src/$file"; then
			say "   $file: not instrumented: gcov's counters would run in its __naked function" >&2
			continue
		fi
		grep -qxF "$line" "$makefile" || printf '%s\n' "$line" >>"$makefile"
	done
}

report() {
	local label=$1 src=$2 obj=$3 out=$4 file dir summary

	[ -f "$out/console.log" ] || die "$out/console.log: no console log"
	# The guest prints "kprobes-ci: gcda PATH" then the file in hex (xxd -p):
	# PATH is where the build wrote the object, next to its .gcno.
	find "$obj" -name '*.gcda' -delete
	python3 - "$out/console.log" "$(realpath "$obj")" <<'EOF'
import os, re, sys
console, obj = sys.argv[1:]
out, data = None, []
def flush():
    if out and os.path.realpath(out).startswith(obj + "/"):
        open(out, "wb").write(bytes.fromhex("".join(data)))
for line in open(console, errors="replace"):
    line = line.strip()
    m = re.match(r"kprobes-ci: gcda (/\S+\.gcda)$", line)
    if m or line.startswith("kprobes-ci: "):
        flush()
        out, data = (m.group(1) if m else None), []
    elif out and re.fullmatch(r"[0-9a-f]+", line):
        data.append(line)
flush()
EOF
	load_label "$label"
	{
		echo "| $label: file | lines | branches taken |"
		echo "|---|---|---|"
		files_of "$label" | while read -r file; do
			dir=$(dirname "$file")
			if [ -f "$src/$file" ] && naked "$src/$file"; then
				echo "| $file | not instrumented: a __naked function | |"
				continue
			elif [ ! -f "$obj/$dir/$(basename "$file" .c).gcno" ]; then
				echo "| $file | not built for $label | |"
				continue
			elif [ ! -f "$obj/$dir/$(basename "$file" .c).gcda" ]; then
				echo "| $file | built, no counters from the guest | |"
				continue
			fi
			# gcov reads the counters next to the object, and prints a
			# summary per source file, the headers' inlines included.
			summary=$(cd "$obj" && "${CROSS_COMPILE}gcov" -b -n -o "$dir" "$src/$file" 2>/dev/null |
				awk -v f="$file" -v q="'" '
					/^File / { mine = index($0, f q) > 0 }
					mine && /^Lines executed:/ { split($2, a, ":"); l = a[2] " of " $4 }
					mine && /^Taken at least once:/ { split($4, a, ":"); b = a[2] " of " $6 }
					END { printf "%s | %s", l, b }')
			echo "| $file | $summary |"
		done
	} | tee "$out/coverage.txt"
	if command -v lcov >/dev/null; then
		lcov -q --gcov-tool "${CROSS_COMPILE}gcov" --rc lcov_branch_coverage=1 \
			--capture --directory "$obj" --base-directory "$obj" \
			--output-file "$out/coverage.info" >/dev/null 2>&1 &&
		genhtml -q --branch-coverage --output-directory "$out/coverage" \
			"$out/coverage.info" >/dev/null 2>&1 &&
		say "   HTML: $out/coverage/index.html"
	fi
}

case ${1:-} in
instrument) [ $# -ge 3 ] || usage; shift; instrument "$@" ;;
report) [ $# -eq 5 ] || usage; shift; report "$@" ;;
*) usage ;;
esac
