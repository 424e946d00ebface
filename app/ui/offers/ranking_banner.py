"""The banner above the offers table while an advisor ranking is shown: its title, how many offers it
recommends and excludes, a link to the exclusions and "Clear ranking".

Its strings keep the "OffersPage" translation context they had as part of the page.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QMessageBox, QPushButton, QWidget

from app.core.models import Ranking
from app.ui.shared.plain import esc, plain_box, rich_label

_ADVISOR_PREFIX = re.compile(r"^\s*(Advisor|选型顾问|选型助手)\s*[:：]\s*")


class RankingBanner(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rankingBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("QFrame#rankingBanner { background: palette(alternate-base);"
                           " border: 1px solid palette(highlight); border-radius: 4px; }")
        banner_row = QHBoxLayout(self)
        banner_row.setContentsMargins(10, 6, 10, 6)
        self.label = rich_label(parent=self)  # markup the UI composes; the title is escaped
        self.label.setObjectName("rankingBannerText")
        self.label.setWordWrap(True)
        banner_row.addWidget(self.label, 1)
        self.clear_button = QPushButton(QCoreApplication.translate("OffersPage", "Clear ranking"), self)
        banner_row.addWidget(self.clear_button)
        self.hide()

    def show_ranking(self, ranking: Ranking, recommended: int) -> None:
        """Show the banner for `ranking`, of whose offers `recommended` are in the table."""
        self.label.setText(
            QCoreApplication.translate(
                "OffersPage",
                "<b>Advisor: {title}</b> — {recommended} recommended, {excluded} excluded "
                "(<a href=\"excluded\">show</a>)").format(
                    title=esc(_strip_advisor_prefix(ranking.title)), recommended=str(recommended),
                    excluded=str(len(ranking.excluded))))
        self.show()

    def exclusions_text(self, ranking: Ranking | None) -> str:
        if ranking is None:
            return ""
        lines = [f"{'/'.join(key)}: {reason}" for key, reason in ranking.excluded]
        return "\n".join(lines) if lines else QCoreApplication.translate("OffersPage", "Nothing was excluded.")

    def show_exclusions(self, ranking: Ranking, parent: QWidget) -> None:
        """The excluded offers and why, in a dialog over `parent`."""
        box = QMessageBox(QMessageBox.Icon.Information,
                          QCoreApplication.translate("OffersPage", "Excluded by the advisor"),
                          QCoreApplication.translate("OffersPage", "Excluded offers and why: {count}").format(
                              count=str(len(ranking.excluded))),
                          QMessageBox.StandardButton.Close, parent)
        box.setObjectName("excludedDialog")
        box.setInformativeText(self.exclusions_text(ranking))
        plain_box(box).open()


def _strip_advisor_prefix(title: str) -> str:
    """The banner says "Advisor: <title>"; a title that already starts so is not prefixed twice."""
    return _ADVISOR_PREFIX.sub("", title, count=1)


