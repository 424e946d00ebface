"""The Add-host dialog keeps what was pasted: a mistyped command is named inline ("must start with
ssh", with an example, in both languages), and a host that cannot be reached leaves the dialog open
with the command still in it and the connection's error shown inside it, as plain text, with the
next step. Pasted through the clipboard, as a student does."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from app.core.errors import InputError
from app.core.sshcmd import parse_ssh_command

pytestmark = pytest.mark.usefixtures("private_home")

MISTYPED = ["sssh user@host", "rm -rf /", "scp notes.txt user@host:/tmp", "", "-p 22 user@host", "notes.txt:"]


@pytest.mark.parametrize("text", MISTYPED)
def test_a_command_that_is_not_ssh_says_it_must_start_with_ssh(text):
    with pytest.raises(InputError) as ei:
        parse_ssh_command(text)
    assert "the command must start with ssh" in ei.value.text()
    assert 'e.g. "ssh -p 12345 root@region-1.example.com"' in ei.value.hint()


@pytest.mark.parametrize(("text", "user", "host"), [("root@gpu1.example.com", "root", "gpu1.example.com"),
                                                  ("gpubox", "", "gpubox")])
def test_a_lone_destination_reads_as_ssh_would_take_it(text, user, host):
    # "labgpu hosts add box gpubox" with gpubox in ~/.ssh/config, or a pasted "root@host"
    target = parse_ssh_command(text)
    assert (target.user, target.host) == (user, host)


def _paste(qtbot, edit, text: str) -> None:
    QGuiApplication.clipboard().setText(text)
    edit.setFocus()
    qtbot.keyClick(edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def _shot(widget, name: str) -> None:
    """Screenshots for a person to look at, when LABGPU_SHOTS_DIR names a folder."""
    folder = os.environ.get("LABGPU_SHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(folder) / f"{name}.png"))


@pytest.mark.parametrize(("language", "words"), [("en", "the command must start with ssh"),
                                                 ("zh_CN", "必须以 ssh 开头")])
def test_the_dialog_names_a_mistyped_command_inline(qtbot, language, words):
    from app.ui import i18n as ui_i18n
    from app.ui.remote.hosts_add_dialog import AddHostDialog

    ui_i18n.install(QApplication.instance(), language)
    dlg = AddHostDialog(set(), [])
    qtbot.addWidget(dlg)
    dlg.show()
    _paste(qtbot, dlg.command_edit, "sssh x@y")
    assert dlg.command_edit.text() == "sssh x@y"
    assert words in dlg.parsed_label.text(), dlg.parsed_label.text()
    assert "ssh -p 12345 root@region-1.example.com" in dlg.parsed_label.text()  # the example
    assert dlg.parsed_label.textFormat() == Qt.TextFormat.PlainText
    assert not dlg.ok_button.isEnabled()
    _shot(dlg, f"add-host-mistyped-{language}")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens once the block ends


@pytest.mark.parametrize(("language", "words"), [("en", "Cannot reach"), ("zh_CN", "无法连接")])
def test_an_unreachable_host_keeps_the_dialog_and_the_command(app_window, qtbot, language, words):
    from app.ui import i18n as ui_i18n

    ctx, window = app_window
    if language != "en":
        from tests.ui.test_layout_polish import switch_language

        switch_language(window, qtbot, language)
    assert window.show_page("hosts")
    page = window.pages["hosts"]
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    dlg = page.add_dialog
    assert dlg is not None and dlg.isVisible()
    command = f"ssh -p {_closed_port()} student@127.0.0.1"
    _paste(qtbot, dlg.command_edit, command)
    assert dlg.ok_button.isEnabled(), dlg.parsed_label.text()
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.error_label.isVisible(), timeout=15000)
    assert dlg.isVisible()  # the dialog stays: nothing pasted is lost
    assert dlg.command_edit.text() == command
    assert dlg.command_edit.isEnabled() and dlg.ok_button.isEnabled()  # it can be fixed and tried again
    text = dlg.error_label.text()
    assert words in text and "127.0.0.1" in text, text
    assert "\n" in text  # the next step on its own line
    assert dlg.error_label.textFormat() == Qt.TextFormat.PlainText
    assert ctx.errors.seen() == set()  # no message box on top of it
    assert page.model.row_of(dlg.name_edit.text()) < 0  # not saved
    _shot(dlg, f"add-host-unreachable-{language}")

    # a name that does not resolve: its own message, and still the same dialog
    dlg.command_edit.clear()
    _paste(qtbot, dlg.command_edit, "ssh root@gpu.nosuch.invalid")
    assert not dlg.error_label.isVisible()  # the old error went with the old command
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.error_label.isVisible(), timeout=15000)
    assert "gpu.nosuch.invalid" in dlg.error_label.text()
    assert dlg.isVisible() and dlg.command_edit.text() == "ssh root@gpu.nosuch.invalid"
    dlg.reject()
    qtbot.waitUntil(ctx.runner.settled, timeout=5000)
    ui_i18n.install(QApplication.instance(), "en")
