"""The monitor page's training steps/s (app/ui/monitor/page.py): the watched hosts' running jobs are read
from the store every 5 s (the jobs' refreshes write them there) and drawn on each host's steps plot."""

from __future__ import annotations

import logging
from collections import deque
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QTimer

if TYPE_CHECKING:
    from PySide6.QtCore import QObject

    from app.ui.context import AppContext
    from app.ui.monitor.host_panel import HostPanel

log = logging.getLogger(__name__)

JOBS_MS = 5_000  # the training jobs' steps/s are read from the store this often (the refreshes write them)
JOB_POINTS = 20_000  # steps/s points kept per job


class JobStepsPart:
    """MonitorPage's steps/s part (a mixin): ``jobs_timer`` calls :meth:`load_steps`; what it reads
    is kept in ``steps`` and shown on the panels of the watched hosts."""

    if TYPE_CHECKING:  # the page's, which this part reads
        ctx: AppContext
        panels: dict[str, HostPanel]
        following: bool
        paused: bool
        _closed: bool
        _programmatic: int

        def _set_x(self, t0: float, t1: float) -> None: ...
        def _live_range(self) -> tuple[float, float]: ...

    def _init_steps(self) -> None:
        self.steps: dict[str, dict[str, deque[tuple[float, float]]]] = {}  # host → job → (time, steps/s)
        self._jobs_task: Any = None
        self.jobs_timer = QTimer(cast("QObject", self))  # the page this part is mixed into
        self.jobs_timer.setInterval(JOBS_MS)
        self.jobs_timer.timeout.connect(self.load_steps)

    def load_steps(self) -> Any:
        """Read the watched hosts' training jobs from the store (a task) and plot their steps/s."""
        if self._closed or self._jobs_task is not None or not self.panels:
            return None
        hosts = set(self.panels)

        def read() -> list[tuple[str, str, float, float]]:
            from app.core.jobs import JobStore
            from app.core.vocab import JobState

            return [(r.host, r.id, float(r.checked_at), float(r.steps_per_s)) for r in JobStore(self.ctx.store).all()
                    if r.host in hosts and r.state == JobState.RUNNING and r.checked_at is not None
                    and r.steps_per_s is not None]

        self._jobs_task = self.ctx.runner.run(cast("QObject", self), read, name="monitor-steps",
                                              on_done=self._on_steps_loaded, on_error=self._on_steps_failed)
        return self._jobs_task

    def _on_steps_loaded(self, points: list[tuple[str, str, float, float]]) -> None:
        import numpy as np

        self._jobs_task = None
        changed: set[str] = set()
        for host, job, t, v in points:
            series = self.steps.setdefault(host, {}).setdefault(job, deque(maxlen=JOB_POINTS))
            if not series or series[-1][0] < t:
                series.append((t, v))
                changed.add(host)
        self._programmatic += 1  # a new plot row and new data are not the user zooming
        try:
            for host in changed:
                panel = self.panels.get(host)
                if panel is not None:
                    panel.plots.show_steps({job: (np.array([p[0] for p in s]), np.array([p[1] for p in s]))
                                            for job, s in self.steps[host].items()})
        finally:
            self._programmatic -= 1
        if changed and self.following and not self.paused:
            self._set_x(*self._live_range())  # the first steps plot joins the live window

    def _on_steps_failed(self, exc: object) -> None:
        self._jobs_task = None
        log.info("monitor: the jobs' steps/s could not be read: %s", exc)
