"""Processes we started (to reap them) and liveness: is a pid still our openvpn?"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from pathlib import Path

openvpn_children: dict[int, subprocess.Popen[bytes]] = {}
openvpn_children_lock = threading.Lock()


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    with openvpn_children_lock:
        child = openvpn_children.get(pid)
    if child is not None and child.poll() is not None:
        with openvpn_children_lock:
            openvpn_children.pop(pid, None)
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, owned by root (pkexec)
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        with contextlib.suppress(OSError, IndexError):
            if stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return False
    return True


def is_our_openvpn(pid: int, sock: Path) -> bool:
    """Guard against pid reuse: the process must be openvpn with our socket on its command line."""
    cmdline = Path(f"/proc/{pid}/cmdline")
    if not cmdline.exists():
        return pid_alive(pid)  # no /proc (macOS): trust the pid file
    try:
        args = cmdline.read_bytes().split(b"\0")
    except OSError:
        return False
    return any(a.endswith(b"openvpn") for a in args) and str(sock).encode() in args
