#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Reads a test guest's console and judges the run.

  stream ARCH OUTDIR   read the console on stdin (the guest's output, then the
                       line "kprobes-ci-host: qemu-exit N" from boot.sh), print
                       each case's result as it arrives, save console.log,
                       results.tap and summary.json in OUTDIR, exit 1 unless
                       the run is clean
  summary JSON...      print one table for several architectures' summaries
                       and the closing "N passed, N failed, N skipped" line
  verdict OUTDIR       what a run that was to go red did, from the
                       summary.json and console.log that stream left in
                       OUTDIR: "survived" (a clean run), "killed CASES"
                       (named cases failed), "crashed WHERE" (the guest
                       died or hung, or the run failed otherwise: a
                       program, a kernel report), for scripts/measure/mutate.sh,
                       for a mutant or a reverted fix

A run is clean when every case planned has a result and none failed, the
guest got to the end of scripts/guest/init, and the console has no kernel
problem report (oops, WARN, BUG, lockdep, KASAN, ...) and no taint beyond
TAINT_OOT_MODULE, which loading any kselftest test module sets, and
TAINT_TEST, which running KUnit sets.

The kernel's own KUnit suites run at boot and print KTAP on the console;
their cases are reported as "kunit.<suite>.<case>", like ours.

The console prints kernel messages in the middle of the tests' lines.
scripts/guest/init prints each pass's saved output again once the pass
has ended ("kprobes-ci: output of pass N" ... "kprobes-ci: output end"):
the pass's results are that copy's, and the console's as they came only
if the guest died before the copy's end.
"""
import json
import os
import re
import sys
import time

MARK = "kprobes-ci: "
# The reasons of a test without a result: the one the guest died in, and
# those of its program whose output went with the guest.
DIED_DURING = "no result: the guest died or hung during it"
DIED_LATER = ("no result: the guest died later in the same program, "
              "before the test's output reached the console")
HOST_MARK = "kprobes-ci-host: "
TAINT_OOT_MODULE = 1 << 12
TAINT_UNSIGNED_MODULE = 1 << 13
TAINT_TEST = 1 << 18
# The test modules are out of tree (O), and unsigned (E) where a farm's
# config signs modules; KUnit taints N.
TAINT_EXPECTED = TAINT_OOT_MODULE | TAINT_UNSIGNED_MODULE | TAINT_TEST
TAINT_FLAGS = "PFSRMBUDAWCIOELKXTN"  # bit i -> letter, as in kernel/panic.c

KERNEL_PROBLEMS = [
    r"WARNING: CPU: ",
    r"\bBUG: ",
    r"\bOops\b",
    r"Kernel panic",
    r"Unable to handle kernel",
    r"Internal error: ",
    r"general protection fault",
    r"possible (circular|recursive) locking",
    r"inconsistent lock state",
    r"suspicious RCU usage",
    r"INFO: task .* blocked",
    r"rcu: INFO: .* stall",
    r"soft lockup",
    r"KASAN: ",
    r"UBSAN: ",
    r"kmemleak: .* new suspected",
    r"\[ cut here \]",
    r"Call Trace:",
]
PROBLEM_RE = re.compile("|".join(KERNEL_PROBLEMS))
ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1bc")
KERNEL_LINE_RE = re.compile(r"^\[\s*\d+\.\d+\]")
# A kernel log record that the console printed in the middle of a line of
# the tests' output ("ok 9 api.x.run[   25.300324] kprobes selftests: ..."):
# the rest of the line is the kernel's.
EMBEDDED_KERNEL_RE = re.compile(r"\[\s*\d+\.\d{6}\] ")
# "ok 1 name", "not ok 2 name # SKIP why", with any number of "# " prefixes
RESULT_RE = re.compile(r"^((?:# )*)(not ok|ok) (\d+) (.+?)(?: # (\w+)\s*(.*))?$")
PLAN_RE = re.compile(r"^((?:# )*)1\.\.(\d+)(?: # SKIP\s*(.*))?$")
# kselftest_harness.h announces each case before it runs it; the test
# module says on the console which of its cases it runs
RUN_RE = re.compile(r"^(?:# )*#\s+RUN\s+(\S+) \.\.\.$")
# What kselftest_harness.h says during a case: "file.c:line:test:text" (a
# check's "Expected ..." and the TH_LOG() after it, or a test's own TH_LOG;
# kst_harness.h's inline helpers report as kst_harness.h), and how a case
# that did not return ended ("name: Test terminated by timeout").
HARNESS_NOTE_RE = re.compile(r"^(?:# )*#\s+([\w.-]+\.[ch]:\d+):[^:\s]+:(.*)$")
HARNESS_END_RE = re.compile(r"^(?:# )*#\s+\S+: (Test (?:terminated|ended) .*)$")
MODULE_CASE_RE = re.compile(r"^\[\s*\d+\.\d+\] kprobes_selftest: case (\S+)$")
# A test writes its name to the kernel log as it starts
# (selftests/kprobes/kst_fixes.h): a dying kernel gets that to the
# console, where the harness's RUN line, from user space, may be lost.
START_RE = re.compile(r"^\[\s*\d+\.\d+\] kprobes selftests: starting ([\w.-]+)$")
# A test names, before it starts, each fix it is known to need
# (selftests/kprobes/kst_fixes.h): on its output and in the kernel log,
# which a dying kernel still gets to the console. Either may come in the
# middle of another line.
NEEDS_RE = re.compile(r'(?:kprobes selftests: |# )([\w.-]+) needs "([^"]+)"')
# And, once, the fixes whose bug can kill the kernel in any case, by the
# first line of the report on the console as it dies: on the output and
# in the kernel log too.
DEATH_RE = re.compile(r'(?:kprobes selftests: |# )a kernel that dies with "([^"]+)" '
                      r'may lack "([^"]+)"')
# KUnit's KTAP in the kernel log: four spaces of indentation per level
KERNEL_PREFIX_RE = re.compile(r"^\[\s*\d+\.\d+\] ?")
KUNIT_SUBTEST_RE = re.compile(r"^((?:    )*)# Subtest: (\S+)$")
KUNIT_PLAN_RE = re.compile(r"^((?:    )*)1\.\.(\d+)$")
KUNIT_RESULT_RE = re.compile(r"^((?:    )*)(not ok|ok) (\d+) (\S+)(?: # (\w+)\s*(.*))?$")


def taint_letters(value):
    return "".join(f for i, f in enumerate(TAINT_FLAGS) if value & (1 << i))


class Run:
    def __init__(self, arch):
        self.arch = arch
        self.lines = []
        self.in_tests = False
        self.tap = []
        self.cases = []
        self.plans = {}         # depth -> planned count of the last plan
        self.program = None     # kselftest program whose output we are in
        self.durations = {}     # program -> its longest run, host seconds
        self.info = {}
        self.qemu_exit = None
        self.marks = set()
        self.suffix = ""        # which pass over the suite, after the first
        self.running = None     # the case announced and not finished yet
        self.in_kernel = None   # the test module's case it runs, if any
        self.announced = None   # the last case kselftest_harness.h announced
        self.notes = []         # what the harness said since it announced it
        self.needs = {}         # test -> the fixes it needs, until its result
        self.started = []       # tests whose start the kernel logged, this program
        self.deaths = {}        # console report -> the fix it may mean
        self.kunit = None       # KUnit's suites by depth, once its KTAP began
        self.kunit_plans = {}   # depth -> [suite, planned, results so far]
        self.kunit_disabled = False     # kunit.enable=0 (scripts/measure/mutate.sh)
        self.pass_at = (0, 0)   # where this pass's tap lines and cases begin
        self.live = None        # the pass as the console showed it, while
                                # the guest prints its saved output again
        self.start = time.monotonic()

    def feed(self, raw):
        line = ANSI_RE.sub("", raw.rstrip("\r\n")).replace("\r", "")
        m = EMBEDDED_KERNEL_RE.search(line)
        if m and m.start() > 0 and not KERNEL_LINE_RE.match(line):
            self.feed_line(line[:m.start()])
            self.feed_line(line[m.start():])
        else:
            self.feed_line(line)

    def feed_line(self, line):
        self.lines.append(line)
        if line.startswith(HOST_MARK):
            self.qemu_exit = int(line.split()[-1])
            return
        if "Kernel command line:" in line and " kunit.enable=0" in line:
            self.kunit_disabled = True
        # What the tests' records say, not the dmesg dump after them.
        m = MODULE_CASE_RE.match(line)
        if m and self.in_tests:
            self.in_kernel = m.group(1)
        m = START_RE.match(line)
        if m and self.in_tests and not self.reported(m.group(1)):
            # The kernel keeps its own records in order: a case the
            # module runs after this comes from this test.
            self.running, self.in_kernel = m.group(1), None
            self.started.append(m.group(1))
        m = DEATH_RE.search(line)
        if m:
            self.deaths[m.group(1)] = m.group(2)
        m = NEEDS_RE.search(line)
        if m and self.in_tests and not self.reported(m.group(1)):
            fixes = self.needs.setdefault(m.group(1), [])
            if m.group(2) not in fixes:
                fixes.append(m.group(2))
        # KUnit prints at KERN_INFO, below the console's loglevel: its KTAP
        # comes with the guest's dmesg dump at the end.
        if KERNEL_LINE_RE.match(line):
            self.kunit_line(KERNEL_PREFIX_RE.sub("", line))
        at = line.find(MARK)
        if at >= 0 and not KERNEL_LINE_RE.match(line):
            self.marker(line[at + len(MARK):])
            return
        if self.in_tests and not KERNEL_LINE_RE.match(line):
            self.tap.append(line)
            self.tap_line(line)

    def marker(self, text):
        word, _, rest = text.partition(" ")
        self.marks.add(text if word in ("tests", "dmesg") else word)
        if text == "tests begin":
            self.in_tests = True
        elif text == "tests end":
            self.in_tests = False
        elif word == "pass":
            self.suffix = "" if rest.strip() == "1" else f" [pass {rest.strip()}]"
            self.pass_at = (len(self.tap), len(self.cases))
            self.started = []
        elif word == "output" and rest.startswith("of pass"):
            # scripts/guest/init: the pass's output, saved and printed
            # again once it ended; the results come from this copy.
            tap_at, cases_at = self.pass_at
            self.live = (self.tap[tap_at:], self.cases[cases_at:])
            del self.tap[tap_at:], self.cases[cases_at:]
            self.program = self.announced = self.running = self.in_kernel = None
            self.plans, self.notes, self.started = {}, [], []
        elif text == "output end" and self.live:
            self.replayed()
        elif word == "soak":
            self.suffix = ""
        elif word in ("kernel", "tainted", "modules"):
            self.info[word] = rest.strip()

    def tap_line(self, line):
        m = PLAN_RE.match(line)
        if m:
            depth = len(m.group(1)) // 2
            self.plans[depth] = int(m.group(2))
            if depth == 1 and m.group(3) is not None and self.program:
                self.program["skip_reason"] = m.group(3)
            return
        m = RUN_RE.match(line)
        if m:
            if self.running != m.group(1):
                self.in_kernel = None   # the last test's
            self.running = self.announced = m.group(1)
            self.notes = []
            return
        m = HARNESS_NOTE_RE.match(line)
        if m:
            self.notes.append(f"{m.group(1)}: {m.group(2).strip()}")
            return
        m = HARNESS_END_RE.match(line)
        if m:
            self.notes.append(m.group(1))
            return
        m = RESULT_RE.match(line)
        if not m:
            if line.startswith("# selftests: "):
                self.program = {"name": line[len("# selftests: "):],
                                "cases": 0, "start": time.monotonic()}
                self.started = []
            return
        depth = len(m.group(1)) // 2
        ok, name, directive, reason = m.group(2), m.group(4), m.group(5), m.group(6)
        if name.startswith("# "):
            # kselftest_harness.h before 6.3: "ok 1 # SKIP why", no name;
            # the RUN line named the case
            directive, _, reason = name[2:].partition(" ")
            name = self.announced or f"case {m.group(3)}"
        status = "pass" if ok == "ok" else "fail"
        if directive and directive.upper() == "SKIP":
            status = "skip"
        if status == "fail" and not reason and depth <= 1:
            reason = self.failure_reason()
        if depth <= 1:
            self.notes = []
        if depth == 1:
            # The console does not keep user space and kernel lines in
            # order: forget only the case this result is for.
            self.finished(name)
            self.add_case(name, status, reason or "")
            if self.program:
                self.program["cases"] += 1
        elif depth == 0 and not self.program:
            # a program run on its own, outside run_kselftest.sh
            self.finished(name)
            self.add_case(name, status, reason or "")
        elif depth == 0:
            prog = self.program
            # What a farm's run_kselftest.sh holds against the settings
            # file's timeout (the guest's clock follows the host's in TCG).
            took = round(time.monotonic() - prog["start"], 1)
            name = prog["name"].split(": ")[-1]
            self.durations[name] = max(took, self.durations.get(name, 0))
            planned = self.plans.get(1, 0)
            if prog["cases"] < planned:
                for i in range(prog["cases"], planned):
                    self.add_case(f"{prog['name']} case {i + 1}", "fail",
                                  "no result: the program stopped early")
            if status != "pass" and (status == "fail" or not prog["cases"]):
                why = reason or prog.get("skip_reason", "")
                if status == "fail":
                    why = f"program failed ({line.split('#')[-1].strip()})"
                self.add_case(prog["name"], status, why)
            self.program = None
            self.plans.pop(1, None)

    def failure_reason(self):
        """The check that failed and what its test said of it, from what
        the harness printed during the case: enough to start from when
        only the end of a CI log is kept. A test's TH_LOG()s before the
        check (what it tried) are not the reason."""
        for i, note in enumerate(self.notes):
            if ": Expected " in note or note.startswith("Test "):
                return " / ".join(self.notes[i:i + 2])
        return " / ".join(self.notes[-2:])

    def kunit_line(self, line):
        """Reports each KUnit case, and a suite that ran none."""
        if line.strip() == "KTAP version 1" and self.kunit is None:
            self.kunit = {}
            return
        if self.kunit is None:
            return
        m = KUNIT_SUBTEST_RE.match(line)
        if m:
            self.kunit[len(m.group(1)) // 4] = m.group(2)
            self.running = f"kunit.{m.group(2)}"
            return
        m = KUNIT_PLAN_RE.match(line)
        if m:
            depth = len(m.group(1)) // 4
            self.kunit_plans[depth] = [self.kunit.get(depth), int(m.group(2)), 0]
            return
        m = KUNIT_RESULT_RE.match(line)
        if not m:
            return
        depth = len(m.group(1)) // 4
        ok, name, directive, reason = m.group(2), m.group(4), m.group(5), m.group(6)
        status = "pass" if ok == "ok" else "fail"
        if directive and directive.upper() == "SKIP":
            status = "skip"
        plan = self.kunit_plans.get(depth + 1)
        if plan and plan[0] == name:
            # a suite's own line: its cases were reported, unless it ran none
            if plan[2] < plan[1]:
                self.add_case(f"kunit.{name}", "fail",
                              f"{plan[1] - plan[2]} of {plan[1]} cases reported nothing")
            elif not plan[1]:
                self.add_case(f"kunit.{name}", status, reason or "")
            del self.kunit_plans[depth + 1]
            self.running = None
            return
        suite = ".".join(self.kunit[d] for d in sorted(self.kunit) if d <= depth)
        self.add_case(f"kunit.{suite}.{name}" if suite else f"kunit.{name}",
                      status, reason or "")
        if depth in self.kunit_plans:
            self.kunit_plans[depth][2] += 1

    def finished(self, name):
        if self.running == name:
            self.running = self.in_kernel = None

    def reported(self, name):
        """Whether this pass has a result for @name: the console may print
        a test's kernel records after the result user space printed."""
        return any(c["name"] == name + self.suffix
                   for c in self.cases[self.pass_at[1]:])

    def add_case(self, name, status, reason):
        # Its own result, not the next one: the console may print the
        # kernel's record of the next test's needs before it.
        self.needs.pop(name, None)
        if not name.startswith("kunit."):
            name += self.suffix     # KUnit runs once per boot
        case = {"arch": self.arch, "name": name, "status": status,
                "reason": reason}
        self.cases.append(case)
        if self.live is None:
            self.report(case)

    def report(self, case, note=""):
        label = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}[case["status"]]
        extra = f"  ({case['reason']})" if case["reason"] else ""
        print(f"  {self.arch:12} {label}  {case['name']}{extra}{note}", flush=True)

    def replayed(self):
        """Says where the pass's saved output differs from what the console
        showed as it ran: a line the kernel's messages cut."""
        cases = self.cases[self.pass_at[1]:]
        shown = {(c["name"], c["status"]) for c in self.live[1]}
        names = {c["name"] for c in cases}
        for case in cases:
            if (case["name"], case["status"]) not in shown:
                self.report(case, "  (from the saved output: a kernel message cut its line)")
        for case in self.live[1]:
            if case["name"] not in names:
                print(f"  {self.arch:12}       {case['name']}: not a case, a line a kernel "
                      "message cut", flush=True)
        self.live = None

    def problems(self):
        found = []
        if self.qemu_exit in (124, 137):
            found.append("the guest hung: QEMU was stopped at the timeout")
        elif self.qemu_exit not in (None, 0):
            found.append(f"QEMU exited with status {self.qemu_exit}")
        if "tests begin" not in self.marks:
            found.append("the guest never started the tests (boot failure?)")
        elif "done" not in self.marks:
            found.append("the guest did not finish scripts/guest/init")
        if "tests begin" in self.marks and not any(
                not c["name"].startswith("kunit.") for c in self.cases):
            found.append("no kselftest results")
        planned = sum(int(m.group(2)) for m in map(PLAN_RE.match, self.tap)
                      if m and not m.group(1))
        ran = len([c for c in self.tap if RESULT_RE.match(c)
                   and not c.startswith("#")])
        if ran < planned:
            found.append(f"{planned - ran} of {planned} kselftest programs reported nothing")
        if ("tests begin" in self.marks and self.kunit is None
                and not self.kunit_disabled):
            found.append("no KUnit results: the kernel's kprobes KUnit suite did not run")
        taint = self.info.get("tainted")
        if taint is not None and not taint.isdigit():
            found.append(f"the guest could not read its taint: '{taint}' (no /proc?)")
        elif taint is not None and int(taint) & ~TAINT_EXPECTED:
            found.append(f"kernel tainted: {taint} ({taint_letters(int(taint))})")
        for i, line in enumerate(self.lines):
            if PROBLEM_RE.search(line):
                excerpt = "\n".join("      " + l for l in self.lines[max(0, i - 3):i + 15])
                found.append(f"kernel problem reported on the console:\n{excerpt}")
                break
        return found

    def finish(self):
        """Names the case during which the guest died, if it did, and the
        fixes that case is known to need."""
        if self.live:
            # The guest died printing the saved output, after the pass: the
            # console's results stand, and no case was running.
            tap_at, cases_at = self.pass_at
            self.tap[tap_at:], self.cases[cases_at:] = self.live
            self.live, self.running, self.program, self.needs = None, None, None, {}
            self.in_kernel = None
        # Between cases, the program the guest died in (a torture's threads
        # hit a probe whatever case runs).
        name = (self.running or (self.program or {}).get("name")
                or (self.in_kernel and f"{self.in_kernel} (in the kernel)"))
        if "done" in self.marks or not (name or self.needs):
            return
        reason = DIED_DURING
        fixes = self.needs.get(self.running)
        if not self.running and self.needs:
            name, fixes = list(self.needs.items())[-1]
        if self.in_kernel and (self.running or fixes):
            reason += f" (in the kernel: {self.in_kernel})"
        if fixes:
            reason += "; this kernel may lack " + " or ".join(f'"{fix}"' for fix in fixes)
        # The kernel's report, not a line of the tests' that names it: a
        # bug that strikes in any case may kill a case that needs other
        # fixes (another architecture's).
        said = next((report for report in self.deaths for line in self.lines
                     if report in line and KERNEL_LINE_RE.match(line)
                     and not DEATH_RE.search(line)), None)
        if said and self.deaths[said] not in (fixes or ()):
            reason += f'; the console says "{said}": this kernel may lack "{self.deaths[said]}"'
        # The program's output that had not yet reached the console went
        # with the guest: the tests it ran before have no result either.
        for lost in self.started:
            if lost != name and not self.reported(lost):
                self.add_case(lost, "fail", DIED_LATER)
        self.add_case(name, "fail", reason)
        self.running = None

    def summary(self):
        counts = {s: sum(c["status"] == s for c in self.cases)
                  for s in ("pass", "fail", "skip")}
        problems = self.problems()
        return {
            "arch": self.arch,
            "kernel": self.info.get("kernel", ""),
            "tainted": self.info.get("tainted"),
            "seconds": round(time.monotonic() - self.start, 1),
            "program_seconds": self.durations,
            "cases": self.cases,
            "counts": counts,
            "problems": problems,
            "ok": not problems and counts["fail"] == 0,
        }


def stream(arch, outdir):
    run = Run(arch)
    # The console may carry any bytes (a dying guest's); stdin decodes
    # them with surrogateescape, and so they are written back.
    with open(f"{outdir}/console.log", "w", errors="surrogateescape") as console:
        for raw in sys.stdin:
            console.write(raw)
            console.flush()
            run.feed(raw)
    run.finish()
    result = run.summary()
    with open(f"{outdir}/results.tap", "w", errors="replace") as tap:
        tap.write("\n".join(run.tap) + "\n")
    with open(f"{outdir}/summary.json", "w") as out:
        json.dump(result, out, indent=1)
    for problem in result["problems"]:
        print(f"  {arch:12} ERROR {problem}")
    cpu_state = f"{outdir}/cpu-state.txt"
    if run.qemu_exit in (124, 137) and os.path.exists(cpu_state):
        print(f"  {arch:12}       its CPUs just before: {cpu_state}")
    return 0 if result["ok"] else 1


def summary(paths):
    results = [json.load(open(p)) for p in paths]
    total = {"pass": 0, "fail": 0, "skip": 0}
    print(f"\n{'arch':14} {'kernel':16} {'passed':>6} {'failed':>6} {'skipped':>7}  verdict")
    for r in results:
        c = r["counts"]
        for k in total:
            total[k] += c[k]
        verdict = "ok" if r["ok"] else "FAILED"
        if r["problems"]:
            verdict += f" ({len(r['problems'])} problem(s) above)"
        kernel = (r.get("kernel") or "?").split()[0]
        print(f"{r['arch']:14} {kernel:16} {c['pass']:6} {c['fail']:6} {c['skip']:7}  {verdict}")
        slowest = max((r.get("program_seconds") or {}).items(),
                      key=lambda item: item[1], default=None)
        if slowest:
            print(f"         slowest program: {slowest[0]}, {slowest[1]:.0f} s")
        for case in r["cases"]:
            if case["status"] == "fail":
                print(f"         failed: {case['name']}  {case['reason']}")
    failed = total["fail"] + sum(1 for r in results if r["problems"])
    print(f"{total['pass']} passed, {failed} failed, {total['skip']} skipped")
    return 0 if all(r["ok"] for r in results) else 1


def checks_failed_before_death(console):
    """The test of kselftest_harness.h that was running when the guest
    died, if one of its checks had failed by then: the harness prints a
    failed check as it happens, and the test's verdict only when it and
    its teardown end."""
    test, failed = None, False
    for line in console:
        m = RUN_RE.match(line)
        if m:
            test, failed = m.group(1), False
        elif HARNESS_END_RE.match(line) or re.match(r"^(?:# )*#\s+(OK|FAIL|SKIP)\s", line):
            test = None
        elif test and HARNESS_NOTE_RE.match(line):
            failed = True
    return test if failed else None


def verdict(outdir):
    try:
        with open(os.path.join(outdir, "summary.json")) as f:
            run = json.load(f)
    except (OSError, ValueError) as e:
        print(f"crashed no summary of the run: {e}")
        return 0
    if run["ok"]:
        print("survived")
        return 0
    died = [c for c in run["cases"] if c["status"] == "fail"
            and c["reason"].startswith((DIED_DURING, DIED_LATER))]
    # A program's own line ("kprobes: test_x") is not a case.
    failed = sorted({c["name"].split()[0] for c in run["cases"]
                     if c["status"] == "fail" and c not in died
                     and not c["name"].startswith("kprobes: ")})
    if failed:
        print("killed", " ".join(failed))
    elif died:
        # The test the guest died in, not one whose output went with it.
        name = next((c["name"] for c in died if c["reason"].startswith(DIED_DURING)),
                    died[0]["name"])
        where = name if name.startswith("kprobes: ") else name.split()[0]
        with open(os.path.join(outdir, "console.log"), errors="replace") as f:
            checked = checks_failed_before_death(f.read().splitlines())
        if checked:
            print(f"killed {checked} (its checks failed, then the guest died in {where})")
        else:
            print(f"crashed the guest died in {where}")
    else:
        print("crashed", (run["problems"] or ["no result"])[0].splitlines()[0])
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "stream":
        return stream(argv[2], argv[3])
    if len(argv) >= 3 and argv[1] == "summary":
        return summary(argv[2:])
    if len(argv) == 3 and argv[1] == "verdict":
        return verdict(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
