"""One host list: the Monitor page, the Sync page, the Hosts page and `labgpu hosts list --json` name the
same SSH targets for the same store (saved hosts, then running launched instances)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.vocab import InstanceState
from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")


def _fill_store() -> list[str]:
    """Two saved hosts, a running instance with an address, a stopped one, and a running one without an
    address; returns the names a user should see."""
    from app.cloud.base import Instance
    from app.core.hosts import HostRecord, HostStore
    from app.core.instances import Ledger
    from app.core.paths import default_paths
    from app.core.store import Store

    store = Store(paths=default_paths())
    Ledger(store)
    store.migrate()
    hs = HostStore(store=store)
    hs.add(HostRecord(name="lab-a100", hostname="10.0.0.7", user="ana"))
    hs.add(HostRecord(name="box", hostname="box.example.org", port=2222))
    ledger = Ledger(store)

    def inst(iid: str, state: InstanceState, ip: str) -> Instance:
        return Instance(id=iid, account="lab", provider="aws", region="us-east-1", zone="us-east-1a",
                        instance_type="g5.xlarge", state=state, spot=False, public_ip=ip)

    ledger.observe(inst("i-0aaa000000000001", InstanceState.RUNNING, "203.0.113.5"))
    ledger.observe(inst("i-0bbb000000000002", InstanceState.STOPPED, "203.0.113.6"))
    ledger.observe(inst("i-0ccc000000000003", InstanceState.RUNNING, ""))
    return ["box", "lab-a100", "i-0aaa000000000001"]


def _cli_names() -> list[str]:
    r = clirun.run([sys.executable, "-m", "app", "hosts", "list", "--json"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60, env=dict(os.environ), stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert {row["name"]: row["source"] for row in rows}["i-0aaa000000000001"] == "instance"
    return [row["name"] for row in rows]


def test_monitor_sync_hosts_page_and_cli_list_the_same_hosts(app_window):
    from app.ui.monitor.hub_link import list_hosts
    from app.ui.remote.hosts_service import HostConnectionService

    ctx, window = app_window
    expected = _fill_store()

    monitor = list_hosts(ctx.paths)
    assert [n for n, _kind in monitor] == expected
    assert dict(monitor)["i-0aaa000000000001"] == "instance"  # the guards may stop it; "box" they may not

    assert window.show_page("sync")
    assert window.pages["sync"].host_names() == expected

    hosts_page = [rec.name for rec, _src in HostConnectionService.of(ctx).hosts()]
    assert hosts_page == expected

    assert _cli_names() == expected


def test_a_saved_host_named_like_an_instance_is_listed_once_as_saved():
    from app.core.hosts import HostRecord, HostStore
    from app.usecases.hosts import HostSource, all_hosts

    _fill_store()
    HostStore().add(HostRecord(name="i-0aaa000000000001", hostname="192.0.2.1", user="me"))
    entries = all_hosts()
    named = [(e.name, e.source) for e in entries if e.name == "i-0aaa000000000001"]
    assert named == [("i-0aaa000000000001", HostSource.SAVED)]
    assert next(e.record.hostname for e in entries if e.name == "i-0aaa000000000001") == "192.0.2.1"


def test_host_changes_are_announced_on_the_bus():
    from app.core.hosts import HostRecord, HostStore
    from app.usecases.changes import Change, Changes
    from app.usecases.hosts import all_hosts, remove_host

    _fill_store()
    bus = Changes()
    seen: list[frozenset[Change]] = []
    bus.subscribe(seen.append)
    hs = HostStore()
    hs.add(HostRecord(name="gone-soon", hostname="192.0.2.9"))
    remove_host("gone-soon", hs, changes=bus)
    assert seen == [frozenset({Change.HOSTS})]
    assert "gone-soon" not in [e.name for e in all_hosts()]


def test_the_hosts_and_monitor_pages_show_a_host_another_view_removed_or_launched(app_window, qtbot):
    from app.core.hosts import HostStore
    from app.usecases.changes import Change
    from app.usecases.hosts import remove_host

    ctx, window = app_window
    _fill_store()
    assert window.show_page("hosts")
    hosts_page = window.pages["hosts"]
    hosts_page.refresh()
    assert window.show_page("monitor")
    monitor = window.pages["monitor"]
    qtbot.waitUntil(lambda: "box" in dict(monitor.available), timeout=10000)

    remove_host("box", HostStore(store=ctx.store), changes=ctx.changes)  # e.g. from the sync page's dialog
    qtbot.waitUntil(lambda: "box" not in [r[0].name for r in hosts_page.model.rows], timeout=10000)
    qtbot.waitUntil(lambda: "box" not in dict(monitor.available), timeout=10000)

    from app.cloud.base import Instance
    from app.core.instances import Ledger

    Ledger(ctx.store).observe(Instance(id="i-0ddd000000000004", account="lab", provider="aws", region="us-east-1",
                                       zone="us-east-1a", instance_type="g5.xlarge", state=InstanceState.RUNNING,
                                       spot=False, public_ip="203.0.113.8"))
    ctx.changes.emit(Change.LEDGER)  # what a launch says when it is done
    qtbot.waitUntil(lambda: "i-0ddd000000000004" in [r[0].name for r in hosts_page.model.rows], timeout=10000)
    qtbot.waitUntil(lambda: dict(monitor.available).get("i-0ddd000000000004") == "instance", timeout=10000)
