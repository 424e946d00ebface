"""Google Cloud accounts to import: the service-account key file GOOGLE_APPLICATION_CREDENTIALS names.

That file is read as google-auth reads it (``google.auth.default`` → ``load_credentials_from_file``: a JSON
document whose ``type`` says what it holds, https://google-auth.readthedocs.io/en/latest/reference/
google.auth.html#google.auth.load_credentials_from_file). Only ``service_account`` keys become accounts; a
user login (``authorized_user``, what ``gcloud auth application-default login`` writes), an external account
or an impersonation file is refused with the reason. The key's text goes to the keyring as the account's
secret; the file itself is left where it is, and nothing is copied elsewhere.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path

from app.cloud.base import AuthError
from app.cloud.kit import profile_account_name, unreadable_file
from app.core.accounts import Account, AccountError, Credentials, ImportCandidate
from app.core.i18n import QT_TRANSLATE_NOOP

from .keyfile import parse_key
from .spec import DEFAULT_REGION, PROJECT_FIELD, PROVIDER_ID

log = logging.getLogger("app.cloud.gcp")

ENV_FILE = "GOOGLE_APPLICATION_CREDENTIALS"


def import_candidates(env: Mapping[str, str] | None = None, region: str | None = None) -> list[ImportCandidate]:
    """The service-account key in the file GOOGLE_APPLICATION_CREDENTIALS names (none when it is unset)."""
    env = os.environ if env is None else env
    name = env.get(ENV_FILE, "").strip()
    if not name:
        return []
    path = Path(name).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise AccountError(
            QT_TRANSLATE_NOOP("LabGPU", "{variable} names {path}, which does not exist."),
            QT_TRANSLATE_NOOP("LabGPU", "Point it at the JSON key you downloaded, or unset it."),
            code="NoKeyFile", variable=ENV_FILE, path=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise unreadable_file(path, exc, QT_TRANSLATE_NOOP("LabGPU", "Check the file's permissions and retry."),
                              "BadKeyFile") from None
    try:
        key = parse_key(text)
    except AuthError as exc:  # the reason (not a service-account key) is the user's answer
        raise AccountError(exc.template,
                           QT_TRANSLATE_NOOP("LabGPU", "Download a JSON key of a service account (IAM & Admin > "
                                                       "Service accounts > Keys) and point {variable} at it."),
                           code="NotServiceAccountKey", variable=ENV_FILE,
                           **exc.params) from None
    account = Account(profile_account_name("gcp", key.project_id or path.stem), PROVIDER_ID, region or DEFAULT_REGION)
    if key.project_id:
        account.extra[PROJECT_FIELD] = key.project_id
    return [ImportCandidate(account, Credentials(key.email, text.strip()), f"gcp-key-file:{path.name}")]
