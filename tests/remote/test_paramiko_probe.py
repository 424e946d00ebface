"""The one check in front of paramiko's internals (app.remote.paramiko_probe), against the real
OpenSSH sshd: with the pinned paramiko the fast paths are on; with any other paramiko (or one
whose internals differ) every transfer takes paramiko's stock paths and still arrives byte-exact,
and the log says why once. Importing LabGPU changes none of paramiko's classes."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import paramiko
import pytest

from app.core.syncmodel import DOWN, SyncOptions
from app.remote import fastssh, paramiko_probe
from app.remote.sync import Channel, SyncEngine
from app.remote.sync.sftp import attrs_bytes, attrs_from_msg
from tests.remote.sync_support import plain_connect, tree_hashes, write_tree

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_700_000_000.0

_SNAPSHOT = r"""
import json, sys
import paramiko
from paramiko.buffered_pipe import BufferedPipe
from paramiko.packet import Packetizer

CLASSES = (Packetizer, paramiko.Transport, paramiko.Channel, paramiko.SFTPClient,
           paramiko.SFTPAttributes, paramiko.Message, BufferedPipe)

def snap():
    return {c.__qualname__: {k: repr(v) for k, v in vars(c).items()} for c in CLASSES}

before = snap()
import app.remote.fastssh, app.remote.paramiko_probe, app.remote.ssh, app.remote.sync  # noqa
import app.remote.paramiko_probe as probe
probe.check()
after = snap()
print(json.dumps({"same": before == after, "changed": sorted(
    f"{c}.{k}" for c in before for k in set(before[c]) ^ set(after[c]) | {
        k for k in before[c] if k in after[c] and before[c][k] != after[c][k]})}))
"""


def test_importing_labgpu_changes_no_paramiko_class():
    r = subprocess.run([sys.executable, "-c", _SNAPSHOT], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["same"], got["changed"]


@pytest.fixture
def pretend(monkeypatch):
    """Let a test pretend another paramiko; the probe forgets its answers before and after."""
    paramiko_probe.reset()
    yield monkeypatch
    monkeypatch.undo()
    paramiko_probe.reset()


@pytest.fixture
def remote(sshd, request):
    return sshd.remote_dir(f"probe-{request.node.name}"[:80])


def _roundtrip(sshd, remote, tmp_path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Upload a tree (small files, a big one, an empty one) and download it into a fresh folder."""
    local = tmp_path / "src"
    files = {f"d{i % 3}/f{i}.bin": os.urandom(1000 + i) for i in range(30)}
    files["big.bin"] = os.urandom(3 * 1024 * 1024 + 17)
    files["empty"] = b""
    write_tree(local, files, mtime=T0)
    up = SyncEngine(plain_connect(sshd), local, str(remote), SyncOptions()).run()
    assert up.files == len(files)
    down = tmp_path / "down"
    got = SyncEngine(plain_connect(sshd), down, str(remote), SyncOptions(direction=DOWN)).run()
    assert got.files == len(files)
    assert os.stat(down / "big.bin").st_mtime == T0
    return tree_hashes(local), tree_hashes(down)


def test_probe_enables_the_fast_paths_on_a_real_transport(sshd):
    conn = plain_connect(sshd)()
    try:
        t = conn.transport
        result = paramiko_probe.check(t)
        assert result.enabled, result.reason
        assert paramiko_probe.check(t) is result  # cached for this transport
        assert fastssh.enabled(t)
        assert "read_all" in vars(t.packetizer)  # installed on this instance
        ch = Channel(t)
        try:
            assert ch.fast and paramiko_probe.check(ch.sftp).enabled
        finally:
            ch.close()
    finally:
        conn.close()


def test_unknown_paramiko_version_takes_the_stock_paths_byte_exact(sshd, remote, tmp_path, pretend, caplog):
    pretend.setattr(paramiko, "__version__", "99.0.0")
    caplog.set_level(logging.INFO, logger="app.remote.paramiko_probe")
    conn = plain_connect(sshd)()
    try:
        t = conn.transport
        assert not fastssh.enabled(t)
        assert "read_all" not in vars(t.packetizer)  # nothing installed on it
        result = paramiko_probe.check(t)
        assert not result.enabled and "99.0.0" in result.reason
        ch = Channel(t)
        try:
            assert not ch.fast
            assert "_read_packet" not in vars(ch.sftp)  # paramiko's SFTPClient left as it is
            assert not isinstance(ch.sftp.sock.in_buffer, fastssh.LeanPipe)
        finally:
            ch.close()
    finally:
        conn.close()
    modes: list[bool] = []
    numbers = Channel._numbers
    pretend.setattr(Channel, "_numbers", lambda self, k: (modes.append(self.fast), numbers(self, k))[1])
    local, down = _roundtrip(sshd, remote, tmp_path)
    assert down == local
    assert modes and not any(modes)  # every SFTP request went the stock way
    said = [r for r in caplog.records if "fast paths off" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.INFO and "99.0.0" in said[0].getMessage()


def test_missing_private_attribute_takes_the_stock_paths_byte_exact(sshd, remote, tmp_path, pretend):
    pretend.setattr(paramiko_probe, "PACKETIZER_ATTRS", (*paramiko_probe.PACKETIZER_ATTRS, "gone_in_next_release"))
    result = paramiko_probe.check()
    assert not result.enabled and "gone_in_next_release" in result.reason
    local, down = _roundtrip(sshd, remote, tmp_path)
    assert down == local


def test_stock_attribute_codec_matches_paramikos(pretend):
    samples = [paramiko.SFTPAttributes()]
    a = paramiko.SFTPAttributes()
    a.st_size, a.st_uid, a.st_gid, a.st_mode, a.st_atime, a.st_mtime = 2**40 + 5, 1000, 100, 0o100644, T0, T0 + 0.7
    a.attr = {"x@example.com": b"value"}
    samples.append(a)
    b = paramiko.SFTPAttributes()
    b.st_mode, b.st_mtime = 0o755, T0  # mtime without atime: not sent, as paramiko does
    samples.append(b)
    fast = [attrs_bytes(s) for s in samples]

    def fields(x: paramiko.SFTPAttributes) -> tuple:
        return (x.st_size, x.st_uid, x.st_gid, x.st_mode, x.st_atime, x.st_mtime, dict(x.attr))

    fast_back = [fields(attrs_from_msg(paramiko.Message(raw))) for raw in fast]
    pretend.setenv(paramiko_probe.STOCK_ENV, "1")
    paramiko_probe.reset()
    assert not paramiko_probe.check().enabled
    assert [attrs_bytes(s) for s in samples] == fast
    assert [fields(attrs_from_msg(paramiko.Message(raw))) for raw in fast] == fast_back
    back = attrs_from_msg(paramiko.Message(fast[1]))
    assert (back.st_size, back.st_uid, back.st_gid, back.st_mode) == (a.st_size, 1000, 100, 0o100644)
    assert (back.st_atime, back.st_mtime) == (int(T0), int(T0 + 0.7))


@pytest.mark.usefixtures("private_home")
def test_the_apps_connections_install_the_fast_paths_per_transport(sshd):
    from app.core.hosts import HostRecord
    from app.core.paths import default_paths
    from app.remote.hostkeys import KnownHosts
    from app.remote.ssh import open_connection

    KnownHosts(default_paths()).add(sshd.host, sshd.port, paramiko.Ed25519Key.from_path(str(sshd.host_key)))
    rec = HostRecord(name="box", hostname=sshd.host, port=sshd.port, user=sshd.user,
                     key_path=str(sshd.client_key), auth="key")
    with open_connection(rec) as one, open_connection(rec) as two:
        for conn in (one, two):
            assert fastssh.enabled(conn.transport)
            assert vars(conn.transport.packetizer)["read_all"].__func__ is fastssh.fast_read_all
        assert one.transport.packetizer.read_all is not two.transport.packetizer.read_all
        assert one.exec(["cat"], stdin=b"through the fast read path") == (0, "through the fast read path", "")
