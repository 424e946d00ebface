"""Small pieces several pages share: a list-of-rows table model and the record-table look."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLayout,
    QLayoutItem,
    QPushButton,
    QSplitter,
    QTableView,
    QWidget,
)

if TYPE_CHECKING:
    from app.core.settings import Settings


class RowsTableModel(QAbstractTableModel):
    """A table over ``self.rows`` with one column per entry of ``COLUMNS``; subclasses give
    ``headers()`` (translated titles, same order) and ``data()``."""

    COLUMNS: Sequence[str] = ()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[Any] = []

    def headers(self) -> list[str]:
        raise NotImplementedError

    def row_changed(self, row: int) -> None:
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers()[section]
        return None


def toolbar_button(owner: QWidget, text: str, slot: Callable[[], object], bar: QLayout,
                   tip: str = "") -> QPushButton:
    """A push button of ``owner`` in the toolbar layout ``bar``, calling ``slot``, with a tooltip."""
    b = QPushButton(text, owner)
    b.clicked.connect(slot)
    if tip:
        b.setToolTip(tip)
    bar.addWidget(b)
    return b


def configure_record_table(table: QTableView) -> None:
    """Whole-row single selection, read-only, no row numbers, columns sized to their contents."""
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)


# -- a row of buttons that wraps ------------------------------------------------------------------
class FlowLayout(QLayout):
    """Lays widgets left to right and starts a new row when the next one would not fit, so a toolbar
    of buttons never cuts a label at a narrow window (1024×640) or in a longer language."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt API
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt API
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt API
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt API
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt API
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self.minimumSize()

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt API
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _arrange(self, rect: QRect, move: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, row_height = area.x(), area.y(), 0
        for item in self._items:
            w = item.widget()
            if w is not None and w.isHidden():
                continue
            hint = item.sizeHint()
            if x > area.x() and x + hint.width() > area.right() + 1:
                x, y, row_height = area.x(), y + row_height + self._spacing, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._spacing
            row_height = max(row_height, hint.height())
        return y + row_height - rect.y() + m.bottom()


def remember_splitter(splitter: QSplitter, settings: Settings, name: str) -> None:
    """Give `splitter` the sizes it had last time (settings.splitter_states[name]) and keep them when it is
    dragged; the settings are written to disk with the window's (on close)."""
    from PySide6.QtCore import QByteArray

    splitter.setObjectName(splitter.objectName() or f"splitter_{name}")
    saved = (getattr(settings, "splitter_states", None) or {}).get(name)
    if saved:
        splitter.restoreState(QByteArray.fromBase64(saved.encode()))

    def _store(*_args: object) -> None:
        states = dict(getattr(settings, "splitter_states", None) or {})
        states[name] = bytes(splitter.saveState().toBase64().data()).decode()
        settings.splitter_states = states

    splitter.splitterMoved.connect(_store)
