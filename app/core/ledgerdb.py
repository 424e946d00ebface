"""The instances ledger's tables (ledger, running segments, pending launches) and the time and cost
helpers its parts share: :mod:`app.core.instances`, :mod:`app.core.pendinglaunches`,
:mod:`app.core.monthreport`.

Cloud time: running time and cost are measured on the cloud's clock, never on the laptop's
wall clock, which may be minutes off. ``CLOCK`` (a :class:`CloudClock`) learns each cloud's time from the
HTTP ``Date`` header of its answers (RFC 9110 §6.6.1: the origin server's clock when it made the answer;
the plugins call ``CLOCK.note_date``) and runs it forward on a monotonic clock between answers, so a wall
clock stepped between two answers changes nothing either. The ledger stores every time in the cloud's
frame (the cloud's own launch/start times are in it already) and hands times back in the laptop's frame
(``to_local``), so durations are the cloud's and timestamps still compare with the app's other times.
"""

from __future__ import annotations

import email.utils
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from .i18n import QT_TRANSLATE_NOOP, translate
from .store import Store, register_schema

log = logging.getLogger(__name__)

register_schema(
    "instances",
    [
        """
    CREATE TABLE instance_ledger (
        provider TEXT NOT NULL,
        id TEXT NOT NULL,
        account TEXT NOT NULL,
        region TEXT NOT NULL DEFAULT '',
        zone TEXT NOT NULL DEFAULT '',
        instance_type TEXT NOT NULL DEFAULT '',
        state TEXT NOT NULL,
        raw_state TEXT NOT NULL DEFAULT '',
        spot INTEGER NOT NULL DEFAULT 0,
        public_ip TEXT NOT NULL DEFAULT '',
        private_ip TEXT NOT NULL DEFAULT '',
        price_per_hour REAL,
        currency TEXT NOT NULL DEFAULT 'USD',
        price_source TEXT NOT NULL DEFAULT '',
        launched_at TEXT,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        ended_at TEXT,
        name TEXT NOT NULL DEFAULT '',
        image_id TEXT NOT NULL DEFAULT '',
        key_name TEXT NOT NULL DEFAULT '',
        client_token TEXT NOT NULL DEFAULT '',
        tags_json TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (provider, id)
    );
    CREATE TABLE instance_segments (
        provider TEXT NOT NULL,
        id TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at TEXT
    );
    CREATE INDEX instance_segments_id ON instance_segments(provider, id);
    CREATE TABLE pending_launches (
        client_token TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        provider TEXT NOT NULL,
        region TEXT NOT NULL,
        zone TEXT NOT NULL DEFAULT '',
        instance_type TEXT NOT NULL,
        spot INTEGER NOT NULL DEFAULT 0,
        max_price REAL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        status TEXT NOT NULL,
        instance_id TEXT NOT NULL DEFAULT '',
        detail TEXT NOT NULL DEFAULT ''
    );
    """,
    ],
)


def utc(d: datetime | None = None) -> datetime:
    if d is None:
        return datetime.fromtimestamp(CLOCK.wall(), timezone.utc)  # the laptop's clock (injectable)
    return d.replace(tzinfo=timezone.utc) if d.tzinfo is None else d.astimezone(timezone.utc)


def iso(d: datetime | None) -> str | None:
    return None if d is None else utc(d).isoformat()


def from_iso(s: str | None) -> datetime | None:
    return None if not s else utc(datetime.fromisoformat(s))


def segment_cost(provider: str, price: float | None, start: datetime, end: datetime) -> float | None:
    from .costs import running_cost

    return running_cost(provider, price, start, end)



register_schema(
    "cloudclock",
    [
        """
    CREATE TABLE cloud_clock (
        provider TEXT PRIMARY KEY,
        offset_s REAL NOT NULL,
        measured_at TEXT NOT NULL
    );
    """,
    ],
)

# A Date header has whole seconds and arrives a round trip late: an offset under this is not told apart
# from an exact clock (and is not applied).
MIN_OFFSET_S = 2.0
SKEW_WARN_S = 60.0  # a clock further off than this is named (labgpu doctor, the tray)


def _boot_clock() -> float:
    """Seconds on a clock that never steps and keeps counting while the laptop sleeps (CLOCK_BOOTTIME on
    Linux; time.monotonic elsewhere), so a suspended laptop does not look like a slow clock."""
    boot = getattr(time, "CLOCK_BOOTTIME", None)
    if boot is not None:
        try:
            return time.clock_gettime(boot)
        except OSError:
            pass
    return time.monotonic()


@dataclass(frozen=True)
class ClockSkew:
    provider: str
    offset_s: float  # the cloud's time minus the laptop's: > 0 the laptop is behind, < 0 ahead
    measured_at: datetime  # the laptop's time when it was measured

    @property
    def ahead(self) -> bool:
        return self.offset_s < 0


class CloudClock:
    """Each cloud's time, from its answers' Date headers, run forward on a monotonic clock.

    ``wall`` and ``mono`` are injectable (tests give a wall clock minutes off). Without any answer (or a
    stored offset another LabGPU process measured) the wall clock is all there is: offset 0.
    """

    def __init__(self, wall: Callable[[], float] = time.time, mono: Callable[[], float] = _boot_clock) -> None:
        self.wall = wall
        self.mono = mono
        self._lock = threading.Lock()
        # provider → (the cloud's time in epoch seconds, mono then, offset measured then, wall then)
        self._anchors: dict[str, tuple[float, float, float, float]] = {}
        self._stored: dict[str, tuple[float, float]] = {}  # provider → (offset, wall when measured)

    def reset(self) -> None:
        with self._lock:
            self._anchors.clear()
            self._stored.clear()

    # -- learning --------------------------------------------------------------------------------------
    def note_date(self, provider: str, header: Any) -> None:
        """A cloud answered with this ``Date`` header (IMF-fixdate, RFC 9110 §5.6.7). Anything unreadable
        is ignored: the clock then keeps what it knew."""
        if not provider or not isinstance(header, str) or not header.strip() or len(header) > 64:
            return
        try:
            when = email.utils.parsedate_to_datetime(header.strip())
        except (TypeError, ValueError, IndexError, OverflowError):
            return
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        self.note_time(provider, when.timestamp() + 0.5)  # the header truncates: the middle of its second

    def note_time(self, provider: str, cloud_epoch_s: float) -> None:
        wall, mono = self.wall(), self.mono()
        with self._lock:
            self._anchors[provider] = (cloud_epoch_s, mono, cloud_epoch_s - wall, wall)

    # -- reading ---------------------------------------------------------------------------------------
    def offset(self, provider: str) -> float:
        """Seconds to add to the laptop's wall clock to get this cloud's time (0 when not measurable)."""
        with self._lock:
            anchor = self._anchors.get(provider)
            stored = self._stored.get(provider)
        if anchor is not None:
            off = anchor[0] + (self.mono() - anchor[1]) - self.wall()
        elif stored is not None:
            off = stored[0]
        else:
            return 0.0
        return off if abs(off) >= MIN_OFFSET_S else 0.0

    def to_cloud(self, provider: str, wall: datetime | None = None) -> datetime:
        """A laptop time (None: now) in the cloud's frame."""
        base = utc(wall) if wall is not None else datetime.fromtimestamp(self.wall(), timezone.utc)
        return base + timedelta(seconds=self.offset(provider))

    def to_local(self, provider: str, cloud: datetime | None) -> datetime | None:
        """A time in the cloud's frame as the laptop's clock shows it."""
        return None if cloud is None else utc(cloud) - timedelta(seconds=self.offset(provider))

    def skew(self) -> ClockSkew | None:
        """The laptop's clock against the clouds, as last measured (the largest offset of any cloud)."""
        with self._lock:
            found = [(p, a[2], a[3]) for p, a in self._anchors.items()]
            found += [(p, s[0], s[1]) for p, s in self._stored.items() if p not in self._anchors]
        if not found:
            return None
        provider, off, at = max(found, key=lambda f: abs(f[1]))
        return ClockSkew(provider, off, datetime.fromtimestamp(at, timezone.utc))

    # -- keeping (so another process, e.g. the tray beside `labgpu watch`, knows it too) ---------------
    def save(self, store: Store) -> None:
        with self._lock:
            rows = [(p, a[2], a[3]) for p, a in self._anchors.items()]
        for provider, off, at in rows:
            store.execute(
                "INSERT INTO cloud_clock(provider, offset_s, measured_at) VALUES(?,?,?)"
                " ON CONFLICT(provider) DO UPDATE SET offset_s=excluded.offset_s, measured_at=excluded.measured_at",
                (provider, off, iso(datetime.fromtimestamp(at, timezone.utc))),
            )

    def load(self, store: Store) -> None:
        """Offsets measured by any LabGPU process, for the clouds this process has no answer from."""
        try:
            rows = store.query("SELECT provider, offset_s, measured_at FROM cloud_clock")
        except Exception as exc:  # noqa: BLE001 - a missing table (older store) means nothing is known
            log.info("cloud clock offsets not read: %s", exc)
            return
        with self._lock:
            self._stored.clear()  # the store is the record of what other processes measured
            for r in rows:
                at = from_iso(r["measured_at"])
                self._stored[str(r["provider"])] = (float(r["offset_s"]), at.timestamp() if at else 0.0)


CLOCK = CloudClock()


def clock_skew(store: Store | None = None, limit_s: float = SKEW_WARN_S) -> ClockSkew | None:
    """The laptop's clock offset when it is more than ``limit_s`` off the clouds' (else None): what
    ``labgpu doctor`` and the tray name. Reads the offsets other LabGPU processes stored too."""
    if store is not None:
        CLOCK.load(store)
    skew = CLOCK.skew()
    return skew if skew is not None and abs(skew.offset_s) > limit_s else None


MSG_CLOCK_AHEAD = QT_TRANSLATE_NOOP("LabGPU", "This computer's clock is {minutes} minutes ahead of {cloud}'s "
                                              "(measured {when})")
MSG_CLOCK_BEHIND = QT_TRANSLATE_NOOP("LabGPU", "This computer's clock is {minutes} minutes behind {cloud}'s "
                                               "(measured {when})")
HINT_CLOCK = QT_TRANSLATE_NOOP("LabGPU", "Turn on automatic date and time (network time) in the system settings: "
                               "a clock this far off makes the clouds refuse requests, stops included. LabGPU "
                               "counts running time and cost on the cloud's clock meanwhile.")


def skew_text(skew: ClockSkew) -> tuple[str, str]:
    """(sentence, next step) in the user's language for a clock that is off."""
    from . import providers

    cloud = providers.display_name(skew.provider)
    minutes = f"{abs(skew.offset_s) / 60.0:.1f}"
    template = MSG_CLOCK_AHEAD if skew.ahead else MSG_CLOCK_BEHIND
    when = skew.measured_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    return translate(template).format(minutes=minutes, cloud=cloud, when=when), translate(HINT_CLOCK)


def read_stored_skew(db_path: Any, limit_s: float = 0.0) -> ClockSkew | None:
    """The largest offset any LabGPU process kept in the database at ``db_path``, read without changing
    anything (``labgpu doctor``: read-only, no file created); None when none is kept or it is within
    ``limit_s``."""
    import sqlite3
    from pathlib import Path

    path = Path(db_path)
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            rows = conn.execute("SELECT provider, offset_s, measured_at FROM cloud_clock").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        log.info("cloud clock offsets not read from %s: %s", path, exc)
        return None
    found = []
    for provider, off, at in rows:
        when = from_iso(str(at)) if at else None
        found.append(ClockSkew(str(provider), float(off), when or datetime.fromtimestamp(0, timezone.utc)))
    if not found:
        return None
    best = max(found, key=lambda s: abs(s.offset_s))
    return best if abs(best.offset_s) > limit_s else None


def clock_warning(store: Store | None = None) -> str:
    """One line for the tray (app/ui/tray.py) when this computer's clock is more than a minute off the
    clouds' (what their answers in this process measured; with ``store``, other processes' too): the
    offset and what to do. "" when it is not (or nothing was measured)."""
    skew = clock_skew(store)
    if skew is None:
        return ""
    text, hint = skew_text(skew)
    return f"{text} — {hint}"
