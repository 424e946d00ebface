"""Human-readable quantities for the CLI and the UI (no SDK imports: printing a size needs none)."""

from __future__ import annotations


def human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


_SPAN_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def duration_seconds(text: str) -> float | None:
    """``6h``, ``90m``, ``1h30m``, ``2d``, ``1w`` → seconds; None when it is not such a span (or not > 0).
    The one reader of spans: ``launch --wait --until`` and the ``--since`` of ``logins`` / ``audit``."""
    import re

    s = str(text or "").strip().lower().replace(" ", "")
    parts = re.findall(r"(\d+(?:\.\d+)?)([smhdw])", s)
    if not s or not parts or "".join(n + u for n, u in parts) != s:
        return None
    seconds = sum(float(n) * _SPAN_UNITS[u] for n, u in parts)
    return seconds if seconds > 0 else None
