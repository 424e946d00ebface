"""Connections against a real OpenSSH sshd: key, encrypted key, password, ProxyJump, ssh_config, exec."""

from __future__ import annotations

import threading
import time

import pytest

from app.core import secrets
from app.core.hosts import HostRecord, HostStore, passphrase_key, password_key
from app.core.paths import default_paths
from app.remote.hostkeys import KnownHosts, fingerprint_matcher
from app.remote.ssh import Connection, HostAuthError, HostUnreachableError, open_connection

pytestmark = pytest.mark.usefixtures("private_home")


def _trust(sshd) -> None:
    """Pre-accept the session server's key in the app's known_hosts (what a first contact leaves)."""
    import paramiko

    key = paramiko.Ed25519Key.from_path(str(sshd.host_key))
    KnownHosts(default_paths()).add(sshd.host, sshd.port, key)


def _rec(sshd, name="box", **kw) -> HostRecord:
    base = dict(
        name=name,
        hostname=sshd.host,
        port=sshd.port,
        user=sshd.user,
        key_path=str(sshd.client_key),
        auth="key",
    )
    base.update(kw)
    return HostRecord(**base)


def test_connect_by_key_and_exec_quotes_arguments(sshd, tmp_path):
    _trust(sshd)
    with open_connection(_rec(sshd)) as conn:
        assert conn.is_active
        assert conn.fingerprint == sshd.host_key_fingerprint
        assert conn.transport.local_cipher == "aes128-gcm@openssh.com"  # tuned preference negotiated
        rc, out, err = conn.exec(["printf", "%s|", "a b", "$(id)", "semi;colon", "it's"])
        assert (rc, out, err) == (0, "a b|$(id)|semi;colon|it's|", "")
        rc, _out, err = conn.exec(["sh", "-c", "echo oops >&2; exit 3"])
        assert rc == 3
        assert err == "oops\n"
        rc, out, _ = conn.exec(["cat"], stdin=b"piped")
        assert out == "piped"
        rc, out, _ = conn.exec(["id", "-un"])
        assert out.strip() == sshd.user
    assert not conn.is_active


def test_exec_returns_all_output_even_what_arrives_after_the_exit_status(sshd):
    """OpenSSH sends the exit status when the command exits; what is still in its pipe follows. A
    listing or a guard reading half of it would act on a partial result (seen: 294,912 of 300,000)."""
    _trust(sshd)
    payload = bytes(range(97, 123)) * 11539 + b"END"  # 300,017 bytes, through cat
    with open_connection(_rec(sshd)) as conn:
        for _ in range(5):
            rc, out, _err = conn.exec(["cat"], stdin=payload, timeout=60)
            assert rc == 0
            assert out.encode() == payload
        # the command ends first and its output is still being written after: all of it arrives
        rc, out, _err = conn.exec(["sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x"], timeout=60)
        assert (rc, len(out), set(out)) == (0, 1000000, {"x"})


def test_several_sftp_channels_in_parallel_threads(sshd):
    _trust(sshd)
    remote = sshd.remote_dir("par")
    errors: list[BaseException] = []
    with open_connection(_rec(sshd)) as conn:

        def work(i: int) -> None:
            try:
                with conn.open_sftp() as sftp:
                    with sftp.open(f"{remote}/f{i}", "wb") as fh:
                        fh.write(bytes([i]) * 100_000)
                    assert sftp.stat(f"{remote}/f{i}").st_size == 100_000
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    assert not errors
    assert sorted(p.name for p in remote.iterdir()) == ["f0", "f1", "f2", "f3"]


def test_encrypted_key_uses_passphrase_from_keyring(sshd, secret_service):
    _trust(sshd)
    rec = _rec(sshd, name="enc", key_path=str(sshd.client_key_encrypted))
    secrets.delete_secret(passphrase_key("enc"))
    with pytest.raises(HostAuthError) as ei:
        open_connection(rec)
    assert ei.value.code == "KeyPassphraseMissing"
    secrets.set_secret(passphrase_key("enc"), sshd.client_key_passphrase)
    try:
        with open_connection(rec) as conn:
            assert conn.is_active
    finally:
        secrets.delete_secret(passphrase_key("enc"))


def test_password_login_from_keyring_and_wrong_password(sshd, secret_service):
    _trust(sshd)
    rec = _rec(sshd, name="pw", key_path="", auth="password")
    secrets.set_secret(password_key("pw"), sshd.password)
    try:
        with open_connection(rec) as conn:
            assert conn.exec(["true"])[0] == 0
        secrets.set_secret(password_key("pw"), "wrong-password")
        with pytest.raises(HostAuthError) as ei:
            open_connection(rec)
        assert ei.value.code == "AuthFailed"
        assert "wrong-password" not in ei.value.one_line()
    finally:
        secrets.delete_secret(password_key("pw"))


def test_wrong_key_is_refused(sshd, tmp_path):
    import subprocess

    _trust(sshd)
    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)], check=True)
    with pytest.raises(HostAuthError) as ei:
        open_connection(_rec(sshd, key_path=str(other)))
    assert "refused the login" in ei.value.text()


def test_proxyjump_through_a_second_sshd(sshd, extra_sshd):
    """The target is reached only through the jump host's direct-tcpip channel."""
    extra_sshd.log_level = "DEBUG1"  # logs each direct-tcpip target
    extra_sshd.restart()
    _trust(sshd)
    _trust(extra_sshd)
    HostStore().add(
        HostRecord(
            name="bastion",
            hostname=extra_sshd.host,
            port=extra_sshd.port,
            user=extra_sshd.user,
            key_path=str(extra_sshd.client_key),
            auth="key",
        )
    )
    rec = _rec(sshd, name="inner", jump="bastion")
    with open_connection(rec) as conn:
        assert conn.exec(["true"])[0] == 0
        assert len(conn._hops) == 1
    # The jump server saw a forwarding request to the target's port.
    deadline = time.monotonic() + 30  # an upper bound: sshd logs it as the hop opens
    while f"target 127.0.0.1 port {sshd.port}" not in extra_sshd.log_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert f"target 127.0.0.1 port {sshd.port}" in extra_sshd.log_text()


def test_proxyjump_spec_with_unknown_jump_key_is_a_first_contact(sshd, extra_sshd):
    _trust(sshd)
    rec = _rec(sshd, name="inner2", jump=f"{extra_sshd.user}@{extra_sshd.host}:{extra_sshd.port}")
    seen = []
    (default_paths().data_dir).mkdir(parents=True, exist_ok=True)

    def accept(prompt):
        seen.append(prompt)
        return prompt.fingerprint == extra_sshd.host_key_fingerprint

    # The jump host uses the key from ~/.ssh/config's IdentityFile (the hop has no record).
    import os

    cfg = os.path.expanduser("~/.ssh/config")
    with open(cfg, "w") as fh:
        fh.write(f"Host {extra_sshd.host}\n  IdentityFile {extra_sshd.client_key}\n")
    with open_connection(rec, accept=accept) as conn:
        assert conn.is_active
    assert [p.port for p in seen] == [extra_sshd.port]


def test_ssh_config_alias_is_applied(sshd, private_home):
    _trust(sshd)
    (private_home / ".ssh" / "config").write_text(
        f"Host gpubox\n  HostName {sshd.host}\n  Port {sshd.port}\n  User {sshd.user}\n"
        f"  IdentityFile {sshd.client_key}\n"
    )
    with open_connection(HostRecord(name="gpubox", hostname="gpubox")) as conn:
        assert conn.target.hostname == sshd.host
        assert conn.target.port == sshd.port
        assert conn.exec(["true"])[0] == 0


def test_unreachable_port_is_a_clear_error():
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(HostUnreachableError) as ei:
        open_connection(HostRecord(name="gone", hostname="127.0.0.1", port=port, user="x"))
    assert "Cannot reach" in ei.value.text()
    assert ei.value.hint()


def test_reconnects_after_server_restart(sshd):
    _trust(sshd)
    conn = Connection(_rec(sshd)).connect()
    try:
        assert sshd.drop_connections() >= 1  # kills this session's server processes
        deadline = time.monotonic() + 30
        while conn.is_active and time.monotonic() < deadline:
            try:
                conn.exec(["true"], timeout=2)
            except Exception:  # noqa: BLE001 - the old session is dead
                break
            time.sleep(0.05)
        conn.ensure()
        assert conn.exec(["echo", "back"])[1] == "back\n"
    finally:
        conn.close()


def test_fingerprint_matcher_accepts_only_that_key(sshd):
    rec = _rec(sshd)
    with open_connection(rec, accept=fingerprint_matcher(sshd.host_key_fingerprint)) as conn:
        assert conn.fingerprint == sshd.host_key_fingerprint


def test_agent_login_with_a_real_ssh_agent(sshd, tmp_path, monkeypatch):
    import os
    import subprocess

    _trust(sshd)
    sock = tmp_path / "agent.sock"
    agent = subprocess.Popen(
        ["ssh-agent", "-D", "-a", str(sock)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while not sock.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        env = dict(os.environ, SSH_AUTH_SOCK=str(sock))
        subprocess.run(["ssh-add", "-q", str(sshd.client_key)], env=env, check=True, capture_output=True)
        monkeypatch.setenv("SSH_AUTH_SOCK", str(sock))
        with open_connection(_rec(sshd, name="ag", key_path="", auth="agent")) as conn:
            assert conn.exec(["true"])[0] == 0
        monkeypatch.delenv("SSH_AUTH_SOCK")
        with pytest.raises(HostAuthError):
            open_connection(_rec(sshd, name="ag", key_path="", auth="agent"))
    finally:
        agent.terminate()
        agent.wait(5)


@pytest.mark.parametrize(("provider", "key_type"), [("aws", "ed25519"), ("tencent", "rsa")])
def test_launched_instance_host_logs_in_with_labgpus_own_key(extra_sshd, secret_service, provider, key_type):
    """An instance launched with one of LabGPU's key pairs (labgpu-…: ed25519 on AWS, RSA on Tencent) is
    a host that uses that key and its passphrase from the keyring, with no setup by the user."""
    from dataclasses import replace

    from app.cloud import sshkeys
    from app.cloud.base import Instance
    from app.core.hosts import instance_hosts
    from app.core.instances import Ledger
    from app.core.store import Store

    paths = default_paths()
    key = sshkeys.ensure_default_key(paths, key_type=key_type)
    sshkeys.ensure_default_key(paths, key_type="rsa" if key_type == "ed25519" else "ed25519")  # the other one
    with open(extra_sshd.authorized_keys, "a") as fh:
        fh.write(key.public_key + "\n")
    store = Store(paths=paths)
    Ledger(store)
    store.migrate()
    Ledger(store).observe(
        Instance(
            id="i-0feed000000000001",
            account="lab",
            provider=provider,
            region="us-east-1",
            zone="us-east-1a",
            instance_type="g5.xlarge",
            state="running",
            spot=False,
            public_ip=extra_sshd.host,
            key_name=key.cloud_name,
        )
    )
    (rec,) = instance_hosts(paths=paths, store=store)
    assert rec.key_path == str(key.private_path)
    rec = replace(rec, port=extra_sshd.port, user=extra_sshd.user)  # the test sshd is not on 22
    with open_connection(rec, accept=fingerprint_matcher(extra_sshd.host_key_fingerprint)) as conn:
        assert conn.exec(["true"])[0] == 0
    secrets.delete_secret(key.passphrase_entry)
