"""Shared set-up for the instance ↔ bucket tests: an sshd of its own whose user's PATH holds only the
transfer programs a test allows (curl, wget, python3 — each a symlink to the real one, or a curl that
also logs its own argv so a test can prove no link ever reached a command line), the S3 peer's
account saved with its key in the real Secret Service, and a grep of everything the host user could
keep (its home and the test's folders) for the key id and the secret."""

from __future__ import annotations

import os
import pwd
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.core.accounts import Account, AccountBook, Credentials
from app.core.paths import default_paths
from app.core.store import Store
from tests.fixtures.sshd import SshdServer
from tests.remote.gpu_support import save_host

TOOLS = ("curl", "wget", "python3")


class ToolsSshd(SshdServer):
    """An sshd whose user's PATH is /usr/bin without curl, wget and python3, plus those of them a test
    allows (``allow``); ``log_curl``: the curl on PATH first appends its argv to :attr:`argv_log`."""

    allow: tuple[str, ...] = TOOLS
    log_curl = False

    def _config(self) -> Path:
        cfg = super()._config()
        tbin = self.workdir / "tools-bin"
        if not tbin.exists():
            tbin.mkdir()
            tbin.chmod(0o755)
            for entry in os.scandir("/usr/bin"):
                if entry.name.startswith(TOOLS) and entry.name not in self.allow:
                    continue
                if not (tbin / entry.name).exists():
                    os.symlink(entry.path, tbin / entry.name)
        self.argv_log = self.workdir / "curl-argv.log"
        if self.log_curl and "curl" in self.allow:
            self.argv_log.write_text("")
            self.argv_log.chmod(0o666)
            (tbin / "curl").unlink()
            (tbin / "curl").write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {self.argv_log}\nexec /usr/bin/curl "$@"\n')
            (tbin / "curl").chmod(0o755)
        text = cfg.read_text()
        old = next(line for line in text.splitlines() if line.startswith("SetEnv PATH="))
        cfg.write_text(text.replace(old, f"SetEnv PATH={tbin}"))
        return cfg


@contextmanager
def tools_server(*allow: str, log_curl: bool = False) -> Iterator[ToolsSshd]:
    cls = type("Sshd", (ToolsSshd,), {"allow": tuple(allow), "log_curl": log_curl})
    server = cls(Path(tempfile.mkdtemp(prefix="labgpu-sshd-bkt-"))).start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


def save_account(account: Account, creds: Credentials) -> None:
    store = Store(paths=default_paths())
    try:
        AccountBook(store).add(account, creds)
    finally:
        store.close()


def host_home(server: SshdServer) -> Path:
    return Path(pwd.getpwnam(server.user).pw_dir)


def grep_tree(root: Path, *needles: str) -> list[str]:
    """Files below ``root`` holding any of ``needles`` (what ``grep -r`` would find), as 'path: needle'."""
    found: list[str] = []
    if not root.exists():
        return found
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            p = Path(dirpath) / name
            if p.is_symlink() or not p.is_file():
                continue
            try:
                data = p.read_bytes()
            except OSError:
                continue
            found += [f"{p}: {n}" for n in needles if n and n.encode() in data]
    return found


def saved_host(server: SshdServer, name: str) -> str:
    save_host(server, name)
    return name
