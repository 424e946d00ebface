"""Failed-login noise summarised, bounded in memory whatever the log holds (app/core/logins.py parses the
lines; this counts them): each refused try once, the first and last time, distinct sources and the heavy
hitters among sources and users."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone

from .logins import KIND_CLOSED, KIND_FAILED, KIND_INVALID_USER, KIND_MAX_TRIES, USER_CAP, LoginEvent


class _HeavyHitters:
    """Misra–Gries: at most ``k`` counters; every key seen more than n/(k+1) times is kept, and each
    count is a lower bound (exact while fewer than ``k`` distinct keys arrived)."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.counts: dict[str, int] = {}

    def add(self, key: str) -> None:
        counts = self.counts
        if key in counts:
            counts[key] += 1
        elif len(counts) < self.k:
            counts[key] = 1
        else:
            for other in list(counts):
                if counts[other] == 1:
                    del counts[other]
                else:
                    counts[other] -= 1

    def top(self, n: int) -> list[tuple[str, int]]:
        return sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))[: max(0, n)]


@dataclass
class FailedLogins:
    """The summary of failed-login noise, bounded in memory whatever the input: a count, the first
    and last time, distinct sources (exact up to :attr:`DISTINCT_CAP`, then a lower bound) and the
    heavy hitters among sources and users (≤ :attr:`TOP_CAP` counters each). Accepted logins are
    not counted."""

    DISTINCT_CAP = 10_000
    TOP_CAP = 1_000
    CONN_CAP = 4_096  # connections (source, port) remembered to count each attempt once

    count: int = 0
    first: datetime | None = None
    last: datetime | None = None
    distinct_exact: bool = True
    _seen: set[str] = field(default_factory=set, repr=False)
    _sources: _HeavyHitters = field(default_factory=lambda: _HeavyHitters(FailedLogins.TOP_CAP), repr=False)
    _users: _HeavyHitters = field(default_factory=lambda: _HeavyHitters(FailedLogins.TOP_CAP), repr=False)
    # (source, port) → True when a "Failed …" line of that connection was counted, False when only its
    # "Invalid user" / "Connection closed" / "maximum attempts" line was
    _conns: OrderedDict[tuple[str, int], bool] = field(default_factory=OrderedDict, repr=False)

    def _attempt(self, ev: LoginEvent) -> bool:
        """Is this line a new attempt? sshd writes several lines for one refused try ("Invalid user",
        "Failed password for invalid user", "Connection closed by invalid user … [preauth]"): each
        "Failed …" line is one try (a connection may try several), the other lines count only for a
        connection that had no "Failed …" line (a scanner that gave up before a password)."""
        if not ev.port or ev.kind not in (KIND_FAILED, KIND_INVALID_USER, KIND_CLOSED, KIND_MAX_TRIES):
            return True
        key = (ev.source, ev.port)
        before = self._conns.get(key)
        if ev.kind == KIND_FAILED:
            self._remember(key, True)
            return before is not False  # the first try after its "Invalid user" line is that attempt
        if before is not None:
            return False
        self._remember(key, False)
        return True

    def _remember(self, key: tuple[str, int], failed: bool) -> None:
        self._conns[key] = failed
        self._conns.move_to_end(key)
        if len(self._conns) > self.CONN_CAP:
            self._conns.popitem(last=False)

    def add(self, ev: LoginEvent) -> None:
        if ev.accepted or not self._attempt(ev):
            return
        self.count += 1
        if ev.time is not None:
            if self.first is None or ev.time < self.first:
                self.first = ev.time
            if self.last is None or ev.time > self.last:
                self.last = ev.time
        if ev.source:
            if ev.source not in self._seen:
                if len(self._seen) < self.DISTINCT_CAP:
                    self._seen.add(ev.source)
                else:
                    self.distinct_exact = False
            self._sources.add(ev.source)
        if ev.user:
            self._users.add(ev.user[:USER_CAP])

    def distinct_sources(self) -> int:
        """Exact while :attr:`distinct_exact`, else a lower bound."""
        return len(self._seen)

    def top_sources(self, n: int = 5) -> list[tuple[str, int]]:
        return self._sources.top(n)

    def top_users(self, n: int = 5) -> list[tuple[str, int]]:
        return self._users.top(n)

    def tracked_sizes(self) -> tuple[int, int, int]:
        """(distinct set, source counters, user counters): what memory is held."""
        return len(self._seen), len(self._sources.counts), len(self._users.counts)

    def to_json(self) -> dict[str, object]:
        return {
            "count": self.count,
            "first": self.first.astimezone(timezone.utc).isoformat() if self.first else "",
            "last": self.last.astimezone(timezone.utc).isoformat() if self.last else "",
            "distinct_sources": self.distinct_sources(),
            "distinct_exact": self.distinct_exact,
            "top_sources": [{"source": s, "count": c} for s, c in self.top_sources()],
            "top_users": [{"user": u, "count": c} for u, c in self.top_users()],
        }
