"""The Sync page's preview table model: what a sync will do, one row per change."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, Qt

from app.core.i18n import translate
from app.core.syncplan import CONFLICT, COPY, DELETE, MKDIR, REASONS, UPDATE, PlanItem
from app.core.units import human_bytes
from app.ui import theme
from app.ui.widgets import RowsTableModel

MAX_PREVIEW_ROWS = 5000


class PreviewModel(RowsTableModel):
    """What a sync will do, one row per change (capped for very large trees)."""

    COLUMNS = ("action", "path", "size", "why")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.total = 0

    @property
    def items(self) -> list[PlanItem]:
        return self.rows

    def set_items(self, items: list[PlanItem]) -> None:
        self.beginResetModel()
        self.total = len(items)
        self.rows = items[:MAX_PREVIEW_ROWS]
        self.endResetModel()

    def headers(self) -> list[str]:
        return [
            QCoreApplication.translate("PreviewModel", "Action"),
            QCoreApplication.translate("PreviewModel", "Path"),
            QCoreApplication.translate("PreviewModel", "Size"),
            QCoreApplication.translate("PreviewModel", "Why"),
        ]

    @staticmethod
    def action_text(action: str) -> str:
        return {
            COPY: QCoreApplication.translate("PreviewModel", "Copy"),
            UPDATE: QCoreApplication.translate("PreviewModel", "Update"),
            DELETE: QCoreApplication.translate("PreviewModel", "Delete"),
            MKDIR: QCoreApplication.translate("PreviewModel", "New folder"),
            CONFLICT: QCoreApplication.translate("PreviewModel", "Skip"),
        }.get(action, action)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        item = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return self.action_text(item.action)
            if col == 1:
                return item.path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            if col == 2:
                return human_bytes(item.size) if item.size else ""
            if col == 3:
                reason = REASONS.get(item.reason, item.reason)
                return translate(reason) if reason else ""
        if role == Qt.ItemDataRole.ForegroundRole and col == 0:
            return {DELETE: theme.color("error"), CONFLICT: theme.color("warning"), COPY: theme.color("ok")}.get(
                item.action
            )
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

