#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""LAVA jobs for the kprobes kselftest, and their results against the runner's.

  job ARTEFACTS GUEST_TAR OUTDIR   write OUTDIR/device.yaml and OUTDIR/job.yaml
                                   for the artefacts of scripts/farm/artefacts.sh;
                                   the architecture's data comes from the
                                   environment (scripts/farm/lava-job.sh exports
                                   scripts/arch/<arch>.conf)
  validate JOB                     check JOB as a LAVA server does on
                                   submission (lava-run does not)
  compare LOG SUMMARY              LAVA's verdict and per-case results in
                                   lava-run's log LOG against the runner's
                                   summary.json: exit 0 only if the job passed
                                   and both have the same cases and verdicts

/usr/bin/python3: Debian's lava-dispatcher brings lava_common for it only.

The runner's summary.json also holds the kernel's KUnit cases ("kunit.*",
read from the boot log, not run by run_kselftest.sh) and the suite's
second pass ("[pass 2]"); the job runs run_kselftest.sh once, so compare
leaves both out and says how many.
"""
import json
import os
import shlex
import sys

import yaml

# The runner's results.py is in scripts/, one level up.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from results import PROBLEM_RE  # noqa: E402 (what the runner takes for a kernel problem)

DEFINITION = "kprobes"
COLLECTION = "kprobes"      # run_kselftest.sh -c kprobes: "selftests: kprobes: test_x"


def device(env):
    """A QEMU device with the runner's QEMU, as LAVA's qemu.jinja2 would
    render it; -no-reboot makes a panicking guest end QEMU, and so the job."""
    arches = sorted({env["DEB_ARCH"], env["ARCH_NAME"]})
    options = shlex.split(env["QEMU_ARGS"]) + shlex.split(env.get("QEMU_EXTRA_ARGS", ""))
    # LAVA passes each option as one word of a shell line: keep "-M virt"
    # together, as it writes them.
    words, opts = list(options), []
    while words:
        word = words.pop(0)
        if word.startswith("-") and words and not words[0].startswith("-"):
            word += " " + words.pop(0)
        opts.append(word)
    return {
        "constants": {
            "posix": {"lava_test_sh_cmd": "/bin/sh",
                      "lava_test_results_dir": "/lava-%s",
                      "lava_test_shell_file": "~/.bashrc"},
            "kernel-start-message": "Linux version [0-9]",
            "shutdown-message": "The system is going down for reboot NOW",
            "default-shell-prompt": "lava-test: # ",
            "spawn_maxread": "4092",
            "failure_retry": 1,
            "boot_retry": None,
        },
        "available_architectures": arches,
        "actions": {
            "deploy": {"connections": {"serial": None},
                       "methods": {"image": {"parameters": {"guest": {
                           "size": 512, "interface": "ide", "driveid": "lavatest"}}}}},
            "boot": {"connections": {"serial": None},
                     "methods": {"qemu": {"parameters": {
                         "command": env["QEMU"],
                         "options": ["-nographic", "-vga none", "-no-reboot"] + opts +
                                    ["-monitor none", "-nic none"]}}}},
        },
        "timeouts": {"connections": {"lava-test-shell": {"seconds": 10}}},
    }


def job(env, manifest, artefacts, guest_tar):
    def url(name):
        return "file://" + os.path.abspath(os.path.join(artefacts, name))

    # The runner's command line (scripts/boot.sh): a panic ends QEMU.
    cmdline = (f"console={env['CONSOLE']} loglevel=6 oops=panic panic=-1 "
               f"{env.get('KERNEL_CMDLINE_EXTRA', '')}").strip()
    test_minutes = int(env["BOOT_TIMEOUT"]) // 60
    steps = [
        "cd /opt/kselftest",
        '{ ./run_kselftest.sh -c kprobes; echo "kprobes-lava: run_kselftest.sh exit $?"; }'
        " 2>&1 | /usr/bin/ktap-lava",
    ]
    return {
        "device_type": "qemu",
        "job_name": f"kprobes kselftest {manifest['release']} {manifest['label']}",
        "visibility": "public",
        "priority": "medium",
        "timeouts": {"job": {"minutes": test_minutes + 15},
                     "action": {"minutes": test_minutes},
                     "connection": {"minutes": 2}},
        "context": {"arch": env["DEB_ARCH"]},
        "actions": [
            {"deploy": {
                "timeout": {"minutes": 5},
                "to": "tmpfs",
                "os": "oe",
                "images": {
                    "kernel": {"image_arg": f'-kernel {{kernel}} -append "{cmdline}"',
                               "url": url(manifest["kernel_image"])},
                    "ramdisk": {
                        "image_arg": "-initrd {ramdisk}",
                        "url": url(manifest["initramfs"]),
                        "format": "cpio.newc",
                        # In this order: LAVA's test shell, then /init as a
                        # shell (a tar keeps its exec bit, a "file" overlay
                        # does not), the modules and the kselftest tarball
                        # as the farm's artefacts, over the runner's copies.
                        "overlays": {
                            "lava": True,
                            "guest": {"url": "file://" + os.path.abspath(guest_tar),
                                      "format": "tar", "path": "/"},
                            "modules": {"url": url(manifest["modules"]),
                                        "format": "tar", "path": "/"},
                            "kselftest": {"url": url(manifest["kselftest"]),
                                          "format": "tar", "path": "/opt/kselftest"},
                        },
                    },
                },
            }},
            {"boot": {"timeout": {"minutes": 5}, "method": "qemu", "media": "tmpfs",
                      "prompts": ["/ # "]}},
            {"test": {
                "timeout": {"minutes": test_minutes},
                "definitions": [{
                    "from": "inline", "name": DEFINITION, "path": f"inline/{DEFINITION}.yaml",
                    "repository": {
                        "metadata": {"format": "Lava-Test Test Definition 1.0",
                                     "name": DEFINITION,
                                     "description": "kprobes kselftest: one LAVA case per KTAP result"},
                        "run": {"steps": steps},
                    },
                }],
            }},
        ],
    }


def write_job(artefacts, guest_tar, outdir):
    env = os.environ
    with open(os.path.join(artefacts, "manifest.json")) as f:
        manifest = json.load(f)
    os.makedirs(outdir, exist_ok=True)
    for name, data in (("device.yaml", device(env)),
                       ("job.yaml", job(env, manifest, artefacts, guest_tar))):
        with open(os.path.join(outdir, name), "w") as f:
            yaml.safe_dump(data, f, sort_keys=False, default_flow_style=False)
    return 0


def validate(path):
    import voluptuous
    from lava_common.schemas import validate as lava_validate

    try:
        with open(path) as f:
            lava_validate(yaml.safe_load(f), strict=True)
    except (voluptuous.Invalid, yaml.YAMLError) as exc:
        print(f"error: LAVA rejects {path}: {exc}", file=sys.stderr)
        return 1
    return 0


def lava_log(log):
    """lava-run's log, one YAML mapping a line: its "results" entries, and
    the guest's console ("target")."""
    results, console = [], []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if '"lvl": "results"' not in line and '"lvl": "target"' not in line:
                continue
            try:
                entry = yaml.safe_load(line)
            except yaml.YAMLError:
                continue
            if not isinstance(entry, dict):
                continue
            if entry.get("lvl") == "results" and isinstance(entry.get("msg"), dict):
                results.append(entry["msg"])
            elif isinstance(entry.get("msg"), str):
                console.append(entry["msg"])
    return results, console


def kernel_problem(console):
    """The first kernel problem report on the guest's console, with the
    case kselftest_harness.h announced last, as scripts/results.py does."""
    running = None
    for line in console:
        if line.startswith("# #  RUN"):
            running = line.split()[3]
        elif line.startswith(("# ok ", "# not ok ")):
            running = None
        elif PROBLEM_RE.search(line):
            return line.strip() + (f" (running {running})" if running else "")
    return None


def lava_cases(results):
    """The suite's cases under the runner's names (scripts/results.py):
    a program's own line counts only when it failed, or was skipped
    without running a case."""
    cases, programs, nested = {}, [], set()
    for r in results:
        if r.get("definition", "").split("_", 1)[-1] != DEFINITION:
            continue
        name, status = r["case"], r["result"]
        if "set" not in r:
            programs.append((name, status))
        elif name.startswith(r["set"] + ".missing_"):
            cases[f"{COLLECTION}: {r['set']} case {name.rsplit('_', 1)[1]}"] = status
            nested.add(r["set"])
        else:
            cases[name] = status
            nested.add(r["set"])
    for name, status in programs:
        if status == "fail" or (status == "skip" and name not in nested):
            cases[f"{COLLECTION}: {name}"] = status
    return cases


def verdict(results, console):
    """Why LAVA's run is not to be trusted, or None. LAVA says only
    "Connection closed" when the guest dies: the console says why."""
    lava = {r["case"]: r for r in results if r.get("definition") == "lava"}
    problem = kernel_problem(console)
    why = f"; the guest's console: {problem}" if problem else ""
    run = lava.get("job")
    if run is None:
        return "lava-run ended without a job result (killed?)" + why
    if run["result"] != "pass":
        msg = str(run.get("error_msg", "?")).strip().splitlines()[0]
        return f"LAVA job failed: {run.get('error_type', '?')} error: {msg}{why}"
    shells = [r for name, r in lava.items() if name.endswith(f"_{DEFINITION}")]
    if not shells or any(r["result"] != "pass" for r in shells):
        return f"the test definition {DEFINITION} did not finish (guest dead or hung?){why}"
    if problem:
        return f"kernel problem on the guest's console, which fails the runner: {problem}"
    return None


def banner(lines):
    """The kernel's "Linux version ..." line: release, build number and
    time, which tell two builds of one release apart."""
    for line in lines:
        at = line.find("Linux version ")
        if at >= 0:
            return line[at:].strip()
    return None


def compare(log, summary):
    results, console = lava_log(log)
    got = lava_cases(results)
    with open(summary) as f:
        runner = json.load(f)
    want, left_out = {}, 0
    for c in runner["cases"]:
        if c["name"].startswith("kunit.") or " [pass " in c["name"]:
            left_out += 1
        else:
            want[c["name"]] = c["status"]
    problem = verdict(results, console)
    # summary.json does not name the build: the console next to it does.
    console_log = os.path.join(os.path.dirname(summary), "console.log")
    if not problem and os.path.exists(console_log):
        with open(console_log, errors="replace") as f:
            theirs, ours = banner(f), banner(console)
        if theirs != ours:
            problem = f"not the kernel the runner booted: LAVA booted {ours!r}, {console_log} has {theirs!r}"
    print(f"LAVA: {len(got)} cases, runner: {len(want)} cases "
          f"({left_out} KUnit and second-pass cases of the runner not compared)")
    if problem:
        print(f"error: {problem} (log: {log})", file=sys.stderr)
    differ = [f"  {n}: runner {want[n]}, LAVA {got[n]}"
              for n in sorted(set(want) & set(got)) if want[n] != got[n]]
    for where, names in (("the runner", set(want) - set(got)), ("LAVA", set(got) - set(want))):
        if names:
            shown = sorted(names)
            differ.append(f"  only in {where} ({len(names)}): {', '.join(shown[:8])}"
                          f"{' ...' if len(shown) > 8 else ''}")
    if runner.get("problems") and not problem:
        differ.append(f"  the runner's run was not clean, LAVA's was: {runner['problems'][0].splitlines()[0]}")
    if differ:
        print("\n".join(differ))
    if problem:
        return 1
    if not got:
        print(f"error: LAVA recorded no case (log: {log})", file=sys.stderr)
        return 1
    if differ:
        print(f"error: the cases differ between LAVA and {summary}", file=sys.stderr)
        return 1
    counts = {s: sum(v == s for v in got.values()) for s in ("pass", "fail", "skip")}
    print(f"same cases, same verdicts: {counts['pass']} passed, "
          f"{counts['fail']} failed, {counts['skip']} skipped")
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "job":
        return write_job(*argv[2:])
    if len(argv) == 3 and argv[1] == "validate":
        return validate(argv[2])
    if len(argv) == 4 and argv[1] == "compare":
        return compare(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
