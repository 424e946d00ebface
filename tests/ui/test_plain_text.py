"""Remote text is plain data in the GUI.

A rented host's words (nvidia-smi's error line, a server that talks before the SSH key exchange,
remote file names and ``find``'s stderr) reach labels, dialogs, tooltips and table cells. In Qt's
default AutoText format ``<img src=file:///dev/zero>`` makes Qt read the device until the process
runs out of memory — the app and every guard with it — and ``<a href>`` becomes a live link in
LabGPU's own error dialog. These tests show the literal text instead, with real peers; the cases
that would take Qt down run in a child process under a memory limit, so the old behaviour fails the
test instead of the test run.
"""

from __future__ import annotations

import ast
import json
import os
import resource
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.fixtures import clirun
from tests.fixtures import hostile_host as hh

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "app" / "ui"
CHILD_MEMORY = 3 << 30  # bytes of address space for a child Qt: plenty for a page, not for /dev/zero


# --- the rule, in the source ---------------------------------------------------------------------

def _ui_sources() -> list[Path]:
    return sorted(p for p in UI.rglob("*.py") if p != UI / "shared" / "plain.py")


def _calls(tree: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return f"{_name(func.value)}.{func.attr}"
    return ""


def test_no_label_or_message_box_under_app_ui_takes_qt_s_auto_text_format():
    """Every label is a PlainLabel (or a rich_label whose values pass esc()); no static QMessageBox
    call (they are AutoText); every QMessageBox built by hand is made plain where it is built."""
    bare_labels, statics, boxes = [], [], []
    for path in _ui_sources():
        tree = ast.parse(path.read_text(), str(path))
        rel = path.relative_to(ROOT)
        for call in _calls(tree):
            name = _name(call.func)
            if name == "QLabel":
                bare_labels.append(f"{rel}:{call.lineno}")
            if name in {f"QMessageBox.{m}" for m in ("information", "warning", "critical", "question", "about")}:
                statics.append(f"{rel}:{call.lineno} {name}")
        for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
            names = [_name(c.func) for c in _calls(fn)]
            if "QMessageBox" in names and not any(
                    n.endswith("setTextFormat") or n == "plain_box" for n in names):
                boxes.append(f"{rel}:{fn.lineno} {fn.name}")
    assert not bare_labels, f"bare QLabel (AutoText) built at: {bare_labels}; use PlainLabel or rich_label"
    assert not statics, f"static QMessageBox calls (AutoText): {statics}; use app.ui.shared.plain"
    assert not boxes, f"QMessageBox built without a plain text format in: {boxes}"


def test_the_helpers_cap_escape_and_keep_plain(qtbot):
    from PySide6.QtCore import Qt

    from app.ui.shared.plain import MAX_CHARS, PlainLabel, cap, esc, message_box, plain_tooltip

    long = "x" * (MAX_CHARS * 3)
    assert len(cap(long)) == MAX_CHARS and cap(long).endswith("…") and cap("short") == "short"
    label = PlainLabel()
    qtbot.addWidget(label)
    label.setText(hh.MARKUP + long)
    assert label.textFormat() == Qt.TextFormat.PlainText and len(label.text()) == MAX_CHARS
    label.setTextFormat(Qt.TextFormat.RichText)  # a PlainLabel stays plain
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert esc(hh.PHISH_LINK) == "&lt;a href=&quot;https://evil.example/login&quot;&gt;Sign in again here&lt;/a&gt;"
    tip = plain_tooltip(hh.MARKUP)
    assert "<img" not in tip and "&lt;img src=file:///dev/zero&gt;" in tip
    assert plain_tooltip("ins-7k2q9xw1  (llama)") == "ins-7k2q9xw1  (llama)"  # plain already: unchanged
    box = message_box(None, message_box.__globals__["QMessageBox"].Icon.Warning, "t", hh.MARKUP, hh.PHISH_LINK)
    assert box.textFormat() == Qt.TextFormat.PlainText and box.text() == hh.MARKUP


# --- real peers, in a child process --------------------------------------------------------------

def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))


def _run_child(script: str, timeout: float = 120) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=timeout, preexec_fn=_limit_memory, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, f"the app died (exit {r.returncode}) showing a host's text:\n{r.stderr[-3000:]}"
    return json.loads(r.stdout.strip().splitlines()[-1])


_SHOW = """
    import json, sys, time
    from PySide6.QtWidgets import QApplication, QLabel, QMessageBox
    app = QApplication.instance() or QApplication(sys.argv)

    def wait(pred, timeout=60.0):
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise SystemExit("timed out waiting")
            app.processEvents()
            time.sleep(0.01)

    def shown(widget):
        widget.show()
        wait(widget.isVisible)
        widget.grab()          # lays out and paints: what loads an <img> of a rich-text label
        app.processEvents()
        return [(lab.text(), lab.textFormat().name) for lab in widget.findChildren(QLabel) if lab.text()]
"""


@pytest.mark.usefixtures("private_home")
def test_error_dialog_shows_a_pre_banner_host_s_markup_literally_and_survives():
    """A server that talks before the key exchange: its line is quoted in the handshake error, and the
    app's error dialog shows it as typed — no image read from /dev/zero, no live link."""
    from app.core.hosts import HostRecord, HostStore
    from app.core.paths import default_paths

    with hh.PreBannerServer(hh.MARKUP) as banner:
        HostStore(paths=default_paths()).add(
            HostRecord(name="bann", hostname="127.0.0.1", port=banner.port, user="student", auth="agent"),
            replace_existing=True)
        out = _run_child(_SHOW + """
    from app.core.paths import default_paths
    from app.remote.ssh import open_connection
    from app.ui.errors import ErrorReporter
    reporter = ErrorReporter(None)
    reporter.interactive = False
    try:
        open_connection("bann", default_paths())
    except Exception as exc:
        reporter.report(exc)
    wait(lambda: reporter._open is not None)
    box = reporter._open
    labels = shown(box)
    print(json.dumps({"format": box.textFormat().name, "text": box.text(), "labels": labels}))
""")
    assert out["format"] == "PlainText"
    assert 'Indecipherable protocol version "<img src=file:///dev/zero> <a href="https://evil.example/login">' \
           in out["text"]
    body = [fmt for text, fmt in out["labels"] if "dev/zero" in text]
    assert body == ["PlainText"]


@pytest.mark.usefixtures("private_home")
def test_monitor_page_shows_nvidia_smi_s_markup_literally_and_survives():
    """A real sshd whose nvidia-smi fails with markup in its words: the monitor page's error line reads
    exactly that, in plain text; the window keeps running."""
    from tests.remote.gpu_support import gpu_server

    with gpu_server("evil", {"steps": [hh.hostile_error_step()], "interval_s": 0.05}):
        out = _run_child(_SHOW + """
    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.monitor.page import MonitorPage
    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    page = MonitorPage(ctx)
    page.resize(1200, 800)
    panel = page.watch("evil", remember=False)
    page.rebuild()
    wait(lambda: bool(panel.error_label.text()))
    labels = shown(page)
    print(json.dumps({"error": panel.error_label.text(), "format": panel.error_label.textFormat().name,
                      "labels": labels}))
    page.shutdown() if hasattr(page, "shutdown") else None
    ctx.shutdown(5000)
""")
    assert out["format"] == "PlainText"
    assert out["error"].startswith("nvidia-smi on evil: ")
    assert "NVIDIA-SMI has failed <img src=file:///dev/zero> <a href=\"https://evil.example/login\">" in out["error"]
    hostile = [(t, f) for t, f in out["labels"] if "dev/zero" in t or "evil.example" in t]
    assert hostile and all(f == "PlainText" for _t, f in hostile), hostile


# --- the main pages filled with hostile data -----------------------------------------------------

def _hostile_labels(root):
    """(text, format) of every label under `root` (and open message boxes) that shows the host's text."""
    from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

    found = []
    widgets = list(root.findChildren(QLabel))
    for w in QApplication.topLevelWidgets():
        if isinstance(w, QMessageBox):
            widgets += w.findChildren(QLabel)
    for lab in widgets:
        text = lab.text()
        if any(m in text for m in ("dev/zero", "dev-zero", "evil.example", "52;c;")):
            found.append((text, lab.textFormat().name))
    return found


def test_every_label_of_the_monitor_page_with_host_text_is_plain(qtbot, labgpu_home):
    """The monitor page fed a hostile host's sample (error line, GPU and process names): each label
    that shows the host's words is plain text, and tooltips do not render its markup."""
    from datetime import datetime, timezone

    from app.core.gpumon import GpuReading, HostSample
    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.monitor.page import MonitorPage
    from tests.ui.monitor_data import FeedSource

    # markup that cannot hurt the test process even where it is rendered (no /dev/zero here: that case
    # runs in a child process above)
    error_line = f"NVIDIA-SMI has failed {hh.NAME_IMG} {hh.PHISH_LINK}"
    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    try:
        src = FeedSource()
        page = MonitorPage(ctx, hub=src, autostart=False)
        qtbot.addWidget(page)
        page.resize(1400, 900)
        page.show()
        page.watch(hh.NAME_IMG, remember=False)  # a host name is the student's, but keep it hostile too
        page.rebuild()
        gpu = GpuReading(uuid=f"GPU-{hh.NAME_LINK}", index=0, name=f"A100 {hh.NAME_IMG} {hh.PHISH_LINK}",
                         utilization_gpu=90.0, memory_used_mib=1.0, memory_total_mib=2.0, temperature_c=50.0,
                         power_w=100.0, power_limit_w=400.0, status="ok")
        src.feed(HostSample(host=hh.NAME_IMG, time=datetime.now(timezone.utc), gpus=(gpu,), processes=(),
                            error=error_line))
        panel = page.panels[hh.NAME_IMG]
        qtbot.waitUntil(lambda: bool(panel.error_label.text()), timeout=10000)
        page.redraw()
        page.grab()
        found = _hostile_labels(page)
        assert found, "the host's words are shown somewhere"
        assert all(fmt == "PlainText" for _t, fmt in found), found
        assert error_line in panel.error_label.text()
    finally:
        ctx.shutdown(5000)


@pytest.fixture
def hostile_sync_host():
    """A real sshd of its own (its ``find`` is replaced) saved as the host "evil" the way a student adds it."""
    from tests.fixtures.sshd import SshdServer

    server = SshdServer.start_new()
    try:
        cmd = f"ssh -p {server.port} -i {server.client_key} {server.user}@{server.host}"
        r = clirun.run([sys.executable, "-m", "app", "hosts", "add", "evil", cmd, "--fingerprint",
                            server.host_key_fingerprint], cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env=dict(os.environ), stdin=subprocess.DEVNULL)
        assert r.returncode == 0, r.stderr
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


@pytest.mark.usefixtures("private_home")
def test_sync_page_shows_remote_names_and_find_errors_as_text(qtbot, app_window, hostile_sync_host, tmp_path):
    """Remote files named with markup and a ``find`` that reports markup: the sync page's preview, result
    line and history show them as typed (labels plain text, tooltips escaped)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import Qt as QtGui

    _ctx, window = app_window
    assert window.show_page("sync")
    page = window.pages["sync"]
    remote = hh.hostile_tree(hostile_sync_host, "hostile")
    hh.install_hostile_find(hostile_sync_host)
    local = tmp_path / "down"
    local.mkdir()
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    dlg = page.dialog
    dlg.host_combo.setCurrentText("evil")
    dlg.local_edit.setText(str(local))
    dlg.remote_edit.setText(str(remote))
    dlg.down_radio.setChecked(True)
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)

    qtbot.mouseClick(page.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.task is None, timeout=30_000)
    paths = {page.preview_model.items[i].path for i in range(page.preview_model.rowCount())}
    assert f"ckpt {hh.NAME_IMG}.pt" in paths  # the names arrive exactly as the host has them
    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.task is None, timeout=30_000)
    assert page.state_label.text() == "Done, but incomplete"
    assert f"(find: '{hh.NAME_LINK}" in page.preview_label.text()  # find's words, literally
    page.grab()
    found = _hostile_labels(page)
    assert found and all(fmt == "PlainText" for _t, fmt in found), found
    tips = [page.history_table.item(r, c).toolTip() for r in range(page.history_table.rowCount())
            for c in range(page.history_table.columnCount()) if page.history_table.item(r, c)]
    shown_tips = [t for t in tips if "evil.example" in t]
    assert shown_tips, tips
    for tip in shown_tips:  # Qt renders a tooltip that looks like markup: the host's must not be markup
        assert not QtGui.mightBeRichText(tip) or "<a href" not in tip, tip


def test_a_launched_instance_s_tooltip_on_the_hosts_page_is_plain_text(app_window):
    """The Hosts page's tooltip of a launched instance names its id and login user, which come from the
    cloud (the instance's tags): markup there is shown as typed, never rendered (Qt renders a tooltip as
    rich text when Qt.mightBeRichText says so; then it must be escaped)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import Qt as QtGui

    from app.core.hosts import HostRecord

    _ctx, window = app_window
    model = window.pages["hosts"].model
    evil = '<img src="file:///dev/zero"><a href="https://evil.example/">login</a>'
    for user in (evil, evil + "\n" + evil):
        model.beginResetModel()
        model.rows = [(HostRecord(name="i-0123456789abcdef0", hostname="203.0.113.9", user=user,
                                  instance_id="i-0123456789abcdef0", provider="aws"), "instance", "")]
        model.endResetModel()
        tip = model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
        assert "i-0123456789abcdef0" in tip
        if QtGui.mightBeRichText(tip):
            assert "<img" not in tip and "&lt;img" in tip  # escaped: the characters shown, nothing loaded
        else:
            assert evil in tip  # shown as typed
