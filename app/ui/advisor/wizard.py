"""Building blocks of the advisor's wizard steps: a step page with its heading, a form, a group of
radio buttons with help lines, and reading or setting the value a group has checked (no strings)."""

from __future__ import annotations

from PySide6.QtWidgets import QButtonGroup, QFormLayout, QRadioButton, QVBoxLayout, QWidget

from app.ui.shared.plain import PlainLabel


def step_page(parent: QWidget, heading: str, intro: str) -> tuple[QWidget, QVBoxLayout]:
    page = QWidget(parent)
    lay = QVBoxLayout(page)
    lay.setContentsMargins(0, 8, 0, 0)
    h = PlainLabel(heading, page)
    h.setStyleSheet("font-size: 16px; font-weight: 600;")
    lay.addWidget(h)
    if intro:
        i = PlainLabel(intro, page)
        i.setWordWrap(True)
        i.setStyleSheet("color: palette(mid);")
        lay.addWidget(i)
    return page, lay


def form_layout() -> QFormLayout:
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
    return form


def radio_group(parent: QWidget, lay: QVBoxLayout, options: list[tuple[str, str, str]], name: str) -> QButtonGroup:
    """(value, text, help) per button; the group's object name is `name`, each button's f"{name}_{value}"."""
    group = QButtonGroup(parent)
    group.setObjectName(name)
    for i, (value, text, help_text) in enumerate(options):
        rb = QRadioButton(text, parent)
        rb.setObjectName(f"{name}_{value}")
        rb.setProperty("value", value)
        group.addButton(rb, i)
        lay.addWidget(rb)
        if help_text:
            hl = PlainLabel(help_text, parent)
            hl.setWordWrap(True)
            hl.setStyleSheet("color: palette(mid); margin-left: 24px;")
            lay.addWidget(hl)
    return group


def check_value(group: QButtonGroup, value: str) -> None:
    """Check the button whose value is `value`, else the first."""
    for b in group.buttons():
        if b.property("value") == value:
            b.setChecked(True)
            return
    group.buttons()[0].setChecked(True)


def checked_value(group: QButtonGroup) -> str:
    b = group.checkedButton()
    return str(b.property("value")) if b is not None else ""
