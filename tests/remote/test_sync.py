"""The sync engine against the real OpenSSH sshd (internal-sftp): behaviour users rely on."""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from app.core.syncplan import part_name
from app.remote.sync import (
    DOWN,
    UP,
    DiskFullError,
    RemoteShell,
    SyncCancelledError,
    SyncEngine,
    SyncOptions,
    SyncPair,
    SyncStore,
)
from app.usecases.sync import run_sync
from tests.fixtures.waits import wait_for
from tests.remote.sync_support import part_files, plain_connect, tree_hashes, write_tree

T0 = 1_700_000_000.0


def sync(sshd, local, remote, **kw):
    progress = kw.pop("progress", None)
    return SyncEngine(plain_connect(sshd), local, str(remote), SyncOptions(**kw), progress=progress).run()


def _matching_prefix(path: Path, data: bytes, want: int) -> bool:
    """True once the first ``want`` bytes of ``path`` are ``data``'s (random data: no accident)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(want) == data[:want]
    except OSError:
        return False


def _run_in_thread(eng: SyncEngine) -> tuple[threading.Thread, dict]:
    box: dict = {}

    def target() -> None:
        try:
            box["result"] = eng.run()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    th = threading.Thread(target=target, name="sync-under-test")
    th.start()
    return th, box


@pytest.fixture
def remote(sshd, request):
    return sshd.remote_dir(f"sync-{request.node.name}"[:80])


def test_upload_incremental_mtime_and_download_roundtrip(sshd, remote, tmp_path):
    local = tmp_path / "src"
    files = {f"d{i % 3}/f{i}.bin": os.urandom(1000 + i) for i in range(30)}
    files["big.bin"] = os.urandom(3 * 1024 * 1024 + 17)
    files["empty"] = b""
    write_tree(local, files, mtime=T0)
    events = []
    r1 = sync(sshd, local, remote, progress=events.append)
    assert (r1.files, r1.bytes) == (32, sum(len(v) for v in files.values()))
    assert tree_hashes(remote) == tree_hashes(local)
    assert os.stat(remote / "big.bin").st_mtime == T0  # mtime preserved
    assert part_files(remote) == []
    done = [e for e in events if e.state == "transferring"]
    assert done
    assert events[-1].state == "done"
    assert max(e.bytes_done for e in events) == r1.bytes
    assert all(e.files_total == 32 for e in done)
    # nothing changed: nothing moves
    r2 = sync(sshd, local, remote)
    assert (r2.files, r2.bytes, r2.skipped) == (0, 0, 32)
    # one file changes: only it moves
    (local / "d0/f0.bin").write_bytes(b"changed")
    os.utime(local / "d0/f0.bin", (T0 + 10, T0 + 10))
    r3 = sync(sshd, local, remote)
    assert (r3.files, r3.bytes) == (1, 7)
    # and back down into an empty folder
    down = tmp_path / "down"
    r4 = sync(sshd, down, remote, direction=DOWN)
    assert r4.files == 32
    assert tree_hashes(down) == tree_hashes(local)
    assert os.stat(down / "d1/f1.bin").st_mtime == T0
    assert sync(sshd, down, remote, direction=DOWN).files == 0


def test_verify_finds_same_size_same_mtime_difference(sshd, remote, tmp_path):
    local = tmp_path / "src"
    write_tree(local, {"a.txt": b"hello world", "b.txt": b"same"}, mtime=T0)
    sync(sshd, local, remote)
    (remote / "a.txt").write_bytes(b"HELLO WORLD")  # same size, mtime reset: quick check is fooled
    os.utime(remote / "a.txt", (T0, T0))
    assert sync(sshd, local, remote).files == 0
    r = sync(sshd, local, remote, verify=True)
    assert r.files == 1
    assert r.verified == 1
    assert (remote / "a.txt").read_bytes() == b"hello world"


def test_excludes_defaults_and_gitignore(sshd, remote, tmp_path):
    local = tmp_path / "src"
    write_tree(
        local,
        {
            ".git/HEAD": b"ref",
            "pkg/__pycache__/m.pyc": b"x",
            "nb/.ipynb_checkpoints/a.ipynb": b"x",
            "train.py": b"print(1)",
            "runs/big.ckpt": b"c" * 100,
            "logs/a.log": b"l",
            "logs/keep.log": b"k",
            ".gitignore": b"runs/\n*.log\n!keep.log\n",
            "sub/.gitignore": b"*.tmp\n",
            "sub/x.tmp": b"t",
            "sub/y.txt": b"y",
        },
    )
    r = sync(sshd, local, remote, excludes=["*.pyc"], gitignore=True)
    got = set(tree_hashes(remote))
    assert got == {"train.py", "logs/keep.log", ".gitignore", "sub/.gitignore", "sub/y.txt"}
    assert r.excluded >= 5
    # without --gitignore the .gitignore rules do not apply, defaults still do
    remote2 = sshd.remote_dir("sync-excl-2")
    sync(sshd, local, remote2)
    got2 = set(tree_hashes(remote2))
    assert "runs/big.ckpt" in got2
    assert not any(p.startswith((".git/", "pkg/__pycache__", "nb/.ipynb")) for p in got2)


def test_download_honours_remote_gitignore(sshd, remote, tmp_path):
    write_tree(remote, {".gitignore": b"*.ckpt\n", "model.ckpt": b"big", "cfg.yaml": b"a: 1"})
    sshd.chown_to_user(remote)
    down = tmp_path / "down"
    sync(sshd, down, remote, direction=DOWN, gitignore=True)
    assert set(tree_hashes(down)) == {".gitignore", "cfg.yaml"}


def test_dry_run_changes_nothing_then_mirror_delete(sshd, remote, tmp_path):
    local = tmp_path / "src"
    write_tree(local, {"keep.txt": b"k"}, mtime=T0)
    write_tree(remote, {"keep.txt": b"k", "stale.txt": b"s", "old/x.bin": b"x"}, mtime=T0)
    sshd.chown_to_user(remote)
    before = tree_hashes(remote)
    dry = sync(sshd, local, remote, delete=True, dry_run=True)
    assert tree_hashes(remote) == before
    assert sorted(i.path for i in dry.plan.deletions) == ["old", "old/x.bin", "stale.txt"]
    assert dry.deleted == 3
    # without --delete nothing is removed
    assert sync(sshd, local, remote).deleted == 0
    assert (remote / "stale.txt").exists()
    r = sync(sshd, local, remote, delete=True)
    assert r.deleted == 3
    assert sorted(p.name for p in remote.iterdir()) == ["keep.txt"]


def test_newer_destination_is_kept_unless_forced(sshd, remote, tmp_path):
    local = tmp_path / "src"
    write_tree(local, {"notes.md": b"old local"}, mtime=T0)
    write_tree(remote, {"notes.md": b"edited on the server"}, mtime=T0 + 3600)
    sshd.chown_to_user(remote)
    r = sync(sshd, local, remote)
    assert (r.files, r.conflicts, r.conflict_paths) == (0, 1, ["notes.md"])
    assert (remote / "notes.md").read_bytes() == b"edited on the server"
    r2 = sync(sshd, local, remote, force=True)
    assert r2.files == 1
    assert (remote / "notes.md").read_bytes() == b"old local"


@pytest.mark.parametrize("good_prefix", [True, False])
def test_resume_from_partial_upload(sshd, remote, tmp_path, good_prefix):
    local = tmp_path / "src"
    data = os.urandom(2 * 1024 * 1024)
    write_tree(local, {"model.pt": data}, mtime=T0)
    part = remote / part_name("model.pt")
    prefix = data[: 1024 * 1024] if good_prefix else b"\0" * (1024 * 1024)
    part.write_bytes(prefix)
    sshd.chown_to_user(part)
    r = sync(sshd, local, remote)
    assert r.files == 1
    assert r.bytes == (len(data) - len(prefix) if good_prefix else len(data))
    assert (remote / "model.pt").read_bytes() == data
    assert part_files(remote) == []


def test_resume_from_partial_download(sshd, remote, tmp_path):
    data = os.urandom(1536 * 1024)
    write_tree(remote, {"ckpt.bin": data}, mtime=T0)
    down = tmp_path / "down"
    down.mkdir()
    (down / part_name("ckpt.bin")).write_bytes(data[:500_000])
    r = sync(sshd, down, remote, direction=DOWN)
    assert r.bytes == len(data) - 500_000
    assert (down / "ckpt.bin").read_bytes() == data
    assert part_files(down) == []


def test_cancel_leaves_no_partial_under_final_name_then_resumes(sshd, gated_sshd, remote, tmp_path):
    """Cancel while an upload is in flight (held by the test's SFTP gate after 2 MiB), then resume."""
    local = tmp_path / "src"
    data = os.urandom(8 * 1024 * 1024)
    write_tree(local, {"a/huge.bin": data, "small.txt": b"s"}, mtime=T0)
    gated_sshd.gate.hold(in_bytes=2 * 1024 * 1024)
    eng = SyncEngine(plain_connect(gated_sshd), local, str(remote), SyncOptions())
    th, box = _run_in_thread(eng)
    temps = lambda: sorted((remote / "a").glob(".huge.bin.*.labgpu-part"))  # noqa: E731
    try:
        gated_sshd.gate.wait_stalled(1)
        wait_for(lambda: temps() and temps()[0].stat().st_size >= 1024 * 1024, 60, "1 MiB on the server")
        eng.cancel()
        th.join(60)
        assert not th.is_alive()
    finally:
        eng.cancel()
        gated_sshd.gate.open()
        th.join(60)
    assert isinstance(box.get("error"), SyncCancelledError), box
    gated_sshd.cut_sessions()  # no server process of the cancelled run writes after this
    assert not (remote / "a/huge.bin").exists()
    [part] = temps()
    kept = part.stat().st_size
    assert 1024 * 1024 <= kept < len(data)
    # small.txt went on its own channel: done, or its temporary file kept 0 or 1 byte to resume from
    small_parts = sorted(remote.glob(".small.txt.*.labgpu-part"))
    small_left = 0 if (remote / "small.txt").exists() else 1 - max((p.stat().st_size for p in small_parts), default=0)
    r = sync(sshd, local, remote)
    assert (remote / "a/huge.bin").read_bytes() == data
    assert r.bytes == len(data) - kept + small_left  # resumed, never duplicated
    assert part_files(remote) == []


class _FakeClock:
    """``time`` for app.remote.sync: monotonic() moves only when the engine waits (see below)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.lock = threading.Lock()
        self.time = time.time

    def monotonic(self) -> float:
        with self.lock:
            return self.now


class _ClockedCancelEvent(threading.Event):
    """The engine's cancel event: a timed wait (the bandwidth limiter's pause) advances the fake
    clock by its timeout at once instead of sleeping."""

    def __init__(self, clock: _FakeClock) -> None:
        super().__init__()
        self.clock = clock

    def wait(self, timeout: float | None = None) -> bool:
        if timeout and not self.is_set():
            with self.clock.lock:
                self.clock.now += timeout
        return self.is_set()


def test_bandwidth_limit(sshd, remote, tmp_path, monkeypatch):
    import app.remote.sync.progress as sync_mod

    clock = _FakeClock()
    monkeypatch.setattr(sync_mod, "time", clock)
    local = tmp_path / "src"
    data = os.urandom(1024 * 1024)
    write_tree(local, {"x.bin": data})
    t0 = clock.monotonic()
    eng = SyncEngine(
        plain_connect(sshd),
        local,
        str(remote),
        SyncOptions(bwlimit_kbps=2048),
        cancel_event=_ClockedCancelEvent(clock),
    )
    r = eng.run()
    assert r.bytes == len(data)
    assert (remote / "x.bin").read_bytes() == data
    # every byte waited for its share of the limit: 1 MiB at 2 MiB/s is half a second (fake clock)
    assert clock.monotonic() - t0 == pytest.approx(0.5, abs=1e-6)


def _make_hostile_tree(root: Path) -> None:
    """Names a malicious or just odd server can return (created server-side with raw bytes)."""
    broot = os.fsencode(root)
    for raw in (
        b"back\\slash",
        b"..\\..\\evil.txt",
        b"new\nline.txt",
        b"caf\xe9.txt",
        b"...",
        b"..hidden",
        b"ok.txt",
    ):
        with open(broot + b"/" + raw, "wb") as fh:
            fh.write(b"data:" + raw)
    os.mkdir(broot + b"/dir\\x")
    with open(broot + b"/dir\\x/inner", "wb") as fh:
        fh.write(b"inner")
    os.mkdir(broot + b"/d\xff")
    with open(broot + b"/d\xff/f", "wb") as fh:
        fh.write(b"f")
    os.symlink("/etc", root / "etc-link")
    os.symlink("/etc/passwd", root / "passwd-link")


def test_hostile_remote_names_download(sshd, remote, tmp_path):
    _make_hostile_tree(remote)
    sshd.chown_to_user(remote)
    down = tmp_path / "down"
    outside = tmp_path / "evil.txt"
    r = sync(sshd, down, remote, direction=DOWN)
    got = {os.fsencode(p.relative_to(down)) for p in down.rglob("*") if p.is_file()}
    assert got == {b"new\nline.txt", b"caf\xe9.txt", b"...", b"..hidden", b"ok.txt", b"d\xff/f"}
    assert (down / os.fsdecode(b"caf\xe9.txt")).read_bytes() == b"data:caf\xe9.txt"
    assert {p for p in r.refused_paths} >= {
        "back\\slash",
        "..\\..\\evil.txt",
        "dir\\x",
        "etc-link",
        "passwd-link",
    }
    assert not outside.exists()
    assert not any(p.is_symlink() for p in down.rglob("*"))


def test_bytes_level_sftp_listing_matches_find(sshd, remote):
    _make_hostile_tree(remote)
    sshd.chown_to_user(remote)
    conn = plain_connect(sshd)()
    try:
        eng = SyncEngine(lambda: conn, ".", str(remote))
        via_find, exists = eng.lister.list_remote(RemoteShell(conn.transport), conn.transport)
        via_sftp = eng.lister.list_remote_sftp(conn.transport)
    finally:
        conn.close()
    assert exists
    # the SFTP walk does not even descend into a folder whose name is unsafe ("dir\\x")
    assert {k: (v.kind, v.size, int(v.mtime)) for k, v in via_find.items() if k != "dir\\x/inner"} == {
        k: (v.kind, v.size, int(v.mtime)) for k, v in via_sftp.items()
    }
    assert os.fsdecode(b"d\xff/f") in via_sftp


def test_symlinks_not_followed_on_upload_and_local_escape_refused(sshd, remote, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("s")
    local = tmp_path / "src"
    write_tree(local, {"real.txt": b"r"})
    os.symlink(outside, local / "linkdir")
    os.symlink(outside / "secret", local / "linkfile")
    r = sync(sshd, local, remote)
    assert set(tree_hashes(remote)) == {"real.txt"}
    assert not (remote / "linkdir").exists()
    assert sorted(r.refused_paths) == ["linkdir", "linkfile"]
    # download: a local folder that is a symlink pointing outside must not be written through
    write_tree(remote, {"linkdir/planted": b"p"})
    sshd.chown_to_user(remote)
    r2 = sync(sshd, local, remote, direction=DOWN)
    assert not (outside / "planted").exists()
    assert "linkdir" in r2.conflict_paths


@pytest.fixture
def tiny_remote_disk(sshd):
    mnt = sshd.remote_root / "tiny-disk"
    mnt.mkdir(exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], check=True)
    try:
        sshd.chown_to_user(mnt)
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)
        mnt.rmdir()


def test_full_remote_disk_is_checked_first(sshd, tiny_remote_disk, tmp_path):
    local = tmp_path / "src"
    write_tree(local, {"big.bin": os.urandom(2 * 1024 * 1024)})
    with pytest.raises(DiskFullError) as ei:
        sync(sshd, local, tiny_remote_disk)
    assert ei.value.code == "RemoteDiskFull"
    assert "server" in ei.value.text()
    assert list(tiny_remote_disk.iterdir()) == []


def test_full_remote_disk_during_write_removes_temp(sshd, tiny_remote_disk, tmp_path):
    local = tmp_path / "src"
    write_tree(local, {"big.bin": os.urandom(2 * 1024 * 1024), "a.txt": b"a"})
    with pytest.raises(DiskFullError):
        sync(sshd, local, tiny_remote_disk, check_space=False)
    names = [p.name for p in tiny_remote_disk.iterdir()]
    assert "big.bin" not in names
    assert not any(n.endswith(".labgpu-part") and "big" in n for n in names)


def test_full_local_disk_on_download(sshd, remote, tmp_path):
    write_tree(remote, {"big.bin": os.urandom(2 * 1024 * 1024)})
    mnt = tmp_path / "tiny-local"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], check=True)
    try:
        with pytest.raises(DiskFullError) as ei:
            sync(sshd, mnt, remote, direction=DOWN)
        assert ei.value.code == "LocalDiskFull"
        with pytest.raises(DiskFullError):
            sync(sshd, mnt, remote, direction=DOWN, check_space=False)
        assert list(mnt.iterdir()) == []
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_pairs_and_history_survive_in_the_store(sshd, remote, tmp_path):
    store = SyncStore()
    pair = store.save(
        SyncPair(
            host="h1",
            local_path=str(tmp_path / "src"),
            remote_path=str(remote),
            excludes=["*.tmp"],
            verify=True,
        )
    )
    write_tree(tmp_path / "src", {"x": b"1"})
    run_sync(
        "h1",
        pair.local_path,
        pair.remote_path,
        pair.options(),
        store=store,
        pair_id=pair.id,
        connect=plain_connect(sshd),
    )
    with pytest.raises(Exception):  # noqa: B017 - any SyncError: the local folder is gone
        run_sync(
            "h1",
            str(tmp_path / "nope"),
            pair.remote_path,
            pair.options(),
            store=store,
            pair_id=pair.id,
            connect=plain_connect(sshd),
        )
    again = SyncStore()
    assert again.pairs()[0].excludes == ["*.tmp"]
    runs = again.runs(pair.id)
    assert [r.result for r in runs] == ["error", "ok"]
    assert runs[1].files == 1
    assert runs[1].direction == UP
    pair.direction = DOWN
    again.save(pair)
    assert again.get(pair.id).direction == DOWN
    again.remove(pair.id)
    assert again.pairs() == []


def test_sha256_helper_matches_hashlib(sshd, remote):
    write_tree(remote, {"a b'c.txt": b"quoted name", "n\nl": b"newline"})
    conn = plain_connect(sshd)()
    try:
        eng = SyncEngine(lambda: conn, ".", str(remote))
        sums = eng.remote_sha256(RemoteShell(conn.transport), ["a b'c.txt", "n\nl", "missing"])
    finally:
        conn.close()
    assert sums == {
        "a b'c.txt": hashlib.sha256(b"quoted name").hexdigest(),
        "n\nl": hashlib.sha256(b"newline").hexdigest(),
    }


def _many_small(root: Path, n: int, size: int = 3000) -> None:
    write_tree(root, {f"s/{i // 50}/f{i}.txt": os.urandom(size) for i in range(n)}, mtime=T0)


def test_many_small_files_go_as_tar_stream_and_keep_mtime(sshd, remote, tmp_path):
    local = tmp_path / "src"
    _many_small(local, 300)
    write_tree(local, {os.fsdecode(b"odd \xe9 name.txt"): b"x" * 10, "s/0/it's $(x).txt": b"q"}, mtime=T0)
    eng = SyncEngine(plain_connect(sshd), local, str(remote), SyncOptions())
    r = eng.run()
    assert eng.attempt.tar_ok is True
    assert r.files == 302
    assert tree_hashes(remote) == tree_hashes(local)
    assert os.stat(remote / "s/3/f150.txt").st_mtime == T0
    assert part_files(remote) == []
    assert sync(sshd, local, remote).files == 0


def test_each_tar_stream_makes_the_new_folders_of_its_own_files_first(sshd, remote, tmp_path, monkeypatch):
    """Two tar streams run side by side and only the first carried the new folders: the other one's
    tar then raced it creating the same folder and failed ("tar: sub/….labgpu-part: Cannot open: No
    such file or directory", seen once in a loaded suite run). Now every stream holds a folder entry
    for each new parent of its files, ahead of them, so no stream depends on another's progress.
    The streams' bytes are read back with Python's tarfile."""
    import io
    import tarfile
    import threading

    from app.remote.sync import tarstream

    local = tmp_path / "src"
    write_tree(local, {**{f"a/{i:02d}.txt": b"a" * i for i in range(40)},
                       **{f"z/deep/{i:02d}.txt": b"z" * i for i in range(40)}}, mtime=T0)
    streams: dict[int, bytearray] = {}
    lock = threading.Lock()
    original_write = tarstream._ChannelWriter.write

    def write(self, data):
        with lock:
            streams.setdefault(id(self), bytearray()).extend(data)
        return original_write(self, data)

    monkeypatch.setattr(tarstream._ChannelWriter, "write", write)
    eng = SyncEngine(plain_connect(sshd), local, str(remote), SyncOptions(channels=4))
    r = eng.run()
    assert eng.attempt.tar_ok is True
    assert r.files == 80
    assert tree_hashes(remote) == tree_hashes(local)
    assert part_files(remote) == []
    assert len(streams) == 2
    for data in streams.values():
        seen_dirs: set[str] = set()
        files = 0
        with tarfile.open(fileobj=io.BytesIO(bytes(data)), mode="r|") as tar:
            for m in tar:
                if m.isdir():
                    seen_dirs.add(m.name.rstrip("/"))
                    continue
                files += 1
                parts = m.name.split("/")[:-1]
                for k in range(len(parts)):
                    assert "/".join(parts[: k + 1]) in seen_dirs, (m.name, sorted(seen_dirs))
        assert files > 0


def test_a_new_folder_of_small_files_goes_into_place_whole(sshd, remote, tmp_path, monkeypatch):
    """10,000 small files into new folders took one SFTP rename each after the tar stream (~0.2 s of a
    ~0.6 s upload on tmpfs, the gap to rsync). A new folder that gets only files is unpacked beside its
    place and renamed into place whole; the tree arrives the same, with no temporary name left."""
    from app.remote.sync import sftp as sftp_mod

    local = tmp_path / "src"
    _many_small(local, 400)  # s/0 … s/7, 50 files each: new folders with files only
    write_tree(local, {"top.txt": b"top", "s/note.txt": b"a file beside the folders"}, mtime=T0)
    renames: list[int] = []
    original = sftp_mod.Channel.send_many

    def send_many(self, requests):
        renames.extend(1 for r in requests if len(r) > 1 and r[1] == "posix-rename@openssh.com")
        return original(self, requests)

    monkeypatch.setattr(sftp_mod.Channel, "send_many", send_many)
    eng = SyncEngine(plain_connect(sshd), local, str(remote), SyncOptions())
    r = eng.run()
    assert eng.attempt.tar_ok is True
    assert (r.files, r.mkdirs) == (402, 9)
    assert tree_hashes(remote) == tree_hashes(local)
    assert part_files(remote) == []
    assert os.stat(remote / "s/3/f150.txt").st_mtime == T0
    # the two streams split one folder at most: its other half goes in file by file
    assert len(renames) <= 8 + 2 + 50, len(renames)
    assert sync(sshd, local, remote).files == 0


def test_a_staging_folder_a_cut_left_is_removed_and_never_synced(sshd, remote, tmp_path):
    """A cut during the upload of a new folder leaves its staging folder (.NAME.<token>.labgpu-part/)
    on the server: the next upload removes it, and a download never brings it down as data."""
    local = tmp_path / "src"
    _many_small(local, 100)
    leftover = {".s.0123abcd.labgpu-part/0/f1.txt": b"half", "s2/.9.89abcdef.labgpu-part/f9.txt": b"h"}
    write_tree(remote, leftover, mtime=T0)
    sshd.chown_to_user(remote)  # as the cut login left them
    r = sync(sshd, local, remote)
    assert r.files == 100
    assert tree_hashes(remote) == tree_hashes(local)  # the leftovers are gone, nothing else came
    assert sorted(p.name for p in remote.iterdir()) == ["s", "s2"]  # s2 was there before: kept (no mirror)
    write_tree(remote, leftover, mtime=T0)
    sshd.chown_to_user(remote)
    down = tmp_path / "down"
    r = sync(sshd, down, remote, direction=DOWN)
    assert r.files == 100
    assert tree_hashes(down) == tree_hashes(local)


def test_without_remote_tar_small_files_fall_back_to_sftp(extra_sshd, tmp_path):
    extra_sshd.install_executable("tar", "#!/bin/sh\necho 'tar: not found' >&2\nexit 127\n")
    remote = extra_sshd.remote_dir("notar")
    local = tmp_path / "src"
    _many_small(local, 120)
    eng = SyncEngine(plain_connect(extra_sshd), local, str(remote), SyncOptions())
    r = eng.run()
    assert eng.attempt.tar_ok is False
    assert r.files == 120
    assert tree_hashes(remote) == tree_hashes(local)
    assert part_files(remote) == []


def test_full_remote_disk_during_tar_stream_removes_temps(sshd, tiny_remote_disk, tmp_path):
    local = tmp_path / "src"
    _many_small(local, 400, size=4096)  # 1.6 MB into a 1 MB disk
    with pytest.raises(DiskFullError):
        sync(sshd, local, tiny_remote_disk, check_space=False)
    assert part_files(tiny_remote_disk) == []  # the failed stream's temporary files are gone
    src = tree_hashes(local)
    got = tree_hashes(tiny_remote_disk)
    assert len(got) < len(src)
    assert all(src[k] == v for k, v in got.items())  # what did land is complete (other streams)


def test_big_download_in_parallel_ranges_and_resume_after_cancel(sshd, gated_sshd, remote, tmp_path, monkeypatch):
    """Cancel while both byte ranges of a big download are in flight: held by the test's SFTP gate
    (each channel stops after 1 MiB of replies), so the transfer cannot finish first."""
    import app.remote.sync.engine as sync_mod

    monkeypatch.setattr(sync_mod, "SPLIT_MIN", 1024 * 1024)
    data = os.urandom(6 * 1024 * 1024 + 123)
    write_tree(remote, {"w.bin": data, "x.bin": data[:2_000_000]}, mtime=T0)
    down = tmp_path / "down"
    gated_sshd.gate.hold(out_bytes=1024 * 1024)
    # two channels: the two ranges of w.bin go first (largest first), x.bin's wait in the queue
    eng = SyncEngine(plain_connect(gated_sshd), down, str(remote), SyncOptions(direction=DOWN, channels=2))
    th, box = _run_in_thread(eng)
    try:
        held = gated_sshd.gate.wait_stalled(2)
        assert [d for d, _n in held] == ["out", "out"]
        # the first range's worker has written its first 512 KiB (it got 1 MiB before the gate)
        temps = lambda: sorted(down.glob(".w.bin.*.labgpu-part"))  # noqa: E731
        wait_for(lambda: temps() and _matching_prefix(temps()[0], data, 512 * 1024), 60, "w.bin's first range")
        eng.cancel()  # what the Cancel button and Ctrl+C do
        th.join(60)
        assert not th.is_alive()
    finally:
        eng.cancel()
        gated_sshd.gate.open()
        th.join(60)
    assert isinstance(box.get("error"), SyncCancelledError), box
    gated_sshd.cut_sessions()  # nothing of the cancelled run writes after this
    assert not (down / "w.bin").exists()
    assert not (down / "x.bin").exists()
    parts = {p.name.split(".")[1]: p for p in down.glob(".*.labgpu-part")}
    assert set(parts) == {"w", "x"}  # cut back to the complete prefix, kept for resuming
    kept, kept_x = parts["w"].stat().st_size, parts["x"].stat().st_size
    assert 512 * 1024 <= kept < len(data)
    assert parts["w"].read_bytes() == data[:kept]
    r = sync(sshd, down, remote, direction=DOWN, verify=True)
    assert (down / "w.bin").read_bytes() == data
    assert (down / "x.bin").read_bytes() == data[:2_000_000]
    assert os.stat(down / "w.bin").st_mtime == T0
    assert r.bytes == len(data) - kept + 2_000_000 - kept_x  # the kept prefix was resumed
    assert part_files(down) == []


def test_mirror_refuses_to_delete_when_source_folder_is_unreadable(sshd, remote, tmp_path):
    write_tree(remote, {"ok.txt": b"1", "locked/data.bin": b"precious"}, mtime=T0)
    sshd.chown_to_user(remote)
    down = tmp_path / "down"
    sync(sshd, down, remote, direction=DOWN)
    assert (down / "locked/data.bin").exists()
    (remote / "locked").chmod(0)  # the server user can no longer list it: it would look empty
    try:
        from app.remote.sync import SyncError

        with pytest.raises(SyncError) as ei:
            sync(sshd, down, remote, direction=DOWN, delete=True)
        assert ei.value.code == "ListingIncomplete"
        assert (down / "locked/data.bin").read_bytes() == b"precious"
        sync(sshd, down, remote, direction=DOWN)  # without --delete it still syncs what it can see
    finally:
        (remote / "locked").chmod(0o755)
