"""The Hosts page's "Recent logins" dialog over a real OpenSSH sshd that writes its own log (-E FILE), with
real logins from two loopback addresses (LabGPU's own from 127.0.0.1, a stranger's from 127.0.0.2 with
OpenSSH ``ssh -b``), and Settings → SSH logins kept across a restart."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import datetime, timezone

import pytest
from PySide6.QtCore import Qt

from app.core.hosts import HostRecord, HostStore
from app.core.loginstore import LoginSettings, LoginStore
from app.core.paths import default_paths
from app.core.settings import write_section
from app.usecases import logins as usecase
from tests.fixtures.sshd import SshdServer
from tests.remote.gpu_support import gpu_server
from tests.remote.test_logins import openssh, wrong_password

HOST = "box"


@pytest.fixture
def ctx(qtbot, labgpu_home):
    from app.ui.context import AppContext

    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    # no unusual hours: the stranger's login is unusual for its address alone, whatever the hour of the run
    write_section(c.settings, ["logins"], LoginSettings(unusual_from=0, unusual_to=0))
    c.save_settings()
    yield c
    c.shutdown(5000)


@pytest.fixture
def server() -> Iterator[SshdServer]:
    with gpu_server(HOST, None) as (srv, _none):  # a fresh sshd saved as HOST, no nvidia-smi
        yield srv


def _read(qtbot, dlg) -> None:
    """Refresh and wait until the dialog has shown the outcome."""
    dlg.refresh()
    qtbot.waitUntil(lambda: dlg.task is not None and dlg.task.is_done and dlg.refresh_button.isEnabled(),
                    timeout=60_000)


def _rows(dlg) -> list[list[str]]:
    t = dlg.table
    return [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]


def _show_all(dlg) -> None:
    dlg.filter_combo.setCurrentIndex(dlg.filter_combo.findData("all"))


def test_the_hosts_page_opens_the_logins_of_a_real_host_own_and_unusual(qtbot, ctx, server):
    from app.ui.remote.hosts_page import HostsPage
    from app.ui.remote.logins_dialog import COLUMNS, LoginsDialog

    usecase.set_log_path(ctx.store, HOST, str(server.log_file))
    page = HostsPage(ctx)
    qtbot.addWidget(page)
    page.show()
    page.select(HOST)
    assert page.logins_button.isEnabled()
    page.logins_button.click()
    dlg = page.findChild(LoginsDialog)
    assert dlg is not None and dlg.host == HOST and HOST in dlg.windowTitle()
    qtbot.waitUntil(lambda: dlg.task is not None and dlg.task.is_done and dlg.refresh_button.isEnabled(),
                    timeout=60_000)
    assert dlg.error_label.isHidden(), dlg.error_label.text()
    own = [r for r in _rows(dlg) if r[3] == "127.0.0.1" and r[5] == "LabGPU"]
    assert own, _rows(dlg)

    assert openssh(server, "127.0.0.2") == 0  # a stranger's login: another address, the same key
    for _ in range(3):
        wrong_password(server, "127.0.0.2")
    _read(qtbot, dlg)
    rows = _rows(dlg)
    assert len(rows[0]) == COLUMNS
    theirs = [(r, row) for r, row in enumerate(rows) if row[3] == "127.0.0.2"]
    assert len(theirs) == 1, rows  # accepted only: the failed ones are not listed by default
    r, row = theirs[0]
    assert row[4] == "accepted" and row[5].startswith("Unusual: ") and "new address" in row[5]
    tip = dlg.table.item(r, 0).toolTip()
    assert "an address LabGPU has never connected from" in tip and "127.0.0.2" in tip
    assert dlg.table.item(r, 5).foreground().color() != dlg.table.item(r, 5).background().color()
    assert all(row[4] == "accepted" for row in rows)
    assert dlg.advice_label.isVisible() and "Unusual logins: 1." in dlg.advice_label.text()
    times = [datetime.strptime(row[0], "%Y-%m-%d %H:%M:%S") for row in rows if row[0] != "unknown"]
    assert times == sorted(times, reverse=True)  # newest first

    summary = dlg.summary_label.text()  # the failed ones summed up above the table
    assert "failed logins from 1 addresses; most from 127.0.0.2 (" in summary, summary
    assert int(summary.split()[0]) >= 3
    _show_all(dlg)
    failed = [row for row in _rows(dlg) if row[4] == "failed"]
    assert failed and all(row[3] == "127.0.0.2" and row[2] == "password" for row in failed), failed
    page.shutdown()


def test_an_unreachable_host_says_why_and_what_to_do_and_keeps_the_window(qtbot, ctx):
    from app.ui.remote.logins_dialog import LoginsDialog

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    HostStore(paths=default_paths()).add(HostRecord(name="gone", hostname="127.0.0.1", port=port, user="me"),
                                         replace_existing=True)
    LoginStore(ctx.store).add("gone", [{"time": datetime.now(timezone.utc), "user": "me", "method": "publickey",
                                        "source": "192.0.2.9", "port": 4000, "accepted": True}])
    dlg = LoginsDialog(ctx, "gone")
    qtbot.addWidget(dlg)
    dlg.show()
    assert [r[3] for r in _rows(dlg)] == ["192.0.2.9"]  # what was read before, at once
    _read(qtbot, dlg)
    assert dlg.error_label.isVisible()
    lines = dlg.error_label.text().splitlines()
    assert len(lines) >= 2 and all(x.strip() for x in lines[:2]), lines  # the error, then its next step
    assert dlg.isVisible() and [r[3] for r in _rows(dlg)] == ["192.0.2.9"]
    assert dlg.refresh_button.isEnabled() and dlg.busy.isHidden()
    first = dlg.task
    qtbot.keyClick(dlg, Qt.Key.Key_F5)  # F5 tries again
    qtbot.waitUntil(lambda: dlg.task is not first and dlg.task.is_done and dlg.refresh_button.isEnabled(),
                    timeout=60_000)
    assert dlg.error_label.isVisible() and dlg.isVisible()


def test_addresses_and_times_are_never_elided_in_the_narrowest_dialog(qtbot, ctx):
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QStyle

    from app.ui.remote.logins_dialog import LoginsDialog

    long_v6 = "2001:db8:85a3:1234:5678:8a2e:370:7334"
    LoginStore(ctx.store).add(HOST, [
        {"time": datetime.now(timezone.utc), "user": "a-very-long-user-name-" * 3, "method": "keyboard-interactive",
         "source": long_v6, "port": 4000, "accepted": True, "unusual": True,
         "why": ("unknown-source", "unusual-hour", "unknown-user", "unknown-key")}])
    dlg = LoginsDialog(ctx, HOST)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.resize(dlg.minimumSize())
    qtbot.waitUntil(lambda: dlg.table.viewport().width() < 820)
    table = dlg.table
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    fm = QFontMetrics(table.font())
    for col in (0, 3, 4):  # time, source, result
        room = table.columnWidth(col) - 2 * margin - 1
        assert fm.horizontalAdvance(table.item(0, col).text()) <= room, (col, table.item(0, col).text())
    assert long_v6 in table.item(0, 3).text()
    user = table.item(0, 1).text()
    assert user.startswith("a-very-long-user-name-") and user in table.item(0, 1).toolTip()  # whole here


def test_hostile_text_from_the_host_is_shown_literally(qtbot, ctx, server):
    from app.ui.remote.logins_dialog import LoginsDialog

    html_user = "<b>x<i>&amp;"  # (sshd itself cuts a user name at "/": "<b>x</b>" is logged as "<b>x<")
    wrong_password(server, "127.0.0.2", user=html_user)  # (OpenSSH's client refuses such a name itself)
    hostile = "<img src=file:///dev/zero>\x1b[31mroot\x07"
    LoginStore(ctx.store).add(HOST, [{"time": datetime.now(timezone.utc), "user": hostile, "method": "publickey",
                                      "source": "198.51.100.66", "port": 5000, "accepted": True, "unusual": True,
                                      "why": ("unknown-source", "unknown-user")}])
    dlg = LoginsDialog(ctx, HOST)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.path_edit.setText("sshd.log")  # the host's own sshd log, given in the dialog: an absolute path only
    dlg.path_button.click()
    assert dlg.path_error.isVisible() and "sshd.log" in dlg.path_error.text() and dlg.task is None
    dlg.path_edit.setText(str(server.log_file))
    dlg.path_button.click()  # kept for the host, and read at once
    assert dlg.path_error.isHidden() and LoginStore(ctx.store).state(HOST).user_path == str(server.log_file)
    qtbot.waitUntil(lambda: dlg.task is not None and dlg.task.is_done and dlg.refresh_button.isEnabled(),
                    timeout=60_000)
    _show_all(dlg)
    rows = _rows(dlg)
    users = [row[1] for row in rows]
    assert html_user in users, rows  # the real sshd's words, as typed
    shown = next(row for row in rows if row[3] == "198.51.100.66")
    assert shown[1] == "<img src=file:///dev/zero>?[31mroot?"  # control characters visible, markup as text
    r_ = next(i for i, row in enumerate(rows) if row[3] == "198.51.100.66")
    tip = dlg.table.item(r_, 1).toolTip()
    assert "&lt;img" in tip and "<img" not in tip  # escaped inside the tooltip's own wrapper
    assert "as a user LabGPU did not set up" in tip


def test_settings_logins_are_kept_and_a_bad_network_is_named(qtbot, ctx):
    from app.ui.context import AppContext
    from app.ui.remote.logins_settings import LoginsSection

    section = LoginsSection(ctx)
    qtbot.addWidget(section)
    section.show()
    section.from_spin.setValue(22)
    section.to_spin.setValue(5)
    section.threshold_spin.setValue(7)
    section.threshold_spin.editingFinished.emit()
    section.watch_check.setChecked(False)
    section.networks_edit.setText("10.9.0.0/16, campus-net, 300.1.2.3/8 192.0.2.7")
    section.networks_edit.editingFinished.emit()
    assert section.networks_error.isVisible()
    said = section.networks_error.text()
    assert "campus-net" in said and "300.1.2.3/8" in said and "10.9.0.0/16" not in said
    assert "22:00 to 05:00" in section.hours_note.text()

    again = AppContext(default_paths(), "en")  # a restart: read from the file
    try:
        reopened = LoginsSection(again)
        qtbot.addWidget(reopened)
        assert (reopened.from_spin.value(), reopened.to_spin.value()) == (22, 5)
        assert reopened.threshold_spin.value() == 7 and not reopened.watch_check.isChecked()
        assert reopened.networks_edit.text() == "10.9.0.0/16, 192.0.2.7/32"
        s = usecase.settings_of(default_paths())
        assert s.hours() == (22, 5) and [str(n) for n in s.networks()] == ["10.9.0.0/16", "192.0.2.7/32"]
        reopened.from_spin.setValue(5)  # from == to: off, and said so
        assert usecase.settings_of(default_paths()).hours() is None
        assert "Off" in reopened.hours_note.text()
    finally:
        again.shutdown(5000)


def test_what_could_not_be_read_is_said_in_a_plain_note(qtbot, ctx, server):
    from app.ui.remote.logins_dialog import LoginsDialog

    log = server.workdir / "private.log"
    log.write_text("")
    log.chmod(0o600)  # root's: the server's user cannot read it, and sudo is not there for it
    usecase.set_log_path(ctx.store, HOST, str(log))
    dlg = LoginsDialog(ctx, HOST)
    qtbot.addWidget(dlg)
    dlg.show()
    _read(qtbot, dlg)
    if dlg.error_label.isVisible():  # nothing at all could be read here (no journal, no wtmp): said as an error
        assert "No login record" in dlg.error_label.text(), dlg.error_label.text()
        return
    assert dlg.notes_label.isVisible()
    assert str(log) in dlg.notes_label.text() and "not readable" in dlg.notes_label.text()
    assert dlg.notes_label.textFormat() == Qt.TextFormat.PlainText
