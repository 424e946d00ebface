"""What the Sync page says about a running sync: its state, its progress line and the server's path
(words of the SyncPage translation context)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.syncmodel import SyncProgress, SyncResult
from app.core.units import human_bytes


def fmt_eta(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def state_text(state: str, vpn: str = "") -> str:
    """A sync state in words; ``vpn``: the profile the pair's host is reached through, if any."""
    if state == "waiting":
        if vpn:
            return QCoreApplication.translate("SyncPage", "Waiting for the VPN {profile} and the connection…").format(
                profile=vpn)
        return QCoreApplication.translate("SyncPage", "Waiting for the connection…")
    return {
        "listing": QCoreApplication.translate("SyncPage", "Listing files…"),
        "planning": QCoreApplication.translate("SyncPage", "Comparing…"),
        "transferring": QCoreApplication.translate("SyncPage", "Transferring"),
        "verifying": QCoreApplication.translate("SyncPage", "Verifying (sha256)…"),
        "deleting": QCoreApplication.translate("SyncPage", "Deleting…"),
        "queued": QCoreApplication.translate("SyncPage", "Waiting for the other sync of this pair…"),
        "done": QCoreApplication.translate("SyncPage", "Done"),
    }.get(state, state)


def progress_text(p: SyncProgress) -> str:
    return QCoreApplication.translate(
        "SyncPage", "{files_done}/{files_total} files · {bytes_done} of {bytes_total} · {rate}/s · ETA {eta}"
    ).format(files_done=str(p.files_done), files_total=str(p.files_total), bytes_done=human_bytes(p.bytes_done),
             bytes_total=human_bytes(p.bytes_total), rate=human_bytes(p.rate), eta=fmt_eta(p.eta))


def server_text(result: SyncResult) -> str:
    """The path the engine chose for this server (fast / shell / pure SFTP) and why."""
    server = result.server or {}
    mode = str(server.get("mode", ""))
    if not mode:
        return ""
    names = {
        "fast": QCoreApplication.translate("SyncPage", "fast path (shell listing, tar streams)"),
        "shell": QCoreApplication.translate("SyncPage", "shell for checksums, SFTP for listing and files"),
        "sftp": QCoreApplication.translate("SyncPage", "pure SFTP (no usable shell on the server)"),
    }
    return QCoreApplication.translate("SyncPage", "Server: {mode} — {note}").format(
        mode=names.get(mode, mode), note=str(server.get("note", "")))
