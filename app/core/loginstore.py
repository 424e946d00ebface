"""What LabGPU read of each host's SSH logins, and where it stopped reading.

Tables (SQLite, this module's own migrations):

- ``login_state``: per host, the source being read (journal / a log file / wtmp), where the next read
  starts (journal cursor, or file inode + byte offset), the student's own log path for a host whose sshd
  writes elsewhere (``sshd -E FILE``), whether ``sudo -n`` is needed, the first and last read (epoch
  seconds), what could not be read (notes), the failed-login tally since the last summary and when that
  summary was sent;
- ``login_events``: the logins read (accepted and failed), each with LabGPU's verdict (own, unusual, why)
  and whether its alert was sent; at most MAX_ROWS per host and kind (older rows pruned), unique by
  (host, origin, time, user, source, port, accepted) so a re-read never doubles a login;
- ``login_own``: the addresses (and ports) LabGPU's own sessions came from, as the host saw them, with
  the last time seen — every connection LabGPU opens notes its own (app/remote/ssh/ownsession.py), and a
  login check its probe's ``SSH_CONNECTION``; and ``login_keys``: the key fingerprints LabGPU logged in
  with.

Settings (``Settings.extra["logins"]``, :class:`LoginSettings`): the unusual hours, trusted networks
(CIDR), the failed-login summary's threshold and quiet hours, how often the watcher checks.
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

from .loginrules import CODES
from .logins import LoginEvent
from .store import Store, register_schema

MAX_ROWS = 2000  # per host, accepted and failed each
OWN_TTL_S = 90 * 86400  # an address LabGPU last connected from this long ago is no longer "own"
# one of LabGPU's sessions (address AND port) is "own" this long: a check reads a login minutes after it
# (hours when the laptop slept), while a stranger behind the same NAT reusing that port grows likelier
OWN_SESSION_TTL_S = 2 * 86400

register_schema(
    "logins",
    [
        """
    CREATE TABLE login_state (
        host TEXT PRIMARY KEY,
        source TEXT NOT NULL DEFAULT '',
        path TEXT NOT NULL DEFAULT '',
        user_path TEXT NOT NULL DEFAULT '',
        cursor TEXT NOT NULL DEFAULT '',
        inode TEXT NOT NULL DEFAULT '',
        offset INTEGER NOT NULL DEFAULT 0,
        sudo INTEGER NOT NULL DEFAULT 0,
        first_read REAL,
        last_read REAL,
        notes TEXT NOT NULL DEFAULT '[]',
        failed TEXT NOT NULL DEFAULT '{}',
        failed_alerted REAL
    );
    CREATE TABLE login_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host TEXT NOT NULL,
        time TEXT NOT NULL DEFAULT '',
        user TEXT NOT NULL DEFAULT '',
        method TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL DEFAULT '',
        port INTEGER NOT NULL DEFAULT 0,
        accepted INTEGER NOT NULL,
        invalid_user INTEGER NOT NULL DEFAULT 0,
        key_type TEXT NOT NULL DEFAULT '',
        key_fp TEXT NOT NULL DEFAULT '',
        origin TEXT NOT NULL DEFAULT '',
        line TEXT NOT NULL DEFAULT '',
        own INTEGER NOT NULL DEFAULT 0,
        unusual INTEGER NOT NULL DEFAULT 0,
        why TEXT NOT NULL DEFAULT '',
        alerted INTEGER NOT NULL DEFAULT 0,
        seen REAL NOT NULL,
        UNIQUE(host, origin, time, user, source, port, accepted)
    );
    CREATE INDEX login_events_host ON login_events(host, accepted, id);
    CREATE TABLE login_own (
        host TEXT NOT NULL,
        address TEXT NOT NULL,
        port INTEGER NOT NULL DEFAULT 0,
        seen REAL NOT NULL,
        PRIMARY KEY(host, address, port)
    );
    CREATE TABLE login_keys (
        host TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        seen REAL NOT NULL,
        PRIMARY KEY(host, fingerprint)
    );
    """,
    ],
)


@dataclass
class LoginSettings:
    """``Settings.extra["logins"]``: what makes an accepted login unusual, and how loud failures are."""

    watch: bool = True  # the watcher reads the logins of the hosts it watches
    unusual_from: int = 1  # hours [from, to) in the student's time zone; from == to: off
    unusual_to: int = 6
    trusted_networks: list[str] = field(default_factory=list)  # CIDR: a lab's or campus' own networks
    failed_threshold: int = 20  # failed logins that make one summary
    failed_quiet_hours: float = 6.0  # at most one summary per host this often
    check_minutes: float = 5.0  # how often the watcher reads each host's logins

    def validate(self) -> None:
        if not (0 <= int(self.unusual_from) <= 23 and 0 <= int(self.unusual_to) <= 23):
            raise ValueError("hours")
        if not (1 <= int(self.failed_threshold) <= 1_000_000):
            raise ValueError("threshold")
        if not (0 <= float(self.failed_quiet_hours) <= 24 * 7):
            raise ValueError("quiet")
        if not (0.5 <= float(self.check_minutes) <= 24 * 60):
            raise ValueError("check")
        self.trusted_networks = [n for n in self.trusted_networks if _network(n) is not None][:64]

    def hours(self) -> tuple[int, int] | None:
        return None if self.unusual_from == self.unusual_to else (int(self.unusual_from), int(self.unusual_to))

    def networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        return tuple(n for n in (_network(x) for x in self.trusted_networks) if n is not None)


def _network(text: object) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    try:
        return ipaddress.ip_network(str(text).strip(), strict=False)
    except ValueError:
        return None


@dataclass(frozen=True)
class LoginState:
    host: str
    source: str = ""  # "journal" | "file" | "last" | "" (not probed yet)
    path: str = ""  # the file being read
    user_path: str = ""  # the student's own log path for this host ("" = the system's)
    cursor: str = ""
    inode: str = ""
    offset: int = 0
    sudo: bool = False
    first_read: float | None = None
    last_read: float | None = None
    notes: tuple[str, ...] = ()
    failed: dict[str, Any] = field(default_factory=dict)
    failed_alerted: float | None = None


@dataclass(frozen=True)
class StoredLogin:
    id: int
    host: str
    time: datetime | None
    user: str
    method: str
    source: str
    port: int
    accepted: bool
    invalid_user: bool
    key_type: str
    key_fp: str
    origin: str
    line: str
    own: bool
    unusual: bool
    why: tuple[str, ...]
    alerted: bool
    seen: float

    def event(self) -> LoginEvent:
        """The login as the parser gave it (for the rules and the failed-login summary)."""
        return LoginEvent(self.time, self.user, self.method, self.source, self.port, self.accepted,
                          self.invalid_user, self.key_type, self.key_fp, self.origin, self.line)

    def to_json(self) -> dict[str, Any]:
        return {
            "host": self.host,
            "time": self.time.isoformat().replace("+00:00", "Z") if self.time else "",
            "time_known": self.time is not None,
            "user": self.user,
            "method": self.method,
            "source": self.source,
            "port": self.port,
            "accepted": self.accepted,
            "invalid_user": self.invalid_user,
            "key_type": self.key_type,
            "key_fp": self.key_fp,
            "origin": self.origin,
            "own": self.own,
            "unusual": self.unusual,
            "why": list(self.why),
        }


def _time(text: str) -> datetime | None:
    if not text:
        return None
    try:
        t = datetime.fromisoformat(text)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


class LoginStore:
    def __init__(self, store: Store) -> None:
        self.store = store
        store.migrate()  # these tables register when this module is first imported (cheap once applied)

    # -- state --------------------------------------------------------------------------------------
    def state(self, host: str) -> LoginState:
        rows = self.store.query("SELECT * FROM login_state WHERE host=?", (host,))
        if not rows:
            return LoginState(host)
        r = rows[0]
        try:
            notes = tuple(str(x) for x in json.loads(r["notes"] or "[]"))[:16]
        except (ValueError, TypeError):
            notes = ()
        try:
            failed = json.loads(r["failed"] or "{}")
        except ValueError:
            failed = {}
        return LoginState(host, r["source"], r["path"], r["user_path"], r["cursor"], r["inode"], int(r["offset"]),
                          bool(r["sudo"]), r["first_read"], r["last_read"], notes,
                          failed if isinstance(failed, dict) else {}, r["failed_alerted"])

    def save_state(self, st: LoginState) -> None:
        self.store.execute(
            "INSERT INTO login_state(host, source, path, user_path, cursor, inode, offset, sudo, first_read,"
            " last_read, notes, failed, failed_alerted) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT(host) DO UPDATE SET source=excluded.source, path=excluded.path,"
            " user_path=excluded.user_path, cursor=excluded.cursor, inode=excluded.inode,"
            " offset=excluded.offset, sudo=excluded.sudo, first_read=excluded.first_read,"
            " last_read=excluded.last_read, notes=excluded.notes, failed=excluded.failed,"
            " failed_alerted=excluded.failed_alerted",
            (st.host, st.source, st.path, st.user_path, st.cursor[:600], st.inode, int(st.offset), int(st.sudo),
             st.first_read, st.last_read, json.dumps(list(st.notes)[:16]), json.dumps(st.failed)[:200_000],
             st.failed_alerted),
        )

    def set_log_path(self, host: str, path: str) -> LoginState:
        """The student's own log path for ``host`` ("" = back to the system's): read from its start."""
        st = replace(self.state(host), user_path=path, source="", path="", cursor="", inode="", offset=0)
        self.save_state(st)
        return st

    def hosts(self) -> list[str]:
        """The hosts whose logins were read at least once."""
        return [r["host"] for r in self.store.query("SELECT host FROM login_state ORDER BY host")]

    def forget(self, host: str) -> None:
        for table in ("login_state", "login_events", "login_own", "login_keys"):
            self.store.execute(f"DELETE FROM {table} WHERE host=?", (host,))  # noqa: S608 - fixed names

    # -- own sessions and keys ------------------------------------------------------------------------
    def note_own(self, host: str, address: str, port: int, now: float | None = None) -> None:
        if not address:
            return
        self.store.execute(
            "INSERT INTO login_own(host, address, port, seen) VALUES(?,?,?,?)"
            " ON CONFLICT(host, address, port) DO UPDATE SET seen=excluded.seen",
            (host, address, int(port), time.time() if now is None else now))
        self.store.execute("DELETE FROM login_own WHERE host=? AND address=? AND port!=0 AND seen<?",
                           (host, address, (time.time() if now is None else now) - OWN_SESSION_TTL_S))

    def own(self, host: str, now: float | None = None) -> tuple[frozenset[str], frozenset[tuple[str, int]]]:
        """(addresses, (address, port) sessions) LabGPU's own sessions came from lately, as the host saw them."""
        t = time.time() if now is None else now
        rows = self.store.query("SELECT address, port, seen FROM login_own WHERE host=? AND seen>=?",
                                (host, t - OWN_TTL_S))
        return (frozenset(r["address"] for r in rows),
                frozenset((r["address"], int(r["port"])) for r in rows
                          if r["port"] and float(r["seen"]) >= t - OWN_SESSION_TTL_S))

    def note_key(self, host: str, fingerprint: str, now: float | None = None) -> None:
        if fingerprint:
            self.store.execute(
                "INSERT INTO login_keys(host, fingerprint, seen) VALUES(?,?,?)"
                " ON CONFLICT(host, fingerprint) DO UPDATE SET seen=excluded.seen",
                (host, fingerprint[:128], time.time() if now is None else now))

    def keys(self, host: str) -> frozenset[str]:
        return frozenset(r["fingerprint"] for r in
                         self.store.query("SELECT fingerprint FROM login_keys WHERE host=?", (host,)))

    # -- events ---------------------------------------------------------------------------------------
    def add(self, host: str, rows: Iterable[dict[str, Any]], now: float | None = None) -> list[int]:
        """Insert logins (dicts with LoginEvent's fields plus own/unusual/why), in one transaction; the ids
        of the new accepted ones (a failed one is never alerted alone)."""
        seen = time.time() if now is None else now
        new: list[int] = []
        sql = ("INSERT OR IGNORE INTO login_events(host, time, user, method, source, port, accepted, invalid_user,"
               " key_type, key_fp, origin, line, own, unusual, why, seen) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        with self.store.transaction() as conn:
            for d in rows:
                t = d.get("time")
                cur = conn.execute(sql, (
                    host, t.astimezone(timezone.utc).isoformat() if isinstance(t, datetime) else "",
                    str(d.get("user", ""))[:64], str(d.get("method", ""))[:32], str(d.get("source", ""))[:64],
                    int(d.get("port") or 0), int(bool(d.get("accepted"))), int(bool(d.get("invalid_user"))),
                    str(d.get("key_type", ""))[:16], str(d.get("key_fp", ""))[:128], str(d.get("origin", ""))[:16],
                    str(d.get("line", ""))[:300], int(bool(d.get("own"))), int(bool(d.get("unusual"))),
                    ",".join(d.get("why", ()))[:200], seen))
                if cur.rowcount and d.get("accepted"):
                    new.append(int(cur.lastrowid or 0))
            for accepted in (0, 1):
                conn.execute(
                    "DELETE FROM login_events WHERE host=? AND accepted=? AND id NOT IN (SELECT id FROM login_events"
                    " WHERE host=? AND accepted=? ORDER BY id DESC LIMIT ?)", (host, accepted, host, accepted,
                                                                               MAX_ROWS))
        return new

    def mark_alerted(self, ids: Iterable[int]) -> None:
        for i in ids:
            self.store.execute("UPDATE login_events SET alerted=1 WHERE id=?", (int(i),))

    def recent(self, host: str, *, since: datetime | None = None, accepted: bool | None = None,
               limit: int = 500, ids: Iterable[int] | None = None) -> list[StoredLogin]:
        """Newest first. A login whose time is unknown counts as seen when it was read."""
        sql = "SELECT * FROM login_events WHERE host=?"
        params: list[Any] = [host]
        if accepted is not None:
            sql += " AND accepted=?"
            params.append(int(accepted))
        if ids is not None:
            wanted = [int(i) for i in ids]
            sql += f" AND id IN ({','.join('?' * len(wanted)) or 'NULL'})"
            params.extend(wanted)
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(int(limit) * 4 if since else int(limit))
        out = [self._row(r) for r in self.store.query(sql, params)]
        if since is not None:
            cut = since.timestamp()
            out = [x for x in out if (x.time.timestamp() if x.time else x.seen) >= cut]
        out.sort(key=lambda x: (x.time.timestamp() if x.time else x.seen, x.id), reverse=True)
        return out[: int(limit)]

    @staticmethod
    def _row(r: Any) -> StoredLogin:
        return StoredLogin(int(r["id"]), r["host"], _time(r["time"]), r["user"], r["method"], r["source"],
                           int(r["port"]), bool(r["accepted"]), bool(r["invalid_user"]), r["key_type"], r["key_fp"],
                           r["origin"], r["line"], bool(r["own"]), bool(r["unusual"]),
                           tuple(x for x in r["why"].split(",") if x in CODES), bool(r["alerted"]), float(r["seen"]))
