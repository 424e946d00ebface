"""The instances page's Stop on an AWS spot instance, against moto behind the strict EC2 proxy: a
persistent one (what LabGPU launches) stops; a one-time one (which AWS will not stop) opens the
terminate confirmation, which says plainly that the disk is deleted, and nothing is stopped."""

from __future__ import annotations

import pytest


@pytest.fixture
def ctx(qtbot, labgpu_home, monkeypatch):
    import app.cloud.launch as launch
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


def test_stop_on_a_one_time_spot_instance_offers_terminate(qtbot, ctx, secret_service, moto):
    from app.cloud.base import LABGPU_TAG_KEY, LABGPU_TAG_VALUE
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instance_actions import TerminateConfirmDialog
    from app.ui.cloud.instances_page import InstancesPage
    from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET, UBUNTU_AMI

    svc = cloud_service(ctx)
    svc.accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    iid = moto.ec2().run_instances(
        ImageId=UBUNTU_AMI, MinCount=1, MaxCount=1, InstanceType="g5.xlarge",
        InstanceMarketOptions={"MarketType": "spot", "SpotOptions": {"SpotInstanceType": "one-time"}},
        TagSpecifications=[{"ResourceType": "instance",
                            "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]}],
    )["Instances"][0]["InstanceId"]
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: any(e.id == iid for e in page.entries), timeout=15000)
    page.select(iid)
    qtbot.waitUntil(page.stop_button.isEnabled, timeout=5000)
    moto.strict.calls.clear()
    page.stop_button.click()
    qtbot.waitUntil(lambda: any(isinstance(d, TerminateConfirmDialog) for d in page._dialogs), timeout=15000)
    confirm = next(d for d in page._dialogs if isinstance(d, TerminateConfirmDialog))
    why = confirm.findChild(type(page.status_label), "stopRefusal")
    assert why is not None
    assert "AWS cannot stop a one-time spot instance" in why.text() and "deletes its disk" in why.text()
    assert "cannot be stopped" in page.status_label.text()
    assert "StopInstances" not in moto.strict.calls
    confirm.id_edit.setText(iid)
    confirm.ok_button.click()
    qtbot.waitUntil(lambda: "no longer bills" in page.status_label.text(), timeout=15000)
    state = moto.ec2().describe_instances(InstanceIds=[iid])["Reservations"][0]["Instances"][0]["State"]
    assert state["Name"] in ("shutting-down", "terminated")
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)
