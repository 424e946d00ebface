"""Google Cloud Compute Engine: the SDK plumbing every call goes through, operations, and reading instances
and zones.

Uses ``google-cloud-compute`` (compute_v1, REST transport; imported lazily, so the app starts without it and
says what to install). Credentials are built in memory from the service-account key the keyring holds
(``google.oauth2.service_account.Credentials.from_service_account_info``: google-auth signs a JWT assertion
with the key and trades it at the key's ``token_uri`` for a bearer token); nothing is written to a file.
An account's endpoint (a proxy, a test server) is the Compute API's ``api_endpoint``.

Every request is the SDK's own proto-plus request type (``compute.InsertInstanceRequest`` …), sent with the
SDK's retry turned off: throttling is retried here with exponential backoff (the injectable sleep, so tests
are instant) and every other error becomes a CloudError (errors.py). Long-running calls answer a zonal
Operation, which is waited for with ``zoneOperations.wait`` (https://cloud.google.com/compute/docs/api/
how-tos/api-requests-responses#handling_api_responses: poll ``wait`` until the status is DONE, then read
``error``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import logging
import re
import sys
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from app.cloud.base import LABGPU_TAG_KEY, LABGPU_TAG_VALUE, CloudError, Instance, report_call
from app.cloud.errors import network_error
from app.cloud.kit import PluginClient, load_sdk
from app.core.accounts import Account, Credentials
from app.core.gcpause import gc_paused
from app.core.hosts import SSH_USER_TAG
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .errors import map_error
from .keyfile import ServiceAccountKey, parse_key, project_of
from .spec import KEY_LABEL, LAUNCH_LABEL, LOGIN_USER, PROVIDER_ID, TOKEN_LABEL

log = logging.getLogger("app.cloud.gcp")

T = TypeVar("T")
SCOPE = "https://www.googleapis.com/auth/compute"  # Compute Engine's read/write OAuth scope
DEFAULT_HOST = "compute.googleapis.com"
PAGE_SIZE = 500  # maxResults: Compute lists answer at most 500 per page
CALL_TIMEOUT = 60.0
SDK_MISSING = QT_TRANSLATE_NOOP("LabGPU", "The Google Cloud Compute SDK is not installed ({module}).")
SDK_HINT = QT_TRANSLATE_NOOP("LabGPU", "Install it with: pip install google-cloud-compute")

# Compute Engine instance status (https://cloud.google.com/compute/docs/instances/instance-life-cycle) →
# app.core.vocab.InstanceState. TERMINATED is a stopped VM (its vCPU, memory and GPU no longer bill).
STATE_MAP = {
    "PROVISIONING": InstanceState.PENDING,
    "STAGING": InstanceState.STARTING,
    "RUNNING": InstanceState.RUNNING,
    "STOPPING": InstanceState.STOPPING,
    "SUSPENDING": InstanceState.STOPPING,
    "SUSPENDED": InstanceState.STOPPED,
    "TERMINATED": InstanceState.STOPPED,
    "REPAIRING": InstanceState.PENDING,
}
# Accelerator types (https://cloud.google.com/compute/docs/gpus) ↔ the catalog's GPU names.
ACCELERATORS = {"T4": "nvidia-tesla-t4", "V100": "nvidia-tesla-v100", "P100": "nvidia-tesla-p100",
                "P4": "nvidia-tesla-p4", "K80": "nvidia-tesla-k80", "A100": "nvidia-tesla-a100",
                "L4": "nvidia-l4"}
GPU_NAMES = {v: k for k, v in ACCELERATORS.items()}


COMPUTE_PACKAGE = "google.cloud.compute_v1"
_package_lock = threading.Lock()


def _bare_package() -> None:
    """Register google.cloud.compute_v1 without running its __init__, which imports all ~90 of its service
    clients: 1.4 s in every process that calls Google Cloud, against ~0.5 s for the types and the six services
    LabGPU calls (measured on a 2-core VM). Submodules are then imported by name. Code that uses the package
    whole still gets it: its first attribute that is not a submodule runs the real __init__ (as an ordinary
    import would have). A package already imported is left as it is."""
    with _package_lock:
        if COMPUTE_PACKAGE in sys.modules:
            return
        spec = importlib.util.find_spec(COMPUTE_PACKAGE)
        if spec is None or spec.loader is None:
            raise ModuleNotFoundError(f"No module named {COMPUTE_PACKAGE!r}", name=COMPUTE_PACKAGE)
        package = importlib.util.module_from_spec(spec)
        loader = spec.loader
        whole = threading.RLock()  # re-entered while the __init__ runs (its imports ask the package)
        ran: list[bool] = []

        def attribute(name: str) -> Any:
            if name.startswith("__") and name != "__all__":
                raise AttributeError(name)
            try:  # a submodule (types, services, gapic_version, _compat): what the clients import
                return importlib.import_module(f"{COMPUTE_PACKAGE}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{COMPUTE_PACKAGE}.{name}":
                    raise
            with whole:
                if not ran:
                    ran.append(True)
                    loader.exec_module(package)
            if name in vars(package):
                return vars(package)[name]
            raise AttributeError(f"module {COMPUTE_PACKAGE!r} has no attribute {name!r}")

        package.__getattr__ = attribute  # type: ignore[method-assign]
        sys.modules[COMPUTE_PACKAGE] = package
        parent = sys.modules.get(COMPUTE_PACKAGE.rpartition(".")[0])
        if parent is not None:
            vars(parent)["compute_v1"] = package  # as an ordinary import sets it


class _Compute:
    """compute_v1 as LabGPU uses it — ``compute.InstancesClient``, ``compute.Instance``… — each module imported
    when first named (see :func:`_bare_package`)."""

    def __getattr__(self, name: str) -> Any:
        if name.endswith("Client"):
            return getattr(service_module(name), name)
        with gc_paused():  # the types module is the SDK's biggest (app/core/gcpause.py)
            return getattr(importlib.import_module(f"{COMPUTE_PACKAGE}.types"), name)


def service_module(client_name: str, part: str = "") -> Any:
    """The module of a compute_v1 client (``InstancesClient`` → services.instances), or one of its parts."""
    module = re.sub(r"(?<!^)(?=[A-Z])", "_", client_name.removesuffix("Client")).lower()
    with gc_paused():
        return importlib.import_module(f"{COMPUTE_PACKAGE}.services.{module}" + (f".{part}" if part else ""))


def sdk() -> Any:
    """compute_v1's clients and types; a missing SDK is said as SdkMissing, as for every plugin."""
    try:
        _bare_package()
    except ImportError:
        pass  # load_sdk below says which module is missing
    load_sdk(PROVIDER_ID, ((COMPUTE_PACKAGE, "types"),), SDK_MISSING, SDK_HINT)
    return _Compute()


def _auth_sdk() -> tuple[Any, Any, Any, Any]:
    return load_sdk(PROVIDER_ID, (("google.oauth2", "service_account"), ("google.api_core", "exceptions"),
                                  ("google.auth", "exceptions"), ("google.auth.transport", "requests")),
                    SDK_MISSING, SDK_HINT)


_CREDENTIALS: dict[str, Any] = {}  # sha256(key text) → google-auth Credentials (in memory: its token is reused)
_CREDENTIALS_LOCK = threading.Lock()


def credentials_for(key: ServiceAccountKey, secret: str) -> Any:
    service_account = _auth_sdk()[0]
    digest = hashlib.sha256(secret.encode()).hexdigest()
    with _CREDENTIALS_LOCK:
        found = _CREDENTIALS.get(digest)
        if found is None:
            found = service_account.Credentials.from_service_account_info(key.info, scopes=[SCOPE])
            _CREDENTIALS[digest] = found
        return found


def type_parts(instance_type: str) -> tuple[str, str, int]:
    """"n1-standard-8 + 1x T4" → ("n1-standard-8", "nvidia-tesla-t4", 1); "a2-highgpu-1g" → ("a2-highgpu-1g",
    "", 0): the A2, A3 and G2 machine types carry their GPUs, an N1 type takes accelerators."""
    machine, _, gpu = (instance_type or "").partition("+")
    match = re.fullmatch(r"\s*(\d+)\s*x\s*([A-Za-z0-9-]+)\s*", gpu) if gpu else None
    if match is None:
        return machine.strip(), "", 0
    name = match.group(2)
    return machine.strip(), ACCELERATORS.get(name.upper(), name.lower()), int(match.group(1))


def type_name(machine: str, accelerator: str, count: int) -> str:
    """The catalog's name of a machine type with its accelerators (type_parts' inverse)."""
    if not accelerator or count <= 0:
        return machine
    return f"{machine} + {count}x {GPU_NAMES.get(accelerator, accelerator)}"


def label_value(text: str) -> str:
    """A label value Compute accepts: lowercase letters, digits, '_' and '-', at most 63 characters
    (https://cloud.google.com/compute/docs/labeling-resources#requirements)."""
    return re.sub(r"[^a-z0-9_-]", "-", (text or "").lower())[:63]


def last_part(url: str) -> str:
    return (url or "").rstrip("/").rsplit("/", 1)[-1]


def parse_time(text: str) -> datetime | None:
    """RFC 3339 times as Compute writes them (``2026-12-06T03:00:00.000-08:00``)."""
    try:
        return datetime.fromisoformat((text or "").replace("Z", "+00:00"))
    except ValueError:
        return None


class GcpClient(PluginClient):
    """The plumbing every Compute call goes through, and reading instances and zones (see GcpProvider)."""

    operation_timeout = 600.0

    # -- plumbing ----------------------------------------------------------------------------
    @staticmethod
    def key(creds: Credentials) -> ServiceAccountKey:
        return parse_key(creds.secret)

    def project(self, account: Account, creds: Credentials) -> str:
        return project_of(account.extra, self.key(creds))

    def client(self, account: Account, creds: Credentials, name: str) -> Any:
        """A compute_v1 client (``InstancesClient``, ``ZonesClient``…) on the REST transport.

        The transport is made here with ``always_use_jwt_access=False``: the generated clients would otherwise
        send a self-signed JWT as the bearer token (https://google.aip.dev/auth/4111); LabGPU trades the key's
        signed assertion at its token_uri for an access token instead (the OAuth 2.0 service-account flow), so
        a deleted or disabled key is refused there, with invalid_grant, before any Compute call."""
        compute = sdk()
        transports = service_module(name, "transports")
        transport = getattr(transports, name.replace("Client", "RestTransport"))(
            credentials=credentials_for(self.key(creds), creds.secret),
            host=account.endpoint.rstrip("/") or DEFAULT_HOST, always_use_jwt_access=False)
        return getattr(compute, name)(transport=transport)

    def call(self, account: Account, fn: Callable[[], T], *, action: str, context: dict[str, Any] | None = None,
             state_changing: bool = False, resource: str = "") -> T:
        """``fn()`` (one SDK call), throttling retried with backoff, errors mapped."""
        _sa, api_exc, auth_exc, _transport = _auth_sdk()
        ctx = {"region": account.region, "project": account.extra.get("project", "")}
        ctx.update(context or {})
        attempt = 0
        while True:
            attempt += 1
            try:
                answer = fn()
            except api_exc.GoogleAPICallError as exc:
                errors = [e for e in (getattr(exc, "errors", None) or []) if isinstance(e, dict)]
                code = str((errors[0].get("reason") if errors else "") or getattr(exc, "reason", "") or exc.code or "")
                throttled = code == "rateLimitExceeded" or exc.code in (429, 503)
                delay = self._backoff(attempt) if throttled else None
                if delay is not None:
                    log.info("Google Cloud %s throttled (%s); retry %d in %.1fs", action, code, attempt, delay)
                    self._sleep(delay)
                    continue
                log.info("Google Cloud %s failed: HTTP %s %s", action, exc.code, code)
                raise map_error(code or "Unknown", str(getattr(exc, "message", "") or exc), **ctx) from None
            except auth_exc.RefreshError as exc:
                data = exc.args[1] if len(exc.args) > 1 and isinstance(exc.args[1], dict) else {}
                code = str(data.get("error") or "invalid_grant")
                log.info("Google Cloud token refused for %s: %s", action, code)
                raise map_error(code, str(data.get("error_description") or code), **ctx) from None
            except (auth_exc.TransportError, OSError) as exc:  # requests' errors are OSErrors
                endpoint = account.endpoint or DEFAULT_HOST
                log.info("Google Cloud %s: no answer from %s (%s)", action, endpoint, type(exc).__name__)
                raise network_error(PROVIDER_ID, endpoint, type(exc).__name__) from None
            if state_changing:
                report_call(action, resource, str(getattr(answer, "client_operation_id", "") or
                                                  getattr(answer, "name", "") or ""))
            return answer

    # -- operations ------------------------------------------------------------------------------
    def wait_operation(self, account: Account, creds: Credentials, op: Any, *, action: str,
                       context: dict[str, Any] | None = None) -> Any:
        """Wait for a zonal (or global) Operation to be DONE, then raise its first error, mapped."""
        compute = sdk()
        project = self.project(account, creds)
        zone = last_part(str(op.zone)) if op.zone else ""
        ops = self.client(account, creds, "ZoneOperationsClient" if zone else "GlobalOperationsClient")

        def read() -> Any:
            nonlocal op
            if op.status == compute.Operation.Status.DONE:
                return op
            if zone:
                request = compute.WaitZoneOperationRequest(project=project, zone=zone, operation=op.name)
            else:
                request = compute.WaitGlobalOperationRequest(project=project, operation=op.name)
            op = self.call(account, lambda: ops.wait(request=request, retry=None, timeout=CALL_TIMEOUT),
                           action="operations.wait", context=context)
            return op

        op, done = self.poll_until(read, lambda o: o.status == compute.Operation.Status.DONE,
                                   self.operation_timeout)
        if not done:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Google Cloud's operation {operation} is still running after {seconds} s."),
                QT_TRANSLATE_NOOP("LabGPU", "Reload the instances page in a minute to see where it stands."),
                provider=PROVIDER_ID, code="OperationTimeout", operation=str(op.name),
                seconds=int(self.operation_timeout))
        errors = list(op.error.errors) if op.error else []
        if errors:
            first = errors[0]
            log.info("Google Cloud %s operation %s failed: %s", action, op.name, first.code)
            raise map_error(str(first.code), str(first.message), str(op.name),
                            **{"zone": zone, "region": account.region, "project": project, **(context or {})})
        return op

    # -- zones -----------------------------------------------------------------------------------
    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        """The region's zones that are UP, in name order (zones.list, every page); with a type, those that
        offer it: its GPU (acceleratorTypes) for an N1 type with accelerators, else its machine type
        (machineTypes). GPUs are in some zones of a region only (https://cloud.google.com/compute/docs/gpus/
        gpu-regions-zones), and a zone without them refuses the insert as invalid, not as a stock-out."""
        compute = sdk()
        project = self.project(account, creds)
        client = self.client(account, creds, "ZonesClient")
        request = compute.ListZonesRequest(project=project, max_results=PAGE_SIZE)
        listed = self.call(account, lambda: [
            (z.name, last_part(z.region), z.status)
            for z in client.list(request=request, retry=None, timeout=CALL_TIMEOUT)], action="zones.list")
        zones = sorted(name for name, region, status in listed if region == account.region and status == "UP")
        if not instance_type:
            return zones
        machine, accelerator, _count = type_parts(instance_type)
        try:
            offered = self._zones_offering(account, creds, accelerator or machine, gpu=bool(accelerator))
        except CloudError as exc:  # the list of zones still serves: the launch tries each
            log.info("zones offering %s not read: %s", instance_type, exc.code)
            return zones
        return [z for z in zones if z in offered]

    def _zones_offering(self, account: Account, creds: Credentials, name: str, *, gpu: bool) -> set[str]:
        """The zones (of any region) where the accelerator or machine type ``name`` is offered
        (acceleratorTypes / machineTypes aggregatedList filtered by name, every page)."""
        compute = sdk()
        project = self.project(account, creds)
        kind = "AcceleratorTypes" if gpu else "MachineTypes"
        client = self.client(account, creds, f"{kind}Client")
        request = getattr(compute, f"AggregatedList{kind}Request")(project=project, filter=f'name = "{name}"',
                                                                   max_results=PAGE_SIZE)
        field = "accelerator_types" if gpu else "machine_types"

        def read() -> set[str]:
            return {last_part(scope) for scope, scoped in client.aggregated_list(
                request=request, retry=None, timeout=CALL_TIMEOUT) if list(getattr(scoped, field))}

        return self.call(account, read, action=f"{kind[0].lower()}{kind[1:]}.aggregatedList")

    # -- instances -------------------------------------------------------------------------------
    def _list(self, account: Account, creds: Credentials, filter_: str) -> list[Any]:
        """instances.aggregatedList with ``filter_`` over every zone, every page (the pager follows
        nextPageToken)."""
        compute = sdk()
        project = self.project(account, creds)
        client = self.client(account, creds, "InstancesClient")
        request = compute.AggregatedListInstancesRequest(project=project, filter=filter_, max_results=PAGE_SIZE)

        def read() -> list[Any]:
            out: list[Any] = []
            for _scope, scoped in client.aggregated_list(request=request, retry=None, timeout=CALL_TIMEOUT):
                out.extend(scoped.instances)
            return out

        return self.call(account, read, action="instances.aggregatedList")

    def to_instance(self, account: Account, raw: Any) -> Instance:
        zone = last_part(raw.zone)
        accel = next(iter(raw.guest_accelerators), None)
        itype = type_name(last_part(raw.machine_type), last_part(accel.accelerator_type) if accel else "",
                          int(accel.accelerator_count) if accel else 0)
        labels = dict(raw.labels)
        nic = next(iter(raw.network_interfaces), None)
        access = next(iter(nic.access_configs), None) if nic is not None else None
        tags = {k: v for k, v in labels.items() if k != KEY_LABEL}
        tags[SSH_USER_TAG] = LOGIN_USER
        status = str(raw.status)
        return Instance(
            id=str(raw.name),
            account=account.name,
            provider=PROVIDER_ID,
            region=zone.rsplit("-", 1)[0] if zone else account.region,
            zone=zone,
            instance_type=itype,
            state=STATE_MAP.get(status, InstanceState.PENDING),
            spot=str(raw.scheduling.provisioning_model) == "SPOT",
            public_ip=str(access.nat_i_p) if access is not None else "",
            private_ip=str(nic.network_i_p) if nic is not None else "",
            price_per_hour=None,  # CloudService prices it (live cache, then the bundled catalog)
            currency="USD",
            # lastStartTimestamp: the current run's start; creationTimestamp for a VM never restarted
            launched_at=parse_time(raw.last_start_timestamp) or parse_time(raw.creation_timestamp),
            name=str(raw.name),
            image_id="",
            key_name=labels.get(KEY_LABEL, ""),
            raw_state=status,
            tags=tags,
        )

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        raws = self._list(account, creds, f'labels.{LABGPU_TAG_KEY} = "{LABGPU_TAG_VALUE}"')
        return [self.to_instance(account, r) for r in raws if last_part(r.zone).startswith(account.region + "-")]

    def raw_instance(self, account: Account, creds: Credentials, name: str) -> Any | None:
        found = self._list(account, creds, f'name = "{name}"')
        return found[0] if found else None

    def get_instance(self, account: Account, creds: Credentials, name: str) -> Instance | None:
        raw = self.raw_instance(account, creds, name)
        return self.to_instance(account, raw) if raw is not None else None

    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        """The instance a launch with this token made (its attempt's own label, or the launcher's)."""
        for key in (TOKEN_LABEL, LAUNCH_LABEL):
            raws = self._list(account, creds, f'labels.{key} = "{label_value(token)}"')
            if raws:
                return self.to_instance(account, raws[0])
        return None
