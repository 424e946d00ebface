"""The audit dialog's "Cloud events" tab against the AWS peer (moto behind the strict proxy, which records each
EC2 call as a CloudTrail event): the student reads an account's events, sees LabGPU's own calls as "yes" and
the foreign ones in the error colour with the words "Not made by LabGPU"; cloud text stays plain."""

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


def _rows(view):
    t = view.table
    return [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]


def test_cloud_events_tab_marks_the_foreign_call(qtbot, ctx, secret_service, moto):
    from app.cloud.launch_plan import LaunchOptions
    from app.core.accounts import Account, Credentials
    from app.ui import theme
    from app.ui.cloud import cloud_service
    from app.ui.cloud.audit_dialog import AuditDialog
    from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

    svc = cloud_service(ctx)
    svc.accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    entry = svc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32")).entry
    moto.strict.trail.inject("StopInstances", entry.id, user="<b>mallory</b>\u202e", source_ip="198.51.100.7")

    dialog = AuditDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.tabs.setCurrentWidget(dialog.cloud_events)
    view = dialog.cloud_events
    qtbot.waitUntil(lambda: view.account_combo.count() == 1, timeout=10000)
    assert "AWS CloudTrail" in view.account_combo.currentText()
    task = view.read()
    assert task is not None and view.progress.isVisibleTo(view) and not view.read_button.isEnabled()
    qtbot.waitUntil(lambda: view.report is not None, timeout=20000)

    rows = _rows(view)
    foreign = [r for r in rows if r[6]]
    assert len(foreign) == 1 and foreign[0][1] == "StopInstances" and foreign[0][2] == entry.id
    assert foreign[0][5] == "no" and foreign[0][6].startswith("Not made by LabGPU")
    assert foreign[0][3].endswith("user/<b>mallory</b>")  # the bidi override out, the markup shown as text
    r = next(i for i, row in enumerate(rows) if row[6])
    assert view.table.item(r, 1).foreground().color() == theme.color("error")
    assert any(row[1] == "RunInstances" and row[5] == "yes" for row in rows)
    assert "1 not made by LabGPU, 1 alerted now" in view.status_label.text()
    assert not view.progress.isVisibleTo(view) and view.read_button.isEnabled()
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)


def test_a_refused_permission_is_said_with_its_next_step(qtbot, ctx, secret_service, moto):
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.cloud.cloudevents_view import CloudEventsView
    from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

    cloud_service(ctx).accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    moto.strict.trail.denied = True
    view = CloudEventsView(ctx)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: view.account_combo.count() == 1, timeout=10000)
    view.read()
    qtbot.waitUntil(lambda: "cloudtrail:LookupEvents" in view.status_label.text(), timeout=20000)
    assert "grant" in view.status_label.text() and view.read_button.isEnabled()
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)
