"""Huawei Cloud ECS launching and instance actions through the official SDKs against the strict local peer,
polling made instant (the provider's sleep is injected): stock-outs in the answer and in the job, the spot cap
checked against the pay-per-use price, paging of the server list and of key pairs, the network created once and
reused (a group without the SSH rule gets it), the image chosen for the flavor, wrong-state actions, a spot
instance's stop refused so that guards terminate it, and the importer of KooCLI's profiles."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cloud.base import CapacityError, LaunchRequest, StopRefusedError
from app.cloud.errors import InvalidRequestError
from app.core.accounts import Account, AccountError, Credentials
from tests.fixtures.huawei_ecs_server import HuaweiPeer
from tests.fixtures.huawei_network_peer import GPU_IMAGE, UBUNTU_IMAGE

AK = "HPUALAUNCHTESTKEY001"
SK = "launch-test-sk-0123456789"
V100 = "p2s.2xlarge.8"
CPU = "c7.large.2"
CREDS = Credentials(AK, SK)


@pytest.fixture
def peer() -> Iterator[HuaweiPeer]:
    server = HuaweiPeer().start()
    server.add_key(AK, SK)
    server.sell(V100, 20.0, ("cn-north-4a", "cn-north-4b"))
    server.sell(CPU, 0.5, ("cn-north-4a", "cn-north-4b", "cn-north-4c"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def public_key(tmp_path_factory: pytest.TempPathFactory) -> str:
    key = tmp_path_factory.mktemp("keys") / "k"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(key)], check=True,
                   capture_output=True)
    return key.with_suffix(".pub").read_text()


def _provider() -> Any:
    from app.cloud.huawei.provider import HuaweiProvider

    return HuaweiProvider(sleep=lambda _s: None)


def _account(peer: HuaweiPeer) -> Account:
    return Account("lab", "huawei", "cn-north-4", peer.endpoint)


def _req(public_key: str, flavor: str = V100, zone: str = "cn-north-4a", token: str = "lg-t1", **kw: Any) -> Any:
    return LaunchRequest(flavor, "cn-north-4", zone=zone, public_key=public_key, ssh_cidr="198.51.100.7/32",
                         client_token=token, **kw)


def test_a_stock_out_in_the_answer_is_a_capacity_error_naming_the_zone(peer: HuaweiPeer, public_key: str) -> None:
    peer.ecs.stock_out[("cn-north-4a", V100)] = "answer"
    with pytest.raises(CapacityError) as caught:
        _provider().launch(_account(peer), CREDS, _req(public_key))
    assert caught.value.code == "Ecs.0319" and "cn-north-4a" in caught.value.text()
    assert "other zones" in caught.value.hint()
    assert peer.ecs.servers == {} and peer.ecs.jobs == {}


def test_a_stock_out_in_the_job_is_a_capacity_error_and_no_server_is_left(peer: HuaweiPeer, public_key: str) -> None:
    peer.ecs.stock_out[("cn-north-4b", V100)] = "job"
    with pytest.raises(CapacityError) as caught:
        _provider().launch(_account(peer), CREDS, _req(public_key, zone="cn-north-4b"))
    assert caught.value.code == "Ecs.0319" and "cn-north-4b" in caught.value.text()
    assert peer.ecs.servers == {} and [j.status for j in peer.ecs.jobs.values()] == ["FAIL"]


def test_a_zone_that_does_not_sell_the_flavor_answers_a_stock_out(peer: HuaweiPeer, public_key: str) -> None:
    provider = _provider()
    assert provider.zones(_account(peer), CREDS, V100) == ["cn-north-4a", "cn-north-4b"]
    assert provider.zones(_account(peer), CREDS) == ["cn-north-4a", "cn-north-4b", "cn-north-4c", "cn-north-4g"]
    with pytest.raises(CapacityError):
        provider.launch(_account(peer), CREDS, _req(public_key, zone="cn-north-4c"))


def test_the_same_client_token_gives_the_same_server(peer: HuaweiPeer, public_key: str) -> None:
    provider = _provider()
    first = provider.launch(_account(peer), CREDS, _req(public_key))
    again = provider.launch(_account(peer), CREDS, _req(public_key))
    assert again.id == first.id and len(peer.ecs.servers) == 1
    assert provider.find_by_client_token(_account(peer), CREDS, "lg-t1").id == first.id
    assert provider.find_by_client_token(_account(peer), CREDS, "lg-never") is None


def test_a_spot_cap_above_the_pay_per_use_price_is_refused(peer: HuaweiPeer, public_key: str) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        _provider().launch(_account(peer), CREDS, _req(public_key, spot=True, max_price=25.0))
    assert caught.value.code == "Ecs.0005" and "spotPrice is above" in caught.value.text()
    spot = _provider().launch(_account(peer), CREDS, _req(public_key, spot=True, max_price=16.0, token="lg-t2"))
    assert spot.spot and spot.price_per_hour is None  # a spot server bills the market price: not the list price
    assert peer.ecs.servers[spot.id].spot_price == 16.0


def test_the_instance_list_is_read_page_by_page_with_prices(peer: HuaweiPeer, public_key: str) -> None:
    provider = _provider()
    made = provider.launch(_account(peer), CREDS, _req(public_key, flavor=CPU))
    template = peer.ecs.servers[made.id]
    for i in range(130):  # 131 tagged servers: two pages of 100
        peer.ecs.servers[f"srv-{i:03d}"] = type(template)(**{**template.__dict__, "id": f"srv-{i:03d}"})
    listed = provider.list_instances(_account(peer), CREDS)
    assert len(listed) == 131 and len({i.id for i in listed}) == 131
    pages = [c.query.get("offset") for c in peer.calls if c.path.endswith("/cloudservers/detail")]
    assert pages[-2:] == ["1", "2"]
    assert {i.price_per_hour for i in listed} == {0.5} and {i.currency for i in listed} == {"CNY"}
    assert all(i.state == "running" and i.public_ip and i.launched_at for i in listed)


def test_a_failing_price_look_up_leaves_the_list_whole(peer: HuaweiPeer, public_key: str) -> None:
    provider = _provider()
    provider.launch(_account(peer), CREDS, _req(public_key, flavor=CPU))
    peer.fail_next(400, "CBC.0100", "Invalid parameter", path="/v2/bills")
    [one] = provider.list_instances(_account(peer), CREDS)
    assert one.price_per_hour is None and one.instance_type == CPU


def test_the_network_is_made_once_and_a_group_missing_its_rule_gets_it(peer: HuaweiPeer, public_key: str) -> None:
    provider = _provider()
    provider.launch(_account(peer), CREDS, _req(public_key))
    [gid] = peer.net.groups
    for rid in [r["id"] for r in peer.net.ingress(gid)]:  # the SSH rule removed in the console
        del peer.net.rules[rid]
    provider.launch(_account(peer), CREDS, _req(public_key, token="lg-t2", zone="cn-north-4b"))
    assert (len(peer.net.vpcs), len(peer.net.subnets), len(peer.net.groups), len(peer.net.keypairs)) == (1, 1, 1, 1)
    assert [(r["multiport"], r["remote_ip_prefix"]) for r in peer.net.ingress(gid)] == [("22", "198.51.100.7/32")]
    provider.launch(_account(peer), CREDS, LaunchRequest(V100, "cn-north-4", zone="cn-north-4b",
                                                         public_key=public_key, ssh_cidr="2001:db8::/64",
                                                         client_token="lg-t3"))
    assert len(peer.net.groups) == 2  # another source range, its own group
    v6 = next(g for g in peer.net.groups if g != gid)
    assert [(r["ethertype"], r["remote_ip_prefix"]) for r in peer.net.ingress(v6)] == [("IPv6", "2001:db8::/64")]


def test_a_key_pair_on_a_later_page_is_found_not_imported_again(peer: HuaweiPeer, public_key: str) -> None:
    from app.cloud.huawei.launch import key_pair_name

    name = key_pair_name(public_key)
    project = peer.keys[AK].projects["cn-north-4"]
    for i in range(150):
        peer.net.keypairs[f"aaa-{i:03d}"] = {"name": f"aaa-{i:03d}", "project": project, "type": "ssh"}
    peer.net.keypairs[name] = {"name": name, "project": project, "type": "ssh", "public_key": public_key}
    _provider().launch(_account(peer), CREDS, _req(public_key))
    assert len([c for c in peer.calls if c.method == "GET" and c.path.endswith("/keypairs")]) == 2
    assert not [c for c in peer.calls if c.method == "POST" and c.path.endswith("/keypairs")]


def test_the_gpu_image_for_a_gpu_flavor_and_plain_ubuntu_otherwise(peer: HuaweiPeer, public_key: str) -> None:
    said: list[str] = []
    provider = _provider()
    gpu = provider.launch(_account(peer), CREDS, _req(public_key), lambda step, msg="": said.append(msg))
    cpu = provider.launch(_account(peer), CREDS, _req(public_key, flavor=CPU, token="lg-t2"),
                          lambda step, msg="": said.append(msg))
    assert (gpu.image_id, cpu.image_id) == (GPU_IMAGE, UBUNTU_IMAGE)
    assert any("install the NVIDIA driver and CUDA yourself" in m for m in said)


def test_wrong_state_actions_name_the_instance(peer: HuaweiPeer, public_key: str) -> None:
    provider = _provider()
    inst = provider.launch(_account(peer), CREDS, _req(public_key, flavor=CPU))
    with pytest.raises(InvalidRequestError) as caught:
        provider.start(_account(peer), CREDS, inst.id)  # running already
    assert caught.value.code == "Ecs.0100" and inst.id in caught.value.text()
    assert "disks still bill" in provider.stop(_account(peer), CREDS, inst.id)
    assert peer.ecs.servers[inst.id].status == "SHUTOFF"
    [listed] = provider.list_instances(_account(peer), CREDS)
    assert listed.state == "stopped"


def test_a_spot_instance_is_not_stopped_its_guard_terminates_it(peer: HuaweiPeer, public_key: str) -> None:
    provider = _provider()
    spot = provider.launch(_account(peer), CREDS, _req(public_key, spot=True, max_price=12.0))
    assert provider.stop_refusal(_account(peer), CREDS, spot.id)
    with pytest.raises(StopRefusedError) as caught:
        provider.stop(_account(peer), CREDS, spot.id)
    assert caught.value.code == "SpotCannotStop" and "terminat" in caught.value.hint()
    assert not [b for b in peer.ecs.actions if "os-stop" in b]
    provider.terminate(_account(peer), CREDS, spot.id)
    assert peer.ecs.servers == {} and peer.ecs.actions[-1]["delete_volume"] is True


# -- the importer -------------------------------------------------------------------------------------------------
def _write(home: Path, doc: Any) -> None:
    (home / ".hcloud").mkdir(parents=True, exist_ok=True)
    (home / ".hcloud" / "config.json").write_text(doc if isinstance(doc, str) else json.dumps(doc))


def test_the_importer_reads_koocli_profiles_default_first(tmp_path: Path) -> None:
    from app.cloud.huawei.importer import import_candidates

    _write(tmp_path, {"profiles": [
        {"name": "lab", "mode": "AKSK", "accessKeyId": "AK1", "secretAccessKey": "SK1", "region": "cn-east-3",
         "projectId": "0b" * 16},
        {"name": "default", "mode": "AKSK", "accessKeyId": "AK0", "secretAccessKey": "SK0", "projectId": "bad"}]})
    found = import_candidates({"HOME": str(tmp_path)}, region="ap-southeast-1")
    assert [(c.account.name, c.account.region, c.source) for c in found] == [
        ("huawei-default", "ap-southeast-1", "hcloud-profile:default"),
        ("huawei-lab", "cn-east-3", "hcloud-profile:lab")]
    assert found[1].account.extra == {"project_id": "0b" * 16} and found[0].account.extra == {}
    assert (found[1].credentials.key_id, found[1].credentials.secret) == ("AK1", "SK1")


def test_the_importer_without_a_file_reads_the_environment_and_refuses_a_broken_file(tmp_path: Path) -> None:
    from app.cloud.huawei.importer import import_candidates

    env = {"HOME": str(tmp_path), "HUAWEICLOUD_SDK_AK": "AKE", "HUAWEICLOUD_SDK_SK": "SKE",
           "HUAWEICLOUD_SDK_PROJECT_ID": "0c" * 16}
    [only] = import_candidates(env)
    assert (only.account.name, only.account.region, only.account.extra) == ("huawei-env", "cn-north-4",
                                                                           {"project_id": "0c" * 16})
    assert import_candidates({"HOME": str(tmp_path)}) == []
    _write(tmp_path, "{not json")
    with pytest.raises(AccountError) as caught:
        import_candidates({"HOME": str(tmp_path)})
    assert caught.value.code == "BadHcloudConfig" and "hcloud configure test" in caught.value.hint()
