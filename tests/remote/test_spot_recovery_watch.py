"""`labgpu watch` goes on with a spot recovery another watcher left half done (a lab server runs the
recovery for everyone's instances with no laptop open): the window's watcher saved the checkpoint and
closed; `labgpu watch`, a real process, takes the lock, relaunches the same offer once and resumes the job,
each step a JSON line on its output. Waits are on its output lines, never on a sleep."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

from app.core.paths import default_paths
from app.core.recoverypolicy import STEP_RESUMED, RecoveryProgressStore
from app.core.runs import RunStore
from app.watch import Watcher
from tests.e2e.instance_support import ROOT
from tests.remote.test_spot_recovery import _notice, _policy, _runs, spot  # noqa: F401 - the fixture


def test_labgpu_watch_goes_on_with_a_recovery_left_half_done(tencent_service, tencent_server, spot, tmp_path):  # noqa: F811
    store = tencent_service.store
    _policy(store, spot.id, tmp_path, max_attempts=2)
    before = _runs(tencent_server)
    w = Watcher(default_paths(), store=store, sleep=lambda _s: None)

    def closing(ev) -> None:
        if str(ev.kind) == "recovery-saved":
            w._closed.set()  # the window closes right after the save

    w.notify = closing
    try:
        w.spot_notice(spot.id, _notice(), wait=True)
    finally:
        w.close()
    assert RecoveryProgressStore(store).get(spot.id).step == "relaunching"
    proc = subprocess.Popen([sys.executable, "-m", "app", "watch", "--json", "--period", "0.2"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=dict(os.environ))
    kinds: list[str] = []
    timer = threading.Timer(120, proc.kill)
    timer.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            kind = str(json.loads(line).get("kind"))
            kinds.append(kind)
            if kind in ("recovery-resumed", "recovery-gave-up"):
                break
    finally:
        timer.cancel()
        proc.terminate()
        proc.wait(60)
    assert kinds[-2:] == ["recovery-relaunched", "recovery-resumed"], kinds
    rec = RecoveryProgressStore(store).get(spot.id)
    assert rec is not None and rec.step == STEP_RESUMED
    assert _runs(tencent_server) - before == 1
    assert RunStore(store).run_of(spot.id).instance_ids == (spot.id, rec.new_instance)
