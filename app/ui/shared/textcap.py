"""How long outside text may be on screen: :func:`cap` (no Qt here, so the error reporter can use it before
the window shows without importing the widgets of :mod:`app.ui.shared.plain`)."""

from __future__ import annotations

MAX_CHARS = 2000  # a screenful; outside text longer than this is cut with "…"
ELLIPSIS = "…"


def cap(text: object, limit: int = MAX_CHARS) -> str:
    """``text`` as a string of at most ``limit`` characters (the last one "…" when it was cut)."""
    s = "" if text is None else str(text)
    if len(s) <= limit:
        return s
    return s[: max(0, limit - 1)] + ELLIPSIS
