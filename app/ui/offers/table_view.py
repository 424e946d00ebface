"""The offers table view: whole-row single selection, no wrapping, movable columns, and a clickable
sort indicator (the sorting itself is the page's: fast, unknown values last in both directions)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget


class OffersTableView(QTableView):
    def __init__(self, model: QAbstractItemModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("offersTable")
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(26)
        header = self.horizontalHeader()
        header.setSectionsMovable(True)
        header.setHighlightSections(False)
        header.setStretchLastSection(True)  # the last column shown takes what the others leave
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # Sorting is ours (fast, unknown values last in both directions), not QTableView's.
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
