"""Google Cloud Compute Engine behind the Provider protocol: validate, start, stop, terminate (see client,
prices and launch for the rest)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from app.cloud.base import NotFoundError
from app.cloud.kit import key_validated, masked_key, say, spec_identity, timed_out
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP

from .client import CALL_TIMEOUT, last_part, sdk
from .keyfile import refused
from .launch import GcpLaunch
from .prices import GcpPrices
from .spec import PROVIDER_ID, SPEC

log = logging.getLogger("app.cloud.gcp")

# Said after a stop (https://cloud.google.com/compute/docs/instances/stop-start-instance: "you aren't billed for
# the vCPU, memory, or GPU resources of a stopped instance… you are charged for any attached persistent disks
# and reserved static IP addresses").
STOPPED = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Stopped: its vCPUs, memory and GPUs no longer bill; its persistent disks and any static IP address still "
    "bill. Terminate it to end all charges.",
)


class GcpProvider(GcpLaunch, GcpPrices):
    """The Google Cloud Compute Engine provider (see app.cloud.base.Provider)."""

    id, display_name, limitations = spec_identity(SPEC)

    # -- Provider protocol -------------------------------------------------------------------
    def validate(self, account: Account, creds: Credentials) -> str:
        """The key is the account's key (its client_email is the key id) and can list the project's zones."""
        key = self.key(creds)
        if creds.key_id and creds.key_id.strip() != key.email:
            raise refused(QT_TRANSLATE_NOOP("LabGPU", "The key's client_email is not the account's service account."))
        project = self.project(account, creds)
        if not project:
            raise refused(QT_TRANSLATE_NOOP("LabGPU", "The key names no project_id, and the account names no project."))
        compute = sdk()
        client = self.client(account, creds, "ZonesClient")
        request = compute.ListZonesRequest(project=project, max_results=500)
        regions = self.call(account, lambda: sorted({last_part(z.region) for z in client.list(
            request=request, retry=None, timeout=CALL_TIMEOUT)}), action="zones.list", context={"project": project})
        key_validated(PROVIDER_ID, account.region, key.email, regions,
                      QT_TRANSLATE_NOOP("LabGPU", "{region} is not a Compute Engine region of this project."), "")
        return say(QT_TRANSLATE_NOOP("LabGPU", "Google Cloud service account {key}, project {project} ({n} regions)"),
                   key=masked_key(key.email), project=project, n=len(regions))

    # -- lifecycle -----------------------------------------------------------------------------
    def _instance_call(self, account: Account, creds: Credentials, instance_id: str, method: str,
                       request_type: str) -> None:
        """instances.start / stop / delete on the instance's zone (found by its name), operation waited for."""
        compute = sdk()
        raw = self.raw_instance(account, creds, instance_id)
        if raw is None:
            raise NotFoundError(
                QT_TRANSLATE_NOOP("LabGPU", "Google Cloud has no instance {instance_id} in this project."),
                QT_TRANSLATE_NOOP("LabGPU", "Reload the instances page: it may have been deleted."),
                provider=PROVIDER_ID, code="notFound", instance_id=instance_id)
        project, zone = self.project(account, creds), last_part(raw.zone)
        client = self.client(account, creds, "InstancesClient")
        request = getattr(compute, request_type)(project=project, zone=zone, instance=instance_id)
        ctx = {"zone": zone, "instance_id": instance_id}
        op = self.call(account, lambda: getattr(client, method)(request=request, retry=None, timeout=CALL_TIMEOUT),
                       action=f"instances.{method.removesuffix('_unary')}", context=ctx, state_changing=True,
                       resource=instance_id)
        self.wait_operation(account, creds, op, action=method, context=ctx)

    def _wait_status(self, account: Account, creds: Credentials, instance_id: str, done: Sequence[str]) -> Any:
        raw, reached = self.poll_until(lambda: self.raw_instance(account, creds, instance_id),
                                       lambda r: r is None or str(r.status) in done, self.operation_timeout)
        if not reached and raw is not None:
            raise timed_out(PROVIDER_ID, instance_id, str(raw.status), self.operation_timeout)
        return raw

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        self._instance_call(account, creds, instance_id, "start_unary", "StartInstanceRequest")

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        self._instance_call(account, creds, instance_id, "stop_unary", "StopInstanceRequest")
        self._wait_status(account, creds, instance_id, ("TERMINATED", "STOPPED"))
        return STOPPED  # a template: the caller translates (CloudService.stop does)

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        """Delete the instance; its boot disk (autoDelete) goes with it."""
        self._instance_call(account, creds, instance_id, "delete_unary", "DeleteInstanceRequest")
