"""The welcome shown at first start: the language, a cloud account (or not), a short tour of the pages.

Shown once, when ``Settings.first_run_done`` is false (run_gui, after the window appears); Finish,
Skip, Esc or a tour's "Open" button marks it seen. The Settings page shows it again on request.
Enter goes to the next step. The dialog talks to the window through ``ctx.navigate`` and, for
"Add a cloud account now", the Accounts page's own ``open_dialog`` (looked up on the window, never
imported: feature packages stay independent of this shared module).
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core import providers
from app.core.i18n import QT_TRANSLATE_NOOP, join_names
from app.ui import i18n
from app.ui.context import AppContext
from app.ui.main_window import PAGES
from app.ui.shared.plain import PlainLabel

log = logging.getLogger(__name__)

OBJECT_NAME = "firstRunDialog"
STEPS = 3
LANGUAGES = (("zh_CN", "中文"), ("en", "English"))  # each in its own language: never translated

# One line per page of the tour, in the order of the navigation.
PAGE_LINES: dict[str, str] = {
    "offers": QT_TRANSLATE_NOOP("FirstRunDialog", "Compare GPU prices across clouds. No account needed."),
    "advisor": QT_TRANSLATE_NOOP("FirstRunDialog",
                                 "Describe your job; get a GPU, a region and a cost estimate. No account needed."),
    "instances": QT_TRANSLATE_NOOP("FirstRunDialog", "Your cloud machines: start, stop, connect, what they cost."),
    "accounts": QT_TRANSLATE_NOOP("FirstRunDialog", "Cloud API keys, kept in the system keyring."),
    "hosts": QT_TRANSLATE_NOOP("FirstRunDialog", "Any SSH server: your lab's or a rented one. No account needed."),
    "sync": QT_TRANSLATE_NOOP("FirstRunDialog", "Keep a folder in step with a server: code up, results down."),
    "monitor": QT_TRANSLATE_NOOP("FirstRunDialog", "Live GPU use; guards that stop or report idle machines."),
    "vpn": QT_TRANSLATE_NOOP("FirstRunDialog", "Connect to a lab network with OpenVPN."),
    "settings": QT_TRANSLATE_NOOP("FirstRunDialog", "Language, currency, guards, tray; this welcome again."),
}


def should_show(ctx: AppContext) -> bool:
    return not ctx.settings.first_run_done


def show_welcome(ctx: AppContext, window: QWidget, step: int = 0) -> FirstRunDialog:
    """Open the welcome over ``window`` at ``step`` (0-based); the one already open is raised instead."""
    existing = window.findChild(QDialog, OBJECT_NAME)
    if isinstance(existing, FirstRunDialog) and not existing.closed:
        existing.go_to_step(step)
        existing.open()
        existing.raise_()
        return existing
    dialog = FirstRunDialog(ctx, window, step)
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


def maybe_show(ctx: AppContext, window: QWidget) -> FirstRunDialog | None:
    """The welcome, when the settings say it has not been seen."""
    return show_welcome(ctx, window) if should_show(ctx) else None


def mark_seen(ctx: AppContext) -> None:
    if ctx.settings.first_run_done:
        return
    ctx.settings.first_run_done = True
    try:
        ctx.save_settings()
    except OSError as exc:  # a read-only or full disk: it shows again next time, nothing worse
        log.warning("could not save settings: %s", exc)


def apply_language(ctx: AppContext, language: str) -> None:
    """Choose ``language`` ("zh_CN" | "en") for good: saved, installed, and the window rebuilt in it."""
    if ctx.settings.language != language:
        ctx.settings.language = language
        try:
            ctx.save_settings()
        except OSError as exc:
            log.warning("could not save settings: %s", exc)
    app = QCoreApplication.instance()
    if app is None or ctx.language == language:
        return
    ctx.language = i18n.install(app, i18n.resolve_language(language))
    ctx.language_changed.emit(ctx.language)


def _wrapped(text: str = "") -> QLabel:
    label = PlainLabel(text)
    label.setWordWrap(True)
    return label


class FirstRunDialog(QDialog):
    def __init__(self, ctx: AppContext, window: QWidget, step: int = 0) -> None:
        super().__init__(window)
        self.setObjectName(OBJECT_NAME)
        self.setModal(True)
        self.ctx = ctx
        self.main_window = window
        self.closed = False
        self._build()
        self._retranslate()
        self.go_to_step(step)
        ctx.language_changed.connect(self._on_ctx_language_changed)
        self._fit(window)

    # -- layout ----------------------------------------------------------------------------------
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 20, 24, 16)
        outer.setSpacing(10)
        self.step_label = PlainLabel(self)
        self.step_label.setObjectName("firstRunStep")
        self.step_label.setStyleSheet("color: palette(dark);")
        outer.addWidget(self.step_label)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self._build_language_step())
        self.stack.addWidget(self._build_account_step())
        self.stack.addWidget(self._build_tour_step())
        outer.addWidget(self.stack, 1)
        bar = QHBoxLayout()
        self.skip_button = QPushButton(self)
        self.skip_button.setObjectName("firstRunSkip")
        self.skip_button.clicked.connect(self.reject)
        self.back_button = QPushButton(self)
        self.back_button.clicked.connect(self._on_back_button_clicked)
        self.next_button = QPushButton(self)
        self.next_button.setObjectName("firstRunNext")
        self.next_button.clicked.connect(self._on_next_button_clicked)
        bar.addWidget(self.skip_button)
        bar.addStretch(1)
        bar.addWidget(self.back_button)
        bar.addWidget(self.next_button)
        outer.addLayout(bar)
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(False)  # Enter is "next" wherever the focus is
        self.next_button.setDefault(True)

    def _title(self, parent: QWidget) -> QLabel:
        label = PlainLabel(parent)
        label.setStyleSheet("font-size: 20px; font-weight: 600;")
        label.setWordWrap(True)
        return label

    def _build_language_step(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        self.welcome_title = self._title(page)
        self.welcome_text = _wrapped()
        layout.addWidget(self.welcome_title)
        layout.addWidget(self.welcome_text)
        layout.addSpacing(8)
        layout.addWidget(PlainLabel("语言 / Language", page))
        row = QHBoxLayout()
        self.language_group = QButtonGroup(page)
        self.language_group.setExclusive(True)
        self.language_buttons: dict[str, QPushButton] = {}
        for code, name in LANGUAGES:
            button = QPushButton(name, page)
            button.setObjectName(f"firstRunLanguage_{code}")
            button.setCheckable(True)
            button.setMinimumSize(140, 44)
            button.setStyleSheet("QPushButton { font-size: 16px; }"
                                 " QPushButton:checked { border: 2px solid palette(highlight); font-weight: 600; }")
            button.clicked.connect(lambda _=False, code=code: self._on_language_chosen(code))
            self.language_group.addButton(button)
            self.language_buttons[code] = button
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        self.language_note = _wrapped()
        self.language_note.setStyleSheet("color: palette(dark);")
        layout.addWidget(self.language_note)
        layout.addStretch(1)
        self._check_language()
        return page

    def _build_account_step(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        self.account_title = self._title(page)
        self.account_text = _wrapped()
        self.without_text = _wrapped()
        self.without_text.setObjectName("firstRunWithoutAccount")
        self.without_text.setStyleSheet(
            "background: palette(alternate-base); padding: 8px; border-radius: 4px;")
        layout.addWidget(self.account_title)
        layout.addWidget(self.account_text)
        row = QHBoxLayout()
        self.add_account_button = QPushButton(page)
        self.add_account_button.setMinimumHeight(34)
        self.add_account_button.setObjectName("firstRunAddAccount")
        self.add_account_button.clicked.connect(self._on_add_account_button_clicked)
        self.no_account_button = QPushButton(page)
        self.no_account_button.setObjectName("firstRunNoAccount")
        self.no_account_button.setMinimumHeight(34)
        self.no_account_button.clicked.connect(self._on_no_account_button_clicked)
        row.addWidget(self.add_account_button)
        row.addWidget(self.no_account_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addSpacing(6)
        layout.addWidget(self.without_text)
        layout.addStretch(1)
        return page

    def _build_tour_step(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        self.tour_title = self._title(page)
        self.tour_text = _wrapped()
        layout.addWidget(self.tour_title)
        layout.addWidget(self.tour_text)
        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(4)
        grid.setColumnStretch(1, 1)
        self.tour_rows: dict[str, tuple[QLabel, QLabel, QPushButton]] = {}
        known = set(self.main_window.page_ids()) if hasattr(self.main_window, "page_ids") else None
        for page_id, _module, _cls, _title in PAGES:
            if page_id not in PAGE_LINES or (known is not None and page_id not in known):
                continue
            name = PlainLabel(page)
            name.setStyleSheet("font-weight: 600;")
            line = _wrapped()
            button = QPushButton(page)
            button.setObjectName(f"firstRunOpen_{page_id}")
            button.clicked.connect(lambda _=False, page_id=page_id: self._on_open_page(page_id))
            r = len(self.tour_rows)
            grid.addWidget(name, r, 0)
            grid.addWidget(line, r, 1)
            grid.addWidget(button, r, 2)
            self.tour_rows[page_id] = (name, line, button)
        layout.addLayout(grid)
        layout.addStretch(1)
        return page

    def _fit(self, window: QWidget) -> None:
        width = 680
        self.resize(width, 400)
        height = max(420, self.sizeHint().height() + 12)  # the tallest step (the tour), not more
        if isinstance(window, QWidget) and window.isVisible():
            width = min(width, max(480, window.width() - 48))
            height = min(height, max(420, window.height() - 48))
        self.resize(width, height)

    def _retranslate(self) -> None:
        self.setWindowTitle(self.tr("Welcome to LabGPU"))
        self.welcome_title.setText(self.tr("Welcome to LabGPU"))
        self.welcome_text.setText(self.tr(
            "LabGPU compares cloud GPU prices, rents and watches GPU machines, and works with your own "
            "SSH servers. Three short steps: the language, a cloud account (optional), and a tour."))
        self.language_note.setText(self.tr("The window changes at once. You can change it later in Settings."))
        self.account_title.setText(self.tr("A cloud account (optional)"))
        self.account_text.setText(self.tr(
            "To rent GPU machines, LabGPU needs the API keys of a cloud account ({clouds}). "
            "They are kept in your system keyring.").format(
                clouds=join_names([providers.display_name(p) for p in providers.launchable_ids()], "or")))
        self.add_account_button.setText(self.tr("Add a cloud account now…"))
        self.no_account_button.setText(self.tr("Skip: no account for now"))
        self.without_text.setText(self.tr(
            "Without an account you can still compare GPU offers, use the advisor and its cost "
            "estimator, and add any SSH server on the Hosts page (then sync, monitor and guard it)."))
        self.tour_title.setText(self.tr("A short tour"))
        self.tour_text.setText(self.tr("The pages on the left, one line each. Open one to start there."))
        titles = {p[0]: QCoreApplication.translate(p[2], p[3]) for p in PAGES}
        for page_id, (name, line, button) in self.tour_rows.items():
            name.setText(titles[page_id])
            line.setText(QCoreApplication.translate("FirstRunDialog", PAGE_LINES[page_id]))
            button.setText(self.tr("Open"))
            button.setToolTip(self.tr("Go to {page} and close this welcome").format(page=titles[page_id]))
        self.skip_button.setText(self.tr("Skip"))
        self.skip_button.setToolTip(self.tr("Close the welcome (Esc). Settings can show it again."))
        self.back_button.setText(self.tr("Back"))
        self._update_buttons()

    def _update_buttons(self) -> None:
        step = self.stack.currentIndex()
        self.step_label.setText(self.tr("Step {n} of {total}").format(n=step + 1, total=STEPS))
        self.back_button.setEnabled(step > 0)
        self.next_button.setText(self.tr("Finish") if step == STEPS - 1 else self.tr("Next"))

    def _check_language(self) -> None:
        button = self.language_buttons.get(self.ctx.language)
        if button is not None:
            button.setChecked(True)

    # -- steps -----------------------------------------------------------------------------------
    def step(self) -> int:
        return self.stack.currentIndex()

    def go_to_step(self, step: int) -> None:
        self.stack.setCurrentIndex(max(0, min(STEPS - 1, step)))
        self._update_buttons()
        self.next_button.setFocus()

    @Slot()
    def _on_next_button_clicked(self) -> None:
        if self.step() >= STEPS - 1:
            self.accept()
        else:
            self.go_to_step(self.step() + 1)

    @Slot()
    def _on_back_button_clicked(self) -> None:
        self.go_to_step(self.step() - 1)

    def _on_language_chosen(self, code: str) -> None:
        apply_language(self.ctx, code)
        self._check_language()

    @Slot(str)
    def _on_ctx_language_changed(self, _language: str) -> None:
        self._retranslate()
        self._check_language()

    @Slot()
    def _on_no_account_button_clicked(self) -> None:
        self.go_to_step(2)

    @Slot()
    def _on_add_account_button_clicked(self) -> None:
        """The Accounts page with its Add dialog open; the welcome comes back at the tour when it closes."""
        self.go_to_step(2)
        self.hide()
        self.ctx.navigate("accounts")
        pages = getattr(self.main_window, "pages", None)
        page = pages["accounts"] if pages is not None and "accounts" in pages else None
        opener = getattr(page, "open_dialog", None)
        add_button = getattr(page, "add_button", None)
        opened = None
        if callable(opener) and (add_button is None or add_button.isEnabled()):
            opened = opener()
        if isinstance(opened, QDialog):
            opened.finished.connect(self._come_back)
        else:  # no keyring (the page says what to install) or no Accounts page: back to the tour now
            self._come_back()

    @Slot()
    def _come_back(self, *_args: object) -> None:
        if not self.closed:
            self.open()

    @Slot()
    def _on_open_page(self, page_id: str) -> None:
        self.ctx.navigate(page_id)
        self.accept()

    def done(self, result: int) -> None:  # accept (Finish, Open), reject (Skip, Esc, the close box)
        self.closed = True
        mark_seen(self.ctx)
        try:
            self.ctx.language_changed.disconnect(self._on_ctx_language_changed)
        except (RuntimeError, TypeError):
            pass
        super().done(result)


def render(dialog: FirstRunDialog, window: QWidget) -> Any:
    """The window with the dialog drawn centred over it (a QPixmap), for ``--screenshot --first-run``."""
    from PySide6.QtGui import QColor, QPainter

    shot = window.grab()
    over = dialog.grab()
    painter = QPainter(shot)
    painter.fillRect(shot.rect(), QColor(0, 0, 0, 48))  # the window behind, dimmed
    painter.drawPixmap(max(0, (shot.width() - over.width()) // 2), max(0, (shot.height() - over.height()) // 2),
                       over)
    painter.end()
    return shot
