"""Lambda behind the Provider protocol: validate, instances, launch (SSH key by name, region failover through
CloudService's zone order, a persistent file system in its region), terminate, and a stop that says what
Lambda has instead (see spec.py and client.py for the documents).

States (the API reference's InstanceStatus): booting → pending, active → running, unhealthy → running (it
still bills; the cloud's word is kept as raw_state), terminating → terminating, terminated and preempted →
terminated. Lambda bills from launch to termination, so every state before terminated bills.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    CloudError,
    Instance,
    LaunchRequest,
    NotFoundError,
    ProgressFn,
    StopRefusedError,
)
from app.cloud.kit import key_validated, live_offer, public_key_of, say, spec_identity, stepper, to_float
from app.cloud.pricing import bundled_rows
from app.core.accounts import Account, Credentials
from app.core.hosts import SSH_USER_TAG
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.models import Offer
from app.core.vocab import InstanceState

from .client import LambdaClient
from .errors import map_error
from .spec import (
    ALL_REGIONS,
    FILE_SYSTEM_EXTRA,
    LAUNCH_TAG,
    LOGIN_USER,
    PROVIDER_ID,
    REGIONS,
    SPEC,
    STOP_IS_TERMINATE,
    TOKEN_TAG_KEY,
)

log = logging.getLogger("app.cloud.lambdalabs")

PRICE_SOURCE = "Lambda Cloud API (GET /instance-types)"
STATES = {
    "booting": InstanceState.PENDING,
    "active": InstanceState.RUNNING,
    "unhealthy": InstanceState.RUNNING,
    "terminating": InstanceState.TERMINATING,
    "terminated": InstanceState.TERMINATED,
    "preempted": InstanceState.TERMINATED,
}
# RequestedTagEntry: key ^[a-z][a-z0-9-:]+$ at most 55 characters, value at most 128 (the API reference)
MAX_TAG_KEY = 55
MAX_TAG_VALUE = 128
MAX_NAME = 64  # InstanceLaunchRequest.name: at most 64 characters


def ssh_key_name(public_key: str) -> str:
    """The same public key always gets the same name, so it is added once and reused by name."""
    digest = hashlib.sha256(" ".join(public_key.split()[:2]).encode()).hexdigest()[:16]
    return f"labgpu-{digest}"


def _tag_key_ok(key: str) -> bool:
    import re

    return bool(re.fullmatch(r"[a-z][a-z0-9-:]+", key)) and len(key) <= MAX_TAG_KEY


def _parse_types(data: Any) -> dict[str, dict[str, Any]]:
    """``GET /instance-types`` data (a map of type name → {instance_type, regions_with_capacity_available})."""
    return {str(k): v for k, v in (data or {}).items() if isinstance(v, dict)} if isinstance(data, dict) else {}


class LambdaProvider(LambdaClient):
    """The Lambda provider (see app.cloud.base.Provider)."""

    id, display_name, limitations = spec_identity(SPEC)

    # -- reading ---------------------------------------------------------------------------------
    def instance_types(self, account: Account, creds: Credentials) -> dict[str, dict[str, Any]]:
        return _parse_types(self._request(account, creds, "GET", "/instance-types"))

    def capacity_regions(self, account: Account, creds: Credentials, instance_type: str) -> list[str]:
        """The regions Lambda lists with capacity for ``instance_type`` right now (the API's order)."""
        item = self.instance_types(account, creds).get(instance_type) or {}
        return [str(r.get("name")) for r in item.get("regions_with_capacity_available") or []
                if isinstance(r, dict) and r.get("name")]

    def file_systems(self, account: Account, creds: Credentials) -> list[dict[str, Any]]:
        """The account's persistent file systems (``GET /file-systems``), each with its region."""
        data = self._request(account, creds, "GET", "/file-systems")
        return [f for f in data or [] if isinstance(f, dict)]

    def _file_system(self, account: Account, creds: Credentials) -> dict[str, Any] | None:
        """The file system the account names (extra ``file_system``), or None when it names none."""
        wanted = (account.extra.get(FILE_SYSTEM_EXTRA) or "").strip()
        if not wanted:
            return None
        found = next((f for f in self.file_systems(account, creds) if f.get("name") == wanted), None)
        if found is None:
            raise NotFoundError(
                QT_TRANSLATE_NOOP("LabGPU", "Lambda has no file system named {file_system} in this account."),
                QT_TRANSLATE_NOOP("LabGPU", "Edit the account: give the name of a file system the Lambda Cloud "
                                            "dashboard lists (Storage), or leave it empty."),
                provider=PROVIDER_ID, code="NoSuchFileSystem", file_system=wanted,
            )
        return found

    def _to_instance(self, account: Account, raw: dict[str, Any]) -> Instance:
        itype = raw.get("instance_type") or {}
        region = str((raw.get("region") or {}).get("name") or "")
        tags = {str(t.get("key")): str(t.get("value")) for t in raw.get("tags") or [] if isinstance(t, dict)}
        tags.setdefault(SSH_USER_TAG, LOGIN_USER)
        status = str(raw.get("status") or "")
        cents = to_float(itype.get("price_cents_per_hour"))
        keys = [str(k) for k in raw.get("ssh_key_names") or []]
        return Instance(
            id=str(raw.get("id")), account=account.name, provider=PROVIDER_ID, region=region, zone=region,
            instance_type=str(itype.get("name") or ""), state=STATES.get(status, InstanceState.PENDING), spot=False,
            public_ip=str(raw.get("ip") or ""), private_ip=str(raw.get("private_ip") or ""),
            price_per_hour=round(cents / 100.0, 4) if cents is not None else None, currency="USD",
            name=str(raw.get("name") or ""), key_name=keys[0] if keys else "", raw_state=status, tags=tags,
        )

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        data = self._request(account, creds, "GET", "/instances")
        return [self._to_instance(account, raw) for raw in data or [] if isinstance(raw, dict) and raw.get("id")]

    def get_instance(self, account: Account, creds: Credentials, instance_id: str) -> Instance | None:
        try:
            raw = self._request(account, creds, "GET", "/instances/{id}", path_id=instance_id,
                                context={"instance_id": instance_id})
        except NotFoundError:
            return None
        return self._to_instance(account, raw) if isinstance(raw, dict) else None

    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        """The instance a launch with this token made (any region attempt of it: its ``labgpu-launch`` tag)."""
        return next((i for i in self.list_instances(account, creds) if i.tags.get(LAUNCH_TAG) == token), None)

    # -- Provider protocol -----------------------------------------------------------------------
    def validate(self, account: Account, creds: Credentials) -> str:
        """The key lists the instance types (``GET /instance-types``); a file system the account names must
        exist (``GET /file-systems``), so a mistyped name is found by the test, not by a launch."""
        types = self.instance_types(account, creds)
        self._file_system(account, creds)
        listed = {str(r.get("name")) for t in types.values()
                  for r in t.get("regions_with_capacity_available") or [] if isinstance(r, dict)}
        regions = sorted(set(REGIONS) | listed)
        key_validated(PROVIDER_ID, account.region if account.region != ALL_REGIONS else "", creds.key_id, regions,
                      QT_TRANSLATE_NOOP("LabGPU", "{region} is not a Lambda region."), "{n}")
        return say(QT_TRANSLATE_NOOP("LabGPU", "Lambda API key accepted ({n} regions, {types} instance types)"),
                   n=len(regions), types=len(types))

    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        """Where a launch of ``instance_type`` may go, in order: Lambda has no zones, so these are regions —
        the account's region first, then each other region Lambda lists with capacity. With a file system
        named on the account, only the file system's region (it cannot be attached elsewhere)."""
        fs = self._file_system(account, creds)
        if fs is not None:
            return [str((fs.get("region") or {}).get("name") or account.region)]
        home = [account.region] if account.region in REGIONS else []
        if not instance_type:
            return home + [r for r in REGIONS if r not in home]
        return home + [r for r in self.capacity_regions(account, creds, instance_type) if r not in home]

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        raise StopRefusedError(
            QT_TRANSLATE_NOOP("LabGPU", "Lambda instances cannot be started again: {reason_text}."),
            QT_TRANSLATE_NOOP("LabGPU", "Launch a new instance (a persistent file system keeps data between "
                                        "instances)."),
            provider=PROVIDER_ID, code="NoStart", account=account.name, instance_id=instance_id,
            reason=STOP_IS_TERMINATE, reason_text=translate(STOP_IS_TERMINATE),
        )

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        """Lambda has no stop (the API launches, restarts and terminates): refused for good, so the guards
        terminate after their pull and the Stop button offers Terminate (app/watch/stopping.py)."""
        raise StopRefusedError(
            QT_TRANSLATE_NOOP("LabGPU", "{instance_id} cannot be stopped: {reason_text}."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Only terminating ends its bill, and that deletes its disk (a persistent file system is kept): "
                "pull what you need first, then terminate it (labgpu terminate {instance_id}, or Terminate on "
                "the instances page).",
            ),
            provider=PROVIDER_ID, code="NoStop", account=account.name, instance_id=instance_id,
            reason=STOP_IS_TERMINATE, reason_text=translate(STOP_IS_TERMINATE),
        )

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        self._request(account, creds, "POST", "/instance-operations/terminate", {"instance_ids": [instance_id]},
                      context={"instance_id": instance_id}, audit=("TerminateInstance", instance_id))

    # -- launch ----------------------------------------------------------------------------------
    def _ensure_key(self, account: Account, creds: Credentials, req: LaunchRequest) -> str:
        """LabGPU's public key, added once (``POST /ssh-keys``) and reused by its name after."""
        wanted = public_key_of(req.public_key, PROVIDER_ID)
        name = ssh_key_name(wanted)
        keys = self._request(account, creds, "GET", "/ssh-keys") or []
        for k in keys:
            if isinstance(k, dict) and k.get("name") == name:
                return name
        self._request(account, creds, "POST", "/ssh-keys", {"name": name, "public_key": wanted},
                      context={"key_name": name}, audit=("AddSSHKey", name))
        return name

    def launch_body(self, req: LaunchRequest, region: str, key_name: str,
                    file_system: str = "") -> dict[str, Any]:
        """The ``POST /instance-operations/launch`` body (InstanceLaunchRequest; public so the contract test
        checks it against the OpenAPI schema). One instance per request: the 1.8.3 schema has no quantity."""
        tags = {LABGPU_TAG_KEY: LABGPU_TAG_VALUE}
        if req.client_token:
            tags[TOKEN_TAG_KEY] = req.client_token[:MAX_TAG_VALUE]
        for k, v in req.tags.items():
            if k not in tags and _tag_key_ok(k) and len(v) <= MAX_TAG_VALUE:
                tags[k] = v  # a longer value (a key path) is left out: the ledger keeps the key's path
        body: dict[str, Any] = {
            "region_name": region,
            "instance_type_name": req.instance_type,
            "ssh_key_names": [key_name],
            "name": (req.name or f"labgpu-{req.instance_type}")[:MAX_NAME],
            "tags": [{"key": k, "value": v} for k, v in tags.items()],
        }
        if file_system:
            body["file_system_names"] = [file_system]
        if req.image_id:
            body["image"] = {"id": req.image_id} if len(req.image_id) == 32 and req.image_id.isalnum() \
                else {"family": req.image_id}
        return body

    def launch(self, account: Account, creds: Credentials, req: LaunchRequest,
               progress: ProgressFn | None = None) -> Instance:
        step = stepper(progress)
        fs = self._file_system(account, creds)
        region = req.zone or (req.region if req.region in REGIONS else "")
        if not region:  # an offer of "all regions" and nothing chosen: the first region with capacity
            region = next(iter(self.capacity_regions(account, creds, req.instance_type)), "")
        ctx = {"zone": region or "?", "instance_type": req.instance_type}
        fs_name = ""
        if fs is not None:
            fs_name = str(fs.get("name"))
            fs_region = str((fs.get("region") or {}).get("name") or "")
            if region and fs_region and region != fs_region:  # what the API answers; said before any launch
                raise map_error("instance-operations/launch/file-system-in-wrong-region", "",
                                file_system=fs_name, fs_region=fs_region, **ctx)
            region = region or fs_region
        step("key", say(QT_TRANSLATE_NOOP("LabGPU", "Adding the SSH public key to Lambda (once, reused by name)…")))
        key_name = self._ensure_key(account, creds, req)
        step("security_group", say(QT_TRANSLATE_NOOP(
            "LabGPU", "Lambda's firewall rules of the account decide who reaches SSH (port 22); LabGPU does not "
                      "change them.")))
        step("image", say(QT_TRANSLATE_NOOP("LabGPU", "Image {image}."), image=req.image_id) if req.image_id
             else say(QT_TRANSLATE_NOOP("LabGPU", "Lambda Stack image (Ubuntu with the NVIDIA driver, CUDA and "
                                                 "PyTorch).")))
        if fs_name:
            step("request", say(QT_TRANSLATE_NOOP("LabGPU", "Attaching the file system {name} ({region})."),
                                name=fs_name, region=region))
        body = self.launch_body(req, region, key_name, fs_name)
        step("request", say(QT_TRANSLATE_NOOP("LabGPU", "Requesting {type} in {region}…"),
                            type=req.instance_type, region=region))
        self._wait_launch_turn()
        try:
            data = self._request(account, creds, "POST", "/instance-operations/launch", body, context=ctx,
                                 audit=("LaunchInstance", req.client_token or req.instance_type))
        finally:
            self._launch_answered()
        ids = [str(i) for i in (data or {}).get("instance_ids") or []] if isinstance(data, dict) else []
        if not ids:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Lambda accepted the launch but returned no instance id."),
                QT_TRANSLATE_NOOP("LabGPU", "Open the instances page: LabGPU lists every instance of the account."),
                provider=PROVIDER_ID, code="NoInstanceId",
            )
        found = self.get_instance(account, creds, ids[0])
        if found is not None:
            return found
        return Instance(
            id=ids[0], account=account.name, provider=PROVIDER_ID, region=region, zone=region,
            instance_type=req.instance_type, state=InstanceState.PENDING, spot=False, currency="USD",
            name=body["name"], key_name=key_name, raw_state="booting",
            tags={t["key"]: t["value"] for t in body["tags"]} | {SSH_USER_TAG: LOGIN_USER},
        )

    # -- prices ----------------------------------------------------------------------------------
    def refresh_prices(self, account: Account, creds: Credentials, instance_types: Sequence[str]) -> list[Offer]:
        """Each GPU type's price (one for all regions, as the bundled catalog's row) with the regions that
        have capacity now; a type with none is marked sold out. Without types: every GPU type Lambda lists."""
        now = datetime.now(timezone.utc)
        wanted = set(instance_types)
        rows = bundled_rows(PROVIDER_ID)
        offers: list[Offer] = []
        for name, item in sorted(self.instance_types(account, creds).items()):
            itype = item.get("instance_type") or {}
            specs = itype.get("specs") or {}
            gpus = int(to_float(specs.get("gpus")) or 0)
            cents = to_float(itype.get("price_cents_per_hour"))
            if (wanted and name not in wanted) or gpus <= 0 or cents is None:
                continue
            regions = [str(r.get("name")) for r in item.get("regions_with_capacity_available") or []
                       if isinstance(r, dict) and r.get("name")]
            row = rows.get(name, {})
            offers.append(live_offer(
                PROVIDER_ID, ALL_REGIONS, "", name, row, now,
                gpu_model=row.get("gpu_model") or str(itype.get("gpu_description") or "?"),
                gpu_count=float(gpus),
                vram_gb=float(to_float(row.get("vram_gb")) or 0.0),
                vcpu=int(to_float(specs.get("vcpus")) or 0) or None,
                ram_gb=to_float(specs.get("memory_gib")),
                network_gbps=to_float(row.get("network_gbps")),
                price_on_demand=round(cents / 100.0, 4), price_spot=None, price_prepaid_month=None,
                currency="USD", price_source=PRICE_SOURCE, spot_available=False,
                notes=("same price in all Lambda regions; capacity now in " + ", ".join(regions)) if regions
                else "same price in all Lambda regions; no region has capacity now",
                sold_out=not regions,
                extra=(("regions_with_capacity", " ".join(regions)),),
            ))
        return offers
