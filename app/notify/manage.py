"""Adding, changing and removing a channel: settings in the file, secrets in the keyring.

The caller owns the Settings object and saves it (the window's ``ctx.settings``, the CLI's
SettingsStore), so an open window never writes back an older copy over a channel it changed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from app.core import secrets
from app.core.settings import Settings

from .config import (
    SECRET_FIELDS,
    ChannelConfig,
    channel,
    check_channel,
    check_secrets,
    drop_channel,
    put_channel,
    secret_key,
    url_hint,
)

log = logging.getLogger(__name__)


def save_channel(settings: Settings, cfg: ChannelConfig, secret_values: Mapping[str, str]) -> ChannelConfig:
    """Check ``cfg`` and its secrets, write the secrets given (an empty one keeps what is stored) to the
    keyring, then put the channel in ``settings`` (not saved: the caller saves). Raises InputError /
    SecretsError before the settings change when a check or the keyring fails."""
    check_channel(cfg)
    old = channel(settings, cfg.name)
    write_secrets(cfg, secret_values, old)
    put_channel(settings, cfg)
    return cfg


def write_secrets(cfg: ChannelConfig, secret_values: Mapping[str, str], old: ChannelConfig | None) -> ChannelConfig:
    """The keyring half of :func:`save_channel` (a window runs it on a worker, then puts the channel in its
    settings on the GUI thread): checks the secrets, writes them, and fills ``cfg.secret_keys`` and
    ``cfg.url_hint``. ``old``: the channel saved under this name before, if any."""
    have = {k.rsplit(":", 1)[-1] for k in (old.secret_keys if old and old.kind == cfg.kind else [])}
    values = check_secrets(cfg.kind, dict(secret_values), have=have)
    writes = []
    try:
        for name, value in values.items():
            writes.append(secrets.set_secret_owned(secret_key(cfg.name, name), value))
    except Exception:
        for w in writes:
            secrets.undo_owned(w)
        raise
    keys = {secret_key(cfg.name, f) for f in have} | {secret_key(cfg.name, f) for f in values}
    cfg.secret_keys = sorted(keys)
    url = values.get("url")
    if url:
        cfg.url_hint = url_hint(url)
    elif old is not None and old.kind == cfg.kind:
        cfg.url_hint = old.url_hint
    if old is not None and old.kind != cfg.kind:
        delete_secrets(old, keep=set(cfg.secret_keys))
    return cfg


def remove_channel(settings: Settings, name: str) -> ChannelConfig | None:
    """Take the channel out of ``settings`` and delete its keyring entries (the caller saves)."""
    gone = drop_channel(settings, name)
    if gone is not None:
        delete_secrets(gone)
    return gone


def delete_secrets(cfg: ChannelConfig, keep: set[str] | None = None) -> None:
    for f in SECRET_FIELDS.get(cfg.kind, ()):
        key = secret_key(cfg.name, f.name)
        if key in cfg.secret_keys and key not in (keep or set()):
            secrets.delete_secret(key)
