"""The instances page's Stop on a Lambda instance, against the local Lambda peer: Lambda has no stop, so the
button opens the terminate confirmation, which says why and that the disk is deleted; nothing is sent until
the student confirms, then the instance is terminated. (The window's journey; the guard's is in
test_lambda_launch.py.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fixtures.lambda_server import TEST_API_KEY, LambdaPeer


@pytest.fixture
def peer() -> Iterator[LambdaPeer]:
    p = LambdaPeer().start()
    try:
        yield p
    finally:
        p.stop()


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


def test_stop_offers_terminate_and_says_why(qtbot, ctx, secret_service, peer):
    from app.cloud.launch_plan import LaunchOptions
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instance_actions import TerminateConfirmDialog
    from app.ui.cloud.instances_page import InstancesPage

    svc = cloud_service(ctx)
    svc.accounts.add(Account("lab", "lambda", "us-east-1", peer.endpoint), Credentials("", TEST_API_KEY))
    iid = svc.launch(LaunchOptions(account="lab", instance_type="gpu_1x_a100_sxm4", zone="us-east-1",
                                   ssh_from="198.51.100.7/32")).entry.id
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: any(e.id == iid for e in page.entries), timeout=15000)
    page.select(iid)
    qtbot.waitUntil(page.stop_button.isEnabled, timeout=5000)
    page.stop_button.click()
    qtbot.waitUntil(lambda: any(isinstance(d, TerminateConfirmDialog) for d in page._dialogs), timeout=15000)
    confirm = next(d for d in page._dialogs if isinstance(d, TerminateConfirmDialog))
    why = confirm.findChild(type(page.status_label), "stopRefusal")
    assert why is not None and "Lambda has no stop" in why.text() and "deletes its disk" in why.text()
    assert "cannot be stopped" in page.status_label.text()
    assert peer.calls_of("terminateInstance") == []  # nothing sent before the confirmation
    confirm.id_edit.setText(iid)
    confirm.ok_button.click()
    qtbot.waitUntil(lambda: "no longer bills" in page.status_label.text(), timeout=15000)
    assert peer.calls_of("terminateInstance")[-1].body == {"instance_ids": [iid]}
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)


def test_the_trays_stop_says_terminate_and_terminates(qtbot, ctx, secret_service, peer):
    """The tray's Stop… on a Lambda instance asks to terminate it (no stop exists), saying that the disk is
    deleted; confirmed, the instance is terminated, not a stop that fails."""
    from PySide6.QtWidgets import QPushButton

    from app.cloud.launch_plan import LaunchOptions
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.tray import CostTray

    svc = cloud_service(ctx)
    svc.accounts.add(Account("lab", "lambda", "us-east-1", peer.endpoint), Credentials("", TEST_API_KEY))
    iid = svc.launch(LaunchOptions(account="lab", instance_type="gpu_1x_a100_sxm4", zone="us-east-1",
                                   ssh_from="198.51.100.7/32")).entry.id
    tray = CostTray(ctx, open_window=lambda: None, quit_app=lambda: None)
    try:
        tray.refresh()
        qtbot.waitUntil(lambda: any(r.id == iid for r in tray.rows), timeout=10000)
        box = tray.confirm_stop(iid)
        assert box is not None
        qtbot.addWidget(box)
        assert box.windowTitle() == f"Terminate {iid}?"
        assert "Lambda has no stop" in box.text() and "deletes its disk" in box.text()
        button = box.findChild(QPushButton, "confirmStop")
        assert button.text() == "Terminate" and box.defaultButton() is not button
        with qtbot.waitSignal(tray.stop_finished, timeout=15000) as finished:
            button.click()
        assert finished.args[:2] == [iid, True] and "no longer bills" in finished.args[2]
        assert peer.calls_of("terminateInstance")[-1].body == {"instance_ids": [iid]}
    finally:
        qtbot.waitUntil(ctx.runner.settled, timeout=10000)
        tray.close()
