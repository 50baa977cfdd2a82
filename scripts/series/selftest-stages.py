#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Growing files of the kprobes selftest series: which part adds each line.

Each growing file is tagged line by line (default part 1). Stage k of a
file is the lines of parts <= k; the last stage is the file in
selftests/kprobes as it is. Writes the hunks of each part on those files
to OUT/<part>.diff (git diff format, kernel paths).

Part k is the k-th series/NN-selftests-*.msg; its .files list the files it
adds whole. Most lines of the growing files are placed by what they name,
so that a new case or step is one line in kst_cases.h or kst_steps.h and
its function in a kst_*.c file, and nothing here changes:
- KST_CASE(x), KST_CASE_FATAL(x), KST_STEP(x), KST_STEP_ARG(x) and
  KST_PART(x) belong to the part whose file defines case_x(), step_x() or
  kst_x_init(); a comment or blank line that TAGS does not place, to the
  part of the next such line;
- in the Makefiles and .gitignore, a line naming a program, object or
  module of a part's file belongs to that part.
TAGS places the rest: blocks of prose and helpers, by their first line.
Usage: stages.py REPO OUTDIR
"""
import glob, os, re, subprocess, sys, tempfile

repo, outdir = sys.argv[1], sys.argv[2]
K = 'selftests/kprobes/'
PARTS = sorted(glob.glob(os.path.join(repo, 'series', '[0-9]*-selftests-*.msg')))
NPARTS = len(PARTS)
# Series number (NN of series/NN-selftests-*.msg) -> part.
PART_OF = {os.path.basename(msg).split('-')[0]: part for part, msg in enumerate(PARTS, 1)}

# The part of each file a part adds whole, by its directory (relative to
# selftests/kprobes) and its name without extension.
FILE_PART = {}
for part, msg in enumerate(PARTS, 1):
    files = msg[:-len('.msg')] + '.files'
    if os.path.exists(files):
        for path in open(files).read().split():
            d, name = os.path.split(os.path.relpath(path, K))
            FILE_PART[d, os.path.splitext(name)[0]] = part

LISTED = re.compile(r'^KST_(CASE|CASE_FATAL|STEP|STEP_ARG|PART)\((\w+)\);$')

def listed_part(path, line):
    m = LISTED.match(line)
    if not m:
        return None
    kind, name = m.groups()
    symbol = {'CASE': 'case_%s', 'CASE_FATAL': 'case_%s',
              'PART': 'kst_%s_init'}.get(kind, 'step_%s') % name
    assert symbol in SYMBOL_PART, 'no %s() in selftests/kprobes/test_modules' % symbol
    return SYMBOL_PART[symbol]

def named_part(path, line):
    d = os.path.dirname(path)
    parts = [FILE_PART[d, w] for w in re.findall(r'\w+', line) if (d, w) in FILE_PART]
    return max(parts) if parts else None

TESTED = re.compile(r'^TEST_F(?:_TIMEOUT)?\((\w+), (\w+)[,)]')
TEST_PARTS = {}

def test_part(name):
    """The part of the test of TAP name @name (api.<case>.run: its case's)."""
    if name.startswith('api.'):
        return SYMBOL_PART['case_' + name.split('.')[1]]
    # fixture.test -> the part of its TEST_F() line, in every driver once
    for path in glob.glob(os.path.join(repo, K, 'test_*.c')) if not TEST_PARTS else ():
        stem = os.path.splitext(os.path.basename(path))[0]
        if stem + '.c' in TAGS:
            lines, tags = tagged(stem + '.c')
        else:
            lines = open(path).read().split('\n')
            tags = [FILE_PART['', stem]] * len(lines)
        for line, part in zip(lines, tags):
            m = TESTED.match(line)
            if m:
                TEST_PARTS['%s.%s' % m.groups()] = part
    assert name in TEST_PARTS, 'no test %s in selftests/kprobes' % name
    return TEST_PARTS[name]

def fixed_part(path, line):
    m = re.match(r'^\t\{ "([\w.]+)",$', line)
    return test_part(m.group(1)) if m else None

# Files whose lines are placed by rule: the rule, and the part of a line it
# does not place: that of the next line it does (a comment before a case)
# or of the one before (an entry's other lines).
RULED = {
 'Makefile': (named_part, None),
 '.gitignore': (named_part, None),
 'test_modules/Makefile': (named_part, None),
 'test_modules/kst_cases.h': (listed_part, 'next'),
 'test_modules/kst_steps.h': (listed_part, 'next'),
 'kst_fixes.h': (fixed_part, 'prev'),
}

# file -> list of (part, first line (exact), number of lines[, which
# occurrence of that line, 1 if not said]), the part named by its series
# number (series/NN-selftests-*): a part added later renumbers nothing
# here.
TAGS = {
 'config': [
  ('30', 'CONFIG_KRETPROBES=y', 1),
  ('40', 'CONFIG_SAMPLES=y', 7),
 ],
 'Makefile': [
  ('20', 'CFLAGS += -Wall -O2 $(KHDR_INCLUDES)', 3),
  ('36', '# test_torture after the others: its load is what most often hits a bug', 2),
  ('38', '# Run by hand, by a soak job or a benchmark run: see their headers.', 1),
  ('20', '# The drivers have a test per case of kst_cases.h and a name per step of', 4),
  ('21', '# A *_fatal program is its test program built with KST_FATAL: the cases', 4),
  ('20', '$(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED): helpers.c', 1),
  ('20', '', -1),
 ],
 '.gitignore': [
  ('20', '# SPDX-License-Identifier: GPL-2.0-only', 2),
 ],
 'test_modules/Makefile': [],
 'helpers.h': [
  ('20', '/* SPDX-License-Identifier: GPL-2.0 */', 10000),
  ('32b', '#define KPROBES_BLACKLIST\tDEBUGFS "/kprobes/blacklist"', 1),
  ('32c', 'int blacklist_lines(const char *what);', 1),
  ('38', 'void sample_path(const char *name, char *path, size_t size);', 1),
 ],
 'helpers.c': [
  ('20', '// SPDX-License-Identifier: GPL-2.0', 10000),
  ('38', '#include <sys/utsname.h>', 1),
  ('32c', '/* Lines of kprobes/blacklist that contain @what (all if NULL), or -errno. */', 15),
  ('38', '/* Where modules_install puts samples/kprobes/@name.ko. */', 9),
  ('38', '', -1),
 ],
 'kst_fixes.h': [
  ('20b', '/* SPDX-License-Identifier: GPL-2.0 */', 31),
  ('21', ' *', 4),
  ('20b', '};', 10000, 2),
  ('21', '/* How many fixes @test (as in its TAP line) is known to need. */', 11),
 ],
 'kst_harness.h': [
  ('20', '/* SPDX-License-Identifier: GPL-2.0 */', 10000),
  ('20b', '#include "kst_fixes.h"', 1),
  ('33', '#define TARGET_MODULE\t"kprobes_selftest_target"', 1),
  ('32b', " * The kprobes/list line of the first probe that the module's debugfs file", 30),
  ('32b', '', -2),
  ('33', '\tunload_module(TARGET_MODULE);\t/* if a case loaded it */', 1),
 ],
 'test_kprobes.c': [
  ('20', '// SPDX-License-Identifier: GPL-2.0', 10000),
  ('21', ' *', 5, 2),
  ('21', "/* The other program's case: a declaration, for the list's semicolon. */", 7),
  ('21', '#define KST_CASE_FATAL(case_name)\tKST_ELSEWHERE(case_name)', 2),
  ('21', '#ifdef KST_FATAL', 7, 2),
  ('20b', '\tkst_name_test(_metadata->fixture->name, variant->name, _metadata->name);', 1),
  ('20b', '\tkst_name_deaths();', 1),
 ],
 'test_modules/kst_cases.h': [
  ('19', '/* SPDX-License-Identifier: GPL-2.0 */', 16),
  ('21', ' *', 5),
  ('21', '#ifndef KST_CASE_FATAL', 3),
  ('21', '#undef KST_CASE_FATAL', 1),
 ],
 'test_modules/kst_steps.h': [],
 'test_modules/kprobes_selftest.h': [
  ('19b', '#include <linux/atomic.h>', 1),
  ('19b', '#include <linux/kprobes.h>', 2),
  ('19b', ' * Calls @fn through a pointer the compiler cannot see through, so that it', 65),
  ('19b', '', -2),
  ('21', " * register_kprobe()'s error for @kp, in a case that expects one: a probe", 22),
  ('21', '', -2),
 ],
 'test_modules/kst_insns_arm.S': [
  ('24', '/* SPDX-License-Identifier: GPL-2.0 */', 10000),
  ('24b', ' * Thumb code on a Thumb-2 kernel (probes/decode-thumb.c,', 2),
  ('24b', '#else', 321),
  ('24b', '#else', 55, 2),
 ],
 'test_modules/kst_offset.c': [
  ('21', '// SPDX-License-Identifier: GPL-2.0', 10000),
  ('29', '#ifdef KST_AFTER_PROBE', 8),
  ('29', '#ifdef KST_AFTER_PROBE', 5, 2),
 ],
 'test_modules/kst_insn.h': [
  ('19b', '/* SPDX-License-Identifier: GPL-2.0 */', 10000),
  ('31', '#include <linux/delay.h>', 1),
  ('21', '#include <linux/err.h>', 2),
  ('21', '#include <linux/slab.h>', 2),
  ('21', '#ifdef CONFIG_ARM', 3),
  ('21', ' *   kst_insn_len(p)      the length of the instruction at @p; on x86 1,', 12),
  ('21', '#define KST_MISALIGNED_LAST\t1\t/* inside the first instruction */', 23),
  ('21', '/* Instructions of 2, 4 or 6 bytes, as the first two bits of the opcode say. */', 19),
  ('21', '#ifndef KST_INSIDE_ERR', 4),
  ('29', ' * KST_AFTER_PROBE: api.kprobe_after_probe has, besides a function of the', 11),
  ('29', '', -2),
  ('31b', ' * KST_EXTABLE_REFUSED: register_kprobe() refuses an instruction that has', 11),
  ('31b', '', -2),
  ('21', '/* The offset of the instruction after the one at @offset in @func. */', 124),
  ('33', '/* The start of the function @addr is in. */', 10),
  ('33', ' * A NULL @func is found from @symbol: a function of another module has', 2),
  ('33', '\tif (!func)', 2),
  ('31', ' * True once the optimizer has put its jump at the address of @kp, which', 59),
  ('31', '', -2),
  ('34b', ' * KST_OPT_JUMP_LEN: how many bytes an optimized probe\'s jump takes where', 10),
  ('34b', '', -2),
  ('32d', ' * KST_SLOT_INSN: an instruction that changes nothing and for which', 13),
  ('32d', '', -2),
 ],
 'README': [
  ('20', 'kprobes selftests', 10000),
  ('20b', 'On a kernel without a fix', 10),
  ('20b', '', -1),
  ('20b', 'It also writes its name and those fixes to the kernel log ("kprobes', 6),
  ('21', "The cases that kill a kernel without their fix are test_kprobes_fatal's,", 4),
  ('20b', 'Three fixes cannot be isolated in a case of their own, as any probe of', 9),
  ('20b', 'A case that finds a kernel bug names its fix in kst_fixes.h.', 4),
  ('21', 'One that kills a kernel without the fix is listed with', 2),
  ('22', 'An instruction that an architecture simulates, emulates or refuses is a', 12),
  ('32b', '  test_debugfs   the "kprobes.*" cases that check what user space sees in', 4),
  ('32e', '                 failslab.*: each allocation of a registration, or of', 3),
  ('33', '  test_unloaded  kprobes.*_on_unloaded_module: one or two probes on', 5),
  ('34', '  test_optprobe  the "optprobe.*" cases; they skip where kprobes are not', 5),
  ('34b', '                 - one inside a core-kernel function, from its hits to', 2),
  ('36', '  test_torture   the "torture.*" cases load test_modules/kprobes_torture.ko:', 6),
  ('38', '  test_bench     bad input to test_modules/kprobes_bench.ko, the module of', 2),
  ('40', '  test_samples   loads samples/kprobes/*.ko from /lib/modules/$(uname -r)', 3),
  ('41', '                 kretprobe_stats_* also probe the functions of', 3),
  ('41c', '                 (so do kprobe_args and kretprobe_kmalloc)', 1),
  ('41b', '  test_samples_fatal', 4),
  ('21', '  test_kprobes_fatal', 4),
  ('32b', 'A check that user space must make while a probe is registered is a', 11),
  ('41b', 'test_samples_fatal does the same for the sample cases that kill a', 4),
  ('41b', '', -1),
  ('38', 'Installed, but not run by default:', 2),
  ('39', '  kprobes_soak begin [CYCLES]; <run the suite>; kprobes_soak end', 5),
  ('38', '  kprobes_bench [-c CALLS] [-b N,...]', 5),
  ('32c', '  ./test_debugfs -t blacklist_core_functions', 1),
 ],
 'test_debugfs.c': [
  ('32b', '// SPDX-License-Identifier: GPL-2.0', 10000),
  ('32c', '#include <ctype.h>', 3),
  ('32e', '#include <fcntl.h>', 1),
  ('32c', '/* The module\'s NOKPROBE_SYMBOL() and noinstr functions are listed and refused. */', 212),
  ('32c', '\t\t"blacklisted_symbol", "blacklisted_symbol  ",', 3),
  ('32c', '\tchar long_symbol[400];', 1),
  ('32c', '\t/* Fits the module\'s buffer, but names no symbol. */', 5),
  ('32d', '/* The pages of instruction slots that kallsyms lists. */', 37),
  ('32d', '\t\t"hold_slot_probes", "hold_slot_probes x", "hold_slot_probes -1",', 2),
  ('32e', '#define FAILSLAB\tDEBUGFS "/failslab"', 113),
 ],
 'test_optprobe.c': [
  ('34', '// SPDX-License-Identifier: GPL-2.0', 10000),
  ('34b', ' * Five more cases probe _bcd2bin(), in kernel text, where every', 3),
  ('34b', '#define OPTIMIZATION\t"/proc/sys/debug/kprobes-optimization"', 1),
  ('34b', '#define CORE_OPT_TARGET\t"  _bcd2bin+0x"', 1),
  ('34b', '\tchar optimization[8];', 1),
  ('34b', '\tif (read_file(OPTIMIZATION, self->optimization, sizeof(self->optimization)) <= 0)', 2),
  ('34b', '\tif (self->optimization[0])', 2),
  ('34b', '/* The optimized kprobe inside _bcd2bin(), in kernel text. */', 150),
 ],
 'test_samples.c': [
  ('40', '// SPDX-License-Identifier: GPL-2.0', 10000),
  ('41', '#define _GNU_SOURCE', 1),
  ('41', '#include <limits.h>', 1),
  ('41', '#include <sched.h>', 1),
  ('41b', '#include <signal.h>', 1),
  ('41b', '#include <sys/prctl.h>', 1),
  ('41b', '#include <time.h>', 1),
  ('41', '/* test_modules/kprobes_sample_target.ko: targets with chosen returns */', 3),
  ('41', '\tbool target_loaded;', 1),
  ('41b', '\tpid_t callers[2];', 1),
  ('41', '\tself->target_loaded = false;', 1),
  ('41b', '\tmemset(self->callers, 0, sizeof(self->callers));', 1),
  ('41b', 'static void stop_callers(pid_t *callers, int n);', 2),
  ('41b', '\tstop_callers(self->callers, ARRAY_SIZE(self->callers));', 1),
  ('41', '\tif (self->target_loaded) {', 4),
  ('41', '/* Loads test_modules/kprobes_sample_target.ko, whose functions tests probe. */', 10000),
  ('41c', '/* The new samples read arguments where the architecture can tell them. */', 10000),
  ('41b', '/* Kills and reaps the callers started, and forgets them. */', 10000),
  ('41', '/* The target module refuses what it cannot do, and calls nothing. */', 10000),
  ('41b', ' * The cases that kill a kernel without their fix run in', 34),
  ('41b', '', -2),
  ('40', 'int main(int argc, char **argv)', 10000),
  ('41b', '\targv = fatal_filters(&argc, argv);', 1),
 ],
}

def tagged(path):
    lines = open(os.path.join(repo, K, path)).read().split('\n')
    tags = [1] * len(lines)
    placed = set()
    rule, inherit = RULED.get(path, (None, False))
    for nn, first, n, *nth in TAGS[path]:
        part = PART_OF[nn]
        if n < 0:
            # the line before the line tagged just before: a blank line
            # (-1) or the opening of its comment (-2)
            i = prev - 1
            assert lines[i] == ('' if n == -1 else '/*'), (path, lines[i])
            tags[i] = part
            placed.add(i)
            continue
        i = -1
        for _ in range(nth[0] if nth else 1):
            i = lines.index(first, i + 1)
        prev = i
        for j in range(i, min(i + n, len(lines))):
            tags[j] = part
            placed.add(j)
    # A line that TAGS and the rule both place comes with the later part,
    # and no line before the file's first.
    ruled = [rule(path, line) if rule else None for line in lines]
    ruled = [None if r is None else max(r, tags[0]) for r in ruled]
    order = reversed(range(len(lines))) if inherit == 'next' else range(len(lines))
    near = None
    for i in order:
        if ruled[i] is not None:
            tags[i] = near = max(ruled[i], tags[i]) if i in placed else ruled[i]
        elif inherit and near is not None and i not in placed:
            tags[i] = near
    # A make recipe belongs to its rule.
    for i in range(1, len(lines)) if rule == named_part else ():
        if lines[i].startswith('\t') and lines[i - 1].strip():
            tags[i] = tags[i - 1]
    return lines, tags

# The part of each case, step and step part: that of the file defining it,
# or in a growing file, of the line that does.
SYMBOL_PART = {}
for path in glob.glob(os.path.join(repo, K, 'test_modules', '*.c')):
    rel = os.path.relpath(path, os.path.join(repo, K))
    lines, tags = tagged(rel) if rel in TAGS else (open(path).read().split('\n'), None)
    stem = os.path.splitext(os.path.basename(path))[0]
    for i, line in enumerate(lines):
        m = re.match(r'(?:int|void) (case_\w+|step_\w+|kst_\w+_init)\(', line)
        if m:
            SYMBOL_PART[m.group(1)] = tags[i] if tags else FILE_PART.get(('test_modules', stem), 1)
# test_kprobes_fatal has no file of its own (test_kprobes.c built with
# KST_FATAL): it comes with the first KST_CASE_FATAL.
FILE_PART['', 'test_kprobes_fatal'] = min(
    SYMBOL_PART['case_' + name] for name in re.findall(
        r'^KST_CASE_FATAL\((\w+)\);$',
        open(os.path.join(repo, K, 'test_modules', 'kst_cases.h')).read(), re.M))

# A growing file is named by its first part too (test_samples, helpers
# and kst_fixes.h in the Makefile).
for path in TAGS:
    if RULED.get(path, (None,))[0] != named_part:
        d, name = os.path.split(path)
        FILE_PART[d, os.path.splitext(name)[0]] = min(tagged(path)[1])
# test_samples_fatal has no file of its own either (test_samples.c built
# with KST_FATAL): it comes with fatal_filters() in test_samples.c.
_lines, _tags = tagged('test_samples.c')
FILE_PART['', 'test_samples_fatal'] = _tags[_lines.index(
    'static char **fatal_filters(int *argc, char **argv)')]

def stage(path, k):
    lines, tags = tagged(path)
    kept = [l for l, t in zip(lines, tags) if t <= k]
    # A block comment's lines come with its opening line, in every stage.
    if path.endswith(('.c', '.h')):
        opened = False
        for l in kept:
            assert opened or not l.startswith(' *'), \
                '%s, stage %d: comment line without its /*: %s' % (path, k, l)
            if l.startswith('/*') and '*/' not in l:
                opened = True
            elif '*/' in l:
                opened = False
    if not kept or kept == ['']:
        return None
    return '\n'.join(kept)

os.makedirs(outdir, exist_ok=True)
with tempfile.TemporaryDirectory() as tmp:
    for k in range(1, NPARTS + 1):
        out = []
        for path in TAGS:
            kpath = 'tools/testing/' + K + path
            new = stage(path, k)
            old = stage(path, k - 1) if k > 1 else None
            if old == new:
                continue
            assert new is not None, (path, k)
            a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')
            for f, text in ((a, old), (b, new)):
                if os.path.exists(f):
                    os.remove(f)
                if text is not None:
                    open(f, 'w').write(text)
            args = ['git', 'diff', '--no-index', '--no-prefix', '--',
                    a if old is not None else '/dev/null', b]
            d = subprocess.run(args, capture_output=True, text=True).stdout
            d = d.split('\n')
            # rewrite the headers to kernel paths
            res = []
            for l in d:
                if l.startswith('diff --git'):
                    l = 'diff --git a/%s b/%s' % (kpath, kpath)
                elif l.startswith('--- '):
                    l = '--- /dev/null' if old is None else '--- a/' + kpath
                elif l.startswith('+++ '):
                    l = '+++ b/' + kpath
                elif l.startswith('index '):
                    continue
                res.append(l)
            out.append('\n'.join(res).rstrip('\n') + '\n')
        open(os.path.join(outdir, '%d.diff' % k), 'w').write(''.join(out))
    # the last stage must be the file as it is
    for path in TAGS:
        assert stage(path, NPARTS) == open(os.path.join(repo, K, path)).read(), path
# A README entry's continuation lines come with its first line or later,
# never before it.
lines, tags = tagged('README')
entry = 0
for i, line in enumerate(lines):
    if re.match(r'  \S', line):
        entry = tags[i]
    elif re.match(r' {17}\S', line):
        assert tags[i] >= entry, 'README:%d comes before its entry: %s' % (i + 1, line)
print('ok')
