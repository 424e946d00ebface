"""Which transports have the fast paths: :func:`install` turns them on for one transport when the
paramiko probe allows it, :func:`enabled` asks."""

from __future__ import annotations

import threading
import types
import weakref
from typing import Any

import paramiko

from app.remote import paramiko_probe
from app.remote.paramiko_probe import ProbeResult

from .read import fast_read_all, fast_read_message

_install_lock = threading.Lock()
_enabled: weakref.WeakSet[Any] = weakref.WeakSet()  # transports whose fast paths install() turned on


def install(transport: paramiko.Transport) -> ProbeResult:
    """Turn the fast paths on for this ``transport`` (best before ``start_client``) if the probe
    allows it; returns the probe's answer. Only this transport's packetizer instance gains the
    fast ``read_all``/``read_message``; paramiko's classes stay as they are."""
    result = paramiko_probe.check(transport)
    if not result.enabled:
        return result
    with _install_lock:
        if transport not in _enabled:
            pk = transport.packetizer
            pk.read_all = types.MethodType(fast_read_all, pk)
            pk.read_message = types.MethodType(fast_read_message, pk)
            _enabled.add(transport)
    return result


def enabled(transport: Any) -> bool:
    """True if :func:`install` turned the fast paths on for ``transport`` (and the probe, which
    a test may have changed since, still agrees)."""
    try:
        on = transport in _enabled
    except TypeError:
        return False
    return on and paramiko_probe.check(transport).enabled

