"""Hostile remote folder names: ``labgpu sync LOCAL 'box:-delete' --dry-run`` once
ran ``find -delete`` on the remote home. Against the real sshd (an account of its own,
tests/fixtures/server_kinds.py), up, down, dry run and mirror: the whole remote home is
snapshotted before and after, and nothing outside the intended folder may change, ever."""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.errors import LabGpuError
from app.core.syncplan import RemotePathError, remote_join, remote_target
from app.remote.sync import (
    DOWN,
    Channel,
    DryRunWriteError,
    ReadCmd,
    RemoteShell,
    SyncEngine,
    SyncOptions,
    quote_path,
)
from tests.remote.sync_support import tree_hashes, write_tree

T0 = 1_700_000_000.0
KIND = "own-home"  # a home no test of another file writes in (see server_kinds.py)
HOSTILE = ["-delete", "--help", "-exec", "-rf", "-", "a\nb", "*", "-delete/-exec rm {} +", "sub/-x", "~/-delete"]
REFUSED = ["..", "../x", "a/../../b", "~/..", "x\x00y"]


def snapshot(root: Path) -> dict[str, tuple]:
    """Every entry below ``root`` (dotfiles included): kind, size, content hash, mode."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            rel = p.relative_to(root).as_posix()
            if p.is_symlink():
                out[rel] = ("l", os.readlink(p))
            elif p.is_dir():
                out[rel] = ("d", st.st_mode)
            else:
                out[rel] = ("f", st.st_size, hashlib.sha256(p.read_bytes()).hexdigest(), st.st_mode, st.st_mtime)
    return out


def _intended(home: Path, text: str) -> Path:
    return home / remote_target(text)[2:] if remote_target(text) != "." else home


@pytest.fixture
def home(server_kinds):
    h = server_kinds.home(KIND)
    # the home holds things a wrong command would destroy
    write_tree(h, {".bashrc": b"# plain\n", ".ssh/keep": b"k", "work/notes.txt": b"important"}, mtime=T0)
    server_kinds.chown_kind(KIND, h)
    return h


def _engine(server_kinds, local, remote, **kw):
    return SyncEngine(server_kinds.connect(KIND), local, remote, SyncOptions(step_timeout=60, **kw))


def _outside(before: dict, after: dict, intended_rel: str) -> dict:
    def inside(k: str) -> bool:
        return k == intended_rel or k.startswith(intended_rel + "/")

    parts = intended_rel.split("/")
    ancestors = {"/".join(parts[:i]) for i in range(1, len(parts))}  # mkdir -p may create these
    keys = {k for k in set(before) | set(after) if not inside(k)}
    return {
        k: (before.get(k), after.get(k))
        for k in keys
        if before.get(k) != after.get(k)
        and not (k in ancestors and before.get(k) is None and (after.get(k) or ("",))[0] == "d")
    }


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_remote_paths_touch_only_their_own_folder(server_kinds, home, text, tmp_path):
    local = tmp_path / "src"
    files = {"a.txt": b"alpha", "sub/b.bin": os.urandom(3000), **{f"m/{i}.txt": b"x" * i for i in range(70)}}
    write_tree(local, files, mtime=T0)
    intended = _intended(home, text)
    rel = intended.relative_to(home).as_posix()
    if intended.exists():
        shutil.rmtree(intended)
    before = snapshot(home)
    # dry run, up: nothing at all changes (not even the folder is created)
    r = _engine(server_kinds, local, text, dry_run=True).run()
    assert r.files == len(files)
    assert snapshot(home) == before
    # up: only the intended folder appears, holding exactly the files
    r = _engine(server_kinds, local, text).run()
    assert r.files == len(files)
    assert tree_hashes(intended) == tree_hashes(local)
    after_up = snapshot(home)
    assert _outside(before, after_up, rel) == {}
    # mirror (dry run, then real) after removing a local file
    (local / "a.txt").unlink()
    r = _engine(server_kinds, local, text, delete=True, dry_run=True).run()
    assert r.deleted == 1
    assert snapshot(home) == after_up
    r = _engine(server_kinds, local, text, delete=True).run()
    assert r.deleted == 1 and not (intended / "a.txt").exists()
    assert _outside(before, snapshot(home), rel) == {}
    # down (dry run and real) into a fresh local folder
    down = tmp_path / "down"
    r = _engine(server_kinds, down, text, direction=DOWN, dry_run=True).run()
    assert not down.exists()
    r = _engine(server_kinds, down, text, direction=DOWN).run()
    assert tree_hashes(down) == tree_hashes(local)
    assert _outside(before, snapshot(home), rel) == {}
    top = home / rel.split("/")[0]
    shutil.rmtree(top if top not in [home / k for k in before] else intended)
    assert snapshot(home) == before


@pytest.mark.parametrize("text", REFUSED)
def test_paths_going_up_or_with_nul_are_refused_before_connecting(text, tmp_path):
    calls = []
    with pytest.raises(RemotePathError):
        SyncEngine(lambda: calls.append(1), tmp_path, text, SyncOptions(dry_run=True))
    assert calls == []


def test_dry_run_channel_and_shell_refuse_every_writing_call(server_kinds, home):
    conn = server_kinds.connect(KIND)()
    try:
        t = conn.transport
        ch = Channel(t, read_only=True)
        from paramiko.sftp import CMD_MKDIR, CMD_OPEN, CMD_REMOVE, CMD_RMDIR, SFTP_FLAG_CREATE, SFTP_FLAG_WRITE
        from paramiko.sftp_attr import SFTPAttributes

        for req in [
            (CMD_REMOVE, b"./work/notes.txt"),
            (CMD_RMDIR, b"./work"),
            (CMD_MKDIR, b"./new", SFTPAttributes()),
            (CMD_OPEN, b"./work/notes.txt", SFTP_FLAG_WRITE | SFTP_FLAG_CREATE, SFTPAttributes()),
        ]:
            with pytest.raises(DryRunWriteError):
                ch.send(*req)
            with pytest.raises(DryRunWriteError):
                ch.send_many([req])
        with pytest.raises(DryRunWriteError):
            ch.send_write(b"h", 0, b"data")
        with pytest.raises(DryRunWriteError):
            ch.rename(b"./work/notes.txt", b"./x")
        assert ch.stat_kind(b"./work") == "d"  # reading still works
        ch.close()
        shell = RemoteShell(t, read_only=True)
        with pytest.raises(DryRunWriteError):
            shell.run(b"rm -rf -- ./work")
        assert shell.run(ReadCmd(b"cat -- ./work/notes.txt"))[1] == b"important"
    finally:
        conn.close()
    assert (home / "work/notes.txt").read_bytes() == b"important"


def test_dry_run_engine_cannot_reach_writing_steps(tmp_path):
    eng = SyncEngine(lambda: None, tmp_path, "-delete", SyncOptions(dry_run=True))
    from app.core.syncplan import SyncPlan

    for call in (
        lambda: eng.downloader.local_prepare(SyncPlan()),
        lambda: eng._delete(None, SyncPlan(), True),
        lambda: eng._transfer_all(None, None, SyncPlan(), True),
        lambda: eng.uploader.remote_prepare(None, None, SyncPlan(), False),
        lambda: eng._apply(None, None, SyncPlan(), True, True),
    ):
        with pytest.raises(DryRunWriteError):
            call()


# -- property test: thousands of generated remote paths ------------------------------------------

_alphabet = st.sampled_from(list("-./~ *?'\"$`\\;&|\n\t\x00\x01{}()[]!#aZ9_é中") + ["..", "--", "-delete"])


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(_alphabet, max_size=12).map("".join), rel=st.lists(_alphabet, max_size=6).map("".join))
def test_remote_path_handling_property(text, rel):
    try:
        root = remote_target(text)
    except LabGpuError:
        return
    # never an option, never above the target, never a NUL
    assert root == "." or root.startswith(("/", "./"))
    assert "\x00" not in root
    assert ".." not in root.split("/")
    # the quoted argument is exactly one shell word equal to the path, and not an option
    words = shlex.split(quote_path(root).decode("utf-8", "surrogateescape"))
    assert words == [root] and not words[0].startswith("-")
    # joined with a planned name (the planner refuses unsafe names; joining keeps the anchor)
    if rel and ".." not in rel.split("/") and "\x00" not in rel and not rel.startswith("/"):
        joined = remote_join(root, rel)
        assert joined.startswith(("/", "./")) and joined.startswith(root if root != "/" else "/")
        assert shlex.split(quote_path(joined).decode("utf-8", "surrogateescape")) == [joined]
    # the engine accepts it without any other exception
    SyncEngine(lambda: None, "/nonexistent", text, SyncOptions(dry_run=True))
