"""What the Monitor page remembers (``extra["monitorui"]``) and the time ranges it offers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from app.core.settings import read_section, write_section

if TYPE_CHECKING:
    from app.ui.context import AppContext

SETTINGS_KEY = "monitorui"
# (seconds, label) choices of the time range
RANGES = (600, 3_600, 6 * 3_600, 86_400, 7 * 86_400, 30 * 86_400)


def range_title(seconds: int) -> str:
    titles = {
        600: QCoreApplication.translate("MonitorPage", "Last 10 minutes"),
        3_600: QCoreApplication.translate("MonitorPage", "Last hour"),
        6 * 3_600: QCoreApplication.translate("MonitorPage", "Last 6 hours"),
        86_400: QCoreApplication.translate("MonitorPage", "Last 24 hours"),
        7 * 86_400: QCoreApplication.translate("MonitorPage", "Last 7 days (minute means)"),
        30 * 86_400: QCoreApplication.translate("MonitorPage", "Last 30 days (minute means)"),
    }
    return titles[seconds]



@dataclass
class MonitorUiSettings:
    """What the Monitor page remembers (``extra["monitorui"]``)."""

    hosts: list[str] = field(default_factory=list)  # hosts with a panel open
    span_s: int = 3_600  # the time range shown, one of RANGES

    def validate(self) -> None:
        if self.span_s not in RANGES:
            self.span_s = 3_600


def monitor_settings(ctx: AppContext) -> MonitorUiSettings:
    return read_section(ctx.settings, (SETTINGS_KEY,), MonitorUiSettings)


def save_monitor_settings(ctx: AppContext, value: MonitorUiSettings) -> None:
    write_section(ctx.settings, (SETTINGS_KEY,), value)
    try:
        ctx.save_settings()
    except OSError:
        pass
