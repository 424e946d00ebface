"""Helpers for monitor tests: an sshd of its own with the scripted nvidia-smi, saved as a host."""

from __future__ import annotations

import queue
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import paramiko

from app.core.gpumon import HostSample
from app.core.hosts import HostRecord, HostStore
from app.core.paths import default_paths
from app.remote.hostkeys import KnownHosts
from tests.fixtures.fake_nvidia_smi import FakeSmi, install_fake_nvidia_smi
from tests.fixtures.sshd import SshdServer


def save_host(server: SshdServer, name: str) -> HostRecord:
    """Trust the server's key (what a first contact leaves) and save it as a Hosts-page host."""
    KnownHosts(default_paths()).add(server.host, server.port, paramiko.Ed25519Key.from_path(str(server.host_key)))
    rec = HostRecord(name=name, hostname=server.host, port=server.port, user=server.user,
                     key_path=str(server.client_key), auth="key")
    HostStore(paths=default_paths()).add(rec, replace_existing=True)
    return rec


@contextmanager
def gpu_server(name: str, scenario: dict[str, Any] | None) -> Iterator[tuple[SshdServer, FakeSmi | None]]:
    """A fresh sshd whose user has the fake nvidia-smi (None: no nvidia-smi at all)."""
    server = SshdServer.start_new()
    try:
        fake = install_fake_nvidia_smi(server, scenario) if scenario is not None else None
        save_host(server, name)
        yield server, fake
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


class Samples:
    """Collects samples from callbacks; tests wait for a condition with an upper-bound timeout."""

    def __init__(self) -> None:
        self.q: queue.Queue[HostSample] = queue.Queue()
        self.all: list[HostSample] = []

    def __call__(self, s: HostSample) -> None:
        self.q.put(s)

    def wait_for(self, pred: Callable[[HostSample], bool], timeout: float = 30.0) -> HostSample:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching sample within {timeout} s; last: {self.all[-3:]}")
            try:
                s = self.q.get(timeout=left)
            except queue.Empty:
                continue
            self.all.append(s)
            if pred(s):
                return s
