"""Transport settings: ciphers, window and packet sizes, timeouts, reconnect back-off."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TransportTuning:
    """Transport settings; the sync engine measures and may pass its own.

    AES-GCM first (AES-NI: fastest in paramiko's crypto backend), CTR next; the window and packet
    sizes are paramiko's ``Transport`` defaults unless changed: larger windows made downloads
    slower here (see shared notes), so the sync engine sets them per measurement.
    """

    ciphers: tuple[str, ...] = (
        "aes128-gcm@openssh.com",
        "aes128-ctr",
        "aes256-gcm@openssh.com",
        "aes256-ctr",
        "aes192-ctr",
    )
    window_size: int = 4 * 1024 * 1024
    max_packet_size: int = 32768
    keepalive_s: int = 15
    connect_timeout: float = 10.0
    compression: bool = False


DEFAULT_TUNING = TransportTuning()
RECONNECT_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)
