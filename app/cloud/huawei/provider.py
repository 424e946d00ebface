"""Huawei Cloud ECS behind the Provider protocol: validate, start, stop, terminate (see client, prices and
launch for the rest).

Start, stop and terminate are ECS batch actions (BatchStartServers, BatchStopServers with type SOFT,
DeleteServers with delete_publicip and delete_volume); each answers a job, polled with ShowJob until it ends,
then the server is read back (ListServersDetails) until it shows the state the action leads to."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from app.cloud.base import StopRefusedError
from app.cloud.kit import masked_key, say, spec_identity, timed_out
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP, translate

from .client import VALIDATE_CALL, models
from .launch import HuaweiLaunch
from .spec import PROVIDER_ID, SPEC

log = logging.getLogger("app.cloud.huawei")

STOPPED = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Stopped: a stopped Huawei Cloud pay-per-use instance no longer bills its vCPUs, memory and GPUs; its disks "
    "still bill, and so does its EIP's bandwidth when the EIP is billed by bandwidth (LabGPU's are billed by "
    "traffic). Terminate it to stop all charges.",
)
SPOT_NO_STOP = QT_TRANSLATE_NOOP(
    "LabGPU", "Huawei Cloud does not document that a stopped spot instance stops billing")


class HuaweiProvider(HuaweiLaunch):
    """The Huawei Cloud ECS provider (see app.cloud.base.Provider)."""

    id, display_name, limitations = spec_identity(SPEC)

    def validate(self, account: Account, creds: Credentials) -> str:
        """ECS ListServerAzInfo (GET /v1/{project_id}/availability-zones): read-only and cheap; it proves the
        AK/SK (the signature), the project of the region and the endpoint."""
        body = self._call(account, creds, VALIDATE_CALL)
        zones = [str(z.get("availability_zone_id", "")) for z in body.get("availability_zones") or []]
        return say(QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud access key {key} ({region}: {n} availability zones)"),
                   key=masked_key(creds.key_id), region=account.region, n=len(zones))

    # -- lifecycle ---------------------------------------------------------------------------------------
    def _servers(self, instance_id: str) -> list[Any]:
        return [models().ServerId(id=instance_id)]

    def _wait_status(self, account: Account, creds: Credentials, instance_id: str,
                     done: Sequence[str]) -> dict[str, Any] | None:
        """ListServersDetails until the server shows one of ``done`` with no task running (None: it is gone)."""

        def read() -> dict[str, Any] | None:
            raws = self._describe(account, creds, ids=[instance_id])
            return raws[0] if raws else None

        raw, reached = self.poll_until(
            read, lambda r: r is None or (r.get("status") in done and not r.get("OS-EXT-STS:task_state")),
            self.operation_timeout)
        if not reached and raw is not None:
            raise timed_out(PROVIDER_ID, instance_id, str(raw.get("status", "?")), self.operation_timeout)
        return raw

    def _job(self, account: Account, creds: Credentials, body: dict[str, Any], instance_id: str) -> None:
        job_id = str(body.get("job_id") or "")
        if job_id:
            self.wait_job(account, creds, job_id, {"instance_id": instance_id})

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        m = models()
        body = m.BatchStartServersRequestBody(os_start=m.BatchStartServersOption(servers=self._servers(instance_id)))
        answer = self._call(account, creds, "BatchStartServers", {"body": body}, state_changing=True,
                            resource=instance_id, context={"instance_id": instance_id})
        self._job(account, creds, answer, instance_id)
        self._wait_status(account, creds, instance_id, ("ACTIVE",))

    def stop_refusal(self, account: Account, creds: Credentials, instance_id: str) -> str:
        """Why LabGPU will not stop this instance (a translation template), or "": a spot instance is
        terminated instead, since Huawei Cloud's billing documents say a stopped pay-per-use ECS stops billing
        its compute but say no such thing of a spot ECS (see spec.SPOT_RULE)."""
        raws = self._describe(account, creds, ids=[instance_id])
        spot = bool(raws) and str((raws[0].get("metadata") or {}).get("charging_mode", "")) == "2"
        return SPOT_NO_STOP if spot else ""

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        why = self.stop_refusal(account, creds, instance_id)
        if why:
            raise StopRefusedError(
                QT_TRANSLATE_NOOP("LabGPU", "{instance_id} cannot be stopped: {reason_text}."),
                QT_TRANSLATE_NOOP("LabGPU", "Only terminating surely ends its bill, and that deletes its disks: "
                                            "pull what you need first, then terminate it (labgpu terminate "
                                            "{instance_id}, or Terminate on the instances page)."),
                provider=PROVIDER_ID, code="SpotCannotStop", account=account.name, instance_id=instance_id,
                reason=why, reason_text=translate(why))
        m = models()
        body = m.BatchStopServersRequestBody(os_stop=m.BatchStopServersOption(servers=self._servers(instance_id),
                                                                            type="SOFT"))
        answer = self._call(account, creds, "BatchStopServers", {"body": body}, state_changing=True,
                            resource=instance_id, context={"instance_id": instance_id})
        self._job(account, creds, answer, instance_id)
        self._wait_status(account, creds, instance_id, ("SHUTOFF",))
        return STOPPED  # a template: the caller translates (CloudService.stop does)

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        """Delete the server with its EIP and its disks (delete_publicip, delete_volume)."""
        m = models()
        body = m.DeleteServersRequestBody(delete_publicip=True, delete_volume=True,
                                          servers=self._servers(instance_id))
        answer = self._call(account, creds, "DeleteServers", {"body": body}, state_changing=True,
                            resource=instance_id, context={"instance_id": instance_id})
        self._job(account, creds, answer, instance_id)
        self._wait_status(account, creds, instance_id, ())
