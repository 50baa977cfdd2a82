#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Runs one command in a QEMU's human monitor, on its unix socket, and
prints what the monitor answers (for at most a few seconds), without the
monitor's banner, prompt and line editing.

Usage: scripts/qemu-monitor.py SOCKET COMMAND...
"""
import re
import socket
import sys

EDITING = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    answer = b""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(3)
        try:
            sock.connect(sys.argv[1])
            sock.sendall(" ".join(sys.argv[2:]).encode() + b"\n")
            while chunk := sock.recv(65536):
                answer += chunk
        except socket.timeout:
            pass
        except OSError as err:
            sys.exit(f"{sys.argv[1]}: {err}")
    for line in EDITING.sub("", answer.decode(errors="replace")).splitlines():
        if not line.startswith(("QEMU ", "(qemu)")):
            print(line.rstrip("\r"))


if __name__ == "__main__":
    main()
