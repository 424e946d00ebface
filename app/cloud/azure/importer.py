"""Azure accounts to import: the service principal in the environment variables azure-identity's
EnvironmentCredential reads (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET,
https://learn.microsoft.com/en-us/python/api/azure-identity/azure.identity.environmentcredential) and the
subscription the Azure CLI and the SDK samples read from AZURE_SUBSCRIPTION_ID. A client certificate
(AZURE_CLIENT_CERTIFICATE_PATH) or a username/password is not a secret LabGPU keeps: skipped and said in the log.
The secret goes to the keyring; the tenant and subscription ids are the account's settings.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping

from app.cloud.kit import profile_account_name
from app.core.accounts import Account, Credentials, ImportCandidate

from .spec import DEFAULT_REGION, PROVIDER_ID

log = logging.getLogger("app.cloud.azure")

ENV_TENANT = "AZURE_TENANT_ID"
ENV_CLIENT = "AZURE_CLIENT_ID"
ENV_SECRET = "AZURE_CLIENT_SECRET"  # noqa: S105 - the variable's name, not a secret
ENV_SUBSCRIPTION = "AZURE_SUBSCRIPTION_ID"
_GUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def import_candidates(env: Mapping[str, str] | None = None, region: str | None = None,
                      name: str | None = None) -> list[ImportCandidate]:
    """The environment's service principal, when all four variables are set (else nothing)."""
    env = os.environ if env is None else env
    tenant, client, secret, subscription = (env.get(v, "").strip() for v in (ENV_TENANT, ENV_CLIENT, ENV_SECRET,
                                                                                ENV_SUBSCRIPTION))
    if not (tenant and client and secret):
        if env.get("AZURE_CLIENT_CERTIFICATE_PATH") or env.get("AZURE_USERNAME"):
            log.info("Azure environment credential skipped: a certificate or user sign-in, not a client secret")
        return []
    if not subscription:
        log.info("Azure environment credential skipped: %s is not set", ENV_SUBSCRIPTION)
        return []
    if not _GUID.match(subscription):
        log.info("Azure environment credential skipped: %s is not a GUID", ENV_SUBSCRIPTION)
        return []
    account = Account(name or profile_account_name("azure", subscription[:8]), PROVIDER_ID, region or DEFAULT_REGION,
                      extra={"tenant_id": tenant, "subscription_id": subscription})
    return [ImportCandidate(account, Credentials(client, secret), f"azure-env:{ENV_CLIENT}")]
