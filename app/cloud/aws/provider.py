"""AWS EC2 behind the Provider protocol: validate, zones, list, start, stop, terminate (see
client, launch and prices for the rest)."""

from __future__ import annotations

import logging
from typing import Any

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    Account,
    CloudError,
    Credentials,
    Instance,
)
from app.core.i18n import QT_TRANSLATE_NOOP

from .launch import AwsLaunch
from .prices import AwsPrices
from .spec import LAUNCH_TAG, SPEC

log = logging.getLogger("app.cloud.aws")

class AwsProvider(AwsLaunch, AwsPrices):
    id = SPEC.id
    display_name = SPEC.name
    limitations = dict(SPEC.limitations)

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
