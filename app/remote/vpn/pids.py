"""Processes we started (to reap them) and liveness: is a pid still our openvpn?"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from pathlib import Path

_children: dict[int, subprocess.Popen[bytes]] = {}
_children_lock = threading.Lock()


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    with _children_lock:
        child = _children.get(pid)
    if child is not None and child.poll() is not None:
        with _children_lock:
            _children.pop(pid, None)
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


def _is_our_openvpn(pid: int, sock: Path) -> bool:
    """Guard against pid reuse: the process must be openvpn with our socket on its command line."""
    cmdline = Path(f"/proc/{pid}/cmdline")
    if not cmdline.exists():
        return _pid_alive(pid)  # no /proc (macOS): trust the pid file
    try:
        args = cmdline.read_bytes().split(b"\0")
    except OSError:
        return False
    return any(a.endswith(b"openvpn") for a in args) and str(sock).encode() in args
