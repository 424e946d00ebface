"""The one way to run blocking work (keyring, SDK calls, SSH) off the GUI thread.

``runner.submit(fn, ...)`` runs ``fn`` on a pool thread and delivers ``finished(result)``,
``failed(error)`` and ``progress_changed(payload)`` on the GUI thread. Workers never touch widgets.
A function that takes a ``task`` keyword gets its Task, to report progress and check
``task.cancelled``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger(__name__)


class Task(QObject):
    finished = Signal(object)
    failed = Signal(object)
    progress_changed = Signal(object)
    done = Signal()  # after finished or failed, whichever came

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self._cancel = threading.Event()
        self.is_done = False
        self.result: Any = None
        self.error: BaseException | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def report(self, payload: Any) -> None:
        """Called from the worker: forwarded to the GUI thread."""
        self.progress_changed.emit(payload)

    def wait_cancel(self, seconds: float) -> bool:
        """Sleep that wakes at once on cancel; True if cancelled."""
        return self._cancel.wait(seconds)


class _Runnable(QRunnable):
    def __init__(self, task: Task, fn: Callable[..., Any], args: tuple[Any, ...],
                 kwargs: dict[str, Any], runner: TaskRunner) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self.task, self.fn, self.args, self.kwargs, self.runner = task, fn, args, kwargs, runner

    def run(self) -> None:
        threading.current_thread().name = f"task:{self.task.name}"
        try:
            result = self.fn(*self.args, **self.kwargs)
        except BaseException as exc:  # noqa: BLE001 - delivered to the GUI as `failed`
            if not isinstance(exc, Exception):
                log.warning("task %s ended by %r", self.task.name, exc)
            else:
                log.info("task %s failed: %s", self.task.name, exc, exc_info=not _is_user_error(exc))
            self.task.error = exc
            self.task.is_done = True
            self.task.failed.emit(exc)
        else:
            self.task.result = result
            self.task.is_done = True
            self.task.finished.emit(result)
        finally:
            self.task.done.emit()


def _takes_task(fn: Callable[..., Any]) -> bool:
    """Whether fn has a parameter named `task` (cheaper than inspect.signature at start-up)."""
    target = getattr(fn, "__func__", fn)
    code = getattr(target, "__code__", None)
    if code is None:
        import inspect

        try:
            return "task" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            return False
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    return "task" in names


def _is_user_error(exc: BaseException) -> bool:
    from app.core.errors import LabGpuError

    return isinstance(exc, LabGpuError)


class TaskRunner(QObject):
    def __init__(self, max_threads: int = 8, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self._active: set[Task] = set()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], *args: Any, name: str = "",
               on_done: Callable[[Any], None] | None = None,
               on_error: Callable[[BaseException], None] | None = None,
               on_progress: Callable[[Any], None] | None = None, **kwargs: Any) -> Task:
        task = Task(name or getattr(fn, "__name__", "task"))
        if on_done:
            task.finished.connect(on_done)
        if on_error:
            task.failed.connect(on_error)
        if on_progress:
            task.progress_changed.connect(on_progress)
        if _takes_task(fn):
            kwargs["task"] = task
        with self._lock:
            self._active.add(task)
        # The runner holds the task until `done` has been delivered on the GUI thread, so callers may
        # drop their reference without losing the queued finished/failed signals.
        task.done.connect(self._on_task_done)
        self.pool.start(_Runnable(task, fn, args, kwargs, self))
        return task

    def _on_task_done(self) -> None:
        task = self.sender()
        with self._lock:
            self._active.discard(task)  # type: ignore[arg-type]

    def active(self) -> list[Task]:
        """Tasks not yet finished (a finished task whose signals are still queued is not active)."""
        with self._lock:
            return [t for t in self._active if not t.is_done]

    def settled(self) -> bool:
        """True when no task is running and every finished task's callbacks have run on the GUI thread
        (a callback that starts another task keeps the runner unsettled)."""
        with self._lock:
            return not self._active

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Ask every task to stop and wait; True when all ended in time."""
        for t in self.active():
            t.cancel()
        return bool(self.pool.waitForDone(timeout_ms))
