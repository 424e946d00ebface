"""The window's journey on each cloud added by issue 28 (Huawei Cloud, Azure, Google Cloud, Lambda, Paperspace),
against its local peer, through the cloud's own SDK or REST client: the accounts dialog asks for what that
cloud takes (a JSON key, an API key alone, a project), Test connection reaches the peer, the launch dialog
launches the catalog's offer (spot where the cloud sells it), the instances page shows the instance with its
account, price and cost, Stop says what still bills (or, where the cloud has no stop, asks to terminate), and
Terminate ends it. Then every cloud's instance is on one instances page together. No file LabGPU wrote holds
a secret."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.fixtures import azure_arm_server
from tests.fixtures.azure_arm_server import TEST_CLIENT_ID, TEST_CLIENT_SECRET, TEST_SUBSCRIPTION, TEST_TENANT
from tests.fixtures.gcp_compute_server import API_KEY as GCP_API_KEY
from tests.fixtures.gcp_compute_server import PROJECT as GCP_PROJECT
from tests.fixtures.gcp_compute_server import GcpServer, seed_skus
from tests.fixtures.huawei_ecs_server import HuaweiPeer
from tests.fixtures.lambda_server import TEST_API_KEY as LAMBDA_KEY
from tests.fixtures.lambda_server import LambdaPeer
from tests.fixtures.paperspace_server import TEST_API_KEY as PAPERSPACE_KEY
from tests.fixtures.paperspace_server import PaperspaceServer
from tests.ui.instance_cells import cell_texts

SSH_FROM = "198.51.100.7/32"
CLOUDS = ["huawei", "azure", "gcp", "lambda", "paperspace"]
HUAWEI_AK, HUAWEI_SK = "HPUAGUIJOURNEYKEY001", "gui-journey-sk-0123456789"  # the peer's test key
# the Azure peer's fixtures (HTTPS with a test CA the SDK trusts for the test), used by name below
azure_peer_session = azure_arm_server.azure_peer_session
azure_peer = azure_arm_server.azure_peer


@dataclass
class Case:
    """One cloud: how its account is filled in, which offer is launched, what Stop says."""

    provider: str
    region: str
    instance_type: str
    key_id: str  # "" = the cloud asks for no key id (an API key alone)
    secret: str
    secrets: tuple[str, ...]  # what must be in no file LabGPU wrote
    endpoint: str
    token: str = ""
    settings: dict[str, str] = field(default_factory=dict)  # account field label → value
    spot: bool = False
    live_prices: bool = False
    stop_says: str = ""  # in the status after Stop ("" = the cloud has no stop: Stop asks to terminate)
    extra: dict[str, str] = field(default_factory=dict)  # the same settings by key (an account made in code)
    money: str = "$"  # the price column's currency sign
    gone: Callable[[str], bool] = lambda iid: True  # the peer no longer runs it


@pytest.fixture(scope="module")
def peers() -> Iterator[dict[str, Any]]:
    gcp = GcpServer().start()
    lam = LambdaPeer(launch_interval_s=0.0).start()
    ps = PaperspaceServer().start()
    hw = HuaweiPeer().start()
    try:
        yield {"gcp": gcp, "lambda": lam, "paperspace": ps, "huawei": hw}
    finally:
        for peer in (gcp, lam, ps, hw):
            peer.stop()


@pytest.fixture
def cases(peers, azure_peer, azure_prices_server) -> dict[str, Case]:
    gcp, lam, ps = peers["gcp"], peers["lambda"], peers["paperspace"]
    for peer in (gcp, lam, ps):
        peer.reset()
    seed_skus(gcp)
    hw = peers["huawei"]
    hw.add_key(HUAWEI_AK, HUAWEI_SK)
    hw.sell("p2s.2xlarge.8", 20.0, ("cn-north-4a", "cn-north-4b"))
    return {
        # a Huawei spot server cannot be stopped (nothing says a stopped spot server stops billing): Stop asks to
        # terminate it, as the guards do
        "huawei": Case("huawei", "cn-north-4", "p2s.2xlarge.8", HUAWEI_AK, HUAWEI_SK, (HUAWEI_SK,), hw.endpoint,
                       spot=True, live_prices=True, money="¥",
                       gone=lambda iid: iid not in hw.ecs.servers or hw.ecs.servers[iid].status == "DELETED"),
        "azure": Case("azure", "eastus", "Standard_NC24ads_A100_v4", TEST_CLIENT_ID, TEST_CLIENT_SECRET,
                      (TEST_CLIENT_SECRET,), azure_peer.endpoint,
                      settings={"Directory (tenant) ID": TEST_TENANT, "Subscription ID": TEST_SUBSCRIPTION,
                                "Retail Prices API address": azure_prices_server.endpoint},
                      extra={"tenant_id": TEST_TENANT, "subscription_id": TEST_SUBSCRIPTION,
                             "prices_endpoint": azure_prices_server.endpoint},
                      spot=True, live_prices=True, stop_says="its OS disk and its static public IP address still bill",
                      gone=lambda iid: azure_peer.vm(iid) is None),
        "gcp": Case("gcp", "us-central1", "n1-standard-8 + 1x T4", gcp.key.client_email, gcp.key.json_text(),
                    (gcp.key.pem_body, GCP_API_KEY), gcp.url, token=GCP_API_KEY,
                    settings={"Project ID": GCP_PROJECT}, extra={"project": GCP_PROJECT}, spot=True,
                    live_prices=True,
                    stop_says="persistent disks and any static IP address still bill",
                    gone=lambda iid: iid not in gcp.instances),
        "lambda": Case("lambda", "us-east-1", "gpu_1x_a100_sxm4", "", LAMBDA_KEY, (LAMBDA_KEY,), lam.endpoint,
                       live_prices=True,
                       gone=lambda iid: iid not in lam.instances or lam.instances[iid].status == "terminated"),
        "paperspace": Case("paperspace", "ny2", "A100-80G", "", PAPERSPACE_KEY, (PAPERSPACE_KEY,), ps.endpoint,
                           stop_says="disk still bills", gone=lambda iid: ps.machines[iid].deleted),
    }


@pytest.fixture
def ctx(qtbot, labgpu_home, monkeypatch):
    import app.cloud.launch as launch
    from app.cloud import kit, netaddr
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    monkeypatch.setattr(netaddr, "public_address", lambda timeout=4.0: SSH_FROM.split("/")[0])
    monkeypatch.setattr(kit.PluginClient, "poll_interval", 0.02)  # the peers move on each read, not on time
    from app.cloud.azure.client import AzureClient

    monkeypatch.setattr(AzureClient, "lro_interval", 0)  # the SDK's long-running-operation polls
    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


def _offer(case: Case) -> Any:
    from app.core.catalog import load_catalog
    from app.core.paths import default_paths

    return next(o for o in load_catalog(default_paths()).offers
                if o.provider == case.provider and o.instance_type == case.instance_type)


def _add_in_dialog(qtbot, page, case: Case, name: str) -> None:
    dialog = page.open_dialog()
    index = dialog.provider_combo.findData(case.provider)
    assert index >= 0, case.provider
    dialog.provider_combo.setCurrentIndex(index)
    assert dialog.key_edit.isVisibleTo(dialog) == bool(case.key_id)
    qtbot.keyClicks(dialog.name_edit, name)
    dialog.region_combo.setCurrentText(case.region)
    if case.key_id:
        qtbot.keyClicks(dialog.key_edit, case.key_id)
    if dialog.secret_doc.isVisibleTo(dialog):
        dialog.secret_doc.setPlainText(case.secret)
    else:
        qtbot.keyClicks(dialog.secret_edit, case.secret)
    if case.token:
        qtbot.keyClicks(dialog.token_edit, case.token)
    rows = {label.text().rstrip(" *"): edit for label, edit in dialog._setting_rows}
    for label, value in case.settings.items():
        qtbot.keyClicks(rows[label], value)
    dialog.endpoint_edit.setText(case.endpoint)
    with qtbot.waitSignal(dialog.saved, timeout=10000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()


def _launch(qtbot, ctx, case: Case) -> Any:
    from app.ui.cloud.launch_dialog import open_launch_dialog

    launch = open_launch_dialog(ctx, _offer(case))
    qtbot.addWidget(launch)
    qtbot.waitUntil(lambda: launch.form.account_combo.count() == 1, timeout=10000)
    assert not launch.form.account_note.isVisibleTo(launch)  # the offer's region is the account's (or all)
    qtbot.waitUntil(lambda: launch.form.cidr_edit.text() == SSH_FROM, timeout=10000)
    launch.form.spot_check.setChecked(case.spot)
    if case.spot and case.provider == "gcp":  # Google's Spot VMs take no maximum price
        assert not launch.form.max_price_spin.isEnabled()
        assert "Spot maximum" not in launch.form.price_note.text()
        assert "no price cap" in launch.form.price_note.text()
    with qtbot.waitSignal(launch.launched, timeout=30000):
        qtbot.mouseClick(launch.form.launch_button, Qt.MouseButton.LeftButton)
    entry = launch.launch_result.entry
    launch.accept()
    return entry


@pytest.mark.parametrize("cloud", CLOUDS)
def test_add_test_launch_list_stop_and_terminate_in_the_window(qtbot, ctx, cases, cloud, secret_service,
                                                               labgpu_home):
    from app.ui.cloud import cloud_service
    from app.ui.cloud.accounts_page import AccountsPage
    from app.ui.cloud.instance_actions import TerminateConfirmDialog
    from app.ui.cloud.instances_page import InstancesPage

    case = cases[cloud]
    name = f"lab-{cloud}"
    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    _add_in_dialog(qtbot, page, case, name)
    qtbot.waitUntil(lambda: any(i.account.name == name for i in page.infos), timeout=10000)
    page.select(name)
    qtbot.waitUntil(page.test_button.isEnabled, timeout=5000)
    page.test_button.click()
    qtbot.waitUntil(lambda: "Connected" in page.result_label.text(), timeout=15000)
    if case.live_prices:
        assert cloud_service(ctx).refresh_prices(name), cloud

    entry = _launch(qtbot, ctx, case)
    assert (entry.provider, entry.state, entry.spot) == (cloud, "running", case.spot)

    instances = InstancesPage(ctx)
    qtbot.addWidget(instances)
    qtbot.waitUntil(lambda: any(e.id == entry.id for e in instances.entries), timeout=15000)
    instances.select(entry.id)
    cells = cell_texts(instances.table, instances.table.currentRow())
    assert cells["account"] == name and cells["price"].startswith(case.money), cells
    cost = instances.costs_now().get(entry.id).so_far
    assert cost is not None and cost >= 0
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)

    instances.select(entry.id)
    instances.stop_button.click()
    if case.stop_says:
        qtbot.waitUntil(lambda: "stopped." in instances.status_label.text(), timeout=15000)
        assert case.stop_says in instances.status_label.text()
        qtbot.waitUntil(ctx.runner.settled, timeout=10000)
        instances.select(entry.id)
        confirm = instances.terminate_selected()
    else:  # no stop at this cloud: Stop asks to terminate, and says why
        qtbot.waitUntil(lambda: any(isinstance(d, TerminateConfirmDialog) for d in instances._dialogs),
                        timeout=15000)
        confirm = next(d for d in instances._dialogs if isinstance(d, TerminateConfirmDialog))
    assert isinstance(confirm, TerminateConfirmDialog) and not confirm.ok_button.isEnabled()
    confirm.id_edit.setText(entry.id)
    confirm.ok_button.click()
    qtbot.waitUntil(lambda: "no longer bills" in instances.status_label.text(), timeout=15000)
    assert case.gone(entry.id)
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)

    stored = b"".join(p.read_bytes() for p in labgpu_home.rglob("*") if p.is_file())
    for secret in case.secrets:
        assert secret.encode() not in stored, (cloud, secret[:12])


def test_the_instances_page_shows_every_clouds_instance_together(qtbot, ctx, cases, secret_service):
    """One instance on each cloud, launched with the CLI's service: one page lists them all, each with its
    cloud's name, its own currency's price and a running cost."""
    from app.cloud.launch_plan import LaunchOptions
    from app.core import providers
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage

    svc = cloud_service(ctx)
    launched = {}
    for cloud, case in cases.items():
        svc.accounts.add(Account(f"lab-{cloud}", cloud, case.region, case.endpoint, dict(case.extra)),
                         Credentials(case.key_id, case.secret, case.token))
        if case.live_prices:
            svc.refresh_prices(f"lab-{cloud}")
        launched[cloud] = svc.launch(LaunchOptions(account=f"lab-{cloud}", instance_type=case.instance_type,
                                                   ssh_from=SSH_FROM)).entry.id
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: set(launched.values()) <= {e.id for e in page.entries}, timeout=20000)
    for cloud, iid in launched.items():
        page.select(iid)
        cells = cell_texts(page.table, page.table.currentRow())
        assert cells["zone"].startswith(providers.display_name(cloud)), (cloud, cells)
        assert cells["account"] == f"lab-{cloud}" and cells["price"].startswith(cases[cloud].money), (cloud, cells)
        assert page.costs_now().get(iid).so_far is not None, cloud
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)
