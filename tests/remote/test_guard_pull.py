"""The guard's "before stop" pulls: `set_guard` saves them as the host's download pairs, and the pull
the Watcher is handed (app.usecases.guards.watcher_pull) fetches them from a real sshd and tells the
views (Change.SYNC), so the sync page shows the guard's pull when it happens."""

from __future__ import annotations

import pytest

from app.core.guards import GuardConfig, GuardStore
from app.core.paths import default_paths
from app.core.store import Store
from app.usecases.changes import Change, Changes
from app.usecases.guards import WatchdogResult, set_guard, watcher_pull
from app.watch.watcher import Watcher
from tests.remote.gpu_support import save_host

pytestmark = pytest.mark.usefixtures("private_home")


def test_the_guards_pull_runs_through_the_watcher_and_tells_the_views(sshd, tmp_path):
    paths = default_paths()
    store = Store(paths=paths)
    save_host(sshd, "pullhost")
    remote = sshd.remote_dir("guard-pull")
    (remote / "ckpt.pt").write_bytes(b"weights " * 1000)
    local = tmp_path / "checkpoints"
    out = set_guard(paths, store, "pullhost", GuardConfig(on_idle="notify"), pulls=[(str(remote), str(local))])
    assert out.watchdog == WatchdogResult.NONE and GuardStore(store).get("pullhost") == out.config
    # the same pull given again is not a second pair
    set_guard(paths, store, "pullhost", out.config, pulls=[(str(remote), str(local))])

    changes = Changes()
    seen: list[frozenset[Change]] = []
    changes.subscribe(seen.append)
    watcher = Watcher(paths, store=store, pull=watcher_pull(paths, store, changes))
    try:
        assert watcher.run_sync("pullhost", "before-stop") == 1
    finally:
        watcher.close()
    assert (local / "ckpt.pt").read_bytes() == b"weights " * 1000
    assert any(Change.SYNC in kinds for kinds in seen)
