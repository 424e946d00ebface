"""The tray's pieces that need no tray: its icon with the running cost drawn on it, and the offer a
reclaimed or stopped instance is relaunched from (app/ui/tray.py)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPixmap

from app.ui.monitor.costs import compact_amount, symbol


def cost_icon(amount: float | None, currency: str, billing: bool, unknown: bool = False) -> QIcon:
    """An icon with the amount drawn on it, in the sizes trays ask for: the known sum, '+?' after it
    when a billing instance's price is unknown, '?' alone when no price is known."""
    icon = QIcon()
    text = "?" if amount is None else compact_amount(amount) + ("+?" if unknown else "")
    for size in (16, 22, 24, 32, 48, 64):
        pm = QPixmap(size, size)
        pm.fill(Qt.GlobalColor.transparent)
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        bg = QColor("#b35c00") if billing else QColor("#2e7d32")
        p.setBrush(bg)
        p.setPen(Qt.PenStyle.NoPen)
        radius = size * 0.18
        p.drawRoundedRect(0, 0, size, size, radius, radius)
        p.setPen(QColor("white"))
        rect = QRect(0, 0, size, size)
        sym = symbol(currency).strip()
        if size >= 32:  # the currency symbol on a line of its own above the amount
            font = QFont()
            font.setBold(True)
            font.setPixelSize(max(8, int(size * 0.30)))
            p.setFont(font)
            p.drawText(QRect(0, int(size * 0.04), size, int(size * 0.42)), Qt.AlignmentFlag.AlignCenter, sym)
            rect = QRect(0, int(size * 0.40), size, int(size * 0.58))
        _draw_fitted(p, rect, text)
        p.end()
        icon.addPixmap(pm)
    return icon


def _draw_fitted(p: QPainter, rect: QRect, text: str) -> None:
    font = QFont()
    font.setBold(True)
    px = max(6, int(rect.height() * 0.9))
    while px > 6:
        font.setPixelSize(px)
        if QFontMetrics(font).horizontalAdvance(text) <= rect.width() - 2:
            break
        px -= 1
    font.setPixelSize(px)
    p.setFont(font)
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


def offer_from_options(opts: dict[str, Any]) -> Any:
    """An offer from the watcher's relaunch options (account, instance_type, region, zone, spot)."""
    from app.core.models import Offer

    provider = str(opts.get("provider") or "")
    return Offer(provider=provider, region=str(opts.get("region") or ""),
                 instance_type=str(opts.get("instance_type") or ""), gpu_model="", gpu_count=0, vram_gb=0,
                 vcpu=None, ram_gb=None, network_gbps=None, price_on_demand=None, price_spot=None,
                 price_prepaid_month=None, currency="", price_source="relaunch", price_date=None,
                 spot_available=bool(opts.get("spot")), zone=str(opts.get("zone") or ""))


def offer_from_entry(entry: Any) -> Any:
    """The offer an instance was launched from, as far as the ledger knows (to relaunch it)."""
    from app.core.models import Offer

    price = entry.price_per_hour
    return Offer(provider=entry.provider, region=entry.region, instance_type=entry.instance_type,
                 gpu_model="", gpu_count=0, vram_gb=0, vcpu=None, ram_gb=None, network_gbps=None,
                 price_on_demand=None if entry.spot else price, price_spot=price if entry.spot else None,
                 price_prepaid_month=None, currency=entry.currency, price_source="ledger", price_date=None,
                 spot_available=bool(entry.spot), zone=entry.zone)
