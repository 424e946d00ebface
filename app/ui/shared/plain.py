"""Text that is not a fixed UI string is shown as plain data, never as Qt rich text.

A rented host, a cloud API, a file name or an error message can carry markup: in a QLabel or
QMessageBox left in Qt's default ``AutoText`` format, ``<img src=file:///dev/zero>`` makes Qt read
the device until the process runs out of memory (and with it every guard), and ``<a href=…>`` turns
into a live link inside LabGPU's own error dialog. The rules, for every module under app/ui:

- a label is a :class:`PlainLabel` (plain text, capped); a label that shows markup the UI composes
  itself is a :func:`rich_label` and every value put into that markup goes through :func:`esc`;
- a message box is :func:`message_box` (or :func:`inform` / :func:`warn` / :func:`ask`), plain text;
- a tooltip that carries outside text is :func:`plain_tooltip` (Qt shows a tooltip as rich text
  whenever it looks like markup, so the text is escaped inside a rich-text wrapper);
- notifications and table cells get :func:`cap` (table cells and the tray's notification are drawn
  as plain text by Qt; only their length needs a bound).

``tests/ui/test_plain_text.py`` holds the guard: no bare ``QLabel(`` or ``QMessageBox`` static call
under app/ui, and the main pages filled with hostile data show it literally.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as _QtGui
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

from app.ui.shared.textcap import ELLIPSIS as ELLIPSIS
from app.ui.shared.textcap import MAX_CHARS as MAX_CHARS
from app.ui.shared.textcap import cap as cap

mightBeRichText = _QtGui.mightBeRichText  # Qt's own test (Qt::mightBeRichText), used by QToolTip
_PLAIN = Qt.TextFormat.PlainText
_RICH = Qt.TextFormat.RichText


def esc(text: object, limit: int = MAX_CHARS) -> str:
    """Outside text ready to be put into markup the UI composes itself: capped, then HTML-escaped."""
    return html.escape(cap(text, limit), quote=True)


def plain_tooltip(text: object, limit: int = MAX_CHARS) -> str:
    """A tooltip that shows ``text`` literally (Qt renders any tooltip that looks like markup)."""
    s = cap(text, limit)
    if not mightBeRichText(s):
        return s  # Qt shows it as plain text already
    return '<p style="white-space:pre-wrap">' + html.escape(s, quote=False).replace("\n", "<br>") + "</p>"


class PlainLabel(QLabel):
    """A QLabel that shows its text as plain text, capped at ``MAX_CHARS``."""

    def __init__(self, text: str | QWidget | None = None, parent: QWidget | None = None) -> None:
        # QLabel(parent) and QLabel(text, parent), as Qt's own constructors
        if isinstance(text, QWidget):
            text, parent = None, text
        super().__init__(parent)
        self.setTextFormat(_PLAIN)
        if text:
            self.setText(text)

    def setText(self, text: object) -> None:  # noqa: N802 (Qt's name)
        super().setText(cap(text))

    def setTextFormat(self, fmt: Qt.TextFormat) -> None:  # noqa: N802 (Qt's name)
        # A PlainLabel stays plain; markup the UI composes belongs in rich_label().
        super().setTextFormat(_PLAIN)


def rich_label(html_text: str = "", parent: QWidget | None = None) -> QLabel:
    """A label for markup the UI composes itself; every value inserted into it must pass esc()."""
    label = QLabel(parent)
    label.setTextFormat(_RICH)
    if html_text:
        label.setText(html_text)
    return label


def plain_box(box: QMessageBox) -> QMessageBox:
    """Make a message box built elsewhere plain text (its text and informative text capped)."""
    box.setTextFormat(_PLAIN)
    box.setText(cap(box.text()))
    if box.informativeText():
        box.setInformativeText(cap(box.informativeText()))
    return box


def message_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: object,
                informative: object = "",
                buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
                default: QMessageBox.StandardButton | None = None,
                detail: object = "") -> QMessageBox:
    """A message box whose text, informative text and details are plain text, capped."""
    box = QMessageBox(parent)
    box.setIcon(icon)
    box.setWindowTitle(cap(title, 200))
    # Qt applies the box's text format to both the text and the informative text labels.
    box.setTextFormat(_PLAIN)
    box.setText(cap(text))
    info = cap(informative)
    if info:
        box.setInformativeText(info)
    details = cap(detail, 20 * MAX_CHARS)
    if details:
        box.setDetailedText(details)  # a QTextEdit filled with setPlainText by Qt
    box.setStandardButtons(buttons)
    if default is not None:
        box.setDefaultButton(default)
    return box


def _run(box: QMessageBox) -> QMessageBox.StandardButton:
    return QMessageBox.StandardButton(box.exec())


def warn(parent: QWidget | None, title: str, text: object, informative: object = "") -> None:
    """QMessageBox.warning, in plain text."""
    _run(message_box(parent, QMessageBox.Icon.Warning, title, text, informative))


def critical(parent: QWidget | None, title: str, text: object, informative: object = "") -> None:
    """QMessageBox.critical, in plain text."""
    _run(message_box(parent, QMessageBox.Icon.Critical, title, text, informative))


def ask(parent: QWidget | None, title: str, text: object,
        buttons: QMessageBox.StandardButton = (QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No),
        default: QMessageBox.StandardButton = QMessageBox.StandardButton.No,
        informative: object = "") -> QMessageBox.StandardButton:
    """QMessageBox.question, in plain text; the button pressed."""
    return _run(message_box(parent, QMessageBox.Icon.Question, title, text, informative, buttons, default))
