"""Paperspace accounts to import: the pspace CLI's team keys and the PAPERSPACE_API_KEY variable.

``pspace login`` asks GET /auth/session with the key and stores it under the team's namespace in
``~/.paperspace/credentials.toml`` (``version = 1`` and a ``[keys]`` table: team → API key), and the current team
in ``~/.paperspace/config.toml`` (``team = "…"``); a command uses PAPERSPACE_API_KEY when it is set, else the key
of the current team (https://github.com/Paperspace/cli: credentials.ts, config.ts, commands/login/mod.ts,
commands/mod.ts). The importer reads them the same way: the current team's key first, then the other teams',
then the variable's.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.cloud.kit import profile_account_name, unreadable_file
from app.core.accounts import Account, Credentials, ImportCandidate
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import DEFAULT_REGION, PROVIDER_ID

log = logging.getLogger("app.cloud.paperspace")

ENV_KEY = "PAPERSPACE_API_KEY"
ENV_URL = "PAPERSPACE_API_URL"  # the pspace CLI's own override of the API's URL


def _folder(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or env.get("USERPROFILE") or Path.home()) / ".paperspace"


_LINE_RE = re.compile(r'^([A-Za-z0-9_.-]+|"[^"]*")\s*=\s*(.+?)\s*$')


def _toml(text: str) -> dict[str, Any]:
    """The TOML pspace writes (tables of strings and numbers): tomllib where Python has it (3.11+), else this
    reading of ``[table]`` headers and ``key = "value"`` lines; anything else is a ValueError."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        pass
    else:
        return dict(tomllib.loads(text))
    doc: dict[str, Any] = {}
    table = doc
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            table = doc.setdefault(line[1:-1].strip().strip('"'), {})
            continue
        found = _LINE_RE.match(line)
        if found is None:
            raise ValueError("not TOML")
        key, value = found.group(1).strip('"'), found.group(2)
        if value.startswith('"') and value.endswith('"') and len(value) >= 2:
            table[key] = json.loads(value)
        elif re.fullmatch(r"-?\d+", value):
            table[key] = int(value)
        else:
            raise ValueError("not TOML")
    return doc


def _read(path: Path) -> dict[str, Any]:
    try:
        doc = _toml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise unreadable_file(path, exc, QT_TRANSLATE_NOOP(
            "LabGPU", "Fix the file (run 'pspace login' again) and retry."), "BadPspaceConfig") from None
    return doc if isinstance(doc, dict) else {}


def import_candidates(env: Mapping[str, str] | None = None, region: str | None = None) -> list[ImportCandidate]:
    env = os.environ if env is None else env
    region = region or DEFAULT_REGION
    folder = _folder(env)
    keys = _read(folder / "credentials.toml").get("keys") or {}
    current = str(_read(folder / "config.toml").get("team") or "")
    endpoint = env.get(ENV_URL, "").strip()
    out: list[ImportCandidate] = []
    teams = sorted((k for k in keys if isinstance(keys.get(k), str)), key=lambda t: (t != current, t))
    for team in teams:
        secret = str(keys[team]).strip()
        if not secret:
            continue
        out.append(ImportCandidate(Account(profile_account_name("paperspace", team), PROVIDER_ID, region,
                                           endpoint=endpoint),
                                   Credentials("", secret), f"pspace-team:{team}"))
    secret = env.get(ENV_KEY, "").strip()
    if secret and all(c.credentials.secret != secret for c in out):  # the same key as a team's: once
        out.append(ImportCandidate(Account("paperspace-env", PROVIDER_ID, region, endpoint=endpoint),
                                   Credentials("", secret), f"env:{ENV_KEY}"))
    return out
