#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The To: and Cc: of a submission's mails, from the base tree's
scripts/get_maintainer.pl: To: the maintainers, Cc: the reviewers and
the lists. A patch gets those of its own files, the cover letter those
of every patch of its series.

  recipients.py write BASE DIR...  put them in each mail of each DIR
  recipients.py check BASE DIR...  fail where a mail's differ

BASE holds what get_maintainer.pl reads of the base tree
(base_maintainers in lib.sh).
"""
import email.parser
import email.utils
import os
import pathlib
import re
import subprocess
import sys

# The roles get_maintainer.pl gives the people a patch goes To:.
TO_ROLES = ("maintainer", "supporter", "odd fixer", "chief penguin")


def get_maintainer(base, patches):
    """get_maintainer.pl's lines for the patches: (address, role)."""
    out = subprocess.run(
        ["perl", "scripts/get_maintainer.pl", "--no-tree", "--no-git",
         "--no-git-fallback", "--rolestats",
         *(str(p.resolve()) for p in patches)],
        cwd=base, check=True, capture_output=True, text=True,
        # Perl's hash order, and so the order of the names, is random.
        env=dict(os.environ, PERL_HASH_SEED="0",
                 PERL_PERTURB_KEYS="0")).stdout
    lines = []
    for line in out.splitlines():
        # The role is in the last parentheses: a name can have some too.
        m = re.fullmatch(r"(.*>|[^\s<>]+) \((.*)\)", line.strip())
        if m:
            lines.append((m.group(1), m.group(2)))
        elif line.strip():
            lines.append((line.strip(), ""))
    if not lines:
        raise SystemExit(f"get_maintainer.pl named nobody for {patches}")
    return lines


def expected(base, mail, patches):
    """The To: and Cc: lists of one mail."""
    if mail.name.startswith("0000-"):
        lines = get_maintainer(base, patches)
    else:
        lines = get_maintainer(base, [mail])
    to = [a for a, role in lines if role.startswith(TO_ROLES)]
    cc = [a for a, role in lines if not role.startswith(TO_ROLES)]
    return to, cc


def header(name, addresses):
    return f"{name}: " + ",\n ".join(addresses) + "\n"


def mails(directory):
    found = sorted(pathlib.Path(directory).glob("[0-9][0-9][0-9][0-9]-*.patch"))
    return found, [m for m in found if not m.name.startswith("0000-")]


def write(base, directory):
    found, patches = mails(directory)
    for mail in found:
        to, cc = expected(base, mail, patches)
        text = mail.read_text()
        head, sep, body = text.partition("\n\n")
        head = re.sub(r"^(To|Cc): .*\n(?:[ \t].*\n)*", "", head + "\n",
                      flags=re.M)
        # After Date:, the line git format-patch writes before Subject:.
        head = re.sub(r"^(Date: .*\n)",
                      lambda m: m.group(1) + header("To", to)
                      + (header("Cc", cc) if cc else ""), head, count=1,
                      flags=re.M)
        mail.write_text(head.rstrip("\n") + sep + body)


def addresses(value):
    return [email.utils.formataddr(a) for a in
            email.utils.getaddresses([value or ""]) if a[1]]


def check(base, directory):
    found, patches = mails(directory)
    bad = 0
    for mail in found:
        to, cc = expected(base, mail, patches)
        with open(mail) as f:
            msg = email.parser.Parser().parse(f, headersonly=True)
        for name, want in (("To", to), ("Cc", cc)):
            have = addresses(msg[name])
            want = addresses(", ".join(want))
            if have != want:
                print(f"{mail}: {name}: has {have}, get_maintainer.pl "
                      f"gives {want}")
                bad += 1
    return bad


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("write", "check"):
        raise SystemExit(__doc__)
    base = pathlib.Path(sys.argv[2])
    bad = 0
    for directory in sys.argv[3:]:
        if sys.argv[1] == "write":
            write(base, directory)
        else:
            bad += check(base, directory)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
