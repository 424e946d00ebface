"""Cut the connection at random points during syncs of a mixed tree (a TCP relay we control sits
between the client and the real sshd). Whatever is cut: no file under its final name is ever
partial or corrupt, and re-running converges to byte-identical trees (sha256)."""

from __future__ import annotations

import hashlib
import os
import random
import socket
import threading
import warnings
from pathlib import Path

import pytest

import app.remote.sync.engine as sync_mod
from app.remote.sync import DOWN, UP, ConnectionLostError, SyncEngine, SyncOptions, SyncProgress
from tests.fixtures.waits import wait_for
from tests.remote.sync_support import part_files, plain_connect, tree_hashes, write_tree


class CutRelay:
    """127.0.0.1:port → sshd. ``arm(n)``: the next connection is cut after n bytes (both ways)."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.lsock = socket.socket()
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(16)
        self.port = self.lsock.getsockname()[1]
        self.cut_after: int | None = None
        self.cuts = 0
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []
        self.socks: list[socket.socket] = []
        self.closed = False
        t = threading.Thread(target=self._accept, name="relay-accept", daemon=True)
        t.start()
        self.threads.append(t)

    def arm(self, nbytes: int) -> None:
        with self.lock:
            self.cut_after = nbytes

    def _accept(self) -> None:
        while not self.closed:
            try:
                c, _ = self.lsock.accept()
            except OSError:
                return
            s = socket.create_connection(self.target)
            with self.lock:
                if self.closed:  # accepted while closing: close() has already swept the sockets
                    c.close()
                    s.close()
                    return
                budget, self.cut_after = self.cut_after, None
                self.socks += [c, s]
            state = {"left": budget}
            for a, b in ((c, s), (s, c)):
                t = threading.Thread(
                    target=self._pump, args=(a, b, state, c, s), name="relay-pump", daemon=True
                )
                t.start()
                self.threads.append(t)

    def _pump(self, src, dst, state, c, s) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                with self.lock:
                    left = state["left"]
                    if left is not None:
                        if len(data) >= left:
                            data = data[:left]
                            state["left"] = 0
                        else:
                            state["left"] = left - len(data)
                if data:
                    dst.sendall(data)
                if state["left"] == 0:
                    with self.lock:
                        if state.get("cut") is None:
                            state["cut"] = True
                            self.cuts += 1
                    break
        except OSError:
            pass
        finally:
            for x in (c, s):
                try:
                    x.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        with self.lock:
            self.closed = True
            socks = list(self.socks)
        try:
            self.lsock.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        except OSError:
            pass
        self.lsock.close()
        for x in socks:
            # shutdown first: close() alone does not wake a recv() blocked in another thread
            try:
                x.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                x.close()
            except OSError:
                pass
        for t in self.threads:
            t.join(5)


@pytest.fixture
def relay(sshd):
    r = CutRelay((sshd.host, sshd.port))
    yield r
    r.close()


def _mixed_tree(root: Path, rnd: random.Random) -> None:
    files = {}
    for i in range(40):
        files[f"small/{i % 4}/s{i}.txt"] = rnd.randbytes(rnd.randint(0, 6000))
    for i in range(3):
        files[f"big/b{i}.bin"] = rnd.randbytes(rnd.randint(300_000, 900_000))
    files["top.txt"] = b"top"
    write_tree(root, files, mtime=1_700_000_000)


def _mutate(root: Path, rnd: random.Random, step: int) -> None:
    """Each step: one big file and three small ones change, one file is added (~0.3-0.9 MB to move)."""
    small = sorted(p for p in (root / "small").rglob("*") if p.is_file())
    big = sorted((root / "big").iterdir())
    for p in [rnd.choice(big), *rnd.sample(small, 3)]:
        data = rnd.randbytes(rnd.randint(300_000, 900_000) if "big" in p.parts else rnd.randint(0, 5000))
        p.write_bytes(data)
        os.utime(p, (1_700_000_100 + step, 1_700_000_100 + step))
    new = root / "small" / f"new{step}.txt"
    new.write_bytes(rnd.randbytes(2000))
    # older than any later mutation: a rewrite must always look newer, or it is (rightly) a conflict
    os.utime(new, (1_700_000_050 + step, 1_700_000_050 + step))


def _assert_no_partial_final(dest: Path, allowed: dict[str, set[str]]) -> None:
    """Every file under a final name is a complete version the source had (old or new)."""
    # temporary files are not read: a cut session's server process may still rename or remove them
    for rel, digest in tree_hashes(dest, skip_parts=True).items():
        assert digest in allowed.get(rel, set()), f"{rel} is partial or corrupt after a cut"


def _server_processes(sshd) -> set[int]:
    """Every live process of ``sshd``'s sessions: its descendants, and the commands they started
    (tar, sh), which carry SSH_CONNECTION naming the server's port even once re-parented."""
    pids = set()
    for pid in sshd.session_pids():
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                pids.add(pid)
        except OSError:
            pass
    tag = f" {sshd.port}".encode()
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            env = (d / "environ").read_bytes()
        except OSError:
            continue
        if any(v.startswith(b"SSH_CONNECTION=") and v.endswith(tag) for v in env.split(b"\0")):
            pids.add(int(d.name))
    return pids


def _settle(sshd, before: set[int]) -> None:
    """Return once no server process of this test's (cut) sessions is left: none can still write."""
    wait_for(lambda: not (_server_processes(sshd) - before), 60, "the cut sessions' server processes to end")


def _run(connect, local, remote, direction, *, reconnect=False, **kw):
    return SyncEngine(
        connect, local, str(remote), SyncOptions(direction=direction, reconnect=reconnect, **kw)
    ).run()


def _clean_run(sshd, local, remote, direction):
    """A run on a direct connection, as the app makes it (reconnecting after a drop). No fault is
    injected here, yet loaded suite runs saw such a connection end (2 in 5 full runs, never in
    isolation). The one drop whose sshd log we caught was sshd refusing an EOF sent after our
    CLOSE, a race now closed in app.remote.fastssh (tests/remote/test_fastssh.py makes it happen
    every time); should a drop recur, it is a warning carrying what sshd logged, and the
    convergence below is still required."""
    mark = len(sshd.log_text())
    r = _run(plain_connect(sshd), local, remote, direction, reconnect=True)
    if r.attempts > 1:
        warnings.warn(
            f"the clean {direction} re-run needed {r.attempts} connections; sshd logged:\n"
            + sshd.log_text()[mark:][-6000:],
            stacklevel=2,
        )
    return r


@pytest.mark.parametrize(("direction", "small_via_tar"), [(UP, False), (UP, True), (DOWN, False)])
def test_random_cuts_converge_and_never_leave_partial_files(
    sshd, relay, tmp_path, direction, small_via_tar, monkeypatch
):
    if small_via_tar:
        monkeypatch.setattr(sync_mod, "TAR_MIN_FILES", 2)  # every small-file batch as a tar stream
    if direction == DOWN:
        monkeypatch.setattr(sync_mod, "SPLIT_MIN", 256 * 1024)  # big files as parallel byte ranges
    rnd = random.Random(4 if direction == UP else 5)
    remote = sshd.remote_dir(f"faults-{direction}-{small_via_tar}")
    src = tmp_path / "src" if direction == UP else remote
    dest = remote if direction == UP else tmp_path / "dest"
    local = src if direction == UP else dest
    _mixed_tree(src, rnd)
    if direction == DOWN:
        sshd.chown_to_user(remote)
    via_relay = plain_connect(sshd, "127.0.0.1", relay.port)
    before = _server_processes(sshd)  # sessions of earlier tests, if any, cannot touch these folders
    allowed: dict[str, set[str]] = {k: {v} for k, v in tree_hashes(src).items()}
    cuts = 0
    lost = 0
    steps = 14 if direction == UP else 8
    for step in range(steps):
        _mutate(src, rnd, step)
        if direction == DOWN:
            sshd.chown_to_user(remote)
        for k, v in tree_hashes(src).items():
            allowed.setdefault(k, set()).add(v)
        # two cuts per step: one early (listing / handshake / first files), one anywhere
        for budget in (rnd.randint(2_000, 40_000), rnd.randint(40_000, 330_000)):
            relay.arm(budget)
            cuts += 1
            try:
                _run(via_relay, local, remote, direction)
            except ConnectionLostError:
                lost += 1
            _assert_no_partial_final(dest, allowed)
    assert lost >= (20 if direction == UP else 10), (lost, cuts)  # syncs really interrupted
    # A server process of a cut session may still run requests it had received (e.g. tar writing
    # its last temporary files); they never touch final names, but let them end before comparing.
    _settle(sshd, before)
    # re-run without faults: identical trees (our temporary files aside, see below)
    r = _clean_run(sshd, local, remote, direction)
    assert r.conflicts == 0
    assert tree_hashes(dest, skip_parts=True) == tree_hashes(src, skip_parts=True)
    # a temporary file written late by a cut session's server process is removed by the next run
    _settle(sshd, before)
    r = _clean_run(sshd, local, remote, direction)
    assert r.files == 0
    assert part_files(dest) == []
    assert tree_hashes(dest) == tree_hashes(src)


def test_engine_reconnects_by_itself_and_reports_waiting(sshd, relay, tmp_path):
    rnd = random.Random(9)
    local = tmp_path / "src"
    _mixed_tree(local, rnd)
    remote = sshd.remote_dir("faults-reconnect")
    states: list[str] = []
    connects = []

    base = plain_connect(sshd, "127.0.0.1", relay.port)

    def connect():
        connects.append(1)
        if len(connects) <= 2:
            relay.arm(200_000 * len(connects))  # the first two connections are cut mid-transfer
        return base()

    def progress(p: SyncProgress) -> None:
        if not states or states[-1] != p.state:
            states.append(p.state)

    r = SyncEngine(connect, local, str(remote), SyncOptions(), progress=progress).run()
    # (a failure says whether the relay cut more than armed or something else dropped a connection)
    assert (r.attempts, relay.cuts, len(connects)) == (3, 2, 3)
    assert "waiting" in states
    assert states[-1] == "done"
    assert tree_hashes(remote) == tree_hashes(local)
    assert part_files(remote) == []
    assert hashlib.sha256((remote / "top.txt").read_bytes()).hexdigest() == hashlib.sha256(b"top").hexdigest()


def test_vpn_down_while_connecting_waits_and_resumes(sshd, tmp_path, monkeypatch):
    """connect() of a "via VPN" host raises while the tunnel is down: the sync waits and goes on."""
    from app.core.errors import LabGpuError

    monkeypatch.setattr(sync_mod, "BACKOFF", (0.05, 0.1))
    local = tmp_path / "src"
    write_tree(local, {"a.txt": b"a", "b/c.txt": b"c"})
    remote = sshd.remote_dir("faults-vpn")
    base = plain_connect(sshd)
    calls = []

    def connect():
        calls.append(1)
        if len(calls) <= 2:
            raise LabGpuError("The VPN {profile} is down.", "", code="VpnDown", profile="lab")
        return base()

    states = []
    r = SyncEngine(
        connect, local, str(remote), SyncOptions(), progress=lambda p: states.append((p.state, p.message))
    ).run()
    assert r.attempts == 3
    assert ("waiting", "The VPN lab is down.") in states
    assert tree_hashes(remote) == tree_hashes(local)

    def refused():
        raise LabGpuError("Login failed.", "", code="AuthFailed")

    with pytest.raises(LabGpuError) as ei:
        SyncEngine(refused, local, str(remote), SyncOptions()).run()
    assert ei.value.code == "AuthFailed"  # not retried


def test_cuts_while_new_folders_are_staged_never_show_half_a_folder(sshd, relay, tmp_path, monkeypatch):
    """New folders of small files are unpacked into staging folders and renamed into place whole: a cut
    at any point leaves each final folder absent or with complete files only, and the next run puts the
    tree in place with no staging folder left."""
    staged: list[int] = []
    leaf = sync_mod._leaf_folders_with_files
    monkeypatch.setattr(sync_mod, "_leaf_folders_with_files", lambda plan: staged.append(1) or leaf(plan))
    local = tmp_path / "src"
    write_tree(local, {f"s/{i // 50}/f{i}.txt": os.urandom(3000) for i in range(400)})
    remote = sshd.remote_dir("faults-staged")
    allowed = {k: {v} for k, v in tree_hashes(local).items()}
    via_relay = plain_connect(sshd, "127.0.0.1", relay.port)
    before = _server_processes(sshd)
    lost = 0
    for budget in (150_000, 450_000, 900_000, 1_150_000):
        relay.arm(budget)
        try:
            _run(via_relay, local, remote, UP)
        except ConnectionLostError:
            lost += 1
        _assert_no_partial_final(remote, allowed)
    assert lost >= 2 and staged, (lost, staged)
    _settle(sshd, before)
    _clean_run(sshd, local, remote, UP)
    assert tree_hashes(remote, skip_parts=True) == tree_hashes(local)
    # what a cut session's server process wrote late (temporary names only) goes with the next run
    _settle(sshd, before)
    assert _clean_run(sshd, local, remote, UP).files == 0
    assert part_files(remote) == []  # no staging folder and no temporary file left
    assert tree_hashes(remote) == tree_hashes(local)
