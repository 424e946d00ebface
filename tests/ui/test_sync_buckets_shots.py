"""Screenshots of the Sync page with bucket pairs, the bucket browser and the pair dialog, in English and
Chinese at 1280×800 and 1024×640, made against the strict S3 peer (a COS bucket in ap-guangzhou, a running
instance in ap-shanghai, so the egress warning shows).

It always runs (a bucket pair synced and the page, dialog and browser drawn in both languages at both
sizes); the images go to a temporary folder unless LABGPU_SHOTS_DIR names one, then to
<dir>/<lang>/<name>-<W>x<H>.png (the user guide's docs/images/<lang>/sync-buckets.png and bucket-browser.png):

    LABGPU_SHOTS_DIR=/tmp/shots .venv/bin/pytest -q tests/ui/test_sync_buckets_shots.py

(the Chinese shots show the storage strings in Chinese once packaging/i18n.py has compiled them).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

SHOTS = os.environ.get("LABGPU_SHOTS_DIR", "")
SIZES = ((1280, 800), (1024, 640))
BUCKET = "data-1250000000"

pytestmark = [pytest.mark.usefixtures("private_home")]


def _settle(qtbot, ctx, window):
    qtbot.waitUntil(lambda: ctx.runner.settled(), timeout=60_000)
    for _ in range(3):
        qtbot.wait(30)
    window.repaint()


def _over(window, *dialogs):
    """The window with its dialogs drawn over it, each centred under a plain title bar with a border
    (offscreen Qt draws no window frames), as a student sees them."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QColor, QPainter

    shot = window.grab()
    painter = QPainter(shot)
    bar = 26
    for dlg in dialogs:
        image = dlg.grab()
        x = (shot.width() - image.width()) // 2
        y = max(0, (shot.height() - image.height() - bar) // 2)
        painter.fillRect(QRect(x - 1, y, image.width() + 2, bar), QColor("#d6d6d6"))
        painter.setPen(QColor("#202020"))
        painter.drawText(QRect(x + 10, y, image.width() - 20, bar), int(Qt.AlignmentFlag.AlignVCenter),
                         dlg.windowTitle())
        painter.drawPixmap(x, y + bar, image)
        painter.setPen(QColor("#6b6b6b"))
        painter.drawRect(QRect(x - 1, y, image.width() + 1, image.height() + bar))
    painter.end()
    return shot


def _seed(ctx, s3_peer, root: Path):
    from app.core.accounts import AccountBook
    from app.core.cryptkeys import CryptKeys
    from app.core.instances import Ledger
    from app.core.syncmodel import DOWN
    from app.core.syncpairs import SyncPair, SyncStore
    from tests.fixtures.observed import Observed

    account, creds = s3_peer.account("lab-cos", "cos", "ap-guangzhou")
    AccountBook(ctx.store).add(account, creds)
    s3_peer.make_bucket("cos", BUCKET, "ap-guangzhou")
    s3_peer.make_bucket("cos", "results-1250000000", "ap-guangzhou")
    for name, size in (("imagenet/train/part-000.tar", 3 << 20), ("imagenet/train/part-001.tar", 3 << 20),
                       ("imagenet/val/part-000.tar", 1 << 20), ("imagenet/labels.csv", 48_000),
                       ("checkpoints/epoch-12.pt", 2 << 20)):
        s3_peer.put("cos", BUCKET, name, os.urandom(1024) * (size // 1024))
    Ledger(ctx.store).observe(Observed("ins-sh1", zone="ap-shanghai-2", region="ap-shanghai",
                                       public_ip="203.0.113.9"))
    CryptKeys(store=ctx.store).create("thesis")
    (root / "imagenet").mkdir()
    (root / "imagenet" / "README.md").write_text("ImageNet subset for the course project\n")
    (root / "checkpoints").mkdir()
    store = SyncStore(store=ctx.store)
    store.save(SyncPair("gpu1", str(root / "code"), "~/thesis/code"))
    store.save(SyncPair("", str(root / "imagenet"), f"cos://{BUCKET}/imagenet", account="lab-cos"))
    store.save(SyncPair("", str(root / "checkpoints"), f"cos://{BUCKET}/checkpoints", direction=DOWN,
                        account="lab-cos", encrypt_key="thesis", verify=True))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_shots(qtbot, labgpu_home, secret_service, s3_peer, lang, tmp_path):
    from app.ui.app import build_main_window

    out = Path(SHOTS or tmp_path) / lang
    out.mkdir(parents=True, exist_ok=True)
    _app, ctx, window = build_main_window(lang)
    ctx.errors.interactive = False
    qtbot.addWidget(window)
    root = Path(tempfile.mkdtemp(prefix="lab-"))
    try:
        _seed(ctx, s3_peer, root)
        window.resize(*SIZES[0])
        window.show()
        assert window.show_page("sync")
        page = window.pages["sync"]
        page.pairs_table.selectRow(1)
        qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)  # a run in the history
        qtbot.waitUntil(lambda: page.task is None, timeout=60_000)
        assert page.history_table.item(0, 5).text() in ("OK", "成功"), page.history_table.item(0, 6).text()
        _settle(qtbot, ctx, window)
        assert not page.buckets.busy()
        for w, h in SIZES:
            window.resize(w, h)
            _settle(qtbot, ctx, window)
            assert window.grab().save(str(out / f"sync-buckets-{w}x{h}.png"), "PNG")

        page.pairs_table.selectRow(2)  # the encrypted download: its dialog, then the browser
        qtbot.mouseClick(page.edit_button, Qt.MouseButton.LeftButton)
        dlg = page.dialog
        assert dlg is not None
        for w, h in SIZES:
            window.resize(w, h)
            _settle(qtbot, ctx, window)
            assert _over(window, dlg).save(str(out / f"pair-dialog-bucket-{w}x{h}.png"), "PNG")
        dlg.url_edit.setText(f"cos://{BUCKET}/imagenet")
        qtbot.mouseClick(dlg.url_browse, Qt.MouseButton.LeftButton)
        browser = dlg.browser
        assert browser is not None
        for w, h in SIZES:
            window.resize(w, h)
            _settle(qtbot, ctx, window)
            assert browser.usage_task is None and not browser.error_label.isVisible(), browser.error_label.text()
            assert _over(window, dlg, browser).save(str(out / f"bucket-browser-{w}x{h}.png"), "PNG")
        browser.reject()
        dlg.reject()
    finally:
        ctx.shutdown(5000)
        for p in sorted(root.rglob("*"), reverse=True):
            p.rmdir() if p.is_dir() else p.unlink()
        root.rmdir()
