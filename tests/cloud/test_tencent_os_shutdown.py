"""After an OS shutdown (what the on-instance watchdog does) a Tencent instance is STOPPED with
KEEP_CHARGING: its compute still bills. LabGPU settles it with start + StopInstances(STOP_CHARGING)
(StopInstances takes RUNNING instances only), against the local TC3-checking CVM peer, and the
ledger's view follows: "stopped_billing" (billing) before, "stopped" (free compute) after.
"""

from __future__ import annotations

import pytest

from app.cloud import base
from app.cloud.base import LaunchRequest
from app.cloud.errors import CloudError
from app.cloud.tencent import TencentProvider
from tests.cloud.test_tencent_provider import PUBKEY
from tests.fixtures.tencent_server import tencent_account, tencent_creds


@pytest.fixture
def provider() -> TencentProvider:
    p = TencentProvider()
    p.poll_interval = 0.05
    p.retry_base_delay = 0.01
    p.launch_timeout = 10
    p.operation_timeout = 10
    return p


def _running(server, provider):
    acct, creds = tencent_account(server), tencent_creds()
    req = LaunchRequest(instance_type="GN7.2XLARGE32", region="ap-guangzhou", zone="ap-guangzhou-3",
                        public_key=PUBKEY, ssh_key_name="labgpu-test", ssh_cidr="198.51.100.7/32",
                        client_token="tok-os-shutdown", disk_gb=80)
    inst = provider.wait_running(acct, creds, provider.launch(acct, creds, req).id)
    return acct, creds, inst


def _os_shutdown(server, instance_id: str) -> None:
    """`shutdown -h now` inside the instance: Tencent shows it STOPPED with StopChargingMode
    KEEP_CHARGING (no-charge stop is applied only to console/API stops: www.tencentcloud.com/document/
    product/213/19922), with no StopInstances request."""
    with server.lock:
        inst = server.instances[instance_id]
        inst.state, inst.stop_mode, inst.until = "STOPPED", "KEEP_CHARGING", 0.0


def test_the_peer_refuses_stop_instances_on_a_stopped_instance(tencent_server, provider):
    """The documented rule the settle works around: StopInstances takes RUNNING instances only
    (cvm_client.py StopInstances doc string), UnsupportedOperation.InstanceStateStopped otherwise."""
    acct, creds, inst = _running(tencent_server, provider)
    _os_shutdown(tencent_server, inst.id)
    with pytest.raises(CloudError) as err:
        provider._call(acct, creds, "StopInstances",
                       {"InstanceIds": [inst.id], "StoppedMode": "STOP_CHARGING"}, state_changing=True)
    assert err.value.code == "UnsupportedOperation.InstanceStateStopped"


def test_an_os_shutdown_is_settled_as_a_stop_without_charging(tencent_server, provider):
    acct, creds, inst = _running(tencent_server, provider)
    _os_shutdown(tencent_server, inst.id)
    seen = provider.get_instance(acct, creds, inst.id)
    assert seen.state == "stopped_billing" and seen.state in base.BILLING_STATES  # never counted as free

    note = provider.stop_charging_after_os_shutdown(acct, creds, inst.id)

    assert note is not None and "Stopped without charging" in note
    assert tencent_server.billing_state(inst.id) == ("STOPPED", "STOP_CHARGING")
    assert tencent_server.actions().count("StartInstances") == 1
    assert [r["StoppedMode"] for r in tencent_server.requests_of("StopInstances")] == ["STOP_CHARGING"]
    seen = provider.get_instance(acct, creds, inst.id)
    assert seen.state == "stopped" and seen.state not in base.BILLING_STATES  # and now never counted as billing
    # settled once: a second call finds nothing to do and sends nothing that changes state
    before = tencent_server.actions()
    assert provider.stop_charging_after_os_shutdown(acct, creds, inst.id) is None
    assert [a for a in tencent_server.actions()[len(before):] if a != "DescribeInstances"] == []


def test_a_stop_the_cloud_already_made_without_charging_is_left_alone(tencent_server, provider):
    acct, creds, inst = _running(tencent_server, provider)
    provider.stop(acct, creds, inst.id)
    before = tencent_server.actions()
    assert provider.stop_charging_after_os_shutdown(acct, creds, inst.id) is None
    assert "StartInstances" not in tencent_server.actions()[len(before):]


def test_a_type_that_cannot_stop_without_charging_is_said_to_still_bill(tencent_server, provider):
    acct, creds, inst = _running(tencent_server, provider)
    tencent_server.stop_charging_unsupported.add("GN7.2XLARGE32")
    _os_shutdown(tencent_server, inst.id)
    note = provider.stop_charging_after_os_shutdown(acct, creds, inst.id)
    assert note is not None and "still bills the full hourly price" in note
    assert tencent_server.billing_state(inst.id) == ("STOPPED", "KEEP_CHARGING")
    assert provider.get_instance(acct, creds, inst.id).state == "stopped_billing"


def test_the_watcher_settles_a_watchdog_shutdown_once(tencent_server, secret_service, labgpu_home, monkeypatch):
    """The watcher (its 30 s scan calls settle_os_shutdowns) sees a watchdog-guarded Tencent instance
    stopped_billing after its OS shut down, and asks the cloud once to stop it without charging: an event
    says what it did, the ledger then says stopped (free compute), and a second scan sends nothing."""
    from app.cloud.launch import CloudService
    from app.core.accounts import Account, Credentials
    from app.core.guards import GuardConfig, GuardStore
    from app.watch import Watcher

    monkeypatch.setattr(TencentProvider, "poll_interval", 0.05)
    monkeypatch.setattr(TencentProvider, "retry_base_delay", 0.01)
    svc = CloudService()
    try:
        svc.accounts.add(Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint),
                         Credentials(tencent_creds().key_id, tencent_creds().secret))
        provider = TencentProvider()
        provider.poll_interval = 0.05
        acct = Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint)
        inst = provider.wait_running(acct, tencent_creds(), provider.launch(acct, tencent_creds(), LaunchRequest(
            instance_type="GN7.2XLARGE32", region="ap-guangzhou", zone="ap-guangzhou-3", public_key=PUBKEY,
            ssh_key_name="labgpu-test", ssh_cidr="198.51.100.7/32", client_token="tok-watch-settle", disk_gb=80)).id)
        svc.ledger.observe(inst, price_per_hour=10.0)
        GuardStore(svc.store).set(inst.id, GuardConfig(idle_below_pct=10, idle_minutes=5, on_idle="stop",
                                                       watchdog=True))
        _os_shutdown(tencent_server, inst.id)
        svc.reconcile()
        assert svc.ledger.get(inst.id).state == "stopped_billing"
        w = Watcher(store=svc.store, sleep=lambda _s: None)
        assert w.acquire()
        try:
            for th in w.settle_os_shutdowns():
                th.join(60)
            assert tencent_server.billing_state(inst.id) == ("STOPPED", "STOP_CHARGING")
            assert svc.ledger.get(inst.id).state == "stopped"
            [ev] = [e for e in w.events if e.kind == "watchdog"]
            assert "started it and stopped it without charging" in ev.message
            starts = tencent_server.actions().count("StartInstances")
            assert w.settle_os_shutdowns() == []  # once per shutdown
            assert tencent_server.actions().count("StartInstances") == starts == 1
        finally:
            w.close()
    finally:
        svc.close()
