"""Azure virtual machines behind the Provider protocol: validate, start, stop (deallocate), terminate and live
prices (see client and launch for the rest)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timezone

from app.cloud.base import CloudError
from app.cloud.kit import live_offer, masked_key, say, spec_identity, to_float
from app.cloud.pricing import bundled_rows
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.models import Offer

from .client import resource_group
from .launch import AzureLaunch
from .spec import PROVIDER_ID, SPEC, STOP_RULE

log = logging.getLogger("app.cloud.azure")

PRICE_SOURCE = "Azure Retail Prices API ({host}) and Resource SKUs"


def _prices_endpoint(account: Account) -> str:
    """The Retail Prices API address: the account's ``prices_endpoint``, else the app's azure_prices_endpoint
    setting (the one `labgpu prices refresh --public` uses), else prices.azure.com."""
    from app.cloud.public_prices import azure_endpoint

    given = str(account.extra.get("prices_endpoint") or "").strip()
    if not given:
        try:
            from app.core.settings import SettingsStore

            given = SettingsStore().load().azure_prices_endpoint
        except (OSError, ValueError) as exc:
            log.info("settings unreadable for the Azure prices address: %s", type(exc).__name__)
    return azure_endpoint(given)


class AzureProvider(AzureLaunch):
    """The Azure provider (see app.cloud.base.Provider)."""

    id, display_name, limitations = spec_identity(SPEC)

    def validate(self, account: Account, creds: Credentials) -> str:
        """Sign in as the service principal and read the subscription's resource groups (ARM)."""
        with self.session(account, creds) as s:
            groups = self._call(account, "ResourceGroups.List", lambda: list(s.resource.resource_groups.list()))
            return say(QT_TRANSLATE_NOOP("LabGPU", "Azure service principal {key} in subscription {subscription} "
                                                   "({n} resource groups)"),
                       key=masked_key(creds.key_id), subscription=s.subscription, n=len(groups))

    # -- lifecycle -----------------------------------------------------------------------------------------
    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        rg = resource_group(account)
        with self.session(account, creds) as s:
            poller = self._call(account, "VirtualMachines.Start", lambda: s.compute.virtual_machines.begin_start(
                rg, instance_id), state_changing=True, resource=instance_id, context={"instance_id": instance_id})
            self._wait(account, "VirtualMachines.Start", poller, instance_id)

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        """Deallocate (never power off, which keeps billing): compute stops billing; disks and the static IP
        still bill."""
        rg = resource_group(account)
        with self.session(account, creds) as s:
            poller = self._call(account, "VirtualMachines.Deallocate", lambda: s.compute.virtual_machines
                                .begin_deallocate(rg, instance_id), state_changing=True, resource=instance_id,
                                context={"instance_id": instance_id})
            self._wait(account, "VirtualMachines.Deallocate", poller, instance_id)
        return STOP_RULE  # a template: CloudService.stop translates it

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        """Delete the VM, its NIC, its public IP and its OS disk."""
        with self.session(account, creds) as s:
            self._delete_vm(s, account, instance_id)

    # -- live prices ---------------------------------------------------------------------------------------
    def refresh_prices(self, account: Account, creds: Credentials, instance_types: Sequence[str]) -> list[Offer]:
        """Linux pay-as-you-go and Spot prices of each size in the account's location from the Retail Prices
        API (app.cloud.public_prices reads it), with the size's specs and zones from Resource SKUs; a size this
        subscription may not use there is marked sold out. Without types: the Azure GPU sizes of the catalog."""
        from urllib.parse import urlsplit

        from app.cloud.public_prices import PublicPriceError, azure_prices, fetch_azure_items

        now = datetime.now(timezone.utc)
        rows = bundled_rows(PROVIDER_ID)
        types = list(dict.fromkeys(instance_types)) or sorted(rows)
        endpoint = _prices_endpoint(account)
        host = urlsplit(endpoint).netloc
        location = account.region
        offers: list[Offer] = []
        with self.session(account, creds) as s:
            listed = self._call(account, "ResourceSkus.List", lambda: list(
                s.compute.resource_skus.list(filter=f"location eq '{location}'")))
        skus = {str(i.name).lower(): i for i in listed if i.resource_type == "virtualMachines"}
        for itype in types:
            try:
                items, _pages = fetch_azure_items(endpoint, location, itype)
            except PublicPriceError as exc:
                raise CloudError(exc.template, exc.hint_template, provider=PROVIDER_ID, code=exc.code,
                                 **exc.params) from None
            on_demand, spot = azure_prices(items, location, itype)
            sku = skus.get(itype.lower())
            if on_demand is None:  # no Linux pay-as-you-go meter: the bundled price stays, not an unknown live one
                log.info("Azure: no Linux pay-as-you-go price for %s in %s", itype, location)
                continue
            caps = {str(c.name): str(c.value) for c in (sku.capabilities or [])} if sku is not None else {}
            zones, whole = self.sku_zones(sku, location) if sku is not None else ([], True)
            row = rows.get(itype, {})
            offers.append(live_offer(
                PROVIDER_ID, location, "", itype, row, now,
                gpu_model=row.get("gpu_model") or "?",
                gpu_count=float(to_float(caps.get("GPUs")) or to_float(row.get("gpu_count")) or 0.0),
                vram_gb=float(to_float(row.get("vram_gb")) or 0.0),
                vcpu=int(to_float(caps.get("vCPUs")) or to_float(row.get("vcpu")) or 0) or None,
                ram_gb=to_float(caps.get("MemoryGB")) or to_float(row.get("ram_gb")),
                network_gbps=to_float(row.get("network_gbps")),
                price_on_demand=on_demand, price_spot=spot, price_prepaid_month=None, currency="USD",
                price_source=PRICE_SOURCE.format(host=host), spot_available=spot is not None,
                sold_out=sku is None or whole,
                notes=("zones " + ", ".join(zones)) if zones else "",
            ))
        return offers
