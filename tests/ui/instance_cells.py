"""What a row of the instances table shows, by field: its two-line cells read back as a student reads them."""

from __future__ import annotations

from typing import Any

from app.ui.cloud.instances_table import FIELDS, SECOND_LINE


def cell_texts(table: Any, row: int) -> dict[str, str]:
    """Row ``row``'s fields (instances_table.FIELDS: "id", "state", "ip", "price", "cost", …) as shown."""
    out: dict[str, str] = {}
    for name, (col, line) in FIELDS.items():
        item = table.item(row, col)
        value = (item.text() if line == 1 else item.data(SECOND_LINE)) if item is not None else ""
        out[name] = str(value or "")
    return out
