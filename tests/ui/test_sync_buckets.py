"""The Sync page with a bucket, driven like a student (pytest-qt) against the strict S3 peer
(tests/fixtures/s3_peer.py: moto behind a SigV4-checking proxy) and the real Secret Service: a bucket
pair added through the dialog with Browse buckets…, the browser listing the peer's buckets and a
folder, the pair synced, and the list showing the location's size and its monthly storage cost; a bad
location shows its error under the field; no account of the location's cloud shows the next step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.core.accounts import AccountBook
from app.core.store import Store

pytestmark = pytest.mark.usefixtures("private_home")

BUCKET = "lab-data"


@pytest.fixture
def s3_account(secret_service, s3_peer):
    """An AWS account whose requests reach the peer (virtual-hosted names through its proxy)."""
    account, creds = s3_peer.account("lab-s3", "s3", "us-east-1")
    store = Store()
    try:
        AccountBook(store).add(account, creds)
    finally:
        store.close()
    s3_peer.make_bucket("s3", BUCKET, "us-east-1")
    s3_peer.make_bucket("s3", "lab-other", "us-east-1")
    s3_peer.put("s3", BUCKET, "datasets/mnist/train.bin", b"m" * 3000)
    s3_peer.put("s3", BUCKET, "datasets/readme.txt", b"hello")
    s3_peer.put("s3", BUCKET, "top.txt", b"t")
    return account


def _page(app_window):
    _ctx, window = app_window
    assert window.show_page("sync")
    return window.pages["sync"]


def _open_dialog(qtbot, page):
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    dlg = page.dialog
    assert dlg is not None and dlg.isVisible()
    qtbot.mouseClick(dlg.bucket_radio, Qt.MouseButton.LeftButton)
    assert dlg.is_bucket()
    assert dlg.url_edit.isVisible() and not dlg.host_combo.isVisible()
    return dlg


def _names(browser):
    return [browser.table.item(r, 0).text() for r in range(browser.table.rowCount())]


def _open_named(qtbot, browser, name):
    row = _names(browser).index(name)
    browser.table.selectRow(row)
    browser.table.setFocus()
    qtbot.keyClick(browser.table, Qt.Key.Key_Return)  # Return opens a bucket or a folder
    qtbot.waitUntil(lambda: browser.task is None, timeout=30_000)


def test_a_bucket_pair_is_browsed_added_synced_and_priced(qtbot, app_window, s3_account, s3_peer, tmp_path):
    page = _page(app_window)
    local = tmp_path / "mnist"
    local.mkdir()
    (local / "weights.bin").write_bytes(b"w" * 5000)
    (local / "notes.txt").write_text("first run")

    dlg = _open_dialog(qtbot, page)
    dlg.local_edit.setText(str(local))
    assert dlg.account_combo.currentData() == "lab-s3"  # the only account of a storage cloud
    assert dlg.url_browse.isEnabled()

    qtbot.mouseClick(dlg.url_browse, Qt.MouseButton.LeftButton)
    browser = dlg.browser
    assert browser is not None and browser.isVisible()
    qtbot.waitUntil(lambda: browser.task is None, timeout=30_000)
    assert not browser.error_label.isVisible(), browser.error_label.text()
    assert _names(browser) == ["lab-data", "lab-other"]  # ListBuckets, off the GUI thread

    _open_named(qtbot, browser, "lab-data")
    assert browser.location_label.text() == "s3://lab-data"
    assert _names(browser) == ["datasets/", "top.txt"]  # one level: a folder, then an object
    assert browser.table.item(1, 1).text() == "1 B"
    _open_named(qtbot, browser, "datasets/")
    assert _names(browser) == ["mnist/", "readme.txt"]
    qtbot.waitUntil(lambda: browser.usage_task is None, timeout=30_000)
    assert "Everything below here: 2.9 KiB (objects: 2)" in browser.status_label.text()  # all below datasets/

    assert browser.choose_button.text() == "&Choose this folder"  # nothing picked: the level shown
    browser.table.selectRow(_names(browser).index("mnist/"))
    assert browser.choose_button.text() == "&Choose mnist/"
    qtbot.mouseClick(browser.choose_button, Qt.MouseButton.LeftButton)  # the selected folder
    assert dlg.url_edit.text() == "s3://lab-data/datasets/mnist"
    assert dlg.browser is None

    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert page.dialog is None, dlg.error_label.text()
    assert page.pairs_table.rowCount() == 1
    pair = page.pairs[0]
    assert (pair.host, pair.remote_path, pair.account) == ("", "s3://lab-data/datasets/mnist", "lab-s3")
    assert page.pairs_table.item(0, 0).text() == "S3 · lab-s3"
    assert page.pairs_table.item(0, 0).toolTip() == "Amazon S3, account lab-s3"

    # the location's size and monthly cost, counted in the background
    col = page.STORAGE_COLUMN
    qtbot.waitUntil(lambda: page.pairs_table.item(0, col).text() != "counting…", timeout=30_000)
    assert page.pairs_table.item(0, col).text() == "2.9 KiB · < $0.01/month"
    tip = page.pairs_table.item(0, col).toolTip()
    assert "s3://lab-data/datasets/mnist: 2.9 KiB, objects: 1." in tip
    assert "Storage price in us-east-1: $0.0230 per GB-month" in tip
    assert "https://aws.amazon.com/s3/pricing/" in tip and "as of 2026-" in tip  # the price's source and date

    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.task is None, timeout=60_000)
    assert page.state_label.text() == "Done", page.preview_label.text()
    assert s3_peer.get("s3", BUCKET, "datasets/mnist/weights.bin") == b"w" * 5000
    assert s3_peer.get("s3", BUCKET, "datasets/mnist/notes.txt") == b"first run"
    assert page.history_table.item(0, 5).text() == "OK"
    # counted again after the sync: the old object plus the two new ones
    qtbot.waitUntil(lambda: page.pairs_table.item(0, col).text().startswith("7.8 KiB"), timeout=30_000)


def test_a_bad_location_shows_its_error_under_the_field(qtbot, app_window, s3_account, tmp_path):
    page = _page(app_window)
    dlg = _open_dialog(qtbot, page)
    dlg.local_edit.setText(str(tmp_path))
    dlg.url_edit.setText("s3://Lab_Data/x")
    assert dlg.url_error.isVisible()
    assert "cannot be the name of a bucket on Amazon S3" in dlg.url_error.text()
    assert dlg.url_error.textFormat() == Qt.TextFormat.PlainText
    dlg.url_edit.setText("s3://lab-data/../etc")
    assert "'.' or '..'" in dlg.url_error.text()
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert page.dialog is dlg and dlg.isVisible()  # refused
    assert "'.' or '..'" in dlg.error_label.text()
    dlg.url_edit.setText("s3://lab-data/ok")
    assert not dlg.url_error.isVisible()
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert page.dialog is None
    assert page.pairs[0].remote_path == "s3://lab-data/ok"


def test_no_account_of_the_cloud_shows_the_next_step(qtbot, app_window, s3_account, tmp_path):
    ctx, window = app_window
    page = _page(app_window)
    dlg = _open_dialog(qtbot, page)
    dlg.local_edit.setText(str(tmp_path))
    dlg.url_edit.setText("cos://data-1250000000/imagenet")  # an AWS account only: none for COS
    assert dlg.account_combo.count() == 0
    assert dlg.no_account_label.isVisible()
    assert "No Tencent Cloud account yet" in dlg.no_account_label.text()
    assert "Accounts page" in dlg.no_account_label.text()
    assert not dlg.url_browse.isEnabled()
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert "Choose an account of Tencent Cloud" in dlg.error_label.text()
    assert page.dialog is dlg
    qtbot.mouseClick(dlg.add_account_button, Qt.MouseButton.LeftButton)  # the next step, one click away
    qtbot.waitUntil(lambda: window.current_page_id() == "accounts", timeout=10_000)
    assert not dlg.isVisible()


def test_an_encrypted_pair_makes_its_key_in_the_keyring(qtbot, app_window, s3_account, s3_peer, tmp_path):
    from app.core.cryptkeys import CryptKeys

    page = _page(app_window)
    (tmp_path / "secret.txt").write_text("thesis draft")
    dlg = _open_dialog(qtbot, page)
    dlg.local_edit.setText(str(tmp_path))
    dlg.url_edit.setText(f"s3://{BUCKET}/private")
    dlg.encryption_combo.setCurrentIndex(dlg.encryption_combo.findData("key"))
    dlg.key_combo.setCurrentText("thesis")
    assert dlg.key_combo.isVisible()
    note = dlg.encryption_note.text()
    assert "new key thesis" in note and "keyring" in note and "labgpu keys export thesis" in note
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(page.pairs) == 1, timeout=30_000)
    assert page.pairs[0].encrypt_key == "thesis"
    assert CryptKeys(store=page.ctx.store).names() == ["thesis"]
    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.task is None, timeout=60_000)
    assert page.state_label.text() == "Done", page.preview_label.text()
    keys = s3_peer.keys("s3", BUCKET, "private/")
    assert keys and not any("secret" in k for k in keys)  # names are encrypted too
    assert all(b"thesis draft" not in s3_peer.get("s3", BUCKET, k) for k in keys)


def test_a_running_instance_in_another_region_gets_an_egress_warning(qtbot, app_window, secret_service, s3_peer,
                                                                      tmp_path):
    """A COS bucket in ap-guangzhou and a running instance in ap-shanghai: the pair's row warns in its
    Storage cell, and the line under the list names the instance and the egress price."""
    from app.core.instances import Ledger
    from app.core.syncpairs import SyncPair, SyncStore
    from tests.fixtures.observed import Observed

    account, creds = s3_peer.account("lab-cos", "cos", "ap-guangzhou")
    ctx, _window = app_window
    AccountBook(ctx.store).add(account, creds)
    s3_peer.make_bucket("cos", "data-1250000000", "ap-guangzhou")
    s3_peer.put("cos", "data-1250000000", "imagenet/a.bin", b"a" * 2048)
    Ledger(ctx.store).observe(Observed("ins-sh1", zone="ap-shanghai-2", region="ap-shanghai", public_ip="203.0.113.9"))
    SyncStore(store=ctx.store).save(SyncPair("", str(tmp_path), "cos://data-1250000000/imagenet", account="lab-cos"))
    page = _page(app_window)
    col = page.STORAGE_COLUMN
    qtbot.waitUntil(lambda: page.pairs_table.item(0, col).text() != "counting…", timeout=30_000)
    cell = page.pairs_table.item(0, col)
    assert cell.text() == "⚠ 2.0 KiB · < $0.01/month", cell.text()
    assert "ins-sh1" in cell.toolTip() and "ap-shanghai" in cell.toolTip()
    assert page.egress_label.isVisible()
    assert "ins-sh1" in page.egress_label.text()
    assert "ap-guangzhou" in page.egress_label.text() and "per GB" in page.egress_label.text()


def test_the_storage_cell_in_words():
    from app.ui.remote.bucket_pairs import BucketFacts

    facts = BucketFacts("cos://data-1250000000/imagenet", "ap-guangzhou", size=150 << 30, objects=1_281_167,
                        amount=3.6, currency="USD", per_gb_month=0.024, source="https://example.test/p",
                        date="2026-12-05")
    assert facts.cell() == "150.0 GiB · $3.60/month"
    facts.complete = False
    assert facts.cell() == "≥ 150.0 GiB · $3.60/month"
    assert "too many objects to count them all" in facts.tooltip()
    unknown = BucketFacts("s3://b/p", error="Access denied.")
    assert unknown.cell() == "unknown"
    assert unknown.tooltip() == "The size of s3://b/p is not known: Access denied."
