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
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    Account,
    AuthError,
    CapacityError,
    CloudError,
    Credentials,
    Instance,
    LaunchRequest,
    NotFoundError,
    PriceTooLowError,
    ProgressFn,
    QuotaError,
    SdkMissingError,
    ThrottledError,
    report_call,
)
from app.cloud.errors import (
    ClockSkewError,
    ErrorSpec,
    InvalidRequestError,
    PermissionError_,
    map_error,
    network_error,
)
from app.core.fingerprints import parse_console_fingerprints
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.models import Offer

from .spec import LAUNCH_TAG as LAUNCH_TAG
from .spec import LOGIN_TAG as LOGIN_TAG
from .spec import SPEC

log = logging.getLogger(__name__)

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
    "pending": "pending",
    "running": "running",
    "shutting-down": "terminating",
    "terminated": "terminated",
    "stopping": "stopping",
    "stopped": "stopped",
}

# (family prefix → (on-demand quota, spot quota)) as named in the Service Quotas console (EC2).
QUOTAS = {
    "g": (
        ("Running On-Demand G and VT instances", "L-DB2E81BA"),
        ("All G and VT Spot Instance Requests", "L-3819A6DF"),
    ),
    "vt": (
        ("Running On-Demand G and VT instances", "L-DB2E81BA"),
        ("All G and VT Spot Instance Requests", "L-3819A6DF"),
    ),
    "p": (("Running On-Demand P instances", "L-417A185B"), ("All P Spot Instance Requests", "L-7212CCBC")),
    "inf": (
        ("Running On-Demand Inf instances", "L-1945791B"),
        ("All Inf Spot Instance Requests", "L-B5D1601B"),
    ),
    "trn": (
        ("Running On-Demand Trn instances", "L-2C3B7624"),
        ("All Trn Spot Instance Requests", "L-6B0D517C"),
    ),
    "dl": (("Running On-Demand DL instances", "L-6E869C2A"), ("All DL Spot Instance Requests", "L-85EED4F7")),
}
STANDARD_QUOTA = (
    ("Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances", "L-1216C47A"),
    ("All Standard (A, C, D, H, I, M, R, T, Z) Spot Instance Requests", "L-34B43A08"),
)

_AUTH_HINT = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Check the access key id and secret of account '{account}' (remove and add it again "
    "with the values from IAM → Security credentials) and that the key is active.",
)
_CLOCK = ErrorSpec(
    ClockSkewError,
    QT_TRANSLATE_NOOP(
        "LabGPU", "AWS rejected the request because this computer's clock is wrong (more than 5 minutes off)."
    ),
    QT_TRANSLATE_NOOP("LabGPU", "Fix your clock: turn on automatic date and time (NTP), then retry."),
)

ERRORS: dict[str, ErrorSpec] = {
    "AuthFailure": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS refused the credentials of account '{account}'."),
        _AUTH_HINT,
    ),
    "InvalidClientTokenId": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not know the access key id of account '{account}'."),
        _AUTH_HINT,
    ),
    "UnrecognizedClientException": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not know the access key id of account '{account}'."),
        _AUTH_HINT,
    ),
    "SignatureDoesNotMatch": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "The secret access key of account '{account}' does not match its key id."
        ),
        _AUTH_HINT,
    ),
    "IncompleteSignature": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS refused the credentials of account '{account}'."),
        _AUTH_HINT,
    ),
    "ExpiredToken": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "The session token of account '{account}' has expired."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Get new temporary credentials (aws sts get-session-token or your "
            "SSO login) and add the account again.",
        ),
    ),
    "UnauthorizedOperation": ErrorSpec(
        PermissionError_,
        QT_TRANSLATE_NOOP("LabGPU", "The IAM user of account '{account}' may not do this ({action})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Ask the AWS account's admin to allow ec2:{action} (e.g. attach "
            "AmazonEC2FullAccess) to this user.",
        ),
    ),
    "AccessDenied": ErrorSpec(
        PermissionError_,
        QT_TRANSLATE_NOOP("LabGPU", "The IAM user of account '{account}' may not do this ({action})."),
        QT_TRANSLATE_NOOP("LabGPU", "Ask the AWS account's admin to allow {action} for this user."),
    ),
    "OptInRequired": ErrorSpec(
        PermissionError_,
        QT_TRANSLATE_NOOP("LabGPU", "Account '{account}' is not subscribed to EC2 in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Finish the AWS sign-up (payment method) or enable the region in the AWS console, then retry.",
        ),
    ),
    "RequestExpired": _CLOCK,
    "RequestTimeTooSkewed": _CLOCK,
    "InsufficientInstanceCapacity": ErrorSpec(
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS has no free {instance_type} capacity in {zone} right now."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Try another zone or region, a similar instance type, or retry in a few minutes."
        ),
    ),
    "UnfulfillableCapacity": ErrorSpec(
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS cannot fulfil a {instance_type} request in {zone} right now."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone, on-demand instead of spot, or retry later."),
    ),
    "InsufficientFreeAddressesInSubnet": ErrorSpec(
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "The default subnet in {zone} has no free addresses."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone, or free addresses in that subnet."),
    ),
    "Unsupported": ErrorSpec(
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not offer {instance_type} in {zone}."),
        QT_TRANSLATE_NOOP("LabGPU", "Choose another zone or region where this type exists."),
    ),
    "VcpuLimitExceeded": ErrorSpec(
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "Your vCPU quota is too low to launch {instance_type} in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Request an increase of the quota '{quota}' ({quota_code}) in "
            "Service Quotas → Amazon EC2 for {region}; new accounts start at 0.",
        ),
    ),
    "InstanceLimitExceeded": ErrorSpec(
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "Account '{account}' has reached its instance limit in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Terminate instances you no longer need, or request a higher "
            "limit of '{quota}' ({quota_code}) in Service Quotas.",
        ),
    ),
    "MaxSpotInstanceCountExceeded": ErrorSpec(
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "Account '{account}' has reached its spot instance limit in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Cancel unused spot requests, or request a higher '{quota}' ({quota_code}) in Service Quotas.",
        ),
    ),
    "SpotMaxPriceTooLow": ErrorSpec(
        PriceTooLowError,
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Your maximum spot price {max_price} USD/h is below "
            "the current spot price {spot_price} USD/h for "
            "{instance_type} in {zone}.",
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Raise the maximum price (--max-price) to at least {spot_price}, or launch on-demand."
        ),
    ),
    "RequestLimitExceeded": ErrorSpec(
        ThrottledError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "AWS kept throttling requests of account '{account}' after several retries."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Wait a minute and retry; other tools using this account may be sending many requests."
        ),
        retryable=True,
    ),
    "Throttling": ErrorSpec(
        ThrottledError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "AWS kept throttling requests of account '{account}' after several retries."
        ),
        QT_TRANSLATE_NOOP("LabGPU", "Wait a minute and retry."),
        retryable=True,
    ),
    "InvalidAMIID.": ErrorSpec(
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "Image {image_id} does not exist in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Leave the image empty to use a Deep Learning AMI, or copy an image id "
            "from this region's EC2 console.",
        ),
    ),
    "InvalidInstanceID.": ErrorSpec(
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "Instance {instance_id} does not exist on account '{account}' any more."),
        QT_TRANSLATE_NOOP("LabGPU", "Refresh the instance list: it was probably terminated."),
    ),
    "IncorrectInstanceState": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "Instance {instance_id} cannot do this in its current state."),
        QT_TRANSLATE_NOOP("LabGPU", "Wait until it has finished starting or stopping, then retry."),
    ),
    "UnsupportedOperation": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not allow this for instance {instance_id}: {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "A one-time spot instance cannot be stopped: terminate it instead."),
    ),
    "IdempotentParameterMismatch": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "A launch with this client token but other settings already exists."),
        QT_TRANSLATE_NOOP("LabGPU", "Start a new launch instead of retrying the old one."),
    ),
    "InvalidBlockDeviceMapping": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS rejected the system disk: {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Choose a larger system disk (at least the image's size) and retry."),
    ),
    "InvalidParameterValue": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS rejected a value: {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the instance type, zone and image, then retry."),
    ),
    "InvalidParameterCombination": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS rejected the combination of settings: {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the instance type, zone and image, then retry."),
    ),
    "InvalidInstanceType": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not know instance type {instance_type}."),
        QT_TRANSLATE_NOOP("LabGPU", "Check the spelling (e.g. g5.xlarge) or pick an offer from the table."),
    ),
}


def quota_for(instance_type: str, spot: bool) -> tuple[str, str]:
    family = re.match(r"^[a-z]+", instance_type or "")
    fam = family.group(0) if family else ""
    for prefix in sorted(QUOTAS, key=len, reverse=True):
        if fam.startswith(prefix):
            return QUOTAS[prefix][1 if spot else 0]
    return STANDARD_QUOTA[1 if spot else 0]


def _boto3() -> Any:
    try:
        import boto3
        import botocore.config
    except ImportError:  # pragma: no cover - boto3 is a dependency
        raise SdkMissingError(
            QT_TRANSLATE_NOOP("LabGPU", "The AWS SDK (boto3) is not installed."),
            QT_TRANSLATE_NOOP("LabGPU", "Reinstall LabGPU, or pip install boto3."),
            provider="aws",
            code="SdkMissing",
        ) from None
    return boto3, botocore.config


class AwsProvider:
    id = SPEC.id
    display_name = SPEC.name
    limitations = dict(SPEC.limitations)

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
        boto3, bconfig = _boto3()
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
            session = boto3.session.Session(
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
            client = session.client(service, endpoint_url=_endpoint_for(account, service), config=cfg)
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
            raise self._map(account, exc, method, ctx) from None
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
                return map_error("aws", code, message, rid, {code: _CLOCK}, **params)  # keep AWS's code
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

    # -- protocol ----------------------------------------------------------------------------
    def validate(self, account: Account, creds: Credentials) -> str:
        sts = self._client(account, creds, "sts")
        ident = self._call(account, sts, "get_caller_identity")
        ec2 = self._client(account, creds)
        # DryRun checks EC2 permission without doing anything: DryRunOperation means "would succeed".
        try:
            ec2.describe_instances(DryRun=True, MaxResults=5)
        except Exception as exc:  # noqa: BLE001
            code = getattr(exc, "response", {}).get("Error", {}).get("Code", "")
            if code != "DryRunOperation":
                raise self._map(account, exc, "describe_instances", {}) from None
        return str(ident.get("Arn") or ident.get("Account") or "")

    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        ec2 = self._client(account, creds)
        resp = self._call(
            account, ec2, "describe_availability_zones", Filters=[{"Name": "state", "Values": ["available"]}]
        )
        zones = sorted(
            z["ZoneName"]
            for z in resp.get("AvailabilityZones", [])
            if z.get("ZoneType", "availability-zone") == "availability-zone"
        )
        if instance_type:
            try:
                offered = self._call(
                    account,
                    ec2,
                    "describe_instance_type_offerings",
                    LocationType="availability-zone",
                    Filters=[{"Name": "instance-type", "Values": [instance_type]}],
                )
                where = {o["Location"] for o in offered.get("InstanceTypeOfferings", [])}
                if where:
                    zones = [z for z in zones if z in where]
            except CloudError as exc:
                log.info("instance type offerings unavailable: %s", exc.code)
        return zones

    def _to_instance(self, account: Account, d: dict[str, Any]) -> Instance:
        tags = {t["Key"]: t["Value"] for t in d.get("Tags", []) or []}
        raw = d.get("State", {}).get("Name", "")
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

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        ec2 = self._client(account, creds)
        out: list[Instance] = []
        token = None
        while True:
            kwargs: dict[str, Any] = {
                "Filters": [{"Name": f"tag:{LABGPU_TAG_KEY}", "Values": [LABGPU_TAG_VALUE]}]
            }
            if token:
                kwargs["NextToken"] = token
            resp = self._call(account, ec2, "describe_instances", **kwargs)
            for res in resp.get("Reservations", []):
                out.extend(self._to_instance(account, d) for d in res.get("Instances", []))
            token = resp.get("NextToken")
            if not token:
                return out

    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        # The tag is applied atomically with run_instances (TagSpecifications), so it finds every
        # attempt of the launch, zone retries included.
        ec2 = self._client(account, creds)
        resp = self._call(
            account,
            ec2,
            "describe_instances",
            Filters=[{"Name": f"tag:{LAUNCH_TAG}", "Values": [token.split("~")[0]]}],
        )
        found = [
            self._to_instance(account, d)
            for res in resp.get("Reservations", [])
            for d in res.get("Instances", [])
        ]
        live = [i for i in found if i.state not in ("terminated", "failed")]
        return (live or found)[0] if found else None

    # -- launch steps ------------------------------------------------------------------------
    def ensure_key_pair(self, account: Account, creds: Credentials, name: str, public_key: str) -> str:
        ec2 = self._client(account, creds)
        try:
            self._call(account, ec2, "describe_key_pairs", KeyNames=[name])
            return name
        except CloudError as exc:
            if exc.code != "InvalidKeyPair.NotFound":
                raise
        try:
            self._call(
                account,
                ec2,
                "import_key_pair",
                audit=True,
                KeyName=name,
                PublicKeyMaterial=public_key.encode(),
                TagSpecifications=[
                    {"ResourceType": "key-pair", "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]}
                ],
            )
        except CloudError as exc:
            if exc.code != "InvalidKeyPair.Duplicate":  # a concurrent launch imported it first
                raise
        return name

    def ensure_security_group(self, account: Account, creds: Credentials, cidr: str) -> str:
        """A group per source range that opens TCP 22 to that range only (nothing else, never the world)."""
        ec2 = self._client(account, creds)
        vpcs = self._call(account, ec2, "describe_vpcs", Filters=[{"Name": "isDefault", "Values": ["true"]}])
        if not vpcs.get("Vpcs"):
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Account '{account}' has no default VPC in {region}."),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Create one (VPC console → Actions → Create default VPC), then retry."
                ),
                provider="aws",
                code="NoDefaultVpc",
                account=account.name,
                region=account.region,
            )
        vpc_id = vpcs["Vpcs"][0]["VpcId"]
        name = "labgpu-ssh-" + re.sub(r"[^0-9a-fA-F]", "-", cidr)
        found = self._call(
            account,
            ec2,
            "describe_security_groups",
            Filters=[{"Name": "vpc-id", "Values": [vpc_id]}, {"Name": "group-name", "Values": [name]}],
        )
        if found.get("SecurityGroups"):
            group = found["SecurityGroups"][0]
            gid = group["GroupId"]
            have = any(
                p.get("FromPort") == 22
                and p.get("ToPort") == 22
                and any(r.get("CidrIp") == cidr for r in p.get("IpRanges", []))
                or any(r.get("CidrIpv6") == cidr for r in p.get("Ipv6Ranges", []))
                for p in group.get("IpPermissions", [])
            )
        else:
            try:
                created = self._call(
                    account,
                    ec2,
                    "create_security_group",
                    audit=True,
                    GroupName=name,
                    VpcId=vpc_id,
                    Description=f"LabGPU: SSH from {cidr} only",
                    TagSpecifications=[
                        {
                            "ResourceType": "security-group",
                            "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}],
                        }
                    ],
                )
                gid, have = created["GroupId"], False
            except CloudError as exc:
                if exc.code != "InvalidGroup.Duplicate":
                    raise
                return self.ensure_security_group(account, creds, cidr)
        if not have:
            ranges: dict[str, Any] = (
                {"Ipv6Ranges": [{"CidrIpv6": cidr, "Description": "LabGPU SSH"}]}
                if ":" in cidr
                else {"IpRanges": [{"CidrIp": cidr, "Description": "LabGPU SSH"}]}
            )
            try:
                self._call(
                    account,
                    ec2,
                    "authorize_security_group_ingress",
                    audit=True,
                    GroupId=gid,
                    IpPermissions=[{"IpProtocol": "tcp", "FromPort": 22, "ToPort": 22, **ranges}],
                )
            except CloudError as exc:
                if exc.code != "InvalidPermission.Duplicate":
                    raise
        return str(gid)

    def find_image(self, account: Account, creds: Credentials) -> tuple[str, str, bool]:
        """(image id, image name, is_gpu_image): the newest Deep Learning PyTorch AMI, else Ubuntu 22.04."""
        ec2 = self._client(account, creds)
        for owners, pattern, gpu in ((["amazon"], DLAMI_NAME, True), ([UBUNTU_OWNER], UBUNTU_NAME, False)):
            resp = self._call(
                account,
                ec2,
                "describe_images",
                Owners=owners,
                Filters=[
                    {"Name": "name", "Values": [pattern]},
                    {"Name": "state", "Values": ["available"]},
                    {"Name": "architecture", "Values": ["x86_64"]},
                ],
            )
            images = sorted(
                resp.get("Images", []), key=lambda i: (str(i.get("CreationDate") or ""), i.get("Name", ""))
            )
            if images:
                return images[-1]["ImageId"], images[-1].get("Name", ""), gpu
        raise NotFoundError(
            QT_TRANSLATE_NOOP(
                "LabGPU", "No Deep Learning AMI and no Ubuntu 22.04 image was found in {region}."
            ),
            QT_TRANSLATE_NOOP(
                "LabGPU", "Choose an image id (--image), copied from the EC2 console's AMI catalog."
            ),
            provider="aws",
            code="NoImage",
            region=account.region,
        )

    def _image_info(self, account: Account, ec2: Any, image_id: str) -> tuple[str, str, int]:
        """(root device name, image name, root snapshot size in GB or 0) of ``image_id``; a missing
        image is InvalidAMIID.NotFound."""
        resp = self._call(account, ec2, "describe_images", ImageIds=[image_id], ctx={"image_id": image_id})
        images = resp.get("Images", [])
        if not images:
            raise map_error(
                "aws",
                "InvalidAMIID.NotFound",
                "",
                "",
                ERRORS,
                account=account.name,
                region=account.region,
                image_id=image_id,
            )
        img = images[0]
        root = str(img.get("RootDeviceName") or "/dev/sda1")
        size = next(
            (
                int(m.get("Ebs", {}).get("VolumeSize") or 0)
                for m in img.get("BlockDeviceMappings", [])
                if m.get("DeviceName") == root
            ),
            0,
        )
        return root, str(img.get("Name") or ""), size

    def host_key_fingerprints(self, account: Account, creds: Credentials, instance_id: str) -> list[str]:
        """The SSH host key fingerprints the instance printed on its console at first boot (cloud-init),
        e.g. ["256 SHA256:… root@ip-… (ED25519)"]: lets the SSH layer verify the host key instead of
        trusting it blindly. Empty until the console output is available (a few minutes after boot).
        Short timeouts: the SSH layer asks on first contact and must not wait long for a bonus check."""
        ec2 = self._client(account, creds, quick=True)
        resp = self._call(
            account,
            ec2,
            "get_console_output",
            InstanceId=instance_id,
            Latest=True,
            ctx={"instance_id": instance_id},
        )
        return parse_console_fingerprints(_console_text(resp.get("Output") or ""))

    def current_spot_price(
        self, account: Account, creds: Credentials, instance_type: str, zone: str
    ) -> float | None:
        try:
            ec2 = self._client(account, creds)
            kwargs: dict[str, Any] = {
                "InstanceTypes": [instance_type],
                "ProductDescriptions": ["Linux/UNIX"],
                "StartTime": datetime.now(timezone.utc) - timedelta(hours=3),
                "MaxResults": 100,
            }
            if zone:
                kwargs["AvailabilityZone"] = zone
            hist = self._call(account, ec2, "describe_spot_price_history", **kwargs).get(
                "SpotPriceHistory", []
            )
        except CloudError:
            return None
        prices = [float(h["SpotPrice"]) for h in hist if h.get("InstanceType") == instance_type]
        return min(prices) if prices else None

    def launch(
        self, account: Account, creds: Credentials, req: LaunchRequest, progress: ProgressFn | None = None
    ) -> Instance:
        def step(key: str, message: str = "") -> None:
            if progress:
                progress(key, message)

        ctx = {
            "instance_type": req.instance_type,
            "zone": req.zone or account.region,
            "spot": req.spot,
            "max_price": "" if req.max_price is None else f"{req.max_price:.4f}",
            "image_id": req.image_id,
        }
        if not req.ssh_cidr:
            raise InvalidRequestError(
                QT_TRANSLATE_NOOP("LabGPU", "No SSH source range was given."),
                QT_TRANSLATE_NOOP("LabGPU", "Give your address or VPN range (--ssh-from)."),
                provider="aws",
                code="NoSshCidr",
            )
        key_name = ""
        if req.public_key:
            step(
                "key", _msg(QT_TRANSLATE_NOOP("LabGPU", "Registering SSH key {name}…"), name=req.ssh_key_name)
            )
            key_name = self.ensure_key_pair(account, creds, req.ssh_key_name, req.public_key)
        step(
            "security_group",
            _msg(QT_TRANSLATE_NOOP("LabGPU", "Opening SSH (port 22) to {cidr} only…"), cidr=req.ssh_cidr),
        )
        group_id = self.ensure_security_group(account, creds, req.ssh_cidr)
        image_id = req.image_id
        if not image_id:
            image_id, image_name, gpu = self.find_image(account, creds)
            if gpu:
                step(
                    "image",
                    _msg(
                        QT_TRANSLATE_NOOP(
                            "LabGPU", "Using the GPU image {name} ({id}) with CUDA and PyTorch."
                        ),
                        name=image_name,
                        id=image_id,
                    ),
                )
            else:
                step(
                    "image",
                    _msg(
                        QT_TRANSLATE_NOOP(
                            "LabGPU",
                            "No Deep Learning AMI found: using plain Ubuntu 22.04 {name} ({id}); "
                            "install CUDA and PyTorch yourself.",
                        ),
                        name=image_name,
                        id=image_id,
                    ),
                )
        else:
            step("image", _msg(QT_TRANSLATE_NOOP("LabGPU", "Using image {id}."), id=image_id))
        ctx["image_id"] = image_id
        ec2 = self._client(account, creds)
        root, image_name, min_disk = self._image_info(account, ec2, image_id)
        disk_gb = int(req.disk_gb)
        if min_disk > disk_gb:  # AWS refuses a root volume smaller than the image's snapshot
            step(
                "image",
                _msg(
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "The image needs a system disk of at least {size} GB: "
                        "using {size} GB instead of {asked} GB.",
                    ),
                    size=min_disk,
                    asked=disk_gb,
                ),
            )
            disk_gb = min_disk
        tags = [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]
        if req.client_token:
            tags.append({"Key": LAUNCH_TAG, "Value": req.client_token.split("~")[0]})
        if req.name:
            tags.append({"Key": "Name", "Value": req.name})
        tags.append({"Key": LOGIN_TAG, "Value": login_user_for(image_name)})
        tags.extend(
            {"Key": k, "Value": v} for k, v in req.tags.items() if k not in (LABGPU_TAG_KEY, LAUNCH_TAG)
        )
        kwargs: dict[str, Any] = {
            "ImageId": image_id,
            "InstanceType": req.instance_type,
            "MinCount": 1,
            "MaxCount": 1,
            "SecurityGroupIds": [group_id],
            "BlockDeviceMappings": [
                {
                    "DeviceName": root,
                    "Ebs": {"VolumeSize": disk_gb, "VolumeType": "gp3", "DeleteOnTermination": True},
                }
            ],
            "TagSpecifications": [
                {"ResourceType": "instance", "Tags": tags},
                {"ResourceType": "volume", "Tags": tags[:2]},
            ],
            "MetadataOptions": {"HttpTokens": "required", "HttpEndpoint": "enabled"},
        }
        if key_name:
            kwargs["KeyName"] = key_name
        if req.client_token:
            kwargs["ClientToken"] = req.client_token
        if req.zone:
            kwargs["Placement"] = {"AvailabilityZone": req.zone}
        if req.spot:
            spot: dict[str, Any] = {
                "SpotInstanceType": "one-time",
                "InstanceInterruptionBehavior": "terminate",
            }
            if req.max_price is not None:
                spot["MaxPrice"] = f"{req.max_price:.4f}"
            kwargs["InstanceMarketOptions"] = {"MarketType": "spot", "SpotOptions": spot}
        step(
            "request",
            _msg(
                QT_TRANSLATE_NOOP("LabGPU", "Requesting {type} ({market}) in {zone}…"),
                type=req.instance_type,
                market=translate(
                    QT_TRANSLATE_NOOP("LabGPU", "spot")
                    if req.spot
                    else QT_TRANSLATE_NOOP("LabGPU", "on-demand")
                ),
                zone=req.zone or account.region,
            ),
        )
        try:
            resp = self._call(account, ec2, "run_instances", audit=True, ctx=ctx, **kwargs)
        except PriceTooLowError as exc:
            if exc.params.get("spot_price") in ("?", "", None):
                price = self.current_spot_price(account, creds, req.instance_type, req.zone)
                if price is not None:
                    exc.params["spot_price"] = f"{price:.4f}"
                    exc.args = (exc.text(),)
            raise
        return self._to_instance(account, resp["Instances"][0])

    # -- actions -----------------------------------------------------------------------------
    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        ec2 = self._client(account, creds)
        self._call(
            account,
            ec2,
            "start_instances",
            audit=True,
            InstanceIds=[instance_id],
            ctx={"instance_id": instance_id},
        )

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        ec2 = self._client(account, creds)
        self._call(
            account,
            ec2,
            "stop_instances",
            audit=True,
            InstanceIds=[instance_id],
            ctx={"instance_id": instance_id},
        )
        return QT_TRANSLATE_NOOP(
            "LabGPU", "EBS disks still bill while stopped; terminate the instance to stop all charges."
        )

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        ec2 = self._client(account, creds)
        self._call(
            account,
            ec2,
            "terminate_instances",
            audit=True,
            InstanceIds=[instance_id],
            ctx={"instance_id": instance_id},
        )

    # -- prices ------------------------------------------------------------------------------
    def _default_types(self, account: Account) -> list[str]:
        try:
            from app.core.catalog import load_catalog

            types = sorted(
                {o.instance_type for o in load_catalog(include_live=False).offers if o.provider == "aws"}
            )
        except Exception as exc:  # noqa: BLE001 - the catalog is optional here
            log.info("catalog unavailable for default types: %s", exc)
            types = []
        return types or list(DEFAULT_GPU_TYPES)

    def _on_demand_prices(
        self, account: Account, creds: Credentials, types: Sequence[str]
    ) -> dict[str, float]:
        pricing = self._client(account, creds, "pricing", region="us-east-1")
        out: dict[str, float] = {}
        for itype in types:
            filters = [
                {"Type": "TERM_MATCH", "Field": f, "Value": v}
                for f, v in (
                    ("instanceType", itype),
                    ("regionCode", account.region),
                    ("operatingSystem", "Linux"),
                    ("tenancy", "Shared"),
                    ("preInstalledSw", "NA"),
                    ("capacitystatus", "Used"),
                )
            ]
            try:
                resp = self._call(
                    account,
                    pricing,
                    "get_products",
                    ServiceCode="AmazonEC2",
                    Filters=filters,
                    MaxResults=10,
                    ctx={"instance_type": itype},
                )
            except CloudError as exc:
                log.info("pricing api unavailable (%s): on-demand prices not refreshed", exc.code)
                return out
            for raw in resp.get("PriceList", []):
                price = _on_demand_from_price_list(raw)
                if price is not None:
                    out[itype] = price
                    break
        return out

    def refresh_prices(
        self, account: Account, creds: Credentials, instance_types: Sequence[str]
    ) -> list[Offer]:
        types = list(instance_types) or self._default_types(account)
        ec2 = self._client(account, creds)
        now = datetime.now(timezone.utc).replace(microsecond=0)
        specs: dict[str, dict[str, Any]] = {}
        for itype in types:
            try:
                resp = self._call(
                    account,
                    ec2,
                    "describe_instance_types",
                    InstanceTypes=[itype],
                    ctx={"instance_type": itype},
                )
            except CloudError as exc:
                if exc.code not in ("InvalidInstanceType", "InvalidParameterValue", "Unsupported"):
                    raise  # auth, network, throttling: the whole refresh failed, say so
                log.info("skip %s: %s", itype, exc.code)  # a type this region (or moto) does not know
                continue
            for d in resp.get("InstanceTypes", []):
                if d.get("GpuInfo"):
                    specs[d["InstanceType"]] = d
        if not specs:
            return []
        on_demand = self._on_demand_prices(account, creds, list(specs))
        hist: list[dict[str, Any]] = []
        kwargs: dict[str, Any] = {
            "InstanceTypes": list(specs),
            "ProductDescriptions": ["Linux/UNIX"],
            "StartTime": now - timedelta(hours=6),
            "MaxResults": 1000,
        }
        for _page in range(10):  # a few hours of history for a handful of types fits in one or two pages
            resp = self._call(account, ec2, "describe_spot_price_history", **kwargs)
            hist.extend(resp.get("SpotPriceHistory", []))
            if not resp.get("NextToken"):
                break
            kwargs["NextToken"] = resp["NextToken"]
        latest: dict[tuple[str, str], tuple[datetime, float]] = {}
        for h in hist:
            key = (h["InstanceType"], h.get("AvailabilityZone", ""))
            ts = h.get("Timestamp") or now
            if key not in latest or latest[key][0] < ts:
                latest[key] = (ts, float(h["SpotPrice"]))
        offers: list[Offer] = []
        for itype, d in specs.items():
            gpu = d["GpuInfo"]["Gpus"][0]
            count = float(sum(g.get("Count", 0) for g in d["GpuInfo"]["Gpus"]))
            vram = gpu.get("MemoryInfo", {}).get("SizeInMiB", 0) / 1024.0
            base = {
                "provider": "aws",
                "region": account.region,
                "instance_type": itype,
                "gpu_model": gpu_model_key(gpu.get("Name", ""), vram),
                "gpu_count": count,
                "vram_gb": round(vram, 1),
                "vcpu": d.get("VCpuInfo", {}).get("DefaultVCpus"),
                "ram_gb": round(d.get("MemoryInfo", {}).get("SizeInMiB", 0) / 1024.0, 1) or None,
                "network_gbps": _network_gbps(d.get("NetworkInfo", {})),
                "price_on_demand": on_demand.get(itype),
                "price_prepaid_month": None,
                "currency": "USD",
                "price_source": "AWS API: Pricing get_products + EC2 describe_spot_price_history",
                "price_date": now.date(),
                "live": True,
                "fetched_at": now,
            }
            zones = sorted((z, p) for (t, z), (_ts, p) in latest.items() if t == itype)
            if not zones:
                offers.append(Offer(**base, price_spot=None, spot_available=False))
            for zone, price in zones:
                offers.append(Offer(**base, price_spot=price, spot_available=True, zone=zone))
        return offers


def _msg(template: str, **params: Any) -> str:
    """A progress sentence in the user's language."""
    return translate(template).format(**params)


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


def _console_text(output: str) -> str:
    """get_console_output's Output is base64 in the API; boto3 decodes it, some endpoints do not."""
    import base64
    import binascii

    if "-----" in output or "\n" in output:
        return output
    try:
        return base64.b64decode(output, validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return output


def _endpoint_for(account: Account, service: str) -> str | None:
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
    if resp.get("Instances"):
        return ",".join(i.get("InstanceId", "") for i in resp["Instances"])
    return str(
        resp.get("GroupId") or kwargs.get("GroupId") or kwargs.get("KeyName") or resp.get("KeyName") or ""
    )


def _action_name(method: str) -> str:
    return "".join(p.capitalize() for p in method.split("_"))


def _network_gbps(info: dict[str, Any]) -> float | None:
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


def _on_demand_from_price_list(raw: str | dict[str, Any]) -> float | None:
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
