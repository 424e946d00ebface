"""The Monitor page's tuning-hint strip: each hint a host earns is shown once per run, until dismissed.

Its strings keep the "MonitorPage" translation context they had as part of the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from app.ui import theme
from app.ui.shared.plain import esc, rich_label

shown_hints: set[tuple[str, str]] = set()  # (host, hint id): shown once per run, across page rebuilds


class HintsBox(QFrame):
    """The yellow strip above the graphs; hidden while it holds no hint."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hints: list[tuple[str, Any]] = []  # (host, Hint) shown now
        self.setObjectName("hintsBox")
        self.setStyleSheet(f"QFrame#hintsBox {{ background: {theme.css('note_bg')}; "
                           f"border: 1px solid {theme.css('note_border')}; border-radius: 3px; }}")
        self.hints_layout = QVBoxLayout(self)
        self.hints_layout.setContentsMargins(8, 4, 8, 4)
        self.hide()

    def check(self, recent: Mapping[str, Iterable[Any]], watched: Iterable[str]) -> None:
        """Show the hints the recent samples of each watched host earn and that were not shown yet."""
        from app.core.guards import tuning_hints

        hosts = set(watched)
        for host, samples in recent.items():
            if host not in hosts:
                continue
            for hint in tuning_hints(list(samples)):
                key = (host, hint.id)
                if key in shown_hints:
                    continue
                shown_hints.add(key)
                self.add(host, hint)

    def add(self, host: str, hint: Any) -> None:
        title = QCoreApplication.translate("LabGPU", hint.title)
        try:
            text = QCoreApplication.translate("LabGPU", hint.text).format(**hint.params)
        except (KeyError, IndexError, ValueError):
            text = QCoreApplication.translate("LabGPU", hint.text)
        row = QWidget(self)
        row.setObjectName(f"hint:{host}:{hint.id}")
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        # markup the UI composes: the host name (and the hint's words) are escaped
        label = rich_label(QCoreApplication.translate("MonitorPage", "<b>{host}: {title}</b> {text}").format(
            host=esc(host), title=esc(title), text=esc(text)), row)
        label.setWordWrap(True)
        h.addWidget(label, 1)
        close = QPushButton(QCoreApplication.translate("MonitorPage", "Dismiss"), row)
        close.setObjectName("dismissHint")
        h.addWidget(close)
        entry = (host, hint)
        self.hints.append(entry)

        def dismiss() -> None:
            if entry in self.hints:
                self.hints.remove(entry)
            row.hide()
            row.deleteLater()
            self.setVisible(bool(self.hints))
            self.changed.emit()

        close.clicked.connect(dismiss)
        self.hints_layout.addWidget(row)
        self.show()
        self.changed.emit()
