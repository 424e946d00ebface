"""The model-size spin box: its value is in millions of parameters, its text in the reader's units
("340 million parameters", "7 billion parameters"; in Chinese 万 and 亿: "3.4 亿参数", "70 亿参数")."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QWidget

_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)?")
# unit word → millions it stands for
_UNITS = (("亿", 100.0), ("万", 0.01), ("billion", 1000.0), ("million", 1.0), ("b", 1000.0), ("m", 1.0))


def params_text(millions: float, chinese: bool) -> str:
    """A model size for people: Chinese counts in 万 (10^4) and 亿 (10^8), English in millions and billions."""
    if chinese:
        if millions >= 100:
            template = QCoreApplication.translate("AdvisorPage", "{count} × 100 million parameters")
            return template.format(count=f"{round(millions / 100, 3):g}")
        template = QCoreApplication.translate("AdvisorPage", "{count} × 10 thousand parameters")
        return template.format(count=f"{round(millions * 100, 1):g}")
    if millions >= 1000:
        template = QCoreApplication.translate("AdvisorPage", "{count} billion parameters")
        return template.format(count=f"{round(millions / 1000, 3):g}")
    template = QCoreApplication.translate("AdvisorPage", "{count} million parameters")
    return template.format(count=f"{round(millions, 1):g}")


def parse_params(text: str) -> float | None:
    """Millions of parameters from what was typed ("7 billion", "70 亿", "340M", "340"); None: no number."""
    m = _NUMBER.search(text)
    if m is None:
        return None
    value = float(m.group(0).replace(",", "."))
    rest = text[m.end():].strip().lower()
    for word, scale in _UNITS:
        if rest.startswith(word):
            return value * scale
    return value  # a bare number is in millions, as the box always was


class ParamsSpinBox(QDoubleSpinBox):
    def __init__(self, chinese: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chinese = chinese
        self.setRange(0.1, 2_000_000)
        self.setDecimals(1)

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt override
        return params_text(value, self.chinese)

    def valueFromText(self, text: str) -> float:  # noqa: N802 - Qt override
        got = parse_params(text)
        return self.value() if got is None else got

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        got = parse_params(text)
        if got is None:
            return QValidator.State.Intermediate, text, pos
        ok = self.minimum() <= got <= self.maximum()
        return (QValidator.State.Acceptable if ok else QValidator.State.Intermediate), text, pos

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt override
        # about 10 % a step, so 7B → 7.7B, not 7,000 M + 10 M
        v = self.value()
        step = max(0.1, float(f"{v * 0.1:.1g}"))
        self.setValue(v + steps * step)
