#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Growing files of the kprobes selftest series: which part adds each line.

Each growing file is tagged line by line (default part 1). Stage k of a
file is the lines of parts <= k; the last stage is the file in
selftests/kprobes as it is. Writes the hunks of each part on those files
to OUT/<part>.diff (git diff format, kernel paths).
Usage: stages.py REPO OUTDIR
"""
import os, subprocess, sys, tempfile

repo, outdir = sys.argv[1], sys.argv[2]
K = 'selftests/kprobes/'
NPARTS = 23

# file -> list of (part, first line (exact), number of lines)
TAGS = {
 'Makefile': [
  (2, 'CFLAGS += -Wall -O2 $(KHDR_INCLUDES)', 3),
  (14, 'TEST_GEN_PROGS += test_debugfs', 1),
  (15, 'TEST_GEN_PROGS += test_unloaded', 1),
  (16, 'TEST_GEN_PROGS += test_optprobe', 1),
  (18, 'TEST_GEN_PROGS += test_torture', 1),
  (20, 'TEST_GEN_PROGS += test_bench', 1),
  (22, 'TEST_GEN_PROGS += test_samples', 1),
  (20, '# Run by hand, by a soak job or a benchmark run: see their headers.', 2),
  (21, 'TEST_GEN_PROGS_EXTENDED += kprobes_soak', 1),
  (2, '# test_kprobes has one test per case of kst_cases.h: a new case rebuilds it.', 2),
  (2, '$(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED): helpers.c', 1),
  (2, '', -1),
 ],
 '.gitignore': [
  (2, '# SPDX-License-Identifier: GPL-2.0-only', 2),
  (14, 'test_debugfs', 1), (15, 'test_unloaded', 1), (16, 'test_optprobe', 1),
  (18, 'test_torture', 1), (20, 'test_bench', 1), (22, 'test_samples', 1),
  (20, 'kprobes_bench', 1), (21, 'kprobes_soak', 1),
 ],
 'test_modules/Makefile': [
  (3, 'kprobes_selftest-y += kst_offset.o', 1),
  (7, 'kst-insns-$(CONFIG_RISCV) := kst_insns_riscv.o', 1),
  (5, 'kst-insns-$(CONFIG_ARM64) := kst_insns_arm64.o', 1),
  (6, 'kst-insns-$(CONFIG_ARM) := kst_insns_arm.o', 1),
  (8, 'kst-insns-$(CONFIG_PPC64) := kst_insns_powerpc.o', 1),
  (9, 'kst-insns-$(CONFIG_MIPS) := kst_insns_mips.o', 1),
  (10, 'kst-insns-$(CONFIG_S390) := kst_insns_s390.o', 1),
  (11, 'kst-insns-$(CONFIG_X86) := kst_insns_x86.o', 1),
  (4, 'kprobes_selftest-y += kst_insns.o $(or $(kst-insns-y),kst_insns_none.o)', 1),
  (12, 'kprobes_selftest-y += kst_kretprobe.o', 1),
  (13, 'kprobes_selftest-y += kst_errors.o kst_reserved.o kst_batch.o', 1),
  (14, 'kprobes_selftest-y += kst_enable.o kst_hold.o kst_blacklist.o', 1),
  (15, 'kprobes_selftest-y += kst_gone.o', 1),
  (16, 'kprobes_selftest-y += kst_optprobe.o', 1),
  (15, 'obj-m += kprobes_selftest_target.o', 1),
  (17, 'obj-m += kprobes_torture.o', 1),
  (19, 'obj-m += kprobes_bench.o', 1),
  (23, 'obj-m += kprobes_sample_target.o', 1),
 ],
 'test_modules/kst_cases.h': [
  (3, ' * The refusals of addresses inside an instruction before any case that', 3),
  (3, '', -2),
  (3, 'KST_CASE(kprobe_symbol_offset);', 1),
  (3, 'KST_CASE(kprobe_core_kernel_offset);', 2),
  (4, 'KST_CASE(kprobe_insns);', 1),
  (12, 'KST_CASE(kretprobe_by_symbol);', 5),
  (13, 'KST_CASE(err_symbol_and_addr);', 2),
  (3, 'KST_CASE(err_bad_offset);', 2),
  (13, 'KST_CASE(err_kretprobe_data_size);', 15),
  (14, 'KST_CASE(disable_enable);', 4),
  (12, 'KST_CASE(maxactive_exhausted);', 4),
 ],
 'test_modules/kst_steps.h': [
  (14, '/* kst_hold.c: probes held for kprobes/list and kprobes/enabled. */', 15),
  (15, '/* kst_gone.c: a probe on kprobes_selftest_target.ko, which goes away. */', 7),
  (16, '/* kst_optprobe.c: optimized probes, on a module and in kernel text. */', 11),
 ],
 'test_modules/kst_insn.h': [
  (13, '#include <linux/delay.h>', 1),
  (3, '#include <linux/err.h>', 2),
  (3, '#include <linux/slab.h>', 2),
  (3, '#ifdef CONFIG_ARM', 3),
  (3, ' *   kst_insn_len(p)      the length of the instruction at @p; on x86 1,', 12),
  (3, '#define KST_MISALIGNED_LAST\t1\t/* inside the first instruction */', 23),
  (3, '/* Instructions of 2, 4 or 6 bytes, as the first two bits of the opcode say. */', 19),
  (3, '#ifndef KST_INSIDE_ERR', 4),
  (13, ' * KST_EXTABLE_REFUSED: register_kprobe() refuses an instruction that has', 11),
  (13, '', -2),
  (3, '/* The offset of the instruction after the one at @offset in @func. */', 116),
  (13, ' * True once the optimizer has put its jump at the address of @kp, which', 34),
  (13, '', -2),
 ],
 'README': [
  (2, 'kprobes selftests', 10000),
  (4, 'An instruction that an architecture simulates, emulates or refuses is a', 12),
  (14, '  test_debugfs   the "kprobes.*" cases that check what user space sees in', 4),
  (15, '  test_unloaded  kprobes.*_on_unloaded_module: one or two probes on', 3),
  (16, '  test_optprobe  the "optprobe.*" cases catch an optimized kprobe before', 5),
  (18, '  test_torture   the "torture.*" cases load test_modules/kprobes_torture.ko:', 6),
  (20, '  test_bench     bad input to test_modules/kprobes_bench.ko, the module of', 2),
  (22, '  test_samples   loads samples/kprobes/*.ko from /lib/modules/$(uname -r)', 3),
  (23, '                 kretprobe_stats_* also probe the functions of', 3),
  (20, 'Installed, but not run by default:', 2),
  (21, '  kprobes_soak begin [CYCLES]; <run the suite>; kprobes_soak end', 5),
  (20, '  kprobes_bench [-c CALLS] [-b N,...]', 5),
 ],
 'test_samples.c': [
  (22, '// SPDX-License-Identifier: GPL-2.0', 10000),
  (23, '#define _GNU_SOURCE', 1),
  (23, '#include <limits.h>', 1),
  (23, '#include <sched.h>', 1),
  (23, '#include <signal.h>', 1),
  (23, '#include <sys/prctl.h>', 1),
  (23, '#include <time.h>', 1),
  (23, '/* test_modules/kprobes_sample_target.ko: targets with chosen returns */', 3),
  (23, '\tbool target_loaded;', 1),
  (23, '\tpid_t callers[2];', 1),
  (23, '\tself->target_loaded = false;', 1),
  (23, '\tmemset(self->callers, 0, sizeof(self->callers));', 1),
  (23, 'static void stop_callers(pid_t *callers, int n);', 2),
  (23, '\tstop_callers(self->callers, ARRAY_SIZE(self->callers));', 1),
  (23, '\tif (self->target_loaded) {', 4),
  (23, '/* Loads test_modules/kprobes_sample_target.ko, whose functions tests probe. */', 10000),
  (22, 'int main(int argc, char **argv)', 10000),
 ],
}

def tagged(path):
    lines = open(os.path.join(repo, K, path)).read().split('\n')
    tags = [1] * len(lines)
    for part, first, n in TAGS[path]:
        if n < 0:
            # the line before the line tagged just before: a blank line
            # (-1) or the opening of its comment (-2)
            i = lines.index(prev) - 1
            assert lines[i] == ('' if n == -1 else '/*'), (path, lines[i])
            tags[i] = part
            continue
        i = lines.index(first)
        prev = first
        for j in range(i, min(i + n, len(lines))):
            tags[j] = part
    return lines, tags

def stage(path, k):
    lines, tags = tagged(path)
    kept = [l for l, t in zip(lines, tags) if t <= k]
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
print('ok')
