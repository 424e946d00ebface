"""Who vouches for a launched instance's host key: a slot the composition root fills.

A cloud can say which host-key fingerprints an instance printed at first boot (its console output).
``remote`` never imports ``cloud`` (import-linter contracts), so app/wiring.py puts a function here
at start-up. This module imports nothing heavy (no paramiko), so filling it costs start-up nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger(__name__)

ConsoleVoucher = Callable[[Any, Any], Sequence[str]]  # (HostRecord, Paths | None) → fingerprints
_console_voucher: ConsoleVoucher | None = None


def set_console_voucher(voucher: ConsoleVoucher | None) -> None:
    global _console_voucher
    _console_voucher = voucher


def console_voucher() -> ConsoleVoucher | None:
    return _console_voucher
