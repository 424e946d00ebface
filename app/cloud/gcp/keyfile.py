"""The service-account JSON key: read from the keyring's text (or, by the importer, from the file
GOOGLE_APPLICATION_CREDENTIALS names), checked, never written anywhere by LabGPU.

A key file is what the console's "IAM & Admin > Service accounts > Keys > Add key > JSON" downloads:
``{"type": "service_account", "project_id", "private_key_id", "private_key", "client_email", "token_uri", …}``
(google.oauth2.service_account.Credentials.from_service_account_info needs client_email, private_key and
token_uri: https://google-auth.readthedocs.io/en/latest/reference/google.oauth2.service_account.html).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from app.cloud.base import AuthError
from app.core.i18n import QT_TRANSLATE_NOOP

from .errors import BAD_KEY
from .spec import PROJECT_FIELD, PROVIDER_ID

REQUIRED = ("client_email", "private_key", "token_uri")
NOT_A_KEY_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Paste the whole JSON key of a service account (IAM & Admin > Service accounts > Keys > Add key > "
              "JSON): its \"type\" is \"service_account\".")


@dataclass(frozen=True)
class ServiceAccountKey:
    info: dict[str, Any]

    @property
    def email(self) -> str:
        return str(self.info.get("client_email", ""))

    @property
    def project_id(self) -> str:
        return str(self.info.get("project_id", ""))


def refused(reason: str) -> AuthError:
    """A secret that is not a usable service-account key (``reason``: a translation template)."""
    return AuthError(reason, NOT_A_KEY_HINT, provider=PROVIDER_ID, code=BAD_KEY)


def parse_key(text: str) -> ServiceAccountKey:
    """The key in ``text`` (JSON); an AuthError naming what is wrong (never quoting the text)."""
    try:
        info = json.loads(text or "")
    except ValueError:
        raise refused(QT_TRANSLATE_NOOP("LabGPU", "The service-account key is not JSON text.")) from None
    if not isinstance(info, dict):
        raise refused(QT_TRANSLATE_NOOP("LabGPU", "The service-account key is not JSON text."))
    kind = str(info.get("type") or "")
    if kind != "service_account":
        raise AuthError(
            QT_TRANSLATE_NOOP("LabGPU", "This Google credential is of type \"{kind}\", not a service-account key: "
                                        "LabGPU keeps only service-account keys (a user login or an external "
                                        "account refreshes itself through gcloud, which LabGPU does not run)."),
            NOT_A_KEY_HINT, provider=PROVIDER_ID, code=BAD_KEY, kind=kind[:40] or "?")
    missing = [k for k in REQUIRED if not str(info.get(k) or "").strip()]
    if missing:
        raise AuthError(QT_TRANSLATE_NOOP("LabGPU", "The service-account key has no {fields}."), NOT_A_KEY_HINT,
                        provider=PROVIDER_ID, code=BAD_KEY, fields=", ".join(missing))
    return ServiceAccountKey(info)


def project_of(extra: dict[str, str], key: ServiceAccountKey) -> str:
    """The account's project: its ``project`` setting, else the key's project_id."""
    return str(extra.get(PROJECT_FIELD) or "").strip() or key.project_id
