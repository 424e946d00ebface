"""One boto3 S3 client per (account, bucket endpoint): the credentials the account keeps in the
keyring, the bucket's region-correct endpoint and addressing style (:mod:`app.core.buckets`),
SigV4 always (presigned URLs too), botocore's "standard" retries (SlowDown and 503 are retried with
backoff before an error reaches the user), and a connection pool as big as the parallel parts.

``StorageTarget`` is what the engine, the bucket browser and the presigner share. The account's
``extra["storage_endpoint"]`` replaces the public endpoint (a VPC endpoint, a compatible server, a
test peer) and ``extra["storage_proxy"]`` sends every request through an HTTP proxy (tests route a
real endpoint name such as cos.ap-guangzhou.myqcloud.com to a local peer that way);
``extra["storage_region"]`` names the buckets' region when it is not the account's.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from app.cloud.base import Account, Credentials
from app.cloud.kit import load_sdk
from app.core.buckets import BucketUrl, Endpoint, endpoint_for
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP

MAX_RETRIES = 6  # botocore "standard" mode: retries after the first try (7 tries in all), SlowDown/503 included

_SDK_MISSING = QT_TRANSLATE_NOOP("LabGPU", "The Python package {module} is missing, so buckets cannot be used.")
_SDK_HINT = QT_TRANSLATE_NOOP("LabGPU", "Reinstall LabGPU (python3 main.py installs what it needs).")
WRONG_ACCOUNT = QT_TRANSLATE_NOOP(
    "LabGPU", "{url} is a {service} location, but account '{account}' is a {provider} account."
)
WRONG_ACCOUNT_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Choose an account of that cloud with --account (labgpu accounts lists them)."
)


@dataclass(frozen=True)
class StorageTarget:
    """A bucket location with the account that reaches it."""

    account: Account
    url: BucketUrl
    endpoint: Endpoint

    @property
    def region(self) -> str:
        return self.endpoint.region


def target_for(account: Account, url: BucketUrl, region: str = "") -> StorageTarget:
    """The target of ``url`` with ``account``; refuses an account of another cloud (its keys would
    only be refused by the service, after a confusing signature error)."""
    if account.provider != url.provider:
        raise InputError(WRONG_ACCOUNT, WRONG_ACCOUNT_HINT, code="WrongAccount", url=str(url),
                         service=url.service, account=account.name, provider=account.provider)
    reg = region or account.extra.get("storage_region", "") or account.region
    ep = endpoint_for(url, reg, override=account.extra.get("storage_endpoint", ""),
                      proxy=account.extra.get("storage_proxy", ""))
    return StorageTarget(account, url, ep)


_clients: dict[tuple[Any, ...], Any] = {}
_lock = threading.Lock()


def s3_client(target: StorageTarget, creds: Credentials, *, pool: int = 16, timeout: float = 60.0) -> Any:
    """A boto3 S3 client for ``target`` (cached per endpoint, key and pool size; boto3 clients are
    thread-safe, so the parallel parts share one)."""
    ep = target.endpoint
    key = (ep, creds.key_id, hash(creds.secret), hash(creds.session_token), pool, timeout)
    with _lock:
        found = _clients.get(key)
    if found is not None:
        return found
    session_mod, config_mod = load_sdk("aws", [("boto3", "session"), ("botocore", "config")], _SDK_MISSING, _SDK_HINT)
    cfg_kwargs: dict[str, Any] = {
        "signature_version": "s3v4",
        "s3": {"addressing_style": ep.addressing},
        "retries": {"mode": "standard", "max_attempts": MAX_RETRIES},
        "max_pool_connections": max(10, pool),
        "connect_timeout": min(timeout, 20.0),
        "read_timeout": timeout,
        # S3-compatible services (COS, OSS, OBS) do not all take the newer CRC checksums botocore
        # adds by default: send them only when an operation requires one
        "request_checksum_calculation": "when_required",
        "response_checksum_validation": "when_required",
    }
    if ep.proxy:
        cfg_kwargs["proxies"] = {"http": ep.proxy, "https": ep.proxy}
    session = session_mod.Session(
        aws_access_key_id=creds.key_id,
        aws_secret_access_key=creds.secret,
        aws_session_token=creds.session_token or None,
        region_name=ep.region,
    )
    client = session.client("s3", endpoint_url=ep.url, config=config_mod.Config(**cfg_kwargs))
    with _lock:
        _clients[key] = client
    return client
