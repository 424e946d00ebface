"""Storage-only accounts (a cloud whose object storage alone LabGPU uses) against the real Secret Service: they
are added like any account, their keys only in the keyring, and every instance feature (reconcile, the
watcher's background reconcile, `labgpu ls`, launch, key test, live prices, the launch dialog's accounts) leaves
them out or refuses them by name, without ever asking for a provider plugin.

Huawei Cloud was the storage-only cloud until its ECS plugin launched (issue 28): its accounts now reach ECS
and OBS alike. The storage-only rules are checked with a toy storage-only cloud built from the catalog's Huawei
spec (OBS fields, no launch), registered in this process; the CLI runs in-process so it sees the toy."""

from __future__ import annotations

import dataclasses
import io
import json
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from types import SimpleNamespace

import keyring
import pytest

from app.cloud.base import get_provider
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core import providers
from app.core.accounts import (
    Account,
    AccountError,
    Credentials,
    instance_accounts,
    storage_only,
    validate_account,
)
from app.core.errors import InputError
from app.watch.reconcile import BackgroundReconciler

AK = "HPUAEXAMPLEAK0000001"
SK = "hwSKexampleSecretKey0000000000000000001"
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzSECRET1"


TOY = "obstoy"  # a storage-only cloud: the catalog's Huawei spec (OBS only, no launch) under another id


@pytest.fixture(autouse=True)
def storage_only_cloud() -> Iterator[None]:
    from app.core.catalog_providers import CATALOG_SPECS

    catalog = next(s for s in CATALOG_SPECS if s.id == "huawei")
    providers.register_spec(dataclasses.replace(catalog, id=TOY))
    try:
        yield
    finally:
        providers.unregister_spec(TOY)


def cli(*args: str, stdin: str | None = None) -> SimpleNamespace:
    """`labgpu ARGS` run in this process (it sees the toy cloud): returncode, stdout, stderr."""
    from app.__main__ import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = int(exc.code or 0)
    finally:
        sys.stdin = old_stdin
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


class Recording:
    """A provider factory that notes which clouds were asked for (never the storage-only one)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, provider_id: str):  # noqa: ANN204 - returns the real plugin's Provider
        self.asked.append(provider_id)
        return get_provider(provider_id)


@pytest.fixture
def svc(labgpu_home):
    factory = Recording()
    service = CloudService(provider_factory=factory)
    service.factory = factory  # type: ignore[attr-defined]
    yield service
    service.close()


def test_a_storage_only_cloud_keeps_accounts_but_launches_nothing() -> None:
    assert TOY in providers.account_ids()
    assert TOY not in providers.launchable_ids()
    assert providers.storage_only(TOY)
    assert not providers.storage_only("aws") and not providers.storage_only("tencent")
    # Huawei Cloud launches now (ECS), and its accounts still reach OBS
    assert not providers.storage_only("huawei") and providers.has("huawei", "storage")
    assert "huawei" in providers.launchable_ids()
    spec = providers.spec(TOY)
    assert spec.default_region == "cn-north-4"
    assert {c.key for c in spec.credentials} == {"key_id", "secret"}
    validate_account(Account("obs", TOY, "cn-north-4"))
    # a cloud listed in the catalog only (every built-in cloud now has a plugin: a stand-in) has no accounts at all
    providers.register_spec(providers.ProviderSpec("catalogonly", "Catalog only"))
    try:
        assert not providers.storage_only("catalogonly")
        with pytest.raises(InputError) as err:
            validate_account(Account("x", "catalogonly", "us-east-1"))
        assert err.value.code == "BadProvider" and TOY in err.value.hint()
    finally:
        providers.unregister_spec("catalogonly")


def test_cli_adds_a_storage_only_account_with_keys_in_the_keyring(secret_service, labgpu_home):
    r = cli("accounts", "add", TOY, "obs1", "--region", "cn-north-4", stdin=f"{AK}\n{SK}\n")
    assert r.returncode == 0, r.stderr
    assert f"added {TOY} account obs1 (cn-north-4" in r.stdout
    assert "object storage (OBS) only" in r.stdout and "launch" in r.stdout
    assert keyring.get_password("labgpu", "account:obs1:secret") == SK
    blob = b"".join(p.read_bytes() for p in Path(labgpu_home).rglob("*") if p.is_file())
    assert AK.encode() not in blob and SK.encode() not in blob

    listed = cli("accounts", "ls", "--json")
    assert listed.returncode == 0, listed.stderr
    [row] = json.loads(listed.stdout)
    assert (row["provider"], row["region"], row["storage_only"]) == (TOY, "cn-north-4", True)

    # `labgpu ls` asks the clouds of instance accounts only: no "could not be asked" (exit 3) for OBS
    ls = cli("ls", "--json")
    assert ls.returncode == 0, ls.stderr
    assert json.loads(ls.stdout) == []


def test_cli_test_flag_is_refused_before_anything_is_saved(secret_service, labgpu_home):
    r = cli("accounts", "add", TOY, "obs2", "--region", "cn-east-3", "--test", stdin=f"{AK}\n{SK}\n")
    assert r.returncode != 0
    assert "StorageOnlyAccount" in r.stderr and "buckets ls obs2" in r.stderr
    assert keyring.get_password("labgpu", "account:obs2:key_id") is None


def test_instance_features_skip_or_refuse_a_storage_only_account(secret_service, svc):
    svc.accounts.add(Account("obs1", TOY, "cn-north-4"), Credentials(AK, SK))
    assert storage_only(svc.accounts.get("obs1"))
    assert svc.accounts.instance_accounts() == []
    assert [a.name for a in svc.accounts.list()] == ["obs1"]  # bucket syncs still find it

    result = svc.reconcile()
    assert result.errors == {} and result.accounts == 0
    assert svc.reconcile(["obs1"]).errors == {}

    with pytest.raises(AccountError) as launch:
        svc.launch(LaunchOptions(account="obs1", instance_type="p2s.2xlarge.8"))
    assert launch.value.code == "StorageOnlyAccount"
    assert "obs1" in launch.value.text() and "Huawei Cloud" in launch.value.text()  # the toy's display name
    assert "--account obs1" in launch.value.hint()
    assert svc.pending.open() == [] and svc.audit.list() == []  # refused before anything was written

    with pytest.raises(InputError) as none:  # no account to refresh live prices with
        svc.refresh_prices()
    assert none.value.code == "NoAccount"
    errors: dict = {}
    assert svc.refresh_prices("obs1", errors=errors) == []
    assert errors["obs1"].code == "StorageOnlyAccount"
    assert svc.factory.asked == []  # no provider plugin was asked for


def test_mixed_accounts_reconcile_only_the_instance_account(secret_service, svc):
    svc.accounts.add(Account("obs1", TOY, "cn-north-4"), Credentials(AK, SK))
    # an AWS account whose endpoint refuses connections: its reconcile fails, and is the only one tried
    svc.accounts.add(Account("lab", "aws", "us-east-1", "http://127.0.0.1:9"), Credentials(AWS_KEY, AWS_SECRET))
    assert [a.name for a in instance_accounts(svc.accounts.list())] == ["lab"]
    result = svc.reconcile()
    assert set(result.errors) <= {"lab"} and result.accounts == 1
    assert TOY not in svc.factory.asked


def test_background_reconcile_never_starts_for_a_storage_only_account(secret_service, svc):
    svc.accounts.add(Account("obs1", TOY, "cn-north-4"), Credentials(AK, SK))
    svc.accounts.add(Account("lab", "aws", "us-east-1", "http://127.0.0.1:9"), Credentials(AWS_KEY, AWS_SECRET))
    seen: list[str] = []
    rec = BackgroundReconciler(svc.paths, svc.store, reconcile_fn=seen.append, mono=lambda: 0.0)
    try:
        assert rec.poll() == ["lab"]
        assert rec.wait_runs("lab", 1)
    finally:
        rec.close()
    assert seen == ["lab"] and rec.runs.get("obs1") is None


def test_a_huawei_account_is_an_instance_account_tested_with_ecs(secret_service, svc):
    """Huawei Cloud's plugin launches (issue 28): its account is an instance account, and its keys are tested
    with ECS."""
    from tests.fixtures.huawei_ecs_server import HuaweiPeer

    peer = HuaweiPeer().start()
    try:
        peer.add_key(AK, SK)
        svc.accounts.add(Account("hw1", "huawei", "cn-north-4", peer.endpoint), Credentials(AK, SK))
        assert not storage_only(svc.accounts.get("hw1"))
        assert [a.name for a in svc.accounts.instance_accounts()] == ["hw1"]
        assert "availability zones" in svc.test_connection("hw1")
        assert svc.factory.asked == ["huawei"]
    finally:
        peer.stop()
