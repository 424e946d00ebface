"""What a sync is asked and what it answers: directions, options, progress, result.

Plain data shared by the engine (``app.remote.sync``), the saved pairs and their history
(:mod:`app.core.syncpairs`), the CLI and the Sync page; nothing here touches the network.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .syncplan import SyncPlan

UP, DOWN = "up", "down"

DEFAULT_CHANNELS = 4
STEP_TIMEOUT = 120.0  # s without any answer from the server in one remote step (see SyncOptions)


@dataclass
class SyncProgress:
    """What a progress callback gets (about 10 times a second, and at every state change)."""

    state: str = "listing"  # listing | planning | transferring | verifying | deleting | waiting | done
    files_done: int = 0
    files_total: int = 0
    bytes_done: int = 0
    bytes_total: int = 0
    rate: float = 0.0  # bytes/s, smoothed
    eta: float | None = None  # seconds
    current: str = ""
    attempt: int = 0
    message: str = ""


@dataclass
class SyncOptions:
    direction: str = UP
    delete: bool = False
    dry_run: bool = False
    verify: bool = False
    force: bool = False
    excludes: Sequence[str] = ()
    default_excludes: bool = True
    gitignore: bool = False
    bwlimit_kbps: float | None = None  # KiB/s, None = unlimited
    channels: int = DEFAULT_CHANNELS
    check_space: bool = True
    reconnect: bool = True
    max_attempts: int = 10  # with BACKOFF: about 75 s to get the connection (or VPN) back
    preserve_mode: bool = True
    step_timeout: float = STEP_TIMEOUT  # s of silence from the server in one step before it fails
    force_mode: str = ""  # tests/benchmarks: "sftp" forces the pure SFTP path on any server


@dataclass
class SyncResult:
    direction: str
    files: int = 0  # transferred
    bytes: int = 0  # transferred (payload)
    skipped: int = 0  # unchanged by quick check / checksum
    deleted: int = 0
    conflicts: int = 0
    refused: int = 0
    excluded: int = 0
    mkdirs: int = 0
    seconds: float = 0.0
    attempts: int = 1
    dry_run: bool = False
    verified: int = 0
    plan: SyncPlan | None = field(default=None, repr=False)
    conflict_paths: list[str] = field(default_factory=list)
    refused_paths: list[str] = field(default_factory=list)
    server: dict[str, Any] = field(default_factory=dict)  # ServerCaps.summary(): the path taken
    # what the user asked for that was NOT transferred: {"path", "why"} (refused names, special
    # files, symlinks, folders that could not be read); non-empty → the CLI exits non-zero
    not_transferred: list[dict[str, str]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.not_transferred

    def summary(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("plan")
        d["seconds"] = round(self.seconds, 3)
        d["conflict_paths"] = [display_name(p) for p in self.conflict_paths[:100]]
        d["refused_paths"] = [display_name(p) for p in self.refused_paths[:100]]
        d["complete"] = self.complete
        d["not_transferred"] = [
            {"path": display_name(x["path"]), "why": x["why"]} for x in self.not_transferred[:1000]
        ]
        if self.dry_run and self.plan is not None:
            d["would"] = self.plan.summary()
            d["changes"] = [
                {"action": i.action, "path": display_name(i.path), "size": i.size, "reason": i.reason}
                for i in self.plan.items()[:1000]
            ]
        return d


def display_name(name: str) -> str:
    """A path for JSON, the database and the screen: undecodable bytes (kept as surrogates so
    the file itself is still found) are shown as U+FFFD instead of failing to encode."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
