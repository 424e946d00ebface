"""Huawei Cloud ECS behind the Provider protocol. First slice (issue 28): validate. Launching, the
instance list and start/stop/terminate come with the next slices (the spec says launch=False, so
CloudService never asks this provider for them); live prices with BSS (prices.py)."""

from __future__ import annotations

from app.cloud.base import Instance, LaunchRequest, NotSupportedError, ProgressFn
from app.cloud.kit import masked_key, say, spec_identity
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP

from .client import VALIDATE_CALL
from .prices import HuaweiPrices
from .spec import PROVIDER_ID, SPEC

NOT_YET = QT_TRANSLATE_NOOP("LabGPU", "LabGPU does not launch or manage Huawei Cloud instances yet.")
NOT_YET_HINT = QT_TRANSLATE_NOOP("LabGPU", "Use the Huawei Cloud console for instances; LabGPU tests the keys and "
                                           "syncs OBS buckets with this account.")


class HuaweiProvider(HuaweiPrices):
    """The Huawei Cloud ECS provider (see app.cloud.base.Provider)."""

    id, display_name, limitations = spec_identity(SPEC)

    def validate(self, account: Account, creds: Credentials) -> str:
        """ECS ListServerAzInfo (GET /v1/{project_id}/availability-zones): read-only and cheap; it proves the
        AK/SK (the signature), the project of the region and the endpoint."""
        body = self._call(account, creds, VALIDATE_CALL)
        zones = [str(z.get("availability_zone_id", "")) for z in body.get("availability_zones") or []]
        return say(QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud access key {key} ({region}: {n} availability zones)"),
                   key=masked_key(creds.key_id), region=account.region, n=len(zones))

    def _not_yet(self) -> NotSupportedError:
        return NotSupportedError(NOT_YET, NOT_YET_HINT, provider=PROVIDER_ID, code="NotSupported")

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        raise self._not_yet()

    def launch(self, account: Account, creds: Credentials, req: LaunchRequest,
               progress: ProgressFn | None = None) -> Instance:
        raise self._not_yet()

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        raise self._not_yet()

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        raise self._not_yet()

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        raise self._not_yet()
