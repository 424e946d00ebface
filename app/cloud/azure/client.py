"""Azure: the SDK plumbing every call goes through, and reading VMs and zones.

Uses ``azure-identity`` (ClientSecretCredential: the service principal's client-credentials sign-in at
Microsoft Entra ID) and the ARM clients of ``azure-mgmt-compute``, ``azure-mgmt-network`` and
``azure-mgmt-resource`` (imported lazily, so the app starts without them and says what to install).
Each operation makes a fresh credential and fresh clients from the account and the credentials it is
given (a rotated secret takes effect at once) and closes them after. Requests are built from the
SDK's own models (``VirtualMachine(...)``: an unknown field is a TypeError), answers read from them.

Endpoints: an account with no endpoint signs in at login.microsoftonline.com and calls
management.azure.com. An account's endpoint (an https URL: azure-identity refuses any other
authority) stands in for both — a proxy, or the tests' local peer — with instance discovery off
(MSAL then reads ``<endpoint>/<tenant>/v2.0/.well-known/openid-configuration``).

Long-running operations (create, start, deallocate, delete) are waited for with the SDK's poller
(Azure-AsyncOperation / Location headers, as ARM documents them); ``lro_interval`` is the poller's
interval when ARM sends no Retry-After (tests set 0). Throttling (429) is retried by azure-core's
retry policy with ARM's Retry-After before an error reaches LabGPU; every other error code becomes a
CloudError (errors.py).
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, TypeVar
from urllib.parse import urlparse

from app.cloud.base import LABGPU_TAG_KEY, LABGPU_TAG_VALUE, CloudError, Instance, report_call
from app.cloud.errors import network_error
from app.cloud.kit import BAD_ENDPOINT, PluginClient, load_sdk, timed_out
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .errors import map_error
from .spec import LAUNCH_TAG, PROVIDER_ID, TOKEN_TAG_KEY

log = logging.getLogger("app.cloud.azure")

T = TypeVar("T")

AUTHORITY_HOST = "login.microsoftonline.com"
ARM_URL = "https://management.azure.com"
SDK_MISSING = QT_TRANSLATE_NOOP("LabGPU", "The Azure SDK is not installed ({module}).")
SDK_HINT = QT_TRANSLATE_NOOP("LabGPU", "Install it with: pip install azure-identity azure-mgmt-compute "
                                       "azure-mgmt-network azure-mgmt-resource")
NO_SETTING = QT_TRANSLATE_NOOP("LabGPU", "The Azure account {name} has no {setting}.")
NO_SETTING_HINT = QT_TRANSLATE_NOOP("LabGPU", "Edit the account and fill in the Directory (tenant) ID and the "
                                              "Subscription ID (az account show prints both).")

# Power states of the instance view (InstanceViewStatus codes "PowerState/<state>",
# https://learn.microsoft.com/en-us/azure/virtual-machines/states-billing): "stopped" is powered off but still
# allocated — Azure keeps billing its compute; only "deallocated" stops the compute bill.
POWER_MAP = {
    "starting": InstanceState.STARTING,
    "running": InstanceState.RUNNING,
    "stopping": InstanceState.STOPPING,
    "stopped": InstanceState.STOPPED_BILLING,
    "deallocating": InstanceState.STOPPING,
    "deallocated": InstanceState.STOPPED,
}

COMPUTE = "compute"
NETWORK = "network"
RESOURCE = "resource"
_CLIENTS = {
    COMPUTE: ("azure.mgmt.compute", "ComputeManagementClient"),
    NETWORK: ("azure.mgmt.network", "NetworkManagementClient"),
    RESOURCE: ("azure.mgmt.resource.resources", "ResourceManagementClient"),
}


def _identity() -> tuple[Any, ...]:
    return load_sdk(
        PROVIDER_ID,
        (("azure.identity", "ClientSecretCredential"), ("azure.core.exceptions", "HttpResponseError"),
         ("azure.core.exceptions", "ServiceRequestError"), ("azure.core.exceptions", "ServiceResponseError")),
        SDK_MISSING, SDK_HINT)


def client_class(kind: str) -> Any:
    """The SDK's management client class of ``kind`` (compute, network, resource)."""
    return load_sdk(PROVIDER_ID, (_CLIENTS[kind],), SDK_MISSING, SDK_HINT)[0]


def models(kind: str) -> Any:
    """The SDK's models module of ``kind``: the request bodies LabGPU sends are built from it."""
    return load_sdk(PROVIDER_ID, ((_CLIENTS[kind][0], "models"),), SDK_MISSING, SDK_HINT)[0]


def endpoints(account: Account) -> tuple[str, str]:
    """(authority, ARM base URL) of the account: Azure's public cloud, or the account's https endpoint for both."""
    text = (account.endpoint or "").strip().rstrip("/")
    if not text:
        return AUTHORITY_HOST, ARM_URL
    url = urlparse(text if "://" in text else "https://" + text)
    if url.scheme != "https" or not url.netloc:
        raise CloudError(BAD_ENDPOINT, QT_TRANSLATE_NOOP(
            "LabGPU", "Azure's sign-in takes https only: use a URL such as https://127.0.0.1:8443, or leave the "
                      "endpoint empty for Azure itself."),
            provider=PROVIDER_ID, code="BadEndpoint", endpoint=text)
    base = f"https://{url.netloc}"
    return base, base


def setting(account: Account, key: str, label: str) -> str:
    value = str(account.extra.get(key) or "").strip()
    if not value:
        raise CloudError(NO_SETTING, NO_SETTING_HINT, provider=PROVIDER_ID, code="MissingAccountSetting",
                         name=account.name, setting=label)
    return value


def resource_group(account: Account, region: str = "") -> str:
    """The resource group LabGPU keeps its VMs and network in: ``labgpu-<location>`` unless the account names one."""
    return str(account.extra.get("resource_group") or "").strip() or f"labgpu-{region or account.region}"


_answers = threading.local()  # the last ARM answer's request id on this thread (see _note_answer)


def _note_answer(pipeline_response: Any) -> None:
    """Every ARM answer (the clients' raw_response_hook): its x-ms-request-id for the audit row of a state-changing
    call, and its Date for app.core.ledgerdb.CLOCK (running time and cost are counted on Azure's clock)."""
    headers = getattr(getattr(pipeline_response, "http_response", None), "headers", None) or {}
    try:
        _answers.request_id = str(headers.get("x-ms-request-id") or "")
        date = headers.get("Date")
    except AttributeError:
        return
    from app.core.ledgerdb import CLOCK

    CLOCK.note_date(PROVIDER_ID, date)


_AADSTS = re.compile(r"\b(AADSTS\d+)\b")


def error_code(exc: Any) -> tuple[str, str]:
    """(code, message) of an azure-core error: the ARM error body's code (a nested detail's when the top one
    is generic), else the AADSTS code of a sign-in failure, else the HTTP status."""
    err = getattr(exc, "error", None)
    code = str(getattr(err, "code", "") or "")
    message = str(getattr(err, "message", "") or getattr(exc, "message", "") or exc)
    for detail in getattr(err, "details", None) or []:
        inner = str(getattr(detail, "code", "") or "")
        if inner and code in ("", "DeploymentFailed", "InvalidTemplateDeployment", "Conflict", "BadRequest"):
            code, message = inner, str(getattr(detail, "message", "") or message)
            break
    if not code:
        found = _AADSTS.search(message)
        code = found.group(1) if found else ""
    if not code and "Unable to get authority configuration" in message:
        # MSAL first reads <authority>/<tenant>/v2.0/.well-known/openid-configuration; Entra ID answers an unknown
        # tenant there with AADSTS90002, which MSAL reports with this sentence (msal/authority.py) and no code
        code = "AADSTS90002"
    if not code:
        status = getattr(exc, "status_code", None)
        code = f"HTTP{status}" if status else type(exc).__name__
    return code, message


def _request_id(exc: Any) -> str:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    try:
        return str(headers.get("x-ms-request-id") or headers.get("x-ms-correlation-request-id") or "")
    except AttributeError:
        return ""


def parse_time(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    try:
        text = str(value or "").replace("Z", "+00:00")
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


# Access tokens by (authority, tenant, client id, SHA-256 of the secret, scopes), in memory only: a token
# Entra ID issued lives about an hour, so the instances page's refreshes do not sign in every time. A rotated
# secret is another key (a fresh sign-in); a token is used until 5 minutes before it expires.
_TOKENS: dict[tuple[str, ...], Any] = {}
_tokens_lock = threading.Lock()
TOKEN_MARGIN_S = 300.0


class _CachingCredential:
    """The service principal's ClientSecretCredential, reusing the token it got until shortly before it expires
    (azure-core's TokenCredential protocol: get_token and close)."""

    def __init__(self, inner: Any, key: tuple[str, ...]) -> None:
        self._inner = inner
        self._key = key

    def get_token(self, *scopes: str, claims: str | None = None, **kwargs: Any) -> Any:
        key = (*self._key, *scopes)
        if claims is None:  # a claims challenge always asks Entra ID again
            with _tokens_lock:
                held = _TOKENS.get(key)
            if held is not None and held.expires_on - TOKEN_MARGIN_S > time.time():
                return held
        token = self._inner.get_token(*scopes, claims=claims, **kwargs)
        with _tokens_lock:
            _TOKENS[key] = token
        return token

    def close(self) -> None:
        self._inner.close()


def quiet_sdk_logs() -> None:
    """azure-core logs every request and answer (URL, headers) at INFO, azure-identity each sign-in: LabGPU's log
    keeps their warnings only (a logger someone set a level on keeps it). LabGPU logs each call's outcome itself."""
    for name in ("azure", "msal"):
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.WARNING)


class Session:
    """One operation's credential and ARM clients, made on first use and closed together."""

    def __init__(self, account: Account, creds: Credentials, polling_interval: float) -> None:
        quiet_sdk_logs()
        self.account = account
        self.subscription = setting(account, "subscription_id", "subscription id")
        self.tenant = setting(account, "tenant_id", "tenant id")
        self.authority, self.arm = endpoints(account)
        credential_cls = _identity()[0]
        kwargs: dict[str, Any] = {"authority": self.authority}
        if self.authority != AUTHORITY_HOST:
            kwargs["disable_instance_discovery"] = True  # a proxy or the test peer: no discovery at Microsoft
        try:
            inner = credential_cls(self.tenant, creds.key_id, creds.secret, **kwargs)
        except ValueError as exc:
            # azure-identity refuses a tenant id with characters a tenant cannot have before any request; Entra ID
            # itself answers such a tenant with AADSTS900023 ("Specified tenant identifier is neither a valid DNS
            # name, nor a valid external domain")
            raise map_error("AADSTS900023", str(exc), "", action="sign-in", tenant=self.tenant) from None
        secret_hash = hashlib.sha256(creds.secret.encode()).hexdigest()
        self.credential = _CachingCredential(inner, (self.authority, self.tenant, creds.key_id, secret_hash))
        self._polling_interval = polling_interval
        self._clients: dict[str, Any] = {}

    def client(self, kind: str) -> Any:
        if kind not in self._clients:
            self._clients[kind] = client_class(kind)(self.credential, self.subscription, base_url=self.arm,
                                                     polling_interval=self._polling_interval,
                                                     raw_response_hook=_note_answer)
        return self._clients[kind]

    @property
    def compute(self) -> Any:
        return self.client(COMPUTE)

    @property
    def network(self) -> Any:
        return self.client(NETWORK)

    @property
    def resource(self) -> Any:
        return self.client(RESOURCE)

    def close(self) -> None:
        for c in self._clients.values():
            c.close()
        self.credential.close()


def text(value: Any) -> str:
    """A model field as text: an SDK enum's value ("Spot"), a string as it is, None as ""."""
    return str(getattr(value, "value", value) or "")


def tags_of(resource: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in (getattr(resource, "tags", None) or {}).items()}


# ARM's provisioningState words (the cloud's own, read by to_instance; not LabGPU's vocabulary)
ARM_DELETING, ARM_FAILED = "Deleting", "Failed"


class AzureClient(PluginClient):
    """The plumbing every ARM call goes through, and reading VMs and zones (see AzureProvider)."""

    lro_interval = 5.0  # seconds between long-running-operation polls when ARM sends no Retry-After

    @contextmanager
    def session(self, account: Account, creds: Credentials) -> Iterator[Session]:
        s = Session(account, creds, self.lro_interval)
        try:
            yield s
        finally:
            s.close()

    def _call(self, account: Account, action: str, fn: Callable[[], T], *, context: dict[str, Any] | None = None,
              state_changing: bool = False, resource: str = "") -> T:
        """Run one SDK call (or a poller's wait); azure-core errors become CloudErrors, each state-changing
        call is reported with ARM's request id."""
        _cred, http_error, request_error, response_error = _identity()
        ctx: dict[str, Any] = {"location": account.region, "subscription": account.extra.get("subscription_id", "?"),
                               "tenant": account.extra.get("tenant_id", "?"), "endpoint": endpoints(account)[1]}
        ctx.update(context or {})
        _answers.request_id = ""
        try:
            result = fn()
        except http_error as exc:
            code, message = error_code(exc)
            rid = _request_id(exc)
            log.info("Azure %s failed: %s (request %s)", action, code, rid or "-")
            raise map_error(code, message, rid, action=action, **ctx) from None
        except (request_error, response_error) as exc:
            log.info("Azure %s: no answer from %s (%s)", action, ctx["endpoint"], type(exc).__name__)
            raise network_error(PROVIDER_ID, str(ctx["endpoint"]), f"{type(exc).__name__}: {exc}") from None
        if state_changing:
            report_call(action, resource, str(getattr(_answers, "request_id", "") or ""))
        return result

    def _wait(self, account: Account, action: str, poller: Any, instance_id: str,
              context: dict[str, Any] | None = None) -> Any:
        """A long-running operation's result (the SDK's poller), bounded by operation_timeout."""
        ctx = {"instance_id": instance_id, **(context or {})}
        result = self._call(account, action, lambda: poller.result(timeout=self.operation_timeout), context=ctx)
        if not poller.done():
            raise timed_out(PROVIDER_ID, instance_id, str(poller.status()), self.operation_timeout)
        return result

    # -- zones -------------------------------------------------------------------------------------
    def sku(self, s: Session, account: Account, instance_type: str) -> Any | None:
        """The Resource SKU of a VM size in the account's location (``$filter=location eq '…'``)."""
        location = account.region
        skus = self._call(account, "ResourceSkus.List", lambda: list(
            s.compute.resource_skus.list(filter=f"location eq '{location}'")))
        for item in skus:
            if item.resource_type == "virtualMachines" and str(item.name).lower() == instance_type.lower():
                return item
        return None

    @staticmethod
    def sku_zones(item: Any, location: str) -> tuple[list[str], bool]:
        """(zones offering the size to this subscription, whether the whole location is restricted): the
        SKU's locationInfo zones less its ``Zone`` restrictions (reasonCode NotAvailableForSubscription)."""
        zones: list[str] = []
        for info in item.location_info or []:
            if str(info.location).lower() == location.lower():
                zones.extend(str(z) for z in info.zones or [])
        blocked: set[str] = set()
        whole = False
        for r in item.restrictions or []:
            if text(r.type) == "Location":
                whole = True
            info = r.restriction_info
            blocked.update(str(z) for z in (getattr(info, "zones", None) or []))
        return sorted(z for z in zones if z not in blocked), whole

    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        """The location's zones that offer ``instance_type`` (Resource SKUs), in order; [] for a size or a
        location without zones (Azure then places the VM itself)."""
        with self.session(account, creds) as s:
            if not instance_type:
                return []
            item = self.sku(s, account, instance_type)
            if item is None:
                return []
            zones, whole = self.sku_zones(item, account.region)
            return [] if whole else zones

    # -- instances -----------------------------------------------------------------------------------
    def _vms(self, s: Session, account: Account) -> list[Any]:
        """Every VM of LabGPU's resource group with its instance view (ARM pages with nextLink; the SDK follows)."""
        rg = resource_group(account)
        try:
            return self._call(account, "VirtualMachines.List", lambda: list(
                s.compute.virtual_machines.list(rg, expand="instanceView")))
        except CloudError as exc:
            if exc.code == "ResourceGroupNotFound":  # nothing launched in this location yet
                return []
            raise

    def _addresses(self, s: Session, account: Account) -> dict[str, tuple[str, str]]:
        """NIC id (lower case) → (public IP, private IP), from the resource group's NICs and public IPs."""
        rg = resource_group(account)
        try:
            nics = self._call(account, "NetworkInterfaces.List", lambda: list(s.network.network_interfaces.list(rg)))
            pips = self._call(account, "PublicIPAddresses.List", lambda: list(s.network.public_ip_addresses.list(rg)))
        except CloudError as exc:
            if exc.code == "ResourceGroupNotFound":
                return {}
            raise
        public = {str(p.id).lower(): str(p.ip_address or "") for p in pips}
        out: dict[str, tuple[str, str]] = {}
        for nic in nics:
            for cfg in nic.ip_configurations or []:
                pip = getattr(cfg, "public_ip_address", None)
                out[str(nic.id).lower()] = (public.get(str(getattr(pip, "id", "") or "").lower(), ""),
                                            str(cfg.private_ip_address or ""))
                break
        return out

    def to_instance(self, account: Account, vm: Any, addresses: dict[str, tuple[str, str]]) -> Instance:
        codes = [(str(st.code or ""), st.time) for st in ((vm.instance_view.statuses or [])
                                                          if vm.instance_view is not None else [])]
        power = next((c.split("/", 1)[1] for c, _t in codes if c.startswith("PowerState/")), "")
        provisioning = str(vm.provisioning_state or "")
        state: str = POWER_MAP.get(power, InstanceState.PENDING)
        if provisioning.casefold() == ARM_DELETING.casefold():
            state = InstanceState.TERMINATING
        elif provisioning.casefold() == ARM_FAILED.casefold() and not power:
            state = InstanceState.FAILED
        nics = vm.network_profile.network_interfaces if vm.network_profile is not None else []
        public, private = addresses.get(str(nics[0].id).lower(), ("", "")) if nics else ("", "")
        started = next((t for c, t in codes if c.startswith("ProvisioningState/")), None)
        tags = tags_of(vm)
        return Instance(
            id=str(vm.name),
            account=account.name,
            provider=PROVIDER_ID,
            region=str(vm.location or account.region),
            zone=str((vm.zones or [""])[0]),
            instance_type=str(vm.hardware_profile.vm_size if vm.hardware_profile is not None else ""),
            state=state,
            spot=text(vm.priority).lower() == "spot",
            public_ip=public,
            private_ip=private,
            currency="USD",
            # the last provisioning operation's end (create or start) of a running VM, else its creation
            launched_at=(parse_time(started) if state == InstanceState.RUNNING else None)
            or parse_time(getattr(vm, "time_created", None)),
            name=tags.get("labgpu-name", str(vm.name)),
            image_id=_image_text(vm),
            raw_state=f"{provisioning}/{power or '-'}",
            tags=tags,
        )

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        with self.session(account, creds) as s:
            vms = [vm for vm in self._vms(s, account) if tags_of(vm).get(LABGPU_TAG_KEY) == LABGPU_TAG_VALUE]
            addresses = self._addresses(s, account) if vms else {}
            return [self.to_instance(account, vm, addresses) for vm in vms]

    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        """The VM a launch with this token made (its attempt's own tag, or the launcher's tag)."""
        for inst in self.list_instances(account, creds):
            if token and token in (inst.tags.get(TOKEN_TAG_KEY), inst.tags.get(LAUNCH_TAG)):
                return inst
        return None

    def get_instance(self, account: Account, creds: Credentials, name: str) -> Instance | None:
        with self.session(account, creds) as s:
            return self._get(s, account, name)

    def _get(self, s: Session, account: Account, name: str) -> Instance | None:
        rg = resource_group(account)
        try:
            vm = self._call(account, "VirtualMachines.Get", lambda: s.compute.virtual_machines.get(
                rg, name, expand="instanceView"), context={"instance_id": name})
        except CloudError as exc:
            if exc.code in ("ResourceNotFound", "NotFound", "ResourceGroupNotFound"):
                return None
            raise
        return self.to_instance(account, vm, self._addresses(s, account))


def _image_text(vm: Any) -> str:
    ref = vm.storage_profile.image_reference if vm.storage_profile is not None else None
    if ref is None:
        return ""
    if ref.id:
        return str(ref.id)
    return ":".join(str(x or "") for x in (ref.publisher, ref.offer, ref.sku, ref.version))
