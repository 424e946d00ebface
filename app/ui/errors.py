"""One global error dialog: every error is logged, and shown to the user once."""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal, Slot
from shiboken6 import isValid

from app.core.damage import DamageNotice
from app.core.errors import LabGpuError
from app.ui.shared.textcap import cap

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox, QWidget

log = logging.getLogger(__name__)


def error_key(exc: BaseException) -> str:
    if isinstance(exc, LabGpuError):
        return exc.key()
    return f"{type(exc).__name__}:{exc}"


def describe(exc: BaseException) -> tuple[str, str]:
    """(message, next step) for any exception, translated where the core marked it."""
    if isinstance(exc, LabGpuError):
        return exc.text(), exc.hint()
    return f"{type(exc).__name__}: {exc}", ""


class ErrorReporter(QObject):
    """Shows errors in a dialog, each distinct error once per run. Thread-safe via a signal."""

    reported = Signal(object)
    shown = Signal(str)  # the key of an error that got a dialog (tests listen)
    damage_reported = Signal(object)  # a DamageNotice, from any thread

    def __init__(self, parent_widget: QWidget | None = None) -> None:
        super().__init__()
        self.parent_widget = parent_widget
        self._seen: set[str] = set()
        self._open: QMessageBox | None = None
        self.interactive = True
        self.reported.connect(self._on_reported)
        self.damage_reported.connect(self._on_damage)

    def report(self, exc: BaseException, context: str = "") -> None:
        """Callable from any thread."""
        if not isinstance(exc, LabGpuError):
            log.error("unexpected error %s: %s", context, "".join(
                traceback.format_exception(type(exc), exc, exc.__traceback__)))
        self.reported.emit(exc)

    def seen(self) -> set[str]:
        return set(self._seen)

    @Slot(object)
    def _on_reported(self, exc: BaseException) -> None:
        key = error_key(exc)
        if key in self._seen:
            return
        self._seen.add(key)
        message, hint = describe(exc)
        from PySide6.QtWidgets import QMessageBox  # here: this module is imported before the window shows

        box = QMessageBox(self._parent())
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(self.tr("LabGPU — something went wrong"))
        # An error's words may come from a host or a cloud (nvidia-smi's line, an SSH banner, a file
        # name): plain text, capped, so markup is shown as typed and never loads or links anything.
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(cap(message))
        if not isinstance(exc, LabGpuError):
            hint = self.tr("This is a bug in LabGPU. The details are in the log file; "
                           "the app keeps running.")
        if hint:
            box.setInformativeText(cap(hint))
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        self._open = box
        self.shown.emit(key)
        if self.interactive:
            box.open()

    def _parent(self) -> QWidget | None:
        """The window the message belongs to; None once that window is gone (closed at quit, or one of the
        several a test run builds), so a late notice still shows on its own instead of raising."""
        widget = self.parent_widget
        return widget if widget is not None and isValid(widget) else None

    def report_damage(self, notice: DamageNotice) -> None:
        """Damaged local state that LabGPU set aside (callable from any thread)."""
        print(f"labgpu: {notice.one_line()}", file=sys.stderr, flush=True)
        try:
            self.damage_reported.emit(notice)
        except RuntimeError:  # this window is gone (tests build several); the line above was the message
            pass

    def damage_text(self, notice: DamageNotice) -> tuple[str, str]:
        """(message, what to do) for a notice, in the user's language."""
        copy = str(notice.copy) if notice.copy else self.tr("(no copy could be made)")
        if notice.kind == "database":
            return (
                self.tr("LabGPU's database was damaged ({reason}) and has been replaced by a fresh, empty one. "
                        "Your saved hosts, sync pairs and history, cloud account entries and the instance "
                        "ledger are not in it; secrets in the keyring are untouched.").format(reason=notice.reason),
                self.tr("The damaged file is kept as {copy}. Add your hosts and accounts again; keep the copy "
                        "if you need to recover something from it.").format(copy=copy),
            )
        if notice.kind == "settings-fields":
            return (
                self.tr("Some settings had wrong values and were reset to their defaults: {fields}.").format(
                    fields=", ".join(notice.fields)),
                self.tr("Your other settings are kept. The original file is kept as {copy}.").format(copy=copy),
            )
        if notice.kind == "settings-newer":
            return (
                self.tr("Your settings were written by a newer LabGPU ({reason}). They are used read-only; "
                        "changes you make now are not saved.").format(reason=notice.reason),
                self.tr("Update LabGPU to the newest version."),
            )
        return (
            self.tr("The settings file could not be read ({reason}); LabGPU uses the default settings.").format(
                reason=notice.reason),
            self.tr("The unreadable file is kept as {copy}.").format(copy=copy),
        )

    @Slot(object)
    def _on_damage(self, notice: DamageNotice) -> None:
        key = f"damage:{notice.kind}:{notice.path}:{notice.copy}"
        if key in self._seen:
            return
        self._seen.add(key)
        message, hint = self.damage_text(notice)
        from PySide6.QtWidgets import QMessageBox  # here: this module is imported before the window shows

        box = QMessageBox(self._parent())
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(self.tr("LabGPU — damaged data set aside"))
        box.setTextFormat(Qt.TextFormat.PlainText)  # a file name or a reason is data
        box.setText(cap(message))
        box.setInformativeText(cap(hint))
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        self._open = box
        self.shown.emit(key)
        if self.interactive:
            box.open()

    def install_hooks(self) -> None:
        def excepthook(etype: type[BaseException], value: BaseException,
                       tb: TracebackType | None) -> None:
            if issubclass(etype, KeyboardInterrupt):
                sys.__excepthook__(etype, value, tb)
                return
            self.report(value, "uncaught")

        def thread_hook(args: threading.ExceptHookArgs) -> None:
            if args.exc_value is not None:
                self.report(args.exc_value, f"in thread {args.thread.name if args.thread else '?'}")

        sys.excepthook = excepthook
        threading.excepthook = thread_hook
