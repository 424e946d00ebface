"""Downloads tell the truth: a checkpoint rewritten while it is downloaded is
fetched again or reported, never put in place torn; guard and spot pulls verify; modes follow the
local umask; a listing with impossible times is refused with an error. Real OpenSSH sshd peers."""

from __future__ import annotations

import os
import threading

import pytest

from app.remote.sync import DOWN, SyncEngine, SyncError, SyncOptions
from app.usecases.sync import run_sync
from tests.remote.sync_support import part_files, plain_connect, write_tree

T0 = 1_700_000_000.0
MiB = 1024 * 1024


@pytest.fixture
def remote(sshd, request):
    return sshd.remote_dir(f"truth-{request.node.name}"[:80])


def _rewrite(path, data: bytes, mtime: float) -> None:
    """What a training job saving its checkpoint does: the same file written over, in place."""
    with open(path, "r+b") as fh:
        fh.write(data)
        fh.truncate(len(data))
    os.utime(path, (mtime, mtime))


def _run_in_thread(fn):
    box: dict = {}

    def target() -> None:
        try:
            box["result"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    th = threading.Thread(target=target, name="sync-under-test")
    th.start()
    return th, box


def test_checkpoint_rewritten_mid_download_is_fetched_again_not_torn(gated_sshd, tmp_path):
    """The transfer is held by the SFTP gate after 2 MiB of replies; the checkpoint is rewritten;
    then the gate opens. The sync must not put a half-old, half-new file in place."""
    remote = gated_sshd.remote_dir("ckpt")
    old, new = os.urandom(8 * MiB), os.urandom(8 * MiB)
    write_tree(remote, {"ckpt.pt": old}, mtime=T0)
    down = tmp_path / "down"
    gated_sshd.gate.hold(out_bytes=2 * MiB)
    eng = SyncEngine(plain_connect(gated_sshd), down, str(remote), SyncOptions(direction=DOWN))
    th, box = _run_in_thread(eng.run)
    try:
        gated_sshd.gate.wait_stalled(1)
        _rewrite(remote / "ckpt.pt", new, T0 + 60)
    finally:
        gated_sshd.gate.open()
        th.join(120)
    assert not th.is_alive()
    assert "error" not in box, box
    got = (down / "ckpt.pt").read_bytes()
    assert got == new  # fetched once more: the whole new checkpoint, not old[:2 MiB] + new[2 MiB:]
    assert os.stat(down / "ckpt.pt").st_mtime == T0 + 60
    assert box["result"].complete
    assert part_files(down) == []


def test_file_that_changes_on_every_fetch_is_not_put_in_place(sshd, remote, tmp_path, monkeypatch):
    """The file is rewritten during the transfer and again during the one retry (from the
    progress callback, which runs on the worker between READ batches): the sync fails naming it,
    leaves no file under its name, and the other file still lands."""
    import app.remote.sync.progress as progress_mod

    monkeypatch.setattr(progress_mod, "PROGRESS_INTERVAL", 0.0)  # every chunk reaches the callback
    size = 24 * MiB
    write_tree(remote, {"ckpt.pt": os.urandom(size), "notes.txt": b"epoch 3"}, mtime=T0)
    down = tmp_path / "down"
    rewrites: list[int] = []

    def on_progress(p) -> None:
        # first 4 MiB into each fetch of ckpt.pt: rewrite it (new bytes, a later mtime)
        if p.current == "ckpt.pt" and p.bytes_done >= 4 * MiB + len(rewrites) * size and len(rewrites) < 2:
            rewrites.append(p.bytes_done)
            _rewrite(remote / "ckpt.pt", os.urandom(size), T0 + 60 * len(rewrites))

    with pytest.raises(SyncError) as ei:
        SyncEngine(
            plain_connect(sshd), down, str(remote), SyncOptions(direction=DOWN, channels=1), progress=on_progress
        ).run()
    assert len(rewrites) == 2
    assert ei.value.code == "SourceChanged"
    assert "ckpt.pt" in ei.value.text() and "sync again" in ei.value.hint()
    assert not (down / "ckpt.pt").exists()
    assert (down / "notes.txt").read_bytes() == b"epoch 3"
    assert part_files(down) == []


def test_guard_pull_verifies_a_same_size_same_mtime_rewrite(gated_sshd, tmp_path):
    """A rewrite that keeps size and mtime (what size/mtime cannot see) during a guard's pull:
    run_sync(purpose="before-stop") verifies with sha256 on both sides, so nothing torn lands and
    the pull fails (the watcher then says so) although the saved pair does not ask to verify."""
    remote = gated_sshd.remote_dir("guard")
    old, new = os.urandom(8 * MiB), os.urandom(8 * MiB)
    write_tree(remote, {"ckpt.pt": old}, mtime=T0)
    down = tmp_path / "down"
    gated_sshd.gate.hold(out_bytes=2 * MiB)
    th, box = _run_in_thread(
        lambda: run_sync(
            "gpu", down, str(remote), SyncOptions(direction=DOWN), connect=plain_connect(gated_sshd),
            purpose="before-stop",
        )
    )
    try:
        gated_sshd.gate.wait_stalled(1)
        _rewrite(remote / "ckpt.pt", new, T0)
    finally:
        gated_sshd.gate.open()
        th.join(120)
    assert not th.is_alive()
    err = box.get("error")
    assert isinstance(err, SyncError) and err.code == "VerifyFailed", box
    assert not (down / "ckpt.pt").exists()


def test_downloaded_modes_follow_the_local_umask(sshd, remote, tmp_path):
    write_tree(remote, {"run.sh": b"#!/bin/sh\n", "data.bin": b"x"}, mtime=T0)
    os.chmod(remote / "run.sh", 0o777)
    os.chmod(remote / "data.bin", 0o4666)
    down = tmp_path / "down"
    old = os.umask(0o027)
    try:
        SyncEngine(plain_connect(sshd), down, str(remote), SyncOptions(direction=DOWN)).run()
    finally:
        os.umask(old)
    assert os.stat(down / "run.sh").st_mode & 0o7777 == 0o750  # never 0777 from the remote
    assert os.stat(down / "data.bin").st_mode & 0o7777 == 0o640  # no setuid bit either


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", "1e300", "99999999999999"])
def test_impossible_times_in_the_listing_are_refused_with_an_error(extra_sshd, tmp_path, bad):
    """A host whose ``find`` lies about a file's time: an error naming the file, not a traceback."""
    remote = extra_sshd.remote_dir("times")
    write_tree(remote, {"ok.txt": b"1", "hostile.bin": b"2"}, mtime=T0)
    # the real GNU find, with the time of hostile.bin replaced in its NUL-separated records
    extra_sshd.install_executable(
        "find",
        "#!/bin/bash\n/usr/bin/find \"$@\" | sed -z 's/^\\(f [0-9]* \\)[0-9.]*\\( [0-7]* hostile\\.bin\\)$/\\1"
        + bad
        + "\\2/'\n",
    )
    down = tmp_path / "down"
    with pytest.raises(SyncError) as ei:
        SyncEngine(plain_connect(extra_sshd), down, str(remote), SyncOptions(direction=DOWN)).run()
    assert ei.value.code == "BadRemoteTime"
    assert "hostile.bin" in ei.value.text() and bad in ei.value.text()
    assert not (down / "hostile.bin").exists()
