"""A sync that cannot succeed says so at once: the local folder is checked before any connection, and
a name that does not resolve, a refused login and a changed host key fail on the first attempt, each
with its own message, against the real sshd. A transient failure (nothing listens yet) is still
retried. Attempts are counted (the connector's calls, the server's log), never timed."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import paramiko
import pytest

import app.remote.sync.engine as sync_mod
from app.core.errors import LabGpuError
from app.core.hosts import HostRecord, HostStore
from app.core.paths import default_paths
from app.core.syncmodel import DOWN, UP, SyncOptions, SyncProgress
from app.remote.hostkeys import KnownHosts
from app.remote.sync.errors import PERMANENT_CODES, is_connect_failure
from app.usecases.sync import SyncJobs, host_connector, run_sync

pytestmark = pytest.mark.usefixtures("private_home")


@pytest.fixture(autouse=True)
def _short_backoff(monkeypatch):
    """Were a permanent failure retried, the test would fail on its count, not wait 75 s."""
    monkeypatch.setattr(sync_mod, "BACKOFF", (0.01,))


def _save(name: str, hostname: str, port: int, user: str, key: Path, host_key: paramiko.PKey | None) -> None:
    """A saved host as the Hosts page leaves it; ``host_key``: the key LabGPU trusts for its address."""
    if host_key is not None:
        KnownHosts(default_paths()).add(hostname, port, host_key)
    HostStore(paths=default_paths()).add(
        HostRecord(name=name, hostname=hostname, port=port, user=user, key_path=str(key), auth="key"),
        replace_existing=True,
    )


def _server_key(sshd) -> paramiko.PKey:
    return paramiko.Ed25519Key.from_path(str(sshd.host_key))


def _connections(sshd) -> int:
    """How many TCP connections the server has logged so far (LogLevel VERBOSE: one line each)."""
    return len(re.findall(r"^Connection from 127\.0\.0\.1 port \d+", sshd.log_text(), re.M))


def _sync(name: str, local: Path, remote: str, direction: str = UP, **opts) -> tuple[BaseException, int, list[str]]:
    """Run the sync of a saved host as the Sync page does; (its error, connect() calls, states seen)."""
    calls: list[int] = []
    real = host_connector(name)

    def connect():
        calls.append(1)
        return real()

    states: list[str] = []

    def progress(p: SyncProgress) -> None:
        states.append(p.state)

    with pytest.raises(LabGpuError) as ei:
        run_sync(name, local, remote, SyncOptions(direction=direction, **opts), connect=connect,
                 progress=progress, jobs=SyncJobs())
    return ei.value, len(calls), states


def _tree(tmp_path: Path) -> Path:
    local = tmp_path / "src"
    (local / "sub").mkdir(parents=True)
    (local / "sub" / "a.txt").write_text("a")
    return local


def test_a_name_that_does_not_resolve_fails_on_the_first_attempt(tmp_path):
    name = "gpu-box.nosuch.invalid"  # RFC 6761: never resolves
    _save("typo", name, 22, "root", tmp_path / "key", None)
    err, calls, states = _sync("typo", _tree(tmp_path), "/tmp/never")
    assert (err.code, calls) == ("NameNotResolved", 1), err.one_line()
    assert "waiting" not in states
    assert name in err.text() and "does not resolve" in err.text()
    assert "typo" in err.hint()  # the next step: check the name for a typo, or use the IP address


def test_a_refused_login_fails_on_the_first_attempt(sshd, tmp_path):
    stranger = tmp_path / "stranger_ed25519"  # a key the server does not know
    _keygen(stranger)
    _save("wrongkey", sshd.host, sshd.port, sshd.user, stranger, _server_key(sshd))
    before = _connections(sshd)
    err, calls, states = _sync("wrongkey", _tree(tmp_path), str(sshd.remote_dir("fail-fast-auth")))
    assert (err.code, calls) == ("AuthFailed", 1), err.one_line()
    assert _connections(sshd) - before == 1, sshd.log_text()[-2000:]
    assert "waiting" not in states
    assert "refused the login" in err.text()


def test_a_changed_host_key_fails_on_the_first_attempt(sshd, tmp_path):
    other = paramiko.Ed25519Key.from_path(str(_keygen(tmp_path / "old_host_key")))  # what LabGPU trusted
    _save("rebuilt", sshd.host, sshd.port, sshd.user, sshd.client_key, other)
    before = _connections(sshd)
    err, calls, states = _sync("rebuilt", _tree(tmp_path), str(sshd.remote_dir("fail-fast-key")))
    assert (err.code, calls) == ("HostKeyChanged", 1), err.one_line()
    assert _connections(sshd) - before == 1, sshd.log_text()[-2000:]
    assert "waiting" not in states
    assert sshd.host_key_fingerprint in err.text() and "CHANGED" in err.text()


@pytest.mark.parametrize("direction", [UP, DOWN])
def test_the_local_folder_is_checked_before_any_connection(sshd, tmp_path, direction):
    _save("lab", sshd.host, sshd.port, sshd.user, sshd.client_key, _server_key(sshd))
    remote = str(sshd.remote_dir("fail-fast-local"))
    before = _connections(sshd)
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    err, calls, _ = _sync("lab", a_file, remote, direction)
    assert (err.code, calls) == ("LocalNotFolder", 0), err.one_line()
    assert str(a_file) in err.text()
    if direction == UP:
        missing = tmp_path / "no-such-folder"
        err, calls, _ = _sync("lab", missing, remote, direction)
        assert (err.code, calls) == ("LocalMissing", 0), err.one_line()
        assert str(missing) in err.text() and err.hint()
    assert _connections(sshd) == before  # the server never heard of it


def test_a_transient_failure_is_still_retried(tmp_path):
    """Nothing listens on the port (a server still starting, a restart): waited for and tried again."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once the block ends: connections are refused
    _save("starting", "127.0.0.1", port, "root", tmp_path / "key", None)
    err, calls, states = _sync("starting", _tree(tmp_path), "/tmp/never", max_attempts=3)
    assert (err.code, calls) == ("HostUnreachable", 3), err.one_line()
    assert states.count("waiting") == 2


def test_every_permanent_code_is_never_retried_and_transient_ones_are():
    for code in PERMANENT_CODES:
        assert not is_connect_failure(LabGpuError("x", "", code=code)), code
    for code in ("HostUnreachable", "ConnectionLost", "VpnDown", "JumpFailed"):
        assert is_connect_failure(LabGpuError("x", "", code=code)), code


def _keygen(path: Path) -> Path:
    """An ed25519 key pair in OpenSSH's format, made here (no ssh-keygen needed)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                       serialization.NoEncryption()))
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("target", ["new", "itself"])
def test_a_folder_the_login_cannot_write_fails_once_with_the_servers_words(sshd, tmp_path, target):
    """Many small files go up as one stream into the server's tar: when the server refuses to make the folder
    (mkdir: Permission denied, it ends before reading the stream) or to write into it (tar: Cannot open), the
    student reads the server's reason once: not 'the connection was lost' and a minute of retries."""
    import os

    from app.remote.sync.tuning import TAR_MIN_FILES

    _save("lab", sshd.host, sshd.port, sshd.user, sshd.client_key, _server_key(sshd))
    local = tmp_path / "many"
    local.mkdir()
    for i in range(TAR_MIN_FILES + 1135):  # the tar stream: ~4.7 MiB, more than the SSH channel window holds
        (local / f"f{i:03d}.bin").write_bytes(os.urandom(4096))
    locked = sshd.remote_dir("fail-fast-perm") / "locked"
    locked.mkdir()  # made by root, mode 0755: the login user can enter it but not write in it
    locked.chmod(0o755)
    remote = locked / "new" if target == "new" else locked
    before = _connections(sshd)
    err, calls, states = _sync("lab", local, str(remote))
    assert (err.code, calls) == ("RemoteWriteFailed", 1), err.one_line()
    assert _connections(sshd) - before == 1, sshd.log_text()[-2000:]
    assert "waiting" not in states
    assert "Permission denied" in err.text() and "Check free space and permissions" in err.hint()
    assert list(locked.iterdir()) == []  # nothing left behind
