"""One sync as the CLI and the Sync page run it: connect to a saved host, run, record the run."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.paths import Paths
from app.core.syncmodel import DOWN, SyncOptions, SyncProgress, SyncResult, display_name
from app.core.syncpairs import SyncStore

from .engine import SyncEngine
from .errors import SyncCancelledError


def host_connector(host: str, paths: Paths | None = None, accept: Any = None) -> Callable[[], Any]:
    """A ``connect()`` for SyncEngine to a saved host (``labgpu hosts add``); VPN hosts bring
    their tunnel up inside ``open_connection``, so reconnects after a tunnel drop work too."""
    from app.remote.ssh import open_connection

    def connect() -> Any:
        return open_connection(host, paths, accept)

    return connect


# The pulls a guard or a spot notice makes before an instance stops or is reclaimed: the last
# copy of a checkpoint before its disk may be gone, so it is always verified (sha256 on both
# sides before anything is put in place), whatever the saved pair says.
GUARD_PULL_PURPOSES = ("before-stop", "on-interruption")


def run_sync(
    host: str,
    local: str | Path,
    remote: str,
    options: SyncOptions,
    *,
    paths: Paths | None = None,
    store: SyncStore | None = None,
    pair_id: int | None = None,
    connect: Callable[[], Any] | None = None,
    progress: Callable[[SyncProgress], None] | None = None,
    cancel_event: threading.Event | None = None,
    engine_ready: Callable[[SyncEngine], None] | None = None,
    purpose: str = "",
) -> SyncResult:
    """Run one sync and record it in the history (the CLI and the Sync page both use this).

    ``purpose``: why it runs; a guard's or spot notice's pull (``GUARD_PULL_PURPOSES``, the
    watcher's ``"before-stop"``/``"on-interruption"``) is always verified."""
    if purpose in GUARD_PULL_PURPOSES and options.direction == DOWN and not options.verify:
        options = dataclasses.replace(options, verify=True)
    engine = SyncEngine(
        connect or host_connector(host, paths), local, remote, options, progress, cancel_event
    )
    if engine_ready is not None:
        engine_ready(engine)
    started = time.time()

    def record(result: str, outcome: Any, message: str) -> None:
        if store is not None:
            store.record_run(
                host=host,
                local_path=str(local),
                remote_path=remote,
                direction=options.direction,
                started_at=started,
                result=result,
                outcome=outcome,
                message=message,
                pair_id=pair_id,
            )

    try:
        result = engine.run()
    except SyncCancelledError as exc:
        record("cancelled", engine.result, exc.text())
        raise
    except LabGpuError as exc:
        record("error", engine.result, exc.one_line())
        raise
    if not result.complete:
        note = "; ".join(f"{display_name(x['path'])}: {x['why']}" for x in result.not_transferred[:20])
    elif purpose in GUARD_PULL_PURPOSES and options.direction == DOWN and not options.dry_run:
        # the history says the guard's pull was checked, so a student can rely on the copy it made
        note = translate(QT_TRANSLATE_NOOP("LabGPU", "{purpose} pull: {n} new or changed file(s), each checked "
                                                     "with SHA-256 on both sides"))
        note = note.format(purpose=purpose, n=result.verified)
    else:
        note = ""
    record("dry-run" if options.dry_run else ("ok" if result.complete else "incomplete"), result, note)
    return result
