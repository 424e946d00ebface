"""The audit log: recorded, listed newest first, exported as CSV, never a secret."""

from __future__ import annotations

import csv
from datetime import datetime, timezone

from app.core.audit import CSV_COLUMNS, AuditLog
from app.core.logsetup import register_secret
from app.core.paths import default_paths
from app.core.store import Store


def test_record_list_export(labgpu_home, tmp_path):
    log = AuditLog(Store(paths=default_paths()))
    t0 = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    log.record(
        account="lab",
        provider="aws",
        action="launch",
        resource="i-1",
        request_id="r-1",
        detail="g5.xlarge us-east-1a spot",
        time=t0,
    )
    log.record(
        account="tc",
        provider="tencent",
        action="stop",
        resource="ins-2",
        result="error:Quota",
        detail="line one\nline two",
    )
    entries = log.list()
    assert [e.action for e in entries] == ["stop", "launch"]
    assert entries[1].time == t0
    assert entries[1].request_id == "r-1"
    assert entries[0].detail == "line one line two"
    assert [e.account for e in log.list(account="lab")] == ["lab"]
    out = tmp_path / "audit.csv"
    assert log.export_csv(out) == 2
    with out.open(encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [r[3] for r in rows[1:]] == ["launch", "stop"]  # oldest first: reads as a history
    assert oct(out.stat().st_mode & 0o777) == "0o600"


def test_secrets_are_redacted_before_storage(labgpu_home, tmp_path):
    secret = "auditSecretValue+9876543210"
    register_secret(secret)  # what app.core.secrets does for every value it reads
    store = Store(paths=default_paths())
    log = AuditLog(store)
    log.record(
        account="lab",
        provider="aws",
        action="launch",
        resource="i-1",
        result=f"error:{secret}",
        detail=f"oops {secret} password=hunter22",
    )
    out = tmp_path / "a.csv"
    log.export_csv(out)
    store.close()
    assert secret not in out.read_text(encoding="utf-8")
    assert "hunter22" not in out.read_text(encoding="utf-8")
    for p in labgpu_home.rglob("*"):
        if p.is_file():
            assert secret.encode() not in p.read_bytes()


def test_a_short_secret_never_rewrites_labgpus_own_action_words(labgpu_home, monkeypatch):
    from app.core import logsetup

    monkeypatch.setattr(logsetup, "_known_secrets", set(logsetup._known_secrets))  # gone after this test
    register_secret("stop")  # a four-letter password a student typed somewhere
    store = Store(paths=default_paths())
    log = AuditLog(store)
    log.record(account="lab", provider="tencent", action="sync-before-stop", resource="ins-1",
               result="stop requested")
    [entry] = log.list()
    store.close()
    assert entry.action == "sync-before-stop"  # the history still reads
    assert entry.result == "*** requested"  # free text is redacted as before
