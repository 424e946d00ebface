"""AWS keys already on this computer as LabGPU accounts: ~/.aws profiles and the AWS_* variables.

Declared in spec.py (ImporterDecl "aws"); the Accounts page's Import menu and
``labgpu accounts import aws`` (alias ``import-aws``) run :func:`import_candidates`. The candidates go
into the account book through ``AccountBook.import_candidates`` (core).
"""

from __future__ import annotations

import configparser
import os
from collections.abc import Mapping
from pathlib import Path

from app.cloud.kit import profile_account_name, unreadable_file
from app.core.accounts import Account, AccountError, Credentials, ImportCandidate
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import PROVIDER_ID, SPEC

DEFAULT_AWS_REGION = SPEC.default_region


def _aws_files(env: Mapping[str, str]) -> tuple[Path, Path]:
    home = Path(env.get("HOME") or Path.home())
    creds = Path(env.get("AWS_SHARED_CREDENTIALS_FILE") or home / ".aws" / "credentials").expanduser()
    config = Path(env.get("AWS_CONFIG_FILE") or home / ".aws" / "config").expanduser()
    return creds, config


def _read_ini(path: Path) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except configparser.Error as exc:
        raise unreadable_file(path, exc, QT_TRANSLATE_NOOP(
            "LabGPU", "Fix the file's syntax (see 'aws configure') and retry."), "BadAwsFile") from None
    return parser


def aws_import_candidates(
    profile: str | None = None, env: Mapping[str, str] | None = None
) -> list[ImportCandidate]:
    """Profiles of ~/.aws/credentials (region and endpoint_url from ~/.aws/config) and, when no
    profile is asked for, the standard AWS_* environment variables. Honours AWS_SHARED_CREDENTIALS_FILE
    and AWS_CONFIG_FILE like the AWS CLI does."""
    env = os.environ if env is None else env
    creds_file, config_file = _aws_files(env)
    cred_ini, conf_ini = _read_ini(creds_file), _read_ini(config_file)
    env_region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or ""
    out: list[ImportCandidate] = []
    for section in cred_ini.sections():
        if profile is not None and section != profile:
            continue
        key_id = cred_ini.get(section, "aws_access_key_id", fallback="").strip()
        secret = cred_ini.get(section, "aws_secret_access_key", fallback="").strip()
        if not key_id or not secret:
            continue
        token = cred_ini.get(section, "aws_session_token", fallback="").strip()
        conf_section = section if section == "default" else f"profile {section}"
        region = (
            (conf_ini.get(conf_section, "region", fallback="") if conf_ini.has_section(conf_section) else "")
            or cred_ini.get(section, "region", fallback="")
            or env_region
            or DEFAULT_AWS_REGION
        )
        endpoint = (
            conf_ini.get(conf_section, "endpoint_url", fallback="")
            if conf_ini.has_section(conf_section)
            else ""
        )
        out.append(
            ImportCandidate(
                Account(profile_account_name("aws", section), PROVIDER_ID, region.strip(), endpoint.strip()),
                Credentials(key_id, secret, token),
                f"aws-profile:{section}",
            )
        )
    if profile is None and env.get("AWS_ACCESS_KEY_ID") and env.get("AWS_SECRET_ACCESS_KEY"):
        endpoint = env.get("AWS_ENDPOINT_URL_EC2") or env.get("AWS_ENDPOINT_URL") or ""
        out.append(
            ImportCandidate(
                Account("aws-env", PROVIDER_ID, env_region or DEFAULT_AWS_REGION, endpoint),
                Credentials(
                    env["AWS_ACCESS_KEY_ID"].strip(),
                    env["AWS_SECRET_ACCESS_KEY"].strip(),
                    env.get("AWS_SESSION_TOKEN", "").strip(),
                ),
                "env:AWS_ACCESS_KEY_ID",
            )
        )
    if profile is not None and not out:
        raise AccountError(
            QT_TRANSLATE_NOOP("LabGPU", "No AWS profile '{profile}' with keys in {path}."),
            QT_TRANSLATE_NOOP(
                "LabGPU", "Run 'aws configure --profile {profile}' or add the account by hand."
            ),
            code="NoAwsProfile",
            profile=profile,
            path=str(creds_file),
        )
    return out
