"""Damaged local state is set aside, explained and recovered — never a traceback.

The database: overwritten with garbage, truncated, 0 bytes → moved aside under a timestamped name
that is never reused, the user told (CLI: stderr; GUI: a dialog), a fresh database made; a stored
row with a bad value refused at once. Settings: wrong types reset field by field with a kept copy;
a newer LabGPU's file opened read-only. Real CLI processes where the user would see it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest

from app.core.paths import default_paths
from app.core.settings import Settings, SettingsStore
from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]


def labgpu(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ), stdin=subprocess.DEVNULL)


def _db() -> Path:
    return default_paths().ensure().database_file


def _copies(folder: Path, pattern: str = "labgpu.damaged-*.sqlite3") -> list[Path]:
    return sorted(folder.glob(pattern))


def _saved_hosts(n: int) -> None:
    from app.core.hosts import HostRecord, HostStore

    hs = HostStore()
    for i in range(n):
        hs.add(HostRecord(name=f"h{i}", hostname=f"host{i}.example.com", user="root", port=2200 + i))
    hs.store.close()


# -- the database ------------------------------------------------------------------------------


def test_garbage_database_is_moved_aside_and_explained_on_stderr():
    db = _db()
    garbage = os.urandom(8192)
    db.write_bytes(garbage)
    r = labgpu("hosts", "ls")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    [copy] = _copies(db.parent)
    assert copy.read_bytes() == garbage  # kept as it was
    assert "damaged" in r.stderr and str(copy) in r.stderr and "saved hosts" in r.stderr
    assert sqlite3.connect(db).execute("PRAGMA quick_check").fetchone()[0] == "ok"  # a fresh one
    assert json.loads(labgpu("hosts", "ls", "--json").stdout) == []


def test_truncated_database_is_moved_aside_not_a_traceback():
    _saved_hosts(300)
    db = _db()
    size = db.stat().st_size
    os.truncate(db, size // 2)
    r = labgpu("hosts", "ls", "--json")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "malformed" in r.stderr
    assert json.loads(r.stdout) == []
    [copy] = _copies(db.parent)
    assert copy.stat().st_size == size // 2


def test_zero_byte_database_counts_as_damaged_not_as_new():
    _saved_hosts(1)
    db = _db()
    db.write_bytes(b"")  # the user's hosts, pairs and ledger are gone: say so
    r = labgpu("hosts", "ls")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "0 bytes" in r.stderr
    [copy] = _copies(db.parent)
    assert copy.stat().st_size == 0


def test_an_unreadable_database_path_is_moved_aside_too():
    db = _db()
    db.mkdir()  # not a file at all
    (db / "inside").write_text("kept")
    r = labgpu("hosts", "ls", "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr and "not a regular file" in r.stderr
    [copy] = _copies(db.parent)
    assert (copy / "inside").read_text() == "kept"
    assert db.is_file()


def test_an_unreadable_settings_path_falls_back_to_defaults(capsys):
    store = SettingsStore()
    store.file.mkdir()
    assert store.load() == Settings()
    assert len(_broken(store.file.parent)) == 1 and "could not be read" in capsys.readouterr().err
    store.save(Settings(language="en"))
    assert SettingsStore().load().language == "en"


def test_a_second_corruption_never_overwrites_the_first_copy():
    db = _db()
    first, second = b"first garbage " * 100, b"second garbage " * 100
    db.write_bytes(first)
    assert labgpu("hosts", "ls").returncode == 0
    db.write_bytes(second)
    assert labgpu("hosts", "ls").returncode == 0  # within the same second, too
    copies = _copies(db.parent)
    assert sorted(c.read_bytes() for c in copies) == sorted([first, second])


def test_concurrent_first_starts_never_mistake_a_new_database_for_damage():
    code = "from app.core.hosts import HostStore; HostStore().list()"
    procs = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(6)]
    results = [(p.wait(timeout=120), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert all(rc == 0 and "damaged" not in err for rc, err in results), results
    assert _copies(_db().parent) == []


def test_sync_with_a_damaged_database_says_so_and_fails_cleanly(tmp_path):
    _db().write_bytes(b"\x00garbage" * 512)
    local = tmp_path / "src"
    local.mkdir()
    (local / "a.txt").write_text("a")
    r = labgpu("sync", str(local), "box:data")
    assert "Traceback" not in r.stderr
    assert "damaged" in r.stderr
    assert r.returncode != 0 and "box" in r.stderr  # the host it named is not in the fresh database
    assert len(_copies(_db().parent)) == 1


def test_damage_seen_while_running_is_a_labgpu_error(tmp_path):
    from app.core import store as store_module
    from app.core.store import Store, StoreDamagedError, register_schema

    register_schema("test_damage_running", ["CREATE TABLE damage_running_rows (n INTEGER);"])
    try:
        path = tmp_path / "run.sqlite3"
        store = Store(path)
        store.execute("INSERT INTO damage_running_rows VALUES (1)")
        store.close()
        with open(path, "r+b") as fh:  # a disk error or another program scribbles over the pages
            fh.seek(1024)
            fh.write(os.urandom(path.stat().st_size - 1024))
        with pytest.raises(StoreDamagedError) as ei:
            store.query("SELECT * FROM damage_running_rows")
        assert ei.value.code == "DatabaseDamaged" and ei.value.hint()
        store.close()
        Store(path).close()  # the next start sets it aside
        assert len(list(tmp_path.glob("run.damaged-*.sqlite3"))) == 1
    finally:
        store_module._SCHEMAS.pop("test_damage_running", None)  # other tests' stores need not make it


@pytest.mark.parametrize("page", ["hosts", "sync", "instances", "accounts"])
def test_screenshot_of_a_page_with_a_damaged_database_recovers(page, tmp_path):
    _db().write_bytes(os.urandom(4096))
    shot = tmp_path / f"{page}.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = clirun.run([sys.executable, "-m", "app", "--screenshot", str(shot), "--page", page], cwd=ROOT,
                       capture_output=True, text=True, timeout=180, env=env, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert shot.stat().st_size > 0
    assert "Traceback" not in r.stderr and "damaged" in r.stderr
    assert len(_copies(_db().parent)) == 1


def test_gui_start_says_at_once_that_the_database_was_damaged():
    db = _db()
    db.write_bytes(b"not a database at all" * 50)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LABGPU_STARTUP_PROBE="1")
    r = clirun.run([sys.executable, "-m", "app", "--page", "offers"], cwd=ROOT, capture_output=True,
                       text=True, timeout=180, env=env, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert "LABGPU_READY" in r.stdout
    assert "Traceback" not in r.stderr and "damaged" in r.stderr
    assert len(_copies(db.parent)) == 1


@pytest.mark.parametrize("port", ["abc", 70000, 0, -1])
def test_a_stored_bad_port_is_refused_at_once(port, tmp_path):
    _saved_hosts(1)
    conn = sqlite3.connect(_db())
    conn.execute("INSERT INTO hosts(name, hostname, port, created_at, updated_at) VALUES('bad', 'h', ?, 0, 0)",
                 (port,))
    conn.commit()
    conn.close()
    r = labgpu("hosts", "ls")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "[BadStoredHost]" in r.stderr and repr(port) in r.stderr and "labgpu hosts rm bad" in r.stderr
    local = tmp_path / "src"
    local.mkdir()
    # Refused when read, before any connection attempt (it used to retry for 76 s).
    r = labgpu("sync", str(local), "bad:data", timeout=60)
    assert r.returncode != 0 and "[BadStoredHost]" in r.stderr and "Traceback" not in r.stderr
    assert labgpu("hosts", "rm", "bad").returncode == 0
    assert [h["name"] for h in json.loads(labgpu("hosts", "ls", "--json").stdout)] == ["h0"]


# -- settings -------------------------------------------------------------------------------


def _write_settings(doc: object) -> Path:
    store = SettingsStore()
    store.file.write_text(json.dumps(doc), encoding="utf-8")
    return store.file


def _broken(folder: Path) -> list[Path]:
    return sorted(folder.glob("settings.broken-*.json"))


def test_wrong_types_reset_only_those_fields_with_a_warning_and_a_kept_copy(capsys):
    doc = {"schema_version": 1, "spot_bid_fraction": "abc", "last_page": ["x"], "language": "zh_CN",
           "display_currency": "USD", "offers_filters": {"gpu": "A100"}}
    original = _write_settings(doc).read_bytes()
    store = SettingsStore()
    s = store.load()
    assert (s.spot_bid_fraction, s.last_page) == (0.8, "offers")  # reset
    assert (s.language, s.display_currency, s.offers_filters) == ("zh_CN", "USD", {"gpu": "A100"})  # kept
    [copy] = _broken(store.file.parent)
    assert copy.read_bytes() == original
    [notice] = store.notices
    assert notice.kind == "settings-fields" and set(notice.fields) == {"spot_bid_fraction", "last_page"}
    err = capsys.readouterr().err
    assert "spot_bid_fraction" in err and str(copy) in err
    # Repaired on disk: the next start is quiet.
    again = SettingsStore()
    assert again.load() == s and again.notices == []


def test_a_second_corruption_never_overwrites_the_first_settings_copy():
    store = SettingsStore()
    store.file.write_text("{ not json", encoding="utf-8")
    store.load()
    store.file.write_text(json.dumps({"last_page": 5}), encoding="utf-8")
    store.load()
    store.file.write_text("[1, 2", encoding="utf-8")
    store.load()
    copies = _broken(store.file.parent)
    assert sorted(c.read_text(encoding="utf-8") for c in copies) == sorted(
        ["{ not json", json.dumps({"last_page": 5}), "[1, 2"])


def test_a_newer_schema_is_read_only_and_never_rewritten():
    doc = {"schema_version": 99, "language": "zh_CN", "new_feature_of_the_future": {"x": 1}}
    path = _write_settings(doc)
    before = path.read_bytes()
    store = SettingsStore()
    s = store.load()
    assert store.read_only and s.language == "zh_CN"
    assert [n.kind for n in store.notices] == ["settings-newer"]
    assert "update LabGPU" in store.notices[0].one_line()
    s.language = "en"
    store.save(s)
    assert path.read_bytes() == before
    assert _broken(path.parent) == []


def test_unknown_keys_survive_a_save():
    _write_settings({"schema_version": 1, "azure_endpoint": "https://x.example", "language": "en"})
    store = SettingsStore()
    s = store.load()
    store.save(s)
    assert json.loads(store.file.read_text(encoding="utf-8"))["azure_endpoint"] == "https://x.example"


@dataclass
class Guard:  # the kind of typed settings another feature adds later
    enabled: bool = True
    idle_minutes: int = 30


@dataclass
class Future:
    threshold: float = 0.5
    names: list[str] = field(default_factory=list)
    mode: Literal["a", "b"] = "a"
    guard: Guard = field(default_factory=Guard)
    maybe: int | None = None


def test_validation_follows_the_field_types_so_new_fields_are_checked_too():
    from app.core.settings import build

    obj, bad, unknown = build(Future, {"threshold": "x", "names": ["ok", 3], "mode": "b",
                                       "guard": {"enabled": "yes", "idle_minutes": 5}, "maybe": 7, "zzz": 1})
    assert sorted(bad) == ["guard", "names", "threshold"]
    assert (obj.threshold, obj.names, obj.mode, obj.guard, obj.maybe) == (0.5, [], "b", Guard(), 7)
    assert unknown == {"zzz": 1}
    obj, bad, _ = build(Future, {"guard": {"enabled": False, "idle_minutes": 5}, "threshold": float("nan")})
    assert bad == ["threshold"] and obj.guard == Guard(False, 5)


def test_gui_starts_with_wrong_typed_settings_and_shows_what_was_reset(qtbot):
    _write_settings({"spot_bid_fraction": "abc", "last_page": ["x"]})
    from app.core import damage
    from app.ui.app import build_main_window

    shown: list[str] = []
    _app, ctx, window = build_main_window("en")
    try:
        ctx.errors.interactive = False
        qtbot.addWidget(window)
        ctx.errors.shown.connect(shown.append)
        qtbot.waitUntil(lambda: any(k.startswith("damage:settings-fields") for k in ctx.errors.seen()))
        assert ctx.settings.spot_bid_fraction == 0.8
        box = ctx.errors._open
        assert box is not None and "spot_bid_fraction" in box.text()
        assert str(_broken(SettingsStore().file.parent)[0]) in box.informativeText()
        # A database damaged later in the session gets its dialog too.
        damage.report(damage.DamageNotice("database", _db(), _db().with_name("x.sqlite3"), "test", "hosts"))
        qtbot.waitUntil(lambda: any(k.startswith("damage:database") for k in ctx.errors.seen()))
        assert "damaged" in ctx.errors._open.text()
    finally:
        damage.remove_listener(ctx.errors.report_damage)
        ctx.shutdown(5000)


def test_settings_defaults_are_valid():
    s = Settings()
    s.validate()
    assert s == Settings()
