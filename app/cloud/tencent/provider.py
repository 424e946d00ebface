"""Tencent Cloud CVM behind the Provider protocol: validate, start, stop, terminate (see client,
prices and launch for the rest)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from app.cloud.base import (
    CloudError,
)
from app.cloud.kit import key_validated, spec_identity, timed_out
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP

from .events import TencentEvents
from .launch import TencentLaunch
from .prices import TencentPrices
from .spec import PROVIDER_ID, SPEC

log = logging.getLogger("app.cloud.tencent")

class TencentProvider(TencentLaunch, TencentPrices, TencentEvents):
    """The Tencent Cloud CVM provider (see app.cloud.base.Provider)."""

    id, display_name, limitations = spec_identity(SPEC)

    # -- Provider protocol -------------------------------------------------------------------
    def validate(self, account: Account, creds: Credentials) -> str:
        response = self._call(account, creds, "DescribeRegions", {})
        regions = [str(r.get("Region")) for r in response.get("RegionSet") or []]
        return key_validated(
            PROVIDER_ID, account.region, creds.key_id, regions,
            QT_TRANSLATE_NOOP("LabGPU", "{region} is not a Tencent Cloud region this key can use."),
            QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud API key {key} ({n} regions)"))


    # -- lifecycle -----------------------------------------------------------------------------
    def _wait_operation(
        self, account: Account, creds: Credentials, instance_id: str, done_states: Sequence[str]
    ) -> dict[str, Any] | None:
        """Poll until the last operation finished (LatestOperationState) and the state is reached."""

        def read() -> dict[str, Any] | None:
            raws = self._describe(account, creds, ids=[instance_id])
            raw = raws[0] if raws else None  # None: gone, terminated and destroyed
            if raw is not None and raw.get("LatestOperationState") == "FAILED":
                raise CloudError(
                    QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud could not {operation} {instance_id}: {detail}"),
                    QT_TRANSLATE_NOOP("LabGPU", "Retry; if it keeps failing, check the instance in the CVM console."),
                    provider=PROVIDER_ID,
                    code="OperationFailed",
                    instance_id=instance_id,
                    operation=raw.get("LatestOperation") or "change",
                    detail=raw.get("LatestOperationErrorMsg") or "no reason given",
                    request_id=raw.get("LatestOperationRequestId") or "",
                )
            return raw

        def done(raw: dict[str, Any] | None) -> bool:
            return raw is None or (raw.get("LatestOperationState") != "OPERATING"
                                   and raw.get("InstanceState") in done_states)

        raw, reached = self.poll_until(read, done, self.operation_timeout)
        if not reached and raw is not None:
            raise timed_out(PROVIDER_ID, instance_id, str(raw.get("InstanceState", "?")),
                                    self.operation_timeout)
        return raw

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        self._call(account, creds, "StartInstances", {"InstanceIds": [instance_id]}, state_changing=True)
        self._wait_operation(account, creds, instance_id, ("RUNNING",))

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        """Stop with STOP_CHARGING (compute stops billing); where the instance cannot, stop with
        KEEP_CHARGING and say plainly that it still bills."""
        params = {"InstanceIds": [instance_id], "StopType": "SOFT_FIRST", "StoppedMode": "STOP_CHARGING"}
        try:
            self._call(account, creds, "StopInstances", params, state_changing=True)
            mode = "STOP_CHARGING"
        except CloudError as exc:
            if exc.code != "UnsupportedOperation.StoppedModeStopCharging":
                raise
            params["StoppedMode"] = "KEEP_CHARGING"
            self._call(account, creds, "StopInstances", params, state_changing=True)
            mode = "KEEP_CHARGING"
        raw = self._wait_operation(account, creds, instance_id, ("STOPPED",))
        if raw is not None and raw.get("StopChargingMode") in ("STOP_CHARGING", "KEEP_CHARGING"):
            mode = raw["StopChargingMode"]
        # Templates: the caller translates (CloudService.stop does).
        if mode == "STOP_CHARGING":
            return QT_TRANSLATE_NOOP(
                "LabGPU",
                "Stopped without charging: CPU, GPU and memory no longer bill; the cloud disks still bill, and the public IP may change when it starts again.",  # noqa: E501
            )  # noqa: E501 - one string for lupdate
        return QT_TRANSLATE_NOOP(
            "LabGPU",
            "Stopped, but this instance cannot stop without charging: it still bills the full hourly price. Terminate it to stop all charges.",  # noqa: E501
        )  # noqa: E501 - one string for lupdate

    def stop_charging_after_os_shutdown(self, account: Account, creds: Credentials, instance_id: str) -> str | None:
        """Settle an instance its own OS shut down (the on-instance watchdog, or `shutdown -h` in a
        shell): Tencent leaves it STOPPED with StopChargingMode KEEP_CHARGING, so its CPU, GPU and
        memory still bill ("No Charge when Shut Down" is chosen when the console or StopInstances
        stops it, StoppedMode STOP_CHARGING, default KEEP_CHARGING: www.tencentcloud.com/document/
        product/213/19922, cloud.tencent.com/document/product/213/19918, models.py StopInstancesRequest);
        the StopInstances reference (www.tencentcloud.com/document/api/213/33235, and the doc string
        in tencentcloud/cvm/v20170312/cvm_client.py) says it works only on RUNNING instances, and a
        STOPPED one is refused with UnsupportedOperation.InstanceStateStopped, errorcodes.py). The
        documented way is therefore to start it and stop it again with STOP_CHARGING (per-second
        pay-as-you-go billing: the minute or so it runs costs far less than the hours it would bill
        stopped).

        Returns the stop's note (a template, as stop() returns) when it acted, None when there was
        nothing to settle (not STOPPED/KEEP_CHARGING, an operation still running, or a prepaid
        instance, whose compute is paid for anyway). Where the instance cannot stop without
        charging, it ends STOPPED/KEEP_CHARGING again and the note says it still bills: the caller
        calls this once per shutdown, not on every reconcile. The hook a reconcile or watcher calls
        for a Tencent instance seen "stopped_billing" after its watchdog shut it down."""
        raws = self._describe(account, creds, ids=[instance_id])
        if not raws:
            return None
        raw = raws[0]
        if (raw.get("InstanceState") != "STOPPED" or raw.get("StopChargingMode") != "KEEP_CHARGING"
                or raw.get("LatestOperationState") == "OPERATING"
                or raw.get("InstanceChargeType") in ("PREPAID", "CDHPAID")):
            return None
        log.info("%s: stopped by its OS with KEEP_CHARGING; starting it to stop it without charging", instance_id)
        self.start(account, creds, instance_id)
        return self.stop(account, creds, instance_id)

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        self._call(account, creds, "TerminateInstances", {"InstanceIds": [instance_id]}, state_changing=True)
        self._wait_operation(account, creds, instance_id, ("SHUTDOWN",))
