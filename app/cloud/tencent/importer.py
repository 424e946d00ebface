"""Tencent Cloud keys already on this computer as a LabGPU account: TENCENTCLOUD_SECRET_ID/KEY.

Declared in spec.py (ImporterDecl "tencent"); the Accounts page's Import menu and
``labgpu accounts import tencent`` (alias ``import-tencent``) run :func:`tencent_import_candidates`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from app.core.accounts import Account, Credentials, ImportCandidate

from .spec import PROVIDER_ID


def tencent_import_candidates(
    region: str, env: Mapping[str, str] | None = None, name: str = "tencent-env", endpoint: str = ""
) -> list[ImportCandidate]:
    """TENCENTCLOUD_SECRET_ID / TENCENTCLOUD_SECRET_KEY (and TENCENTCLOUD_REGION) as one account;
    ``endpoint`` (a host or URL) sets its endpoint and the protocol the URL names (default https)."""
    env = os.environ if env is None else env
    sid, skey = env.get("TENCENTCLOUD_SECRET_ID", ""), env.get("TENCENTCLOUD_SECRET_KEY", "")
    if not sid or not skey:
        return []
    extra = {"protocol": "http" if endpoint.startswith("http://") else "https"} if endpoint else {}
    return [
        ImportCandidate(
            Account(name, PROVIDER_ID, env.get("TENCENTCLOUD_REGION") or region, endpoint, extra),
            Credentials(sid.strip(), skey.strip(), env.get("TENCENTCLOUD_SESSION_TOKEN", "").strip()),
            "env:TENCENTCLOUD_SECRET_ID",
        )
    ]
