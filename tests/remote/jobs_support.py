"""Shared set-up for the jobs tests: an sshd of its own (with or without tmux on the user's PATH),
saved as a host, the training stand-in's command line, and a clean-up of the jobs a test left."""

from __future__ import annotations

import contextlib
import os
import shutil
import sysconfig
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.core.errors import LabGpuError
from app.core.jobs import JobStore
from app.core.paths import default_paths
from app.core.store import Store
from app.remote import jobs as hostjobs
from app.remote.ssh import open_connection
from tests.fixtures.sshd import SshdServer
from tests.remote.gpu_support import save_host

ROOT = Path(__file__).resolve().parents[2]
STANDIN = str(ROOT / "tests" / "fixtures" / "train_standin.py")
# the venv's interpreter lives below /root (the server's user cannot run it): the system python3 runs the
# stand-in with the venv's site-packages for tqdm and tensorboardX
SITE = sysconfig.get_paths()["purelib"]
PY = shutil.which("python3", path="/usr/bin:/bin") or "python3"


def standin(*args: str) -> list[str]:
    return [PY, STANDIN, "--site", SITE, *args]


class NoTmuxSshd(SshdServer):
    """An sshd whose user's PATH has every program of /usr/bin but tmux (a host without tmux)."""

    def _config(self) -> Path:
        cfg = super()._config()
        nbin = self.workdir / "notmux-bin"
        if not nbin.exists():
            nbin.mkdir()
            nbin.chmod(0o755)
            for entry in os.scandir("/usr/bin"):
                if entry.name != "tmux" and not (nbin / entry.name).exists():
                    os.symlink(entry.path, nbin / entry.name)
        text = cfg.read_text()
        old = next(line for line in text.splitlines() if line.startswith("SetEnv PATH="))
        cfg.write_text(text.replace(old, f"SetEnv PATH={self.bin_dir}:{nbin}"))
        return cfg


def remove_job(name: str, job_id: str) -> None:
    """Stop and delete one job on the host (a test's own job that its LabGPU lists as found there)."""
    with contextlib.suppress(LabGpuError, OSError):
        conn = open_connection(name)
        try:
            with contextlib.suppress(LabGpuError):
                hostjobs.stop(conn, job_id, grace_s=0)
            hostjobs.remove(conn, job_id)
        finally:
            conn.close()


def cleanup_jobs(name: str) -> None:
    """Stop and delete the jobs this test's LabGPU started on the host — only those: the server user's home
    is shared by the suite, and another test's jobs there (listed as found on the host) are not this one's."""
    ids = [r.id for r in JobStore(Store(paths=default_paths())).all(name) if r.origin == "here"]
    with contextlib.suppress(LabGpuError, OSError):
        conn = open_connection(name)
        try:
            for jid in ids:
                with contextlib.suppress(LabGpuError):
                    hostjobs.stop(conn, jid, grace_s=0)
                hostjobs.remove(conn, jid)
        finally:
            conn.close()


@contextmanager
def jobs_server(*, tmux: bool = True) -> Iterator[SshdServer]:
    """A fresh sshd (its user's PATH with or without tmux); save it per test with :func:`saved`."""
    cls = SshdServer if tmux else NoTmuxSshd
    server = cls(Path(tempfile.mkdtemp(prefix="labgpu-sshd-"))).start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


@contextmanager
def saved(server: SshdServer, name: str) -> Iterator[str]:
    """``server`` saved as host ``name`` in this test's LabGPU home; its jobs stopped and removed after."""
    save_host(server, name)
    try:
        yield name
    finally:
        cleanup_jobs(name)
