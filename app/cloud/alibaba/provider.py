"""Alibaba Cloud ECS behind the Provider protocol: validate, start, stop, terminate (see client, prices
and launch for the rest)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from app.cloud.kit import key_validated, spec_identity, timed_out
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP

from .events import AlibabaEvents
from .launch import AlibabaLaunch
from .prices import AlibabaPrices
from .spec import PROVIDER_ID, SPEC

log = logging.getLogger("app.cloud.alibaba")

STOPPED_WITHOUT_CHARGING = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Stopped without charging (economical mode): CPU, GPU and memory no longer bill; the disks still bill, "
    "and the public IP is released (it may change when the instance starts again).",
)
STOPPED_CHARGING = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Stopped, but this instance cannot stop without charging (its type, local disks or billing method do not "
    "allow it): it still bills the full hourly price, and its disks bill too. Terminate it to stop all charges.",
)


class AlibabaProvider(AlibabaLaunch, AlibabaPrices, AlibabaEvents):
    """The Alibaba Cloud ECS provider (see app.cloud.base.Provider)."""

    id, display_name, limitations = spec_identity(SPEC)

    # -- Provider protocol -------------------------------------------------------------------
    def validate(self, account: Account, creds: Credentials) -> str:
        body = self._call(account, creds, "DescribeRegions", {})
        regions = [str(r.get("RegionId")) for r in (body.get("Regions") or {}).get("Region") or []]
        return key_validated(
            PROVIDER_ID, account.region, creds.key_id, regions,
            QT_TRANSLATE_NOOP("LabGPU", "{region} is not an Alibaba Cloud region this key can use."),
            QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud AccessKey {key} ({n} regions)"))

    # -- lifecycle -----------------------------------------------------------------------------
    def _wait_status(
        self, account: Account, creds: Credentials, instance_id: str, done: Sequence[str]
    ) -> dict[str, Any] | None:
        """Poll DescribeInstances until the instance reaches one of ``done`` (None: it is gone)."""

        def read() -> dict[str, Any] | None:
            raws = self._describe(account, creds, ids=[instance_id])
            return raws[0] if raws else None  # None: released

        raw, reached = self.poll_until(read, lambda raw: raw is None or raw.get("Status") in done,
                                       self.operation_timeout)
        if not reached and raw is not None:
            raise timed_out(PROVIDER_ID, instance_id, str(raw.get("Status", "?")), self.operation_timeout)
        return raw

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        self._call(account, creds, "StartInstances", {"InstanceId": [instance_id]}, state_changing=True,
                   resource=instance_id, context={"instance_id": instance_id})
        self._wait_status(account, creds, instance_id, ("Running",))

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        """Stop in economical mode (StopCharging) where the instance allows it; Alibaba stops the others
        in standard mode, which keeps billing: the sentence says which one happened."""
        self._call(account, creds, "StopInstances",
                   {"InstanceId": [instance_id], "StoppedMode": "StopCharging", "ForceStop": False},
                   state_changing=True, resource=instance_id, context={"instance_id": instance_id})
        raw = self._wait_status(account, creds, instance_id, ("Stopped",))
        mode = (raw or {}).get("StoppedMode", "")
        # Templates: the caller translates (CloudService.stop does).
        return STOPPED_WITHOUT_CHARGING if mode == "StopCharging" else STOPPED_CHARGING

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        """Release the instance (Force: a running one too); its system disk goes with it."""
        self._call(account, creds, "DeleteInstances", {"InstanceId": [instance_id], "Force": True},
                   state_changing=True, resource=instance_id, context={"instance_id": instance_id})
        self._wait_status(account, creds, instance_id, ())
