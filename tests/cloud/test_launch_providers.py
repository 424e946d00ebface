"""Launch orchestration, ledger and audit are provider-neutral: the same CloudService drives AWS
(moto) and Tencent Cloud (the local TC3-checking CVM server) side by side."""

from __future__ import annotations

import dataclasses

import pytest

from app.cloud import sshkeys
from app.cloud.base import LaunchRequest, get_provider
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions, new_client_token
from app.core.accounts import Account, Credentials
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

SSH_FROM = "198.51.100.7/32"


@pytest.fixture
def both(secret_service, moto, tencent_server, labgpu_home):
    svc = CloudService()
    svc.accounts.add(Account("lab-aws", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    svc.accounts.add(
        Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint, {"protocol": "http"}),
        Credentials(TEST_SECRET_ID, TEST_SECRET_KEY),
    )
    yield svc, tencent_server
    svc.close()


def test_one_ledger_for_both_clouds(both):
    svc, tc = both
    a = svc.launch(LaunchOptions(account="lab-aws", instance_type="g4dn.xlarge", ssh_from=SSH_FROM)).entry
    t = svc.launch(
        LaunchOptions(
            account="lab-tc", instance_type="GN7.2XLARGE32", spot=True, max_price=5.0, ssh_from=SSH_FROM
        )
    ).entry
    assert (a.provider, a.currency, a.spot) == ("aws", "USD", False)
    assert (t.provider, t.currency, t.spot) == ("tencent", "CNY", True)
    assert t.state == "running"
    entries = {e.id: e for e in svc.reconcile().entries}
    assert set(entries) == {a.id, t.id}
    assert entries[t.id].cost_so_far is not None
    assert entries[t.id].price_per_hour is not None
    svc.stop(t.id)
    svc.terminate(t.id)
    svc.terminate(a.id)
    by_account = {}
    for row in svc.audit.list():
        by_account.setdefault(row.account, []).append(row.action)
    assert "launch" in by_account["lab-tc"]
    assert "terminate" in by_account["lab-tc"]
    assert "launch" in by_account["lab-aws"]


def test_tencent_sold_out_zone_moves_on(both):
    svc, tc = both
    tc.fail_next("RunInstances", "ResourceInsufficient.ZoneSoldOutForSpecifiedInstance")
    steps = []
    res = svc.launch(
        LaunchOptions(account="lab-tc", instance_type="GN7.2XLARGE32", ssh_from=SSH_FROM),  # any zone
        progress=lambda s, m="": steps.append((s, m)),
    )
    first = tc.requests_of("RunInstances")[0]["Placement"]["Zone"]
    assert res.entry.zone not in ("", first)
    assert any(s == "zone" and first in m and res.entry.zone in m for s, m in steps)


def test_tencent_launch_cut_short_is_recovered(both):
    """The pending record is written, the request reaches the cloud, the process dies: reconcile finds it."""
    svc, tc = both
    token = new_client_token()
    account = svc.accounts.get("lab-tc")
    svc.pending.begin(
        client_token=token,
        account="lab-tc",
        provider="tencent",
        region="ap-guangzhou",
        zone="",
        instance_type="GN7.2XLARGE32",
        spot=False,
        max_price=None,
    )
    key = sshkeys.key_for_launch(svc.paths, "tencent")  # LabGPU's RSA key: Tencent imports RSA only
    get_provider("tencent").launch(
        account,
        svc.accounts.credentials("lab-tc"),
        LaunchRequest(
            instance_type="GN7.2XLARGE32",
            region="ap-guangzhou",
            zone="ap-guangzhou-3",
            ssh_cidr=SSH_FROM,
            client_token=token,
            tags={"labgpu-launch": token},
            public_key=key.public_key,
            ssh_key_name=key.cloud_name,
        ),
    )
    assert svc.ledger.list() == []
    [entry] = svc.reconcile().entries
    assert entry.client_token == token
    assert svc.pending.get(token).status == "done"


def test_one_cloud_down_does_not_hide_the_other(both):
    svc, tc = both
    a = svc.launch(LaunchOptions(account="lab-aws", instance_type="g4dn.xlarge", ssh_from=SSH_FROM)).entry
    svc.launch(LaunchOptions(account="lab-tc", instance_type="GN7.2XLARGE32", ssh_from=SSH_FROM))
    svc.accounts.edit("lab-tc", endpoint="http://127.0.0.1:9")
    result = svc.reconcile()
    assert set(result.errors) == {"lab-tc"}
    assert {e.id for e in result.entries} >= {a.id}
    assert all(e.state == "running" for e in result.entries)  # Tencent's kept as last seen, not dropped


def test_tencent_retry_with_the_same_token_finds_the_instance_and_requests_nothing(both):
    """The answer to RunInstances was lost: the retry with the error's client token gets the instance
    Tencent made, found by CloudService before any second request."""
    from app.cloud.errors import NetworkError
    from tests.fixtures.tencent_cvm_server import DROP

    svc, tc = both
    tc.fail_next("RunInstances", DROP)
    opts = LaunchOptions(account="lab-tc", instance_type="GN7.2XLARGE32", zone="ap-guangzhou-3", ssh_from=SSH_FROM)
    with pytest.raises(NetworkError) as info:
        svc.launch(opts)
    steps = []
    again = svc.launch(dataclasses.replace(opts, client_token=info.value.client_token),
                       progress=lambda s, m="": steps.append((s, m)))
    assert again.entry.id == next(iter(tc.instances))
    assert len(tc.instances) == 1
    assert len(tc.requests_of("RunInstances")) == 1
    assert any("already went through" in m for _s, m in steps)


def test_tencent_spot_maximum_defaults_to_the_share_of_on_demand(both):
    from tests.fixtures.tencent_cvm_server import TYPES

    svc, tc = both
    svc.refresh_prices("lab-tc", ["GN7.2XLARGE32"])
    res = svc.launch(LaunchOptions(account="lab-tc", instance_type="GN7.2XLARGE32", spot=True, ssh_from=SSH_FROM))
    assert res.entry.spot
    [run] = tc.requests_of("RunInstances")
    cap = run["InstanceMarketOptions"]["SpotOptions"]["MaxPrice"]
    assert cap == f"{TYPES['GN7.2XLARGE32'][4] * 0.8:.4f}"
    assert any("80 % of on-demand" in n for n in res.notes)


@pytest.mark.parametrize("provider_account", ["lab-tc", "lab-aws"])
def test_ssh_open_to_the_world_is_refused_before_any_cloud_call(both, provider_account):
    svc, tc = both
    with pytest.raises(Exception) as err:
        svc.launch(LaunchOptions(account=provider_account, instance_type="GN7.2XLARGE32", ssh_from="0.0.0.0/0"))
    assert err.value.code == "CidrTooBroad"
    assert tc.actions() == []
    assert svc.pending.open() == []
