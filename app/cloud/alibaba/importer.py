"""Alibaba Cloud accounts to import: the Alibaba CLI's profiles and the ALIBABA_CLOUD_* variables.

``~/.aliyun/config.json`` (what ``aliyun configure`` writes) holds ``{"current": NAME, "profiles":
[{"name", "mode", "access_key_id", "access_key_secret", "region_id", …}]}``; profiles in ``AK`` mode
carry an AccessKey (the other modes hold roles, STS or SSO logins LabGPU cannot keep). The profile
the CLI uses comes first: ``ALIBABA_CLOUD_PROFILE`` when set, else the file's ``current``. The
environment variables are the ones the Alibaba CLI and SDKs document: ALIBABA_CLOUD_ACCESS_KEY_ID,
ALIBABA_CLOUD_ACCESS_KEY_SECRET and ALIBABA_CLOUD_REGION_ID.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path

from app.cloud.kit import profile_account_name, unreadable_file
from app.core.accounts import Account, Credentials, ImportCandidate
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import DEFAULT_REGION, PROVIDER_ID

log = logging.getLogger("app.cloud.alibaba")

ENV_KEY_ID = "ALIBABA_CLOUD_ACCESS_KEY_ID"
ENV_SECRET = "ALIBABA_CLOUD_ACCESS_KEY_SECRET"  # noqa: S105 - the variable's name, not a secret
ENV_REGION = "ALIBABA_CLOUD_REGION_ID"
ENV_PROFILE = "ALIBABA_CLOUD_PROFILE"


def config_path(env: Mapping[str, str]) -> Path:
    home = Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())
    return home / ".aliyun" / "config.json"


def _read_profiles(path: Path) -> tuple[list[dict[str, object]], str]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [], ""
    except (OSError, ValueError) as exc:
        raise unreadable_file(path, exc, QT_TRANSLATE_NOOP(
            "LabGPU", "Fix the file (run 'aliyun configure' again) and retry."), "BadAliyunConfig") from None
    if not isinstance(doc, dict):
        return [], ""
    profiles = [p for p in doc.get("profiles") or [] if isinstance(p, dict)]
    return profiles, str(doc.get("current") or "")


def import_candidates(env: Mapping[str, str] | None = None, region: str | None = None) -> list[ImportCandidate]:
    """The AccessKey profiles of the Alibaba CLI (the one it uses first) and the environment's key.

    ``region`` is used where a profile or the environment names none (else cn-hangzhou).
    """
    env = os.environ if env is None else env
    fallback = region or DEFAULT_REGION
    profiles, current = _read_profiles(config_path(env))
    first = env.get(ENV_PROFILE) or current
    profiles.sort(key=lambda p: p.get("name") != first)
    out: list[ImportCandidate] = []
    for profile in profiles:
        name = str(profile.get("name") or "default")
        key_id = str(profile.get("access_key_id") or "").strip()
        secret = str(profile.get("access_key_secret") or "").strip()
        if str(profile.get("mode") or "AK") != "AK" or not key_id or not secret:
            log.info("Alibaba CLI profile %s skipped (mode %s or no AccessKey)", name, profile.get("mode"))
            continue
        out.append(
            ImportCandidate(
                Account(profile_account_name("alibaba", name), PROVIDER_ID,
                        str(profile.get("region_id") or "").strip() or fallback),
                Credentials(key_id, secret),
                f"aliyun-profile:{name}",
            )
        )
    key_id, secret = env.get(ENV_KEY_ID, "").strip(), env.get(ENV_SECRET, "").strip()
    if key_id and secret:
        out.append(
            ImportCandidate(
                Account("alibaba-env", PROVIDER_ID, env.get(ENV_REGION, "").strip() or fallback),
                Credentials(key_id, secret),
                f"env:{ENV_KEY_ID}",
            )
        )
    return out
