"""Lambda accounts to import: the API key in the ``LAMBDA_API_KEY`` environment variable.

The API reference's own examples read the key from that variable (``--user ${LAMBDA_API_KEY}:``, the
addSSHKey operation's description, https://cloud.lambda.ai/api/v1/docs). Lambda ships no command-line tool
with a configuration file of its own, so there is no file to read. The key is the account's only credential
(no key id): it goes to the keyring alone.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from app.core.accounts import Account, Credentials, ImportCandidate

from .spec import DEFAULT_REGION, PROVIDER_ID, REGIONS

ENV_KEY = "LAMBDA_API_KEY"


def import_candidates(env: Mapping[str, str] | None = None, region: str | None = None) -> list[ImportCandidate]:
    """The key in LAMBDA_API_KEY as the account ``lambda-env`` (in ``region``, else us-east-1)."""
    env = os.environ if env is None else env
    key = env.get(ENV_KEY, "").strip()
    if not key or any(c.isspace() for c in key):
        return []
    where = region if region in REGIONS else DEFAULT_REGION
    return [ImportCandidate(Account("lambda-env", PROVIDER_ID, where), Credentials("", key), f"env:{ENV_KEY}")]
