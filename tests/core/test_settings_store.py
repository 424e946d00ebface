from __future__ import annotations

import json
import os
import threading

from app.core.paths import default_paths
from app.core.settings import SCHEMA_VERSION, Settings, SettingsStore
from app.core.store import Store, register_schema


def test_labgpu_home_moves_every_directory(labgpu_home):
    p = default_paths().ensure()
    for d in (p.config_dir, p.data_dir, p.cache_dir, p.log_dir):
        assert d.is_dir()
        assert labgpu_home in d.parents


def test_settings_round_trip_and_schema_version():
    store = SettingsStore()
    s = store.load()
    assert s == Settings()
    s.language, s.display_currency, s.spot_bid_fraction = "zh_CN", "USD", 0.7
    store.save(s)
    doc = json.loads(store.file.read_text(encoding="utf-8"))
    assert doc["schema_version"] == SCHEMA_VERSION
    again = SettingsStore().load()
    assert (again.language, again.display_currency, again.spot_bid_fraction) == ("zh_CN", "USD", 0.7)
    if os.name == "posix":
        assert store.file.stat().st_mode & 0o077 == 0


def test_invalid_values_fall_back_to_defaults():
    store = SettingsStore()
    store.file.parent.mkdir(parents=True, exist_ok=True)
    store.file.write_text(json.dumps({"schema_version": 1, "language": "klingon", "display_currency": "EUR",
                                      "spot_bid_fraction": 7, "unknown_key": 1}), encoding="utf-8")
    s = store.load()
    assert (s.language, s.display_currency, s.spot_bid_fraction) == ("system", "CNY", 0.8)


def test_corrupt_settings_file_is_kept_aside_and_defaults_used():
    store = SettingsStore()
    store.file.parent.mkdir(parents=True, exist_ok=True)
    store.file.write_text("{ not json", encoding="utf-8")
    assert store.load() == Settings()
    assert len(list(store.file.parent.glob("settings.broken-*.json"))) == 1


def test_atomic_save_leaves_no_temp_files():
    store = SettingsStore()
    for i in range(20):
        s = Settings(last_page=f"p{i}")
        store.save(s)
    assert [p.name for p in store.file.parent.iterdir()] == ["settings.json"]


def test_store_applies_feature_migrations_in_order_once(tmp_path):
    register_schema("test_feature", [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);",
        "ALTER TABLE t ADD COLUMN extra TEXT;",
    ])
    db = Store(tmp_path / "x.sqlite3")
    db.execute("INSERT INTO t(name, extra) VALUES ('a', 'b')")
    db.close()
    db2 = Store(tmp_path / "x.sqlite3")  # reopening does not re-run migrations
    assert [tuple(r) for r in db2.query("SELECT name, extra FROM t")] == [("a", "b")]
    assert db2.query("SELECT version FROM schema_versions WHERE feature='test_feature'")[0][0] == 2
    assert db2.query("PRAGMA journal_mode")[0][0] == "wal"
    db2.close()


def test_store_gives_each_thread_its_own_connection(tmp_path):
    register_schema("test_threads", ["CREATE TABLE c (n INTEGER);"])
    db = Store(tmp_path / "y.sqlite3")

    def work():
        for i in range(50):
            db.execute("INSERT INTO c VALUES (?)", (i,))
        db.close()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert db.query("SELECT COUNT(*) FROM c")[0][0] == 200
    db.close()
