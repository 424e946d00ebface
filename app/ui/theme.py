"""Colours that follow the light or dark scheme of the system.

Pages ask for a colour by its role (``theme.css("error")``, ``theme.color("ok")``) instead of writing a
hex value that only reads on a light background. ``apply_color_scheme`` follows the system's scheme
(Qt ≥ 6.5 ``QStyleHints.colorScheme()``): where the platform does not switch the palette itself
(Fusion without a platform theme), it sets a dark or the standard light palette; the main window then
rebuilds its pages so every colour is asked for again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtGui import QColor, QGuiApplication

# role → (on a light background, on a dark background); each ≥ 4.5:1 against the window colour
ROLES: dict[str, tuple[str, str]] = {
    "error": ("#b3261e", "#f2b8b5"),
    "warning": ("#8a4b00", "#ffcc80"),
    "ok": ("#1b6e2e", "#81c995"),
    "info": ("#1f5fa8", "#9ecaff"),
    "muted": ("#5c5c5c", "#b0b0b0"),
    "error_bg": ("#fdecea", "#3b1613"),
    "error_border": ("#f5c2bd", "#8c3a33"),
    "note_bg": ("#fff8e1", "#3a3000"),
    "note_border": ("#ffe082", "#7a6200"),
}

# Fusion's own dark colours (window, base, text...), used when the platform gives no dark palette.
_DARK = {"Window": "#2b2b2b", "WindowText": "#e8e8e8", "Base": "#1e1e1e", "AlternateBase": "#262626",
         "Text": "#e8e8e8", "Button": "#353535", "ButtonText": "#e8e8e8", "BrightText": "#ffffff",
         "Highlight": "#3d7bd9", "HighlightedText": "#ffffff", "ToolTipBase": "#353535",
         "ToolTipText": "#e8e8e8", "PlaceholderText": "#9a9a9a", "Link": "#9ecaff", "LinkVisited": "#d0b0ff",
         "Light": "#4a4a4a", "Midlight": "#3a3a3a", "Dark": "#1a1a1a", "Shadow": "#000000"}


def _app() -> Any:
    from PySide6.QtWidgets import QApplication

    return QApplication.instance()


def is_dark(palette: Any = None) -> bool:
    """True when the window background is dark (whatever made it so)."""
    from PySide6.QtGui import QPalette

    if palette is None:
        app = _app()
        if app is None:
            return False
        palette = app.palette()
    return bool(palette.color(QPalette.ColorRole.Window).lightness() < 128)


def pick(light: str, dark: str) -> QColor:
    """A QColor of its own: `light` on a light background, `dark` on a dark one."""
    from PySide6.QtGui import QColor

    return QColor(dark if is_dark() else light)


def css(role: str) -> str:
    """The role's colour as "#rrggbb" for a style sheet."""
    light, dark = ROLES[role]
    return dark if is_dark() else light


def color(role: str) -> Any:
    from PySide6.QtGui import QColor

    return QColor(css(role))


def dark_palette() -> Any:
    from PySide6.QtGui import QColor, QPalette

    pal = QPalette()
    for name, value in _DARK.items():
        role = getattr(QPalette.ColorRole, name)
        pal.setColor(role, QColor(value))
        if name in ("WindowText", "Text", "ButtonText"):
            pal.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return pal


def apply_color_scheme(app: Any, scheme: Any = None) -> bool:
    """Make the palette follow `scheme` (default: the system's); True if the palette changed."""
    from PySide6.QtCore import Qt

    hints = app.styleHints()
    if scheme is None:
        scheme = hints.colorScheme() if hasattr(hints, "colorScheme") else Qt.ColorScheme.Unknown
    if scheme == Qt.ColorScheme.Dark and not is_dark(app.palette()):
        app.setPalette(dark_palette())
    elif scheme == Qt.ColorScheme.Light and is_dark(app.palette()):
        app.setPalette(app.style().standardPalette())
    else:
        return False
    apply_hint_color(app)
    return True


# -- readable helper text ------------------------------------------------------------------------
HINT_TEXT_WEIGHT = 0.62  # share of the text colour in helper text (the rest is the window colour)


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two QColors (1.0 … 21.0); body text needs at least 4.5."""

    def lum(c: QColor) -> float:
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def apply_hint_color(app: QGuiApplication) -> None:
    """Helper text is styled `color: palette(mid)` across the pages; Fusion's Mid (#b8b8b8 on
    #efefef, 1.9:1) is unreadable as text. Make Mid a blend of the window's text and background
    colours, readable in light and dark schemes alike (≥ 4.5:1), and again when the scheme changes."""
    from PySide6.QtGui import QColor, QPalette

    pal = app.palette()
    text = pal.color(QPalette.ColorGroup.Active, QPalette.ColorRole.WindowText)
    window = pal.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Window)
    t = HINT_TEXT_WEIGHT
    hint = QColor(
        round(text.red() * t + window.red() * (1 - t)),
        round(text.green() * t + window.green() * (1 - t)),
        round(text.blue() * t + window.blue() * (1 - t)),
    )
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        pal.setColor(group, QPalette.ColorRole.Mid, hint)
    app.setPalette(pal)
