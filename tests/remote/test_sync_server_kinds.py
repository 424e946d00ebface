"""Every kind of server students meet, each a real OpenSSH sshd account configured that
way (tests/fixtures/server_kinds.py): up, no-change re-sync (0 bytes) and down give byte-identical
trees, the JSON summary names the path taken, and a banner can never hide a missing file."""

from __future__ import annotations

import os

import pytest

from app.remote.sync import DOWN, SyncEngine, SyncOptions
from tests.remote.sync_support import part_files, tree_hashes, write_tree

T0 = 1_700_000_000.0

EXPECTED_MODE = {
    "plain": "fast",
    "banner-out": "fast",
    "banner-err": "fast",
    "sftp-only": "sftp",
    "chroot": "sftp",
    "dash": "fast",
    "busybox": "sftp",  # BusyBox sha256sum has no -z: checksums are read back over SFTP
    "no-tools": "shell",
    "windows": "sftp",
}


def _files() -> dict[str, bytes]:
    files = {f"d{i % 4}/f{i}.txt": os.urandom(500 + i) for i in range(80)}  # enough for a tar stream
    files["ckpt/model.bin"] = os.urandom(2 * 1024 * 1024 + 5)  # the 2 MB file a banner once hid
    files["-dash-name.txt"] = b"leading dash"
    files["sp ace/it's $(x).txt"] = b"quoted"
    files["empty"] = b""
    return files


def _run(kinds, kind, local, remote, **kw):
    eng = SyncEngine(kinds.connect(kind), local, remote, SyncOptions(step_timeout=60, **kw))
    return eng.run()


@pytest.mark.parametrize("kind", list(EXPECTED_MODE))
def test_up_resync_down_on_every_server_kind(server_kinds, kind, tmp_path):
    folder = f"kinds-{kind}-{os.getpid()}"
    home = server_kinds.home(kind)
    target = home / folder
    if target.exists():
        import shutil

        shutil.rmtree(target)
    local = tmp_path / "src"
    files = _files()
    write_tree(local, files, mtime=T0)
    r1 = _run(server_kinds, kind, local, f"~/{folder}" if kind != "chroot" else folder)
    assert r1.server["mode"] == EXPECTED_MODE[kind], r1.server
    assert r1.summary()["server"]["mode"] == EXPECTED_MODE[kind]
    assert r1.files == len(files)
    assert tree_hashes(target) == tree_hashes(local)
    assert part_files(target) == []
    # a no-change re-sync moves nothing
    r2 = _run(server_kinds, kind, local, folder)
    assert (r2.files, r2.bytes) == (0, 0)
    assert r2.skipped == len(files)
    # down into an empty folder: byte-identical
    down = tmp_path / "down"
    r3 = _run(server_kinds, kind, down, folder, direction=DOWN)
    assert r3.files == len(files)
    assert tree_hashes(down) == tree_hashes(local)
    assert part_files(down) == []
    # and verify mode agrees on every path (sha256sum, or reading back over SFTP)
    (local / "ckpt/model.bin").write_bytes(os.urandom(2 * 1024 * 1024 + 5))
    os.utime(local / "ckpt/model.bin", (T0, T0))  # same size and mtime: only a checksum sees it
    r4 = _run(server_kinds, kind, local, folder, verify=True)
    assert r4.files == 1
    assert tree_hashes(target) == tree_hashes(local)
    import shutil

    shutil.rmtree(target)


@pytest.mark.parametrize("kind", ["banner-out", "banner-err"])
def test_banner_never_parsed_as_listing(server_kinds, kind, tmp_path):
    """The banner holds fake find records ("ghost.bin", "evil"): neither appears anywhere."""
    folder = f"banner-down-{os.getpid()}"
    remote = server_kinds.fresh_dir(kind, folder)
    files = {f"f{i}.bin": os.urandom(100) for i in range(30)}
    files["big.bin"] = os.urandom(2 * 1024 * 1024)
    write_tree(remote, files, mtime=T0)
    server_kinds.chown_kind(kind, remote)
    down = tmp_path / "down"
    r = _run(server_kinds, kind, down, folder, direction=DOWN)
    assert r.files == 31
    assert tree_hashes(down) == tree_hashes(remote)
    assert not (down / "ghost.bin").exists() and not (down / "evil").exists()
    import shutil

    shutil.rmtree(remote)


@pytest.mark.parametrize("kind", ["plain", "no-tools"])
def test_small_files_only_make_missing_root_and_empty_folders(server_kinds, kind, tmp_path):
    """All small files: on a GNU tar server the tar streams also create the missing root and
    the (empty) folders; without tar, SFTP does — the same tree either way."""
    import shutil

    folder = f"tar-dirs-{kind}-{os.getpid()}/deeper"
    top = server_kinds.home(kind) / folder.split("/")[0]
    shutil.rmtree(top, ignore_errors=True)
    local = tmp_path / "src"
    write_tree(local, {f"a/b{i % 7}/f{i}.txt": os.urandom(200) for i in range(150)}, mtime=T0)
    (local / "empty" / "nested").mkdir(parents=True)
    r = _run(server_kinds, kind, local, folder)
    target = server_kinds.home(kind) / folder
    assert r.files == 150
    assert tree_hashes(target) == tree_hashes(local)
    assert (target / "empty" / "nested").is_dir()
    assert r.mkdirs == len([p for p in local.rglob("*") if p.is_dir()])
    assert part_files(target) == []
    assert _run(server_kinds, kind, local, folder).files == 0
    shutil.rmtree(top)
