"""AWS EC2 behind the Provider protocol (boto3, imported lazily; a new session and client per call).

Retries: botocore's "standard" mode retries throttling (RequestLimitExceeded, Throttling…) with
exponential backoff and jitter, so the user only sees a throttling error when retries ran out.
Each state-changing call reports its request id (base.report_request_id) for the audit log.
Where the account has a custom endpoint (tests, VPC endpoints), every service uses it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
from datetime import datetime, timezone
from typing import Any

from app.cloud.base import (
    Account,
    Credentials,
    Instance,
    report_call,
)
from app.cloud.errors import (
    map_error,
    network_error,
)
from app.cloud.kit import load_sdk
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.ledgerdb import CLOCK
from app.core.vocab import InstanceState

from .errors import CLOCK_ERROR, ERRORS, quota_for

log = logging.getLogger("app.cloud.aws")

DLAMI_NAME = "Deep Learning *AMI GPU PyTorch*"
UBUNTU_OWNER = "099720109477"  # Canonical
UBUNTU_NAME = "ubuntu/images/hvm-ssd*/ubuntu-jammy-22.04-amd64-server-*"
DEFAULT_GPU_TYPES = (
    "g4dn.xlarge",
    "g5.xlarge",
    "g6.xlarge",
    "g6e.xlarge",
    "g5.12xlarge",
    "p4d.24xlarge",
    "p5.48xlarge",
)
MAX_ATTEMPTS = int(os.environ.get("LABGPU_AWS_MAX_ATTEMPTS", "6"))  # total tries of one call, first included

STATE_MAP = {
    "pending": InstanceState.PENDING,
    "running": InstanceState.RUNNING,
    "shutting-down": InstanceState.TERMINATING,
    "terminated": InstanceState.TERMINATED,
    "stopping": InstanceState.STOPPING,
    "stopped": InstanceState.STOPPED,
}

# (family prefix → (on-demand quota, spot quota)) as named in the Service Quotas console (EC2).


def _boto3() -> tuple[Any, ...]:
    return load_sdk(
        "aws", (("boto3", "session"), ("botocore", "config")),
        QT_TRANSLATE_NOOP("LabGPU", "The AWS SDK (boto3) is not installed."),
        QT_TRANSLATE_NOOP("LabGPU", "Reinstall LabGPU, or pip install boto3."),
    )


class AwsClient:
    """The plumbing every AWS call goes through: cached clients per thread, calls, error mapping."""

    # -- plumbing ----------------------------------------------------------------------------
    def _client(
        self,
        account: Account,
        creds: Credentials,
        service: str = "ec2",
        region: str | None = None,
        quick: bool = False,
    ) -> Any:
        """A client for this thread. Clients are cached per thread and per exact credentials (a
        rotated key makes a new one); boto3 sessions and clients are not shared between threads.
        ``quick``: short timeouts and two attempts, for a bonus check that must not hold up anything."""
        boto3_session, bconfig = _boto3()
        region = region or account.region
        digest = hashlib.sha256(
            "\0".join((creds.key_id, creds.secret, creds.session_token)).encode()
        ).hexdigest()
        key = (service, region, account.endpoint, digest, MAX_ATTEMPTS, quick)
        cache: dict[tuple[Any, ...], Any] | None = getattr(_local, "clients", None)
        if cache is None:
            cache = _local.clients = {}
        client = cache.get(key)
        if client is None:
            session = boto3_session.Session(
                aws_access_key_id=creds.key_id,
                aws_secret_access_key=creds.secret,
                aws_session_token=creds.session_token or None,
                region_name=region,
            )
            cfg = bconfig.Config(
                retries={"mode": "standard", "total_max_attempts": 2 if quick else MAX_ATTEMPTS},
                connect_timeout=5 if quick else 10,
                read_timeout=10 if quick else 60,
                user_agent_extra="labgpu",
            )
            client = session.client(service, endpoint_url=endpoint_for(account, service), config=cfg)
            if len(cache) > 32:
                cache.clear()
            cache[key] = client
        return client

    def _call(self, account: Account, client: Any, method: str, *, audit: bool = False, **kwargs: Any) -> Any:
        """One API call with errors mapped; ``kwargs`` go to boto3 except ``ctx`` (message parameters)."""
        ctx = kwargs.pop("ctx", {})
        try:
            resp = getattr(client, method)(**kwargs)
        except Exception as exc:  # noqa: BLE001 - translated below; anything unknown re-raised
            _note_clock(getattr(exc, "response", None))  # an error answer (a skew refusal too) has AWS's Date
            raise self._map(account, exc, method, ctx) from None
        _note_clock(resp)
        if audit:
            report_call(
                _action_name(method),
                _resource_of(method, kwargs, resp),
                resp.get("ResponseMetadata", {}).get("RequestId", ""),
            )
        return resp

    def _map(self, account: Account, exc: Exception, method: str, ctx: dict[str, Any]) -> Exception:
        import botocore.exceptions as bex

        params = {
            "account": account.name,
            "region": account.region,
            "action": _action_name(method),
            "instance_type": "",
            "zone": "",
            "image_id": "",
            "instance_id": "",
            "max_price": "",
            "spot_price": "?",
            "quota": "",
            "quota_code": "",
            **ctx,
        }
        if isinstance(exc, bex.ClientError):
            err = exc.response.get("Error", {})
            code = str(err.get("Code", "Unknown"))
            message = str(err.get("Message", ""))
            rid = exc.response.get("ResponseMetadata", {}).get("RequestId", "")
            if code in ("SignatureDoesNotMatch", "InvalidSignatureException", "AuthFailure") and re.search(
                r"expired|skew|clock|too old|in the future", message, re.I
            ):
                return map_error("aws", code, message, rid, {code: CLOCK_ERROR}, **params)  # keep AWS's code
            if code == "SpotMaxPriceTooLow":
                m = re.search(r"(?:fulfillment|minimum required)[^0-9]*([0-9.]+)", message)
                if m and params.get("spot_price") in ("?", ""):
                    params["spot_price"] = m.group(1).rstrip(".")
            if code in ("VcpuLimitExceeded", "InstanceLimitExceeded", "MaxSpotInstanceCountExceeded"):
                quota, qcode = quota_for(params["instance_type"], bool(ctx.get("spot")))
                params["quota"], params["quota_code"] = quota, qcode
            log.info("aws %s failed: %s %s (request %s)", method, code, message[:200], rid)
            return map_error("aws", code, message, rid, ERRORS, **params)
        if isinstance(
            exc,
            (
                bex.EndpointConnectionError,
                bex.ConnectTimeoutError,
                bex.ReadTimeoutError,
                bex.ConnectionClosedError,
                bex.ProxyConnectionError,
            ),
        ):
            return network_error(
                "aws", account.endpoint or f"ec2.{account.region}.amazonaws.com", type(exc).__name__
            )
        if isinstance(exc, bex.NoCredentialsError):
            return map_error("aws", "AuthFailure", "no credentials", "", ERRORS, **params)
        if isinstance(exc, bex.BotoCoreError):
            return map_error("aws", type(exc).__name__, str(exc), "", ERRORS, **params)
        return exc


    def _to_instance(self, account: Account, d: dict[str, Any]) -> Instance:
        tags = {t["Key"]: t["Value"] for t in d.get("Tags", []) or []}
        raw = d.get("State", {}).get("Name", "")
        # LaunchTime is the most recent start: "the launch time ... is updated each time the instance is
        # started" (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/Stop_Start.html, "Find the initial
        # and most recent launch time"); the ledger starts the current run there (cloud time).
        launched = d.get("LaunchTime")
        if isinstance(launched, datetime) and launched.tzinfo is None:
            launched = launched.replace(tzinfo=timezone.utc)
        return Instance(
            id=d["InstanceId"],
            account=account.name,
            provider="aws",
            region=account.region,
            zone=d.get("Placement", {}).get("AvailabilityZone", ""),
            instance_type=d.get("InstanceType", ""),
            state=STATE_MAP.get(raw, "failed"),
            spot=d.get("InstanceLifecycle") == "spot",
            public_ip=d.get("PublicIpAddress", "") or "",
            private_ip=d.get("PrivateIpAddress", "") or "",
            currency="USD",
            launched_at=launched,
            name=tags.get("Name", ""),
            image_id=d.get("ImageId", ""),
            key_name=d.get("KeyName", "") or "",
            raw_state=raw,
            tags=tags,
        )




def login_user_for(image_name: str) -> str:
    """The default SSH user of an AMI, from its name (Ubuntu-based DLAMIs: ubuntu)."""
    n = image_name.lower()
    if "amazon linux" in n or n.startswith(("amzn", "al2")):
        return "ec2-user"
    if "debian" in n:
        return "admin"
    if "rocky" in n:
        return "rocky"
    return "ubuntu"


def console_text(output: str) -> str:
    """get_console_output's Output is base64 in the API; boto3 decodes it, some endpoints do not."""
    import base64
    import binascii

    if "-----" in output or "\n" in output:
        return output
    try:
        return base64.b64decode(output, validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return output


def endpoint_for(account: Account, service: str) -> str | None:
    """The account's endpoint for ``service``. A service-specific endpoint (an EC2 VPC endpoint such
    as https://vpce-….ec2.us-east-1.vpce.amazonaws.com, or ec2.REGION.amazonaws.com) applies to EC2
    only; an all-in-one endpoint (a local emulator or proxy) applies to every service. Per-service
    overrides: account.extra["sts_endpoint"], ["pricing_endpoint"]."""
    override = account.extra.get(f"{service}_endpoint", "")
    if override:
        return override
    if not account.endpoint:
        return None
    host = re.sub(r"^[a-z]+://", "", account.endpoint).split("/")[0].lower()
    if service != "ec2" and (".ec2." in f".{host}" or host.startswith("ec2.") or "vpce" in host):
        return None
    return account.endpoint


def _resource_of(method: str, kwargs: dict[str, Any], resp: dict[str, Any]) -> str:
    """The id an audited call acted on (for the audit log's resource column)."""
    if "InstanceIds" in kwargs:
        return ",".join(kwargs["InstanceIds"])
    if "SpotInstanceRequestIds" in kwargs:
        return ",".join(kwargs["SpotInstanceRequestIds"])
    if resp.get("Instances"):
        return ",".join(i.get("InstanceId", "") for i in resp["Instances"])
    return str(
        resp.get("GroupId") or kwargs.get("GroupId") or kwargs.get("KeyName") or resp.get("KeyName") or ""
    )


def _action_name(method: str) -> str:
    return "".join(p.capitalize() for p in method.split("_"))


def network_gbps_of(info: dict[str, Any]) -> float | None:
    cards = info.get("NetworkCards") or []
    if cards and cards[0].get("PeakBandwidthInGbps"):
        return float(sum(c.get("PeakBandwidthInGbps", 0) for c in cards))
    m = re.search(r"([0-9.]+)\s*Gigabit", str(info.get("NetworkPerformance", "")))
    return float(m.group(1)) if m else None


def gpu_model_key(name: str, vram_gb: float) -> str:
    """AWS GpuInfo name + memory → the catalog's GpuSpec.model key."""
    n = name.upper().replace("NVIDIA", "").strip()
    if n == "A100":
        return "A100-80GB" if vram_gb > 60 else "A100-40GB"
    if n in ("H100",):
        return "H100-SXM"
    if n == "V100":
        return "V100-32GB" if vram_gb > 20 else "V100-16GB"
    return {
        "A10G": "A10G",
        "T4": "T4",
        "L4": "L4",
        "L40S": "L40S",
        "H200": "H200",
        "M60": "M60",
        "T4G": "T4G",
    }.get(n, n or "unknown")


def on_demand_from_price_list(raw: str | dict[str, Any]) -> float | None:
    try:
        doc = json.loads(raw) if isinstance(raw, str) else raw
        for term in doc.get("terms", {}).get("OnDemand", {}).values():
            for dim in term.get("priceDimensions", {}).values():
                usd = dim.get("pricePerUnit", {}).get("USD")
                if usd is not None and float(usd) > 0:
                    return float(usd)
    except (ValueError, AttributeError, TypeError):
        return None
    return None


_local = threading.local()


def _note_clock(resp: Any) -> None:
    """AWS's clock from an answer's HTTP Date header (botocore keeps it in ResponseMetadata.HTTPHeaders):
    app.core.ledgerdb.CLOCK counts running time and cost on it, not on the laptop's clock."""
    if isinstance(resp, dict):
        headers = (resp.get("ResponseMetadata") or {}).get("HTTPHeaders") or {}
        CLOCK.note_date("aws", headers.get("date") if isinstance(headers, dict) else None)
