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
    NotFoundError,
    StopRefusedError,
)
from app.cloud.kit import spec_identity
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.vocab import InstanceState

from .events import AwsEvents
from .launch import AwsLaunch
from .prices import AwsPrices
from .spec import LAUNCH_TAG, SPEC

log = logging.getLogger("app.cloud.aws")

class AwsProvider(AwsLaunch, AwsPrices, AwsEvents):
    id, display_name, limitations = spec_identity(SPEC)
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
        live = [i for i in found if i.state not in (InstanceState.TERMINATED, InstanceState.FAILED)]
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

    # Spot instances (EC2 User Guide, "Manage your Spot Instances",
    # https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-spot-instances-request.html, and "Stop a
    # Spot Instance", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/stop-start-spot-instances.html):
    # only an instance of a persistent spot request can be stopped, never one of a one-time request nor
    # one whose request was cancelled; terminating an instance of a persistent request that is still
    # open/active/disabled opens the request again and EC2 launches a replacement, so the request is
    # cancelled first (CancelSpotInstanceRequests,
    # https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CancelSpotInstanceRequests.html).
    def spot_request(self, account: Account, creds: Credentials, instance_id: str) -> dict[str, Any] | None:
        """The spot request behind ``instance_id`` (Type one-time|persistent, State, …); None for an
        instance that is not a spot instance. Type and State are "" when AWS no longer has the request
        (it deletes closed and cancelled requests after four hours)."""
        ec2 = self._client(account, creds)
        ctx = {"instance_id": instance_id}
        resp = self._call(account, ec2, "describe_instances", InstanceIds=[instance_id], ctx=ctx)
        found = [d for res in resp.get("Reservations", []) for d in res.get("Instances", [])]
        if not found or found[0].get("InstanceLifecycle") != "spot":
            return None
        sir = str(found[0].get("SpotInstanceRequestId") or "")
        unknown: dict[str, Any] = {"SpotInstanceRequestId": sir, "Type": "", "State": ""}
        query: dict[str, Any] = (
            {"SpotInstanceRequestIds": [sir]}
            if sir
            else {"Filters": [{"Name": "instance-id", "Values": [instance_id]}]}
        )
        try:
            got = self._call(account, ec2, "describe_spot_instance_requests", ctx=ctx, **query)
        except NotFoundError:  # InvalidSpotInstanceRequestID.NotFound
            return unknown
        requests = got.get("SpotInstanceRequests") or []
        return dict(requests[0]) if requests else unknown

    def stop_refusal(self, account: Account, creds: Credentials, instance_id: str) -> str:
        """Why AWS will not stop this instance (a translation template), or "" when it can be stopped
        (on-demand, a persistent spot request, or a request AWS no longer shows: then the stop is tried
        and a refusal is reacted to)."""
        return _refusal(self.spot_request(account, creds, instance_id))

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        why = self.stop_refusal(account, creds, instance_id)
        if why:
            raise _stop_refused(account, instance_id, why, "SpotCannotStop", "")
        ec2 = self._client(account, creds)
        try:
            self._call(
                account,
                ec2,
                "stop_instances",
                audit=True,
                InstanceIds=[instance_id],
                ctx={"instance_id": instance_id},
            )
        except CloudError as exc:
            # The refusals the EC2 error code reference lists for a stop that can never work
            # (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html): the caller
            # takes the documented alternative instead of trying again.
            if exc.code in STOP_REFUSED_CODES:
                raise _stop_refused(
                    account, instance_id, MSG_REFUSED, exc.code, str(exc.params.get("provider_message", "")),
                    exc.request_id,
                ) from None
            raise
        return QT_TRANSLATE_NOOP(
            "LabGPU", "EBS disks still bill while stopped; terminate the instance to stop all charges."
        )

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        ec2 = self._client(account, creds)
        ctx = {"instance_id": instance_id}
        req = self.spot_request(account, creds, instance_id)
        if req and req.get("Type") == "persistent" and req.get("State") in ("open", "active", "disabled"):
            # Cancelled first: a persistent request still open would launch a replacement instance
            # (only open, active and disabled requests can be cancelled: "Cancel a Spot Instance
            # request", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-spot-instances-cancel.html).
            self._call(
                account,
                ec2,
                "cancel_spot_instance_requests",
                audit=True,
                SpotInstanceRequestIds=[str(req["SpotInstanceRequestId"])],
                ctx=ctx,
            )
        self._call(account, ec2, "terminate_instances", audit=True, InstanceIds=[instance_id], ctx=ctx)


STOP_REFUSED_CODES = ("UnsupportedOperation", "IncorrectSpotRequestState")
MSG_ONE_TIME = QT_TRANSLATE_NOOP("LabGPU", "AWS cannot stop a one-time spot instance")
MSG_CANCELLED = QT_TRANSLATE_NOOP("LabGPU", "AWS cannot stop a spot instance whose spot request was cancelled")
MSG_REFUSED = QT_TRANSLATE_NOOP("LabGPU", "AWS refused to stop this spot instance")


def _refusal(req: dict[str, Any] | None) -> str:
    if not req:
        return ""
    if req.get("Type") == "one-time":
        return MSG_ONE_TIME
    if req.get("Type") == "persistent" and req.get("State") in ("cancelled", "closed"):
        return MSG_CANCELLED
    return ""


def _stop_refused(account: Account, instance_id: str, reason: str, code: str, provider_message: str,
                  request_id: str = "") -> StopRefusedError:
    text = translate(reason)
    if provider_message:  # already bounded, plain text (app.cloud.errors.map_error)
        text = f"{text} ({provider_message})"
    return StopRefusedError(
        QT_TRANSLATE_NOOP("LabGPU", "{instance_id} cannot be stopped: {reason_text}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Only terminating ends its bill, and that deletes its disk: pull what you need first, "
            "then terminate it (labgpu terminate {instance_id}, or Terminate on the instances page).",
        ),
        provider="aws",
        code=code,
        request_id=request_id,
        account=account.name,
        instance_id=instance_id,
        reason=reason,
        reason_text=text,
        provider_message=provider_message,
    )
