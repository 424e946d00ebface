"""The one way to run blocking work (keyring, SDK calls, SSH) off the GUI thread.

Pages and services call ``ctx.runner.run(owner, fn, *args, on_done=, on_error=, on_progress=, name=)``:
``fn`` runs on a pool thread and its callbacks run on the GUI thread, only while ``owner`` (the
widget or service that asked) is alive and not retired, and only if the task was not cancelled.
A page rebuilt on a language change is retired (:func:`retire`) before it is deleted, so a late
result never touches a deleted widget. Workers never touch widgets.

``Task.cancel()`` drops the callbacks and sets the cancel flag: a function that takes a ``task``
keyword gets its Task, to report progress and check ``task.cancelled`` / ``task.wait_cancel()``
and stop early. ``Task.stop()`` only sets the flag (the outcome is still delivered).

``runner.submit(fn, ...)`` is the owner-less primitive underneath (signals, no guard).
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger(__name__)

T = TypeVar("T")

RETIRED = "labgpuRetired"  # dynamic property set on a widget that is about to be deleted


def retire(obj: QObject) -> None:
    """Mark ``obj`` (and so everything under it) as gone for task callbacks, before ``deleteLater``."""
    obj.setProperty(RETIRED, True)


def alive(obj: QObject | None) -> bool:
    """Whether ``obj``'s C++ object exists and neither it nor a parent was retired."""
    while obj is not None:
        if not shiboken6.isValid(obj) or obj.property(RETIRED):
            return False
        obj = obj.parent()
    return True


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
        self._dropped = False
        self._owner: weakref.ref[QObject] | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def cancel_event(self) -> threading.Event:
        """Set on stop/cancel: for workers that take an Event (``cancel_event=task.cancel_event``)."""
        return self._cancel

    def cancel(self) -> None:
        """Stop cooperative work and drop the callbacks given to ``run``: none of them runs after this."""
        self._dropped = True
        self._cancel.set()

    def stop(self) -> None:
        """Ask cooperative work to stop early; its outcome (often a Cancelled error) is still delivered."""
        self._cancel.set()

    @property
    def dropped(self) -> bool:
        """Cancelled, or its owner is gone: callbacks given to ``run`` will not run."""
        return self._dropped or not self._owner_alive()

    def _owner_alive(self) -> bool:
        if self._owner is None:
            return True
        owner = self._owner()
        return owner is not None and alive(owner)

    def _guard(self, callback: Callable[[T], object]) -> Callable[[T], None]:
        def deliver(value: T) -> None:
            if self.dropped:
                log.debug("task %s: callback dropped (cancelled or owner gone)", self.name)
                return
            callback(value)

        return deliver

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

    def submit(self, fn: Callable[..., T], *args: Any, name: str = "",
               on_done: Callable[[T], object] | None = None,
               on_error: Callable[[BaseException], object] | None = None,
               on_progress: Callable[[Any], object] | None = None, **kwargs: Any) -> Task:
        """The owner-less primitive: callbacks connected as they are (prefer :meth:`run`)."""
        task = Task(name or getattr(fn, "__name__", "task"))
        return self._start(task, fn, args, kwargs, on_done, on_error, on_progress)

    def _start(self, task: Task, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any],
               on_done: Callable[[T], object] | None, on_error: Callable[[BaseException], object] | None,
               on_progress: Callable[[Any], object] | None) -> Task:
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

    def run(self, owner: QObject | None, fn: Callable[..., T], *args: Any, name: str = "",
            on_done: Callable[[T], object] | None = None,
            on_error: Callable[[BaseException], object] | None = None,
            on_progress: Callable[[Any], object] | None = None, **kwargs: Any) -> Task:
        """Run ``fn(*args, **kwargs)`` on a pool thread for ``owner``; see the module docstring.

        The callbacks run on the GUI thread unless the task was cancelled or ``owner`` was deleted
        or retired meanwhile (then they are dropped, silently). ``owner=None``: no owner to outlive.
        ``on_done`` gets what ``fn`` returns, so its parameter type is checked against ``fn``'s return type
        (the arguments are not: ``fn`` may take the runner's ``task`` keyword, which callers never pass).
        """
        task = Task(name or getattr(fn, "__name__", "task"))
        if owner is not None:
            task._owner = weakref.ref(owner)
        guard = task._guard
        return self._start(task, fn, args, kwargs, guard(on_done) if on_done else None,
                           guard(on_error) if on_error else None, guard(on_progress) if on_progress else None)

    def _on_task_done(self) -> None:
        task = self.sender()
        if isinstance(task, Task):
            with self._lock:
                self._active.discard(task)

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
