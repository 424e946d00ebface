"""The local audit log: one row per state-changing cloud call (launch, start, stop, terminate, key
import, security group change), so a student can show what LabGPU did to their account and when.

It never holds a secret: ``detail`` and ``result`` pass through the log redactor (which knows every
secret the keyring handed out in this process) before they are stored, and callers pass only ids.

Contract:
    log = AuditLog(store)
    log.record(account="lab", provider="aws", action="run_instances", resource="i-0abc",
               result="ok", request_id="…", detail="g5.xlarge us-east-1a spot")  # → AuditEntry
    log.list(limit=500, account=None)   # newest first
    log.export_csv(path)                # → rows written; columns = CSV_COLUMNS
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .logsetup import redact
from .paths import atomic_write_text
from .store import Store, register_schema

CSV_COLUMNS = ("time", "account", "provider", "action", "resource", "result", "request_id", "detail")

register_schema(
    "audit",
    [
        """
    CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time TEXT NOT NULL,
        account TEXT NOT NULL,
        provider TEXT NOT NULL,
        action TEXT NOT NULL,
        resource TEXT NOT NULL DEFAULT '',
        result TEXT NOT NULL,
        request_id TEXT NOT NULL DEFAULT '',
        detail TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX audit_log_time ON audit_log(time);
    """,
    ],
)


@dataclass(frozen=True)
class AuditEntry:
    id: int
    time: datetime  # UTC
    account: str
    provider: str
    action: str
    resource: str
    result: str  # "ok" or "error:<provider code>"
    request_id: str
    detail: str

    def to_row(self) -> list[str]:
        return [
            self.time.isoformat(),
            self.account,
            self.provider,
            self.action,
            self.resource,
            self.result,
            self.request_id,
            self.detail,
        ]


def _clean(text: str, limit: int = 500) -> str:
    return redact(str(text or "")).replace("\r", " ").replace("\n", " ")[:limit]


def _word(text: str, limit: int) -> str:
    """An action is LabGPU's own word ("launch", "sync-before-stop"), never a secret: not redacted, so a
    short password that happens to be part of it ("stop") cannot turn the history into "sync-before-***"."""
    return "".join(ch if ch.isprintable() else " " for ch in str(text or ""))[:limit]


class AuditLog:
    def __init__(self, store: Store) -> None:
        self.store = store

    def record(
        self,
        *,
        account: str,
        provider: str,
        action: str,
        resource: str = "",
        result: str = "ok",
        request_id: str = "",
        detail: str = "",
        time: datetime | None = None,
    ) -> AuditEntry:
        when = (time or datetime.now(timezone.utc)).astimezone(timezone.utc)
        values = (
            when.isoformat(timespec="milliseconds"),
            _clean(account, 100),
            _clean(provider, 40),
            _word(action, 80),
            _clean(resource, 200),
            _clean(result, 200),
            _clean(request_id, 200),
            _clean(detail),
        )
        cur = self.store.execute(
            "INSERT INTO audit_log(time, account, provider, action, resource, result, request_id, detail)"
            " VALUES(?,?,?,?,?,?,?,?)",
            values,
        )
        return AuditEntry(int(cur.lastrowid or 0), when, *values[1:])

    def list(self, limit: int = 500, account: str | None = None) -> list[AuditEntry]:
        sql = "SELECT * FROM audit_log"
        params: list[object] = []
        if account is not None:
            sql += " WHERE account=?"
            params.append(account)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(int(limit))
        return [
            AuditEntry(
                r["id"],
                datetime.fromisoformat(r["time"]),
                r["account"],
                r["provider"],
                r["action"],
                r["resource"],
                r["result"],
                r["request_id"],
                r["detail"],
            )
            for r in self.store.query(sql, params)
        ]

    def to_csv(self, limit: int = 1_000_000) -> str:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for entry in reversed(self.list(limit)):
            writer.writerow(entry.to_row())
        return buf.getvalue()

    def export_csv(self, path: Path) -> int:
        """Oldest first, so the file reads as a history. Returns the number of entries written."""
        text = self.to_csv()
        atomic_write_text(Path(path), text, mode=0o600)
        return text.count("\n") - 1
