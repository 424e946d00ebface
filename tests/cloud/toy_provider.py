"""A toy cloud, declared from tests/ alone: a ProviderSpec and a Provider backed by an in-process fake.

``register_toy()`` registers it through the public plugin API (app.cloud.registry) and returns the
fake cloud; ``unregister_toy()`` removes it. No network: the "cloud" is a dict behind a lock.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from datetime import date, datetime, timezone

from app.cloud.base import AuthError, Instance, LaunchRequest, NotFoundError, ProgressFn, report_call
from app.core.accounts import Account, Credentials, ImportCandidate
from app.core.models import Offer
from app.core.providers import (
    BillingRule,
    Capabilities,
    CredentialField,
    ImporterDecl,
    ImportOption,
    ProviderSpec,
)

TOY_ID = "toy"
TOY_KEY_ID = "TOYKEY1234567890"
TOY_SECRET = "toy-secret-value-0001"  # noqa: S105 - a test credential of the fake cloud
TOY_TYPE = "toy.gpu1"
TOY_PRICE = 3.6  # USD per hour: 0.001 per second
TOY_REGION = "toy-north-1"

TOY_SPEC = ProviderSpec(
    TOY_ID,
    "Toy Cloud",
    "玩具云",
    "USD",
    # Billed per started minute, at least two minutes per start.
    BillingRule(TOY_ID, 60, 120, "", "Toy Cloud bills per minute, at least two minutes each start.",
                "https://toy.invalid/billing"),
    regions=(TOY_REGION, "toy-south-1"),
    default_region=TOY_REGION,
    region_countries=(("toy-", "NZ"),),
    credentials=(
        CredentialField("key_id", "Toy token id"),
        CredentialField("secret", "Toy token secret", secret=True),
    ),
    endpoint_hint="optional: toy endpoint",
    tags={"login": "toy-login"},
    capabilities=Capabilities(launch=True, spot=False, stop_without_charging=True, live_prices=True,
                              console_fingerprints=False, zones=True, find_by_client_token=True),
    account_hint="lab-toy",
    importers=(
        ImporterDecl(
            "toy",
            "Toy Cloud keys from TOY_TOKEN_ID/SECRET",
            "tests.cloud.toy_provider:toy_import_candidates",
            (ImportOption("region", "the toy region"), ImportOption("name", "the account's name")),
            help="import TOY_TOKEN_ID/SECRET as an account",
            sources=(("toy-env", "Toy variables {name}"),),
        ),
    ),
    order=500,
)


def toy_import_candidates(region: str, env=None, name: str = "toy-env") -> list[ImportCandidate]:
    """The toy's account importer: TOY_TOKEN_ID / TOY_TOKEN_SECRET as one account."""
    import os

    env = os.environ if env is None else env
    if not env.get("TOY_TOKEN_ID") or not env.get("TOY_TOKEN_SECRET"):
        return []
    return [ImportCandidate(Account(name, TOY_ID, region), Credentials(env["TOY_TOKEN_ID"], env["TOY_TOKEN_SECRET"]),
                            "toy-env:TOY_TOKEN_ID")]


def toy_offer(**kw: object) -> Offer:
    values: dict[str, object] = {
        "provider": TOY_ID, "region": TOY_REGION, "instance_type": TOY_TYPE, "gpu_model": "T4",
        "gpu_count": 1, "vram_gb": 16, "vcpu": 8, "ram_gb": 32, "network_gbps": 10,
        "price_on_demand": TOY_PRICE, "price_spot": None, "price_prepaid_month": None, "currency": "USD",
        "price_source": "toy", "price_date": date(2026, 11, 1), "fp16_tflops": 65.0,
        "spot_available": False,
    }
    values.update(kw)
    return Offer(**values)  # type: ignore[arg-type]


class ToyCloud:
    """The fake cloud: instances by id, and every call made."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.instances: dict[str, Instance] = {}
        self.calls: list[str] = []
        self._ids = itertools.count(1)

    def new_id(self) -> str:
        return f"toy-{next(self._ids):04d}"


class ToyProvider:
    id = TOY_ID
    display_name = TOY_SPEC.name
    limitations: dict[str, str] = {}

    def __init__(self, cloud: ToyCloud) -> None:
        self.cloud = cloud

    def _check(self, creds: Credentials) -> None:
        if (creds.key_id, creds.secret) != (TOY_KEY_ID, TOY_SECRET):
            raise AuthError("The toy cloud does not know this key.", "Use the toy key.",
                            provider=TOY_ID, code="ToyAuth")

    def _get(self, instance_id: str) -> Instance:
        try:
            return self.cloud.instances[instance_id]
        except KeyError:
            raise NotFoundError("No toy instance {id}.", "", provider=TOY_ID, code="ToyNotFound",
                                id=instance_id) from None

    def _set(self, instance_id: str, state: str) -> None:
        from dataclasses import replace

        with self.cloud.lock:
            self.cloud.instances[instance_id] = replace(self._get(instance_id), state=state, raw_state=state)

    def validate(self, account: Account, creds: Credentials) -> str:
        self._check(creds)
        self.cloud.calls.append("validate")
        return "toy-user@" + account.region

    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        self._check(creds)
        return [account.region + "a", account.region + "b"]

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        self._check(creds)
        self.cloud.calls.append("list")
        with self.cloud.lock:
            return [i for i in self.cloud.instances.values() if i.account == account.name]

    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        with self.cloud.lock:
            return next((i for i in self.cloud.instances.values()
                         if i.tags.get("labgpu-launch") == token.split("~")[0]), None)

    def launch(self, account: Account, creds: Credentials, req: LaunchRequest,
               progress: ProgressFn | None = None) -> Instance:
        self._check(creds)
        say = progress or (lambda *a, **k: None)
        for step in ("key", "security_group", "image", "request"):
            say(step, "")
        with self.cloud.lock:
            iid = self.cloud.new_id()
            inst = Instance(
                id=iid, account=account.name, provider=TOY_ID, region=req.region or account.region,
                zone=req.zone or account.region + "a", instance_type=req.instance_type, state="running",
                spot=req.spot, public_ip=f"192.0.2.{len(self.cloud.instances) + 10}", private_ip="10.0.0.5",
                currency="USD", launched_at=datetime.now(timezone.utc).replace(microsecond=0),
                name=req.name, image_id="toy-image", key_name=req.ssh_key_name, raw_state="running",
                tags={"labgpu": "1", "toy-login": "toyuser", **req.tags},
            )
            self.cloud.instances[iid] = inst
            self.cloud.calls.append("launch")
        report_call("RunToy", iid, f"req-{iid}")
        say("wait", "")
        return inst

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        self._check(creds)
        self._set(instance_id, "running")

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        self._check(creds)
        self._set(instance_id, "stopped")
        return "Nothing bills while a toy instance is stopped."

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        self._check(creds)
        self._set(instance_id, "terminated")

    def refresh_prices(self, account: Account, creds: Credentials,
                       instance_types: Sequence[str]) -> list[Offer]:
        self._check(creds)
        return [toy_offer(region=account.region, price_source="live")]


def register_toy() -> ToyCloud:
    from app.cloud.registry import register_plugin

    cloud = ToyCloud()
    register_plugin(TOY_SPEC, lambda: ToyProvider(cloud))
    return cloud


def unregister_toy() -> None:
    from app.cloud.registry import unregister_plugin

    unregister_plugin(TOY_ID)
