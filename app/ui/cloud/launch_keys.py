"""The launch dialog's note under the SSH key field: which key goes to the account's cloud, its type, and
whether that cloud imports it (read from the key's public half: no keyring)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication

from app.ui.cloud import provider_name


def shown_path(path: Path) -> str:
    """A key's path as a student reads it: ~/… under the home folder (short enough to fit the note)."""
    try:
        return "~/" + Path(path).relative_to(Path.home()).as_posix()
    except ValueError:
        return str(path)


def key_note(paths: Any, provider_id: str, path: str) -> tuple[str, bool]:
    """(the note, refused): LabGPU's own key of a type the cloud imports when ``path`` is empty, else the
    chosen key's type and whether the cloud imports it; refused = the launch must wait."""
    from app.cloud import sshkeys
    from app.core.errors import LabGpuError

    provider = provider_name(provider_id)
    types = sshkeys.types_text(sshkeys.accepted_types(provider_id))
    if not path:
        try:
            own = sshkeys.own_key_type(provider_id)
        except LabGpuError as exc:
            return f"{exc.text()} {exc.hint()}".strip(), True
        where = sshkeys.own_key_path(paths, own)
        text = QCoreApplication.translate(
            "LaunchDialog", "{provider} imports {types} keys: LabGPU's own {type} key ({path}) will be registered."
        ).format(
            provider=provider, types=types, type=sshkeys.TYPE_TITLES.get(own, own), path=shown_path(where))
        if not where.exists():
            text += " " + QCoreApplication.translate(
                "LaunchDialog", "It is made on this first launch; its passphrase is kept in the keyring.")
        return text, False
    try:
        key = sshkeys.check_accepted(sshkeys.load_key(Path(path)), provider_id)
    except LabGpuError as exc:
        return f"{exc.text()} {exc.hint()}".strip(), True
    return QCoreApplication.translate(
        "LaunchDialog", "{path} is a key of type {type} ({fingerprint}): {provider} imports it."
    ).format(
        path=shown_path(key.private_path), type=sshkeys.TYPE_TITLES.get(key.key_type, key.key_type),
        fingerprint=key.fingerprint, provider=provider), False
