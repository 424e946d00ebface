"""Timeouts with words: a remote step that never answers (an exec channel the server
never closes) fails the sync naming what it waited for, and the next run finishes the job."""

from __future__ import annotations

import logging
import os
import shutil

import pytest

from app.remote.sync import RemoteTimeoutError, SyncEngine, SyncOptions
from tests.remote.sync_support import part_files, tree_hashes, write_tree

T0 = 1_700_000_000.0
KIND = "hang"


@pytest.fixture
def hang(server_kinds):
    yield server_kinds
    server_kinds.hang_file.write_text("")
    server_kinds.cut_file.write_text("")


def _run(kinds, local, remote, timeout=3.0, **kw):
    return SyncEngine(kinds.connect(KIND), local, remote, SyncOptions(step_timeout=timeout, **kw)).run()


def test_probe_that_never_answers_falls_back_to_pure_sftp(hang, tmp_path):
    """Exec never answers at all (the capability probe, with the listing in it, hangs): after the
    probe's timeout the sync goes pure SFTP and still gives the same result."""
    folder = f"hang-probe-{os.getpid()}"
    target = hang.home(KIND) / folder
    shutil.rmtree(target, ignore_errors=True)
    local = tmp_path / "src"
    write_tree(local, {"a.txt": b"a", "d/b.bin": os.urandom(5000)}, mtime=T0)
    hang.hang_file.write_text("^printf")  # every framed command
    r = _run(hang, local, folder)
    assert r.server["mode"] == "sftp" and "did not answer" in r.server["note"]
    assert tree_hashes(target) == tree_hashes(local)
    assert (_run(hang, local, folder).files, 0) == (0, 0)
    shutil.rmtree(target)


def test_checksum_that_never_answers_fails_with_words_then_resync_works(hang, tmp_path):
    folder = f"hang-sum-{os.getpid()}"
    target = hang.home(KIND) / folder
    shutil.rmtree(target, ignore_errors=True)
    local = tmp_path / "src"
    write_tree(local, {"a.txt": b"a", "d/b.bin": os.urandom(5000)}, mtime=T0)
    _run(hang, local, folder, timeout=30)  # first upload, nothing hangs yet
    hang.hang_file.write_text("&& sha256sum")  # the checksum step (not the probe) never answers
    with pytest.raises(RemoteTimeoutError) as info:
        _run(hang, local, folder, verify=True)
    assert info.value.code == "RemoteTimeout"
    assert "checksums" in info.value.text()
    hang.hang_file.write_text("")
    r = _run(hang, local, folder, timeout=30, verify=True)
    assert (r.files, r.bytes) == (0, 0)
    shutil.rmtree(target)


def test_tar_stream_that_never_finishes_fails_then_resume_completes(hang, tmp_path):
    """Many small files go through the remote tar, which here never reads or answers: the sync
    fails naming the tar step, leaves no temporary files under final names, and the next run
    (tar answering again) completes without re-sending the big file that had finished."""
    folder = f"hang-tar-{os.getpid()}"
    target = hang.home(KIND) / folder
    shutil.rmtree(target, ignore_errors=True)
    local = tmp_path / "src"
    files = {f"s/{i}.txt": os.urandom(300) for i in range(100)}
    files["big.bin"] = os.urandom(3 * 1024 * 1024)
    write_tree(local, files, mtime=T0)
    hang.hang_file.write_text("tar -x")
    with pytest.raises(RemoteTimeoutError) as info:
        _run(hang, local, folder, channels=1)
    assert "tar" in info.value.text()
    hang.hang_file.write_text("")
    r = _run(hang, local, folder, timeout=30)
    assert tree_hashes(target, skip_parts=True) == tree_hashes(local)
    assert r.files == len(files) - 1  # big.bin had finished before the tar step hung
    r = _run(hang, local, folder, timeout=30)
    assert (r.files, r.bytes) == (0, 0)
    assert part_files(target) == []
    shutil.rmtree(target)


def test_connection_cut_during_the_probe_is_a_lost_connection_not_a_server_without_shell(
    hang, tmp_path, caplog
):
    """The link drops while the capability probe runs (its answer never comes): that is a lost
    connection — the sync reconnects and probes again — not a server without a shell (the log
    once said "no POSIX shell answered: SFTP only" for a healthy server)."""
    caplog.set_level(logging.INFO, logger="app.remote.sync")
    folder = f"cut-probe-{os.getpid()}"
    target = hang.home(KIND) / folder
    shutil.rmtree(target, ignore_errors=True)
    local = tmp_path / "src"
    write_tree(local, {"a.txt": b"a", "d/b.bin": os.urandom(5000)}, mtime=T0)
    hang.cut_file.write_text("-BEGIN>>.*labgpu_g=")  # the probe (with the listing in it)
    r = _run(hang, local, folder, timeout=30)
    assert hang.cut_file.read_text() == ""  # the cut happened
    assert r.server["mode"] != "sftp" and "SFTP only" not in r.server["note"], r.server
    said = [rec.getMessage() for rec in caplog.records]
    assert any("connection lost" in m for m in said), said
    assert not any("SFTP only" in m for m in said), said
    assert tree_hashes(target) == tree_hashes(local)
    shutil.rmtree(target)
