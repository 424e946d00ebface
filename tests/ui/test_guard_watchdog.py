"""The guard editor's watchdog box against a real sshd: checked and saved, the watchdog runs on the host
(read back with ``watchdog.status``) and the Guards column says so; a host that refuses it (sudo wants a
password) leaves the guard saved without it, the box off and the reason on screen. The CLI and the
dialog start a new guard from the same settings."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from app.remote import watchdog
from app.remote.ssh import open_connection
from tests.fixtures import clirun
from tests.fixtures.fake_nvidia_smi import busy
from tests.remote.gpu_support import gpu_server
from tests.remote.test_watchdog_cases import FAKE_SUDO_PASSWORD, _fakes, _fresh_watchdog_files  # noqa: F401

pytestmark = pytest.mark.usefixtures("private_home", "_fresh_watchdog_files")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ctx(qtbot, labgpu_home):
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


def _instance(ctx, iid: str, currency: str = "CNY") -> None:
    """A running instance in the ledger (no public address: the saved host of the same name reaches it)."""
    from app.core.instances import Ledger
    from app.core.models import Instance

    Ledger(ctx.store).observe(Instance(iid, "lab-tc", "tencent", "ap-guangzhou", "ap-guangzhou-3", "GN7.2XLARGE32",
                                       "running", False, raw_state="RUNNING"), price_per_hour=8.0, currency=currency)


def _page(qtbot, ctx, iid: str):
    from app.ui.cloud.instances_page import InstancesPage

    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    page.reconcile_timer.stop()
    qtbot.waitUntil(lambda: any(e.id == iid for e in page.entries), timeout=15000)
    page.select(iid)
    return page


def _guards_cell(page, iid: str) -> str:
    from app.ui.cloud.instances_page import COLUMNS

    col = COLUMNS.index("guards")
    row = next(r for r in range(page.table.rowCount()) if page.table.item(r, 0).text().startswith(iid))
    return page.table.item(row, col).text()


def _save_with_watchdog(qtbot, page, minutes: float):
    from PySide6.QtWidgets import QDialogButtonBox

    dialog = page.edit_guards()
    steps: list[str] = []
    shown = dialog._show_progress
    dialog._show_progress = lambda text: (steps.append(str(text)), shown(text))
    ed = dialog.editor
    ed.setChecked(True)
    ed.idle_minutes.setValue(minutes)
    ed.watchdog.setChecked(True)
    with qtbot.waitSignal(dialog.saved, timeout=90000) as sig:
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    return dialog, sig.args[1], steps


def test_the_watchdog_box_installs_it_on_the_host(qtbot, ctx):
    from app.core.guards import GuardStore

    iid = "ins-wdgui1"
    with gpu_server(iid, {"steps": [busy(2)]}) as (server, _fake):
        _fakes(server)
        _instance(ctx, iid)
        page = _page(qtbot, ctx, iid)
        dialog, stored, steps = _save_with_watchdog(qtbot, page, 30)
        conn = open_connection(iid)
        try:
            assert stored is not None and stored.watchdog is True
            assert any(f"Installing the watchdog on {iid}" in s for s in steps)
            st = watchdog.status(conn)
            assert st.running and st.configured
            assert st.conf["window"] == 1800 and st.conf["below"] == 30
            assert GuardStore(ctx.store).get(iid).watchdog is True
            assert watchdog.WatchdogBook.default().get(iid)["state"] == "running"  # type: ignore[index]
            qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
            qtbot.waitUntil(lambda: "watchdog" in _guards_cell(page, iid), timeout=10000)
            # guards switched off in the dialog: the watchdog goes with them
            again = page.edit_guards()
            again.editor.setChecked(False)
            with qtbot.waitSignal(again.saved, timeout=60000) as sig:
                again.save()
            assert sig.args[1] is None and GuardStore(ctx.store).get(iid) is None
            st = watchdog.status(conn)
            assert not st.running and not st.configured
            assert watchdog.WatchdogBook.default().get(iid) is None
        finally:
            watchdog.remove(conn)
            conn.close()


def test_a_refused_watchdog_is_saved_off_with_its_reason(qtbot, ctx):
    from app.core.guards import GuardStore

    iid = "ins-wdgui2"
    with gpu_server(iid, {"steps": [busy(2)]}) as (server, _fake):
        _fakes(server, sudo=FAKE_SUDO_PASSWORD)
        _instance(ctx, iid)
        page = _page(qtbot, ctx, iid)
        dialog, stored, _steps = _save_with_watchdog(qtbot, page, 20)
        conn = open_connection(iid)
        try:
            assert stored is not None and stored.watchdog is False
            saved = GuardStore(ctx.store).get(iid)
            assert saved is not None and saved.watchdog is False and saved.idle_minutes == 20
            st = watchdog.status(conn)
            assert not st.running and not st.configured
            error = dialog.editor.error_label.text()
            assert dialog.isVisible() and dialog.editor.error_label.isVisible()
            assert "the watchdog is not installed" in error and "a password is required" in error
            assert "NOPASSWD" in error  # what to do about it
            assert not dialog.editor.watchdog.isChecked()
            qtbot.waitUntil(lambda: "idle <30% 20 min" in _guards_cell(page, iid), timeout=10000)
            assert "watchdog" not in _guards_cell(page, iid)
        finally:
            watchdog.remove(conn)
            conn.close()
            dialog.reject()


def test_cli_and_dialog_start_a_new_guard_from_the_same_settings(qtbot, ctx):
    from app.core.guards import GuardStore
    from app.ui.shared.guards_ui import EditGuardsDialog

    ctx.settings.guard_idle_below_pct = 22.0
    ctx.settings.guard_idle_minutes = 17.0
    ctx.settings.guard_on_idle = "stop"
    ctx.settings.display_currency = "CNY"
    ctx.save_settings()
    iid = "i-0defaults"
    _instance(ctx, iid, currency="USD")  # billed in USD: the budget is too, in both
    dialog = EditGuardsDialog(ctx, iid, None, True)
    qtbot.addWidget(dialog)
    shown = dialog.editor.config()
    r = clirun.run([sys.executable, "-m", "app", "guard", "set", iid], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    saved = GuardStore(ctx.store).get(iid)
    assert saved is not None
    assert (shown.idle_below_pct, shown.idle_minutes, shown.on_idle, shown.currency) == (22, 17, "stop", "USD")
    assert saved == shown
