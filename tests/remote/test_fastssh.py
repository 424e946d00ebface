"""The lean channel data paths (app.remote.fastssh) against the real OpenSSH sshd.

They replace paramiko's per-packet send/receive work for AES-GCM, so these tests check what a
user would lose if they were wrong: every byte arrives unchanged, across key re-exchanges, and
any other cipher (or other paramiko internals) falls back to paramiko's stock paths.
"""

from __future__ import annotations

import hashlib
import os
import socket
from pathlib import Path

import paramiko
import pytest

from app.remote import fastssh, paramiko_probe
from tests.fixtures.waits import wait_for
from tests.remote.sync_support import fingerprint

NO_REKEY = 1 << 40


def _transport(sshd, cipher: str) -> paramiko.Transport:
    key = paramiko.Ed25519Key.from_private_key_file(str(sshd.client_key))
    sock = socket.create_connection((sshd.host, sshd.port), timeout=10)
    t = paramiko.Transport(sock)
    fastssh.install(t)  # as app.remote.ssh does for every transport it opens
    t.get_security_options().ciphers = (cipher,)
    t.start_client(timeout=10)
    assert fingerprint(t.get_remote_server_key()) == sshd.host_key_fingerprint
    t.auth_publickey(sshd.user, key)
    return t


def _exec(t: paramiko.Transport, cmd: str) -> paramiko.Channel:
    chan = t.open_session(window_size=4 << 20, max_packet_size=256 * 1024, timeout=10)
    fastssh.use_lean_pipe(chan)
    chan.settimeout(30)
    chan.exec_command(cmd)
    return chan


def _quiesce(t: paramiko.Transport) -> None:
    """No new key exchange, and the one in flight (if any) finished. Needed before the server
    closes a channel: paramiko's transport thread answers the server's CLOSE by waiting for the
    key exchange that only it can finish (it stalls 30 s, then drops the connection)."""
    t.packetizer.REKEY_BYTES = NO_REKEY  # type: ignore[misc]
    wait_for(lambda: t.clear_to_send.is_set() and not t.packetizer.need_rekey(), 60, "the key exchange to end")


def _roundtrip(t: paramiko.Transport, path: str, data: bytes, rekey_bytes: int = NO_REKEY) -> bytes:
    """Upload with fastssh.sendall into ``cat``, read it back with fastssh.recv_exact, re-keying
    every ``rekey_bytes`` while data flows (never while the server closes a channel)."""
    t.packetizer.REKEY_BYTES = rekey_bytes  # type: ignore[misc]
    up = _exec(t, f"cat > {path}")
    # uneven pieces: packet boundaries fall everywhere
    view, k = memoryview(data), 0
    for size in (1, 31, 32 * 1024 - 63, 255 * 1024, 3 << 20):
        fastssh.sendall(up, view[k : k + size])
        k += size
    fastssh.sendall(up, view[k:])
    _quiesce(t)
    up.shutdown_write()
    assert up.recv_exit_status() == 0
    up.close()
    t.packetizer.REKEY_BYTES = rekey_bytes  # type: ignore[misc]
    down = _exec(t, f"cat {path} && head -c 1 >/dev/null")  # stays open until told
    got = b"".join(fastssh.recv_exact(down, n) for n in (5, 70_000, len(data) - 70_005))
    _quiesce(t)
    down.sendall(b"x")
    assert down.recv(10) == b""  # nothing more: exactly the file
    down.close()
    return got


def test_fast_paths_are_active_with_the_pinned_paramiko(sshd):
    probe = paramiko_probe.check()
    assert probe.enabled, f"the sync engine runs on the slow stock paths: {probe.reason}"
    t = _transport(sshd, "aes128-gcm@openssh.com")
    try:
        assert fastssh.enabled(t)
        # on this transport's packetizer instance, never on paramiko's class
        assert t.packetizer.read_all.__func__ is fastssh.fast_read_all
        assert t.packetizer.read_message.__func__ is fastssh.fast_read_message
        assert paramiko.packet.Packetizer.read_all is not fastssh.fast_read_all
        assert paramiko.packet.Packetizer.read_message is not fastssh.fast_read_message
    finally:
        t.close()


def test_aes_gcm_data_is_byte_exact_across_rekeys(sshd):
    where = sshd.remote_dir("fastssh-gcm")
    t = _transport(sshd, "aes128-gcm@openssh.com")
    try:
        chan = t.open_session()
        assert fastssh.fast_send_usable(chan)  # the fast send path is the one under test
        chan.close()
        # re-key every MiB in both directions while 9 MiB go up and come back down
        data = os.urandom(9 * (1 << 20) + 12345)
        kexes = []
        start_kex = t._send_kex_init
        t._send_kex_init = lambda: (kexes.append(1), start_kex())[1]  # counts the re-keys
        got = _roundtrip(t, str(where / "x.bin"), data, rekey_bytes=1 << 20)
        # it re-keyed many times (about one per MiB each way; fewer when a loaded machine makes each
        # key exchange take longer, since bytes sent during one do not start another: 7 was seen)
        assert len(kexes) >= 4, len(kexes)
        assert hashlib.sha256(got).digest() == hashlib.sha256(data).digest()
        assert (where / "x.bin").read_bytes() == data
        assert t.is_active()
    finally:
        t.close()


def test_other_ciphers_use_paramikos_stock_send_path(sshd):
    where = sshd.remote_dir("fastssh-ctr")
    t = _transport(sshd, "aes128-ctr")
    try:
        chan = t.open_session()
        assert not fastssh.fast_send_usable(chan)
        chan.close()
        data = os.urandom(2 * (1 << 20) + 777)
        assert _roundtrip(t, str(where / "y.bin"), data) == data
    finally:
        t.close()


def test_closed_connection_raises_instead_of_dropping_data(sshd):
    t = _transport(sshd, "aes128-gcm@openssh.com")
    chan = _exec(t, "cat > /dev/null")
    t.close()
    with pytest.raises((EOFError, OSError, paramiko.SSHException)):
        fastssh.sendall(chan, b"x" * (1 << 20))


def test_lean_pipe_reads_like_paramikos_pipe():
    pipe = fastssh.LeanPipe()
    for piece in (b"ab", b"cdef", b"", b"ghij"):
        pipe.feed(piece)
    assert len(pipe) == 10 and pipe.read_ready()
    assert pipe.read_exact(3) == b"abc"
    assert pipe.read(2) == b"de"
    assert pipe.read(100) == b"fghij"
    assert not pipe.read_ready()
    with pytest.raises(paramiko.buffered_pipe.PipeTimeout):
        pipe.read_exact(1, timeout=0.05)
    pipe.feed(b"xy")
    pipe.close()
    assert pipe.read_exact(5) == b"xy"  # fewer only once closed
    assert pipe.read(1) == b""


MSG_CHANNEL_EOF = 96


def _command_ending_on_a_flag(t: paramiko.Transport, flag: Path) -> paramiko.Channel:
    """A command on its own channel that ends (and so has its channel closed by the server) only
    once ``flag`` exists: the test decides when the server's CLOSE comes."""
    chan = t.open_session(timeout=10)
    chan.exec_command(f"while [ ! -e {flag} ]; do sleep 0.05; done")
    return chan


def _eof_held_until_the_server_closes(t: paramiko.Transport, chan: paramiko.Channel, flag: Path):
    """Make the race that dropped loaded test runs happen every time: our EOF for ``chan`` is held
    on its way out, the command is told to end (``flag``), and the EOF goes on only once the
    transport thread has handled the server's CLOSE. Holds it at both places an EOF can pass:
    paramiko's ``_send_user_message`` (before the send lock) and ``_send_message`` (under it)."""
    held: list[str] = []

    def is_our_eof(m) -> bool:
        raw = m.asbytes()
        return raw[0] == MSG_CHANNEL_EOF and int.from_bytes(raw[1:5], "big") == chan.remote_chanid

    def hold(name: str):
        original = getattr(t, name)

        def wrapper(m):
            if is_our_eof(m) and not held:
                held.append(name)
                flag.touch()
                wait_for(lambda: chan.closed, 30, "the server's CLOSE to be handled")
            return original(m)

        setattr(t, name, wrapper)

    hold("_send_user_message")
    hold("_send_message")
    return held


@pytest.mark.parametrize("cipher", ["aes128-gcm@openssh.com", "aes128-ctr"])
def test_an_eof_racing_the_servers_close_never_drops_the_connection(sshd, cipher):
    """OpenSSH drops the whole connection when an EOF arrives for a channel it has freed ("ieof packet
    referred to nonexistent channel"): every other channel on it — a transfer, a tunnel — goes too.
    fastssh.shutdown_write sends the EOF before our CLOSE or not at all."""
    t = _transport(sshd, cipher)
    try:
        _quiesce(t)
        mark = len(sshd.log_text())
        other = _exec(t, "cat")  # another channel on the same connection, like a running transfer
        flag = sshd.remote_dir(f"fastssh-race-{cipher}") / "end"
        chan = _command_ending_on_a_flag(t, flag)  # its CLOSE will race our EOF
        held = _eof_held_until_the_server_closes(t, chan, flag)
        fastssh.shutdown_write(chan)
        assert held, "the EOF was not sent through the held path"
        fastssh.sendall(other, b"still here\n")
        fastssh.shutdown_write(other)
        assert fastssh.recv_exact(other, 11) == b"still here\n"  # the connection lived on
        assert other.recv_exit_status() == 0 and t.is_active()
        assert "nonexistent channel" not in sshd.log_text()[mark:]
    finally:
        t.close()


def test_paramikos_own_eof_in_that_race_drops_the_connection(sshd):
    """Why fastssh.shutdown_write exists: the same race with paramiko's Channel.shutdown_write
    (it checks under the channel's lock and sends after releasing it)."""
    t = _transport(sshd, "aes128-gcm@openssh.com")
    try:
        _quiesce(t)
        mark = len(sshd.log_text())
        flag = sshd.remote_dir("fastssh-race-paramiko") / "end"
        chan = _command_ending_on_a_flag(t, flag)
        held = _eof_held_until_the_server_closes(t, chan, flag)
        chan.shutdown_write()
        assert held == ["_send_user_message"]
        wait_for(lambda: not t.is_active(), 30, "sshd to drop the connection")
        wait_for(lambda: "nonexistent channel" in sshd.log_text()[mark:], 30, "sshd's reason in its log")
    finally:
        t.close()


def test_data_after_the_servers_close_raises_and_the_connection_lives_on(sshd):
    t = _transport(sshd, "aes128-gcm@openssh.com")
    try:
        _quiesce(t)
        mark = len(sshd.log_text())
        chan = t.open_session(timeout=10)
        chan.exec_command("true")
        wait_for(lambda: chan.closed, 30, "the server's CLOSE to be handled")
        with pytest.raises(OSError, match="closed"):
            fastssh.sendall(chan, b"late data")
        fastssh.shutdown_write(chan)  # nothing sent: the CLOSE went first
        check = _exec(t, "echo alive")
        fastssh.shutdown_write(check)
        assert fastssh.recv_exact(check, 6) == b"alive\n" and t.is_active()
        assert "nonexistent channel" not in sshd.log_text()[mark:]
    finally:
        t.close()
