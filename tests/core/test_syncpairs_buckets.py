"""Saved sync pairs whose other side is a bucket (issue 25): the account, key and SSE are kept
across restarts, and a database from before the change is migrated in place with its pairs intact."""

from __future__ import annotations

import sqlite3

from app.core import syncpairs
from app.core.store import Store
from app.core.syncmodel import DOWN, UP
from app.core.syncpairs import SyncPair, SyncStore


def test_a_bucket_pair_survives_a_restart(tmp_path):
    db = tmp_path / "labgpu.db"
    store = Store(db)
    ss = SyncStore(store)
    saved = ss.save(SyncPair("", str(tmp_path / "data"), "cos://data-1250000000/imagenet", direction=UP,
                             account="lab-cos", encrypt_key="default", sse="kms:key-1", verify=True))
    host = ss.save(SyncPair("gpu1", str(tmp_path / "code"), "~/code"))
    store.close()

    again = Store(db)  # a new process: a fresh connection to the same file
    try:
        pairs = {p.id: p for p in SyncStore(again).pairs()}
        got = pairs[saved.id]
        assert (got.host, got.remote_path, got.account, got.encrypt_key, got.sse, got.verify) == (
            "", "cos://data-1250000000/imagenet", "lab-cos", "default", "kms:key-1", True)
        assert got.is_bucket
        assert not pairs[host.id].is_bucket
        assert (pairs[host.id].account, pairs[host.id].encrypt_key, pairs[host.id].sse) == ("", "", "")

        got.direction, got.encrypt_key, got.sse = DOWN, "", ""  # an edit keeps the id, changes the rest
        SyncStore(again).save(got)
        [edited] = [p for p in SyncStore(again).pairs() if p.id == saved.id]
        assert (edited.direction, edited.account, edited.encrypt_key, edited.sse) == (DOWN, "lab-cos", "", "")
    finally:
        again.close()


def test_a_database_from_before_buckets_is_migrated_with_its_pairs(tmp_path):
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    first = syncpairs.SYNC_MIGRATIONS[0]
    conn.executescript(first)
    conn.execute("CREATE TABLE schema_versions (feature TEXT PRIMARY KEY, version INTEGER)")
    conn.execute("INSERT INTO schema_versions VALUES('sync', 1)")
    conn.execute("INSERT INTO sync_pairs(host, local_path, remote_path, direction, created_at, updated_at) "
                 "VALUES('gpu1', '/l', '~/r', 'down', 1, 1)")
    conn.commit()
    conn.close()

    store = Store(db)
    try:
        [old] = SyncStore(store).pairs()
        assert (old.host, old.remote_path, old.direction) == ("gpu1", "~/r", DOWN)
        assert (old.account, old.encrypt_key, old.sse) == ("", "", "")
        version = store.query("SELECT version FROM schema_versions WHERE feature='sync'")[0][0]
        assert version == len(syncpairs.SYNC_MIGRATIONS)
    finally:
        store.close()
