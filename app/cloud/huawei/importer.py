"""Huawei Cloud accounts to import: KooCLI's (``hcloud``) profiles and the HUAWEICLOUD_SDK_* variables.

KooCLI keeps its profiles in ``~/.hcloud/config.json`` (KooCLI user guide, "Initializing Configurations":
``/home/{user}/.hcloud/config.json`` on Linux, ``C:\\Users\\{user}\\.hcloud\\config.json`` on Windows):
``{"profiles": [{"name", "mode", "accessKeyId", "secretAccessKey", "region", "projectId", …}], …}``, a value
either plain text or ``{"isEncrypted": bool, "value": …}``. Profiles in ``AKSK`` mode carry an access key; the
other modes (ecsAgency, SSO) hold nothing LabGPU can keep. Since KooCLI 5.2.7 the authentication values are
stored encrypted unless ``hcloud configure set --cli-auth-encrypt=false`` was run (KooCLI "What's New"):
an encrypted AK/SK cannot be read, and the import says how to store them readable. The profile KooCLI uses
when none is named, ``default``, comes first. The environment variables are the SDK's own
(huaweicloudsdkcore.auth.provider.EnvCredentialProvider): HUAWEICLOUD_SDK_AK, HUAWEICLOUD_SDK_SK and
HUAWEICLOUD_SDK_PROJECT_ID.
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
from app.core.accounts import Account, AccountError, Credentials, ImportCandidate
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import DEFAULT_REGION, PROJECT_FIELD, PROVIDER_ID

log = logging.getLogger("app.cloud.huawei")

ENV_AK = "HUAWEICLOUD_SDK_AK"
ENV_SK = "HUAWEICLOUD_SDK_SK"  # noqa: S105 - the variable's name, not a secret
ENV_PROJECT = "HUAWEICLOUD_SDK_PROJECT_ID"
DEFAULT_PROFILE = "default"
_PROJECT_ID = re.compile(r"^[0-9a-fA-F]{32}$")


def config_path(env: Mapping[str, str]) -> Path:
    home = Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())
    return home / ".hcloud" / "config.json"


def _read_profiles(path: Path) -> list[dict[str, Any]]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        raise unreadable_file(path, exc, QT_TRANSLATE_NOOP(
            "LabGPU", "Check the file with 'hcloud configure test', fix it, and retry."), "BadHcloudConfig") from None
    if not isinstance(doc, dict):
        return []
    return [p for p in doc.get("profiles") or [] if isinstance(p, dict)]


def _value(profile: dict[str, Any], key: str) -> tuple[str, bool]:
    """(the field's text, whether KooCLI stored it encrypted)."""
    raw = profile.get(key)
    if isinstance(raw, dict):
        return str(raw.get("value") or "").strip(), bool(raw.get("isEncrypted"))
    return str(raw or "").strip(), False


def import_candidates(env: Mapping[str, str] | None = None, region: str | None = None) -> list[ImportCandidate]:
    """KooCLI's AK/SK profiles (``default`` first) and the environment's key; ``region`` for those that name
    none (else cn-north-4)."""
    env = os.environ if env is None else env
    fallback = region or DEFAULT_REGION
    path = config_path(env)
    profiles = _read_profiles(path)
    profiles.sort(key=lambda p: p.get("name") != DEFAULT_PROFILE)
    out: list[ImportCandidate] = []
    encrypted: list[str] = []
    for profile in profiles:
        name = str(profile.get("name") or DEFAULT_PROFILE)
        (ak, ak_enc), (sk, sk_enc) = _value(profile, "accessKeyId"), _value(profile, "secretAccessKey")
        if str(profile.get("mode") or "AKSK") != "AKSK" or not ak or not sk:
            log.info("KooCLI profile %s skipped (mode %s or no AK/SK)", name, profile.get("mode"))
            continue
        if ak_enc or sk_enc:
            encrypted.append(name)
            continue
        project, _enc = _value(profile, "projectId")
        extra = {PROJECT_FIELD: project} if _PROJECT_ID.match(project) else {}
        out.append(ImportCandidate(
            Account(profile_account_name("huawei", name), PROVIDER_ID, _value(profile, "region")[0] or fallback,
                    extra=extra),
            Credentials(ak, sk), f"hcloud-profile:{name}"))
    ak, sk = env.get(ENV_AK, "").strip(), env.get(ENV_SK, "").strip()
    if ak and sk:
        project = env.get(ENV_PROJECT, "").strip()
        extra = {PROJECT_FIELD: project} if _PROJECT_ID.match(project) else {}
        out.append(ImportCandidate(Account("huawei-env", PROVIDER_ID, fallback, extra=extra), Credentials(ak, sk),
                                   f"env:{ENV_AK}"))
    if encrypted and not out:
        raise AccountError(
            QT_TRANSLATE_NOOP("LabGPU", "KooCLI stores the AK/SK of {profiles} encrypted in {path}: LabGPU cannot "
                                        "read them."),
            QT_TRANSLATE_NOOP("LabGPU", "Run 'hcloud configure set --cli-auth-encrypt=false' (KooCLI then stores "
                                        "them readable), import again, then turn encryption back on; or add the "
                                        "account with its AK/SK by hand."),
            code="HcloudEncrypted", profiles=", ".join(encrypted), path=str(path))
    return out
