"""Add/edit a sync pair: the local folder, the destination (a folder on a host, or a bucket location
with its account and encryption), direction, excludes and options.

A bucket destination is an ``s3://`` / ``cos://`` / ``oss://`` / ``obs://`` location, checked as it is
typed (the same parser the engine and the CLI use; its error is shown as plain text under the field),
an account of that cloud (none: a line saying where to add one, and a button that goes there), a
Browse… that opens the bucket browser (every call off the GUI thread) and the encryption: none, a
LabGPU key (client-side AES-256-GCM; the key lives only in the system keyring) or the cloud's KMS.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.accounts import Account
from app.core.buckets import SCHEMES, SERVICE_NAMES, BucketUrl, is_bucket_url, parse_bucket_url
from app.core.errors import LabGpuError
from app.core.providers import display_name
from app.core.syncmodel import DOWN, UP
from app.core.syncpairs import SyncPair
from app.core.syncplan import DEFAULT_EXCLUDES, remote_target
from app.ui import theme
from app.ui.shared.plain import PlainLabel

ENC_NONE, ENC_KEY, ENC_KMS = "none", "key", "kms"


class _FitHeight(QObject):
    """Keeps a word-wrapped label exactly as high as its lines at the width it was given: QFormLayout
    sizes such a label by its size hint (its lines at a narrow width), which leaves gaps or cuts lines."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and isinstance(watched, PlainLabel):
            need = watched.heightForWidth(watched.width()) if watched.text() else 0
            if need >= 0 and need != watched.height():
                watched.setFixedHeight(need)
        return False


def _wrapped(label: PlainLabel) -> PlainLabel:
    label.setWordWrap(True)
    label.installEventFilter(_FitHeight(label))
    return label


def _hint_label(text: str, parent: QWidget) -> PlainLabel:
    label = _wrapped(PlainLabel(text, parent))
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    label.setStyleSheet("color: palette(mid);")
    return label


def _error_label(parent: QWidget) -> PlainLabel:
    label = _wrapped(PlainLabel("", parent))
    label.setStyleSheet(f"color: {theme.css('error')};")
    return label


class SyncPairDialog(QDialog):
    """Opened non-modally with ``open()``; read ``pair()`` after ``accepted``.

    ``accounts``: the saved cloud accounts (those of a cloud with object storage are offered);
    ``key_names``: the LabGPU encryption keys in the keyring; ``ctx``: for the bucket browser and
    the way to the Accounts page (without it, Browse… is off).
    """

    def __init__(self, hosts: list[str], pair: SyncPair | None = None, parent: QWidget | None = None, *,
                 accounts: Sequence[Account] = (), key_names: Sequence[str] = (), ctx: Any = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Edit sync pair") if pair else self.tr("New sync pair"))
        self.setMinimumWidth(600)
        self._id = pair.id if pair else None
        self.ctx = ctx
        self.accounts = [a for a in accounts if a.provider in SCHEMES.values()]
        self.browser: Any = None
        # two tabs, so the dialog fits a 768-pixel-high screen with a bucket's rows shown
        self.tabs = QTabWidget(self)
        where, more = QWidget(self.tabs), QWidget(self.tabs)
        self.tabs.addTab(where, self.tr("&Folders"))
        self.tabs.addTab(more, self.tr("O&ptions"))
        form = self.form = QFormLayout(where)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        more_lay = QVBoxLayout(more)
        options = QFormLayout()
        more_lay.addLayout(options)
        more_lay.addStretch(1)  # a shorter tab keeps its rows together at the top
        options.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)

        local_row = QHBoxLayout()
        self.local_edit = QLineEdit(self)
        self.local_edit.setPlaceholderText(self.tr("Folder on this computer"))
        self.local_browse = QPushButton(self.tr("&Browse…"), self)
        self.local_browse.clicked.connect(self._on_browse_clicked)
        local_row.addWidget(self.local_edit, 1)
        local_row.addWidget(self.local_browse)
        local_label = PlainLabel(self.tr("&Local folder:"), self)
        local_label.setBuddy(self.local_edit)
        form.addRow(local_label, local_row)

        kind_row = QHBoxLayout()
        self.host_radio = QRadioButton(self.tr("A folder on a h&ost"), self)
        self.bucket_radio = QRadioButton(self.tr("A buc&ket (object storage)"), self)
        kinds = QButtonGroup(self)
        kinds.addButton(self.host_radio)
        kinds.addButton(self.bucket_radio)
        self.host_radio.setChecked(True)
        kind_row.addWidget(self.host_radio)
        kind_row.addWidget(self.bucket_radio)
        kind_row.addStretch(1)
        form.addRow(self.tr("Destination:"), kind_row)

        # a host folder ---------------------------------------------------------------------------
        self.host_combo = QComboBox(self)
        self.host_combo.setEditable(True)
        self.host_combo.addItems(hosts)
        self.host_combo.setMinimumWidth(240)
        self.host_combo.setToolTip(self.tr("A host from the Hosts page (or labgpu hosts add)"))
        form.addRow(self.tr("&Host:"), self.host_combo)
        self.remote_edit = QLineEdit(self)
        self.remote_edit.setPlaceholderText(self.tr("e.g. ~/data or /mnt/datasets/imagenet"))
        form.addRow(self.tr("&Remote folder:"), self.remote_edit)

        # a bucket --------------------------------------------------------------------------------
        self._build_bucket_rows(form, key_names)

        dir_row = QHBoxLayout()
        self.up_radio = QRadioButton(self.tr("&Upload (local → remote)"), self)
        self.down_radio = QRadioButton(self.tr("Do&wnload (remote → local)"), self)
        group = QButtonGroup(self)
        group.addButton(self.up_radio)
        group.addButton(self.down_radio)
        self.up_radio.setChecked(True)
        dir_row.addWidget(self.up_radio)
        dir_row.addWidget(self.down_radio)
        dir_row.addStretch(1)
        form.addRow(self.tr("Direction:"), dir_row)

        self.excludes_edit = QPlainTextEdit(self)
        self.excludes_edit.setTabChangesFocus(True)
        self.excludes_edit.setPlaceholderText(
            self.tr("One pattern per line, .gitignore syntax, e.g.\n*.ckpt\nruns/\n!runs/best.ckpt")
        )
        self.excludes_edit.setFixedHeight(90)
        options.addRow(self.tr("E&xcludes:"), self.excludes_edit)
        note = PlainLabel(self.tr("Always excluded: {names}").format(names="  ".join(DEFAULT_EXCLUDES)), self)
        note.setStyleSheet("color: palette(mid);")
        options.addRow("", note)

        self.gitignore_check = QCheckBox(self.tr("Honour .gitignore files in the source folder"), self)
        self.delete_check = QCheckBox(self.tr("Mirror: delete what the source no longer has"), self)
        self.verify_check = QCheckBox(self.tr("Verify with sha256 (slower, reads every file)"), self)
        self.delete_check.setToolTip(self.tr("Delete destination files missing from the source. Sync now shows "
                                             "them in the preview first; press it again to delete them."))
        for cb in (self.gitignore_check, self.delete_check, self.verify_check):
            options.addRow("", cb)

        self.bw_spin = QSpinBox(self)
        self.bw_spin.setRange(0, 10_000_000)
        self.bw_spin.setSingleStep(1024)
        self.bw_spin.setSuffix(self.tr(" KiB/s"))
        self.bw_spin.setSpecialValueText(self.tr("unlimited"))
        options.addRow(self.tr("Bandwidth l&imit:"), self.bw_spin)

        self.error_label = _error_label(self)

        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
            Qt.Orientation.Horizontal,
            self,
        )
        buttons.accepted.connect(self._on_buttons_accepted)
        buttons.rejected.connect(self.reject)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)

        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)
        self.host_radio.toggled.connect(self._on_kind_changed)
        if pair:
            self._load(pair)
        self._on_kind_changed()
        self._on_url_changed()
        self._on_encryption_changed()

    def _build_bucket_rows(self, form: QFormLayout, key_names: Sequence[str]) -> None:
        url_row = QHBoxLayout()
        self.url_edit = QLineEdit(self)
        self.url_edit.setPlaceholderText(self.tr("s3://, cos://, oss:// or obs://BUCKET/FOLDER"))
        self.url_edit.setToolTip(self.tr("e.g. cos://data-1250000000/imagenet (the bucket's name ends "
                                         "with your APPID on COS)"))
        self.url_browse = QPushButton(self.tr("Browse bu&ckets…"), self)
        self.url_browse.setToolTip(self.tr("List the account's buckets and folders and pick one"))
        self.url_browse.clicked.connect(self._on_url_browse_clicked)
        url_row.addWidget(self.url_edit, 1)
        url_row.addWidget(self.url_browse)
        url_label = PlainLabel(self.tr("Loca&tion:"), self)
        url_label.setBuddy(self.url_edit)
        form.addRow(url_label, url_row)
        self.url_error = _error_label(self)
        form.addRow("", self.url_error)

        self.account_combo = QComboBox(self)
        self.account_combo.setMinimumWidth(240)
        account_label = PlainLabel(self.tr("&Account:"), self)
        account_label.setBuddy(self.account_combo)
        form.addRow(account_label, self.account_combo)
        none_row = QHBoxLayout()
        self.no_account_label = _hint_label("", self)
        self.add_account_button = QPushButton(self.tr("&Go to Accounts…"), self)
        self.add_account_button.setToolTip(self.tr("Close this dialog and open the Accounts page"))
        self.add_account_button.clicked.connect(self._on_add_account_clicked)
        none_row.addWidget(self.no_account_label, 1)
        none_row.addWidget(self.add_account_button, 0, Qt.AlignmentFlag.AlignTop)
        form.addRow("", none_row)

        self.encryption_combo = QComboBox(self)
        self.encryption_combo.addItem(self.tr("None"), ENC_NONE)
        self.encryption_combo.addItem(self.tr("LabGPU key (client-side AES-256-GCM, names and contents)"), ENC_KEY)
        self.encryption_combo.addItem(self.tr("The cloud's KMS (server-side, keys kept by the cloud)"), ENC_KMS)
        self.encryption_combo.currentIndexChanged.connect(self._on_encryption_changed)
        enc_label = PlainLabel(self.tr("E&ncryption:"), self)
        enc_label.setBuddy(self.encryption_combo)
        form.addRow(enc_label, self.encryption_combo)
        self.key_combo = QComboBox(self)
        self.key_combo.setEditable(True)
        self.key_combo.addItems(list(key_names))
        self.key_combo.setCurrentText(key_names[0] if key_names else "default")
        self.key_combo.currentTextChanged.connect(self._on_encryption_changed)
        self.key_names = list(key_names)
        form.addRow(self.tr("Key na&me:"), self.key_combo)
        self.kms_edit = QLineEdit(self)
        self.kms_edit.setPlaceholderText(self.tr("empty: the service's default key"))
        form.addRow(self.tr("KMS ke&y ID:"), self.kms_edit)
        self.encryption_note = _hint_label("", self)
        form.addRow("", self.encryption_note)
        self.url_edit.textChanged.connect(self._on_url_changed)

    def _load(self, pair: SyncPair) -> None:
        bucket = not pair.host and is_bucket_url(pair.remote_path)
        self.local_edit.setText(pair.local_path)
        if bucket:
            self.bucket_radio.setChecked(True)
            self.url_edit.setText(pair.remote_path)
        else:
            self.host_combo.setCurrentText(pair.host)
            self.remote_edit.setText(pair.remote_path)
        (self.down_radio if pair.direction == DOWN else self.up_radio).setChecked(True)
        self.excludes_edit.setPlainText("\n".join(pair.excludes))
        self.gitignore_check.setChecked(pair.gitignore)
        self.delete_check.setChecked(pair.mirror_delete)
        self.verify_check.setChecked(pair.verify)
        self.bw_spin.setValue(int(pair.bwlimit_kbps or 0))
        self._on_url_changed()
        if pair.account:
            i = self.account_combo.findData(pair.account)
            if i >= 0:
                self.account_combo.setCurrentIndex(i)
        if pair.encrypt_key:
            self.encryption_combo.setCurrentIndex(self.encryption_combo.findData(ENC_KEY))
            self.key_combo.setCurrentText(pair.encrypt_key)
        elif pair.sse:
            self.encryption_combo.setCurrentIndex(self.encryption_combo.findData(ENC_KMS))
            self.kms_edit.setText(pair.sse.partition(":")[2])

    # what is shown ---------------------------------------------------------------------------------
    def is_bucket(self) -> bool:
        return self.bucket_radio.isChecked()

    def _on_kind_changed(self) -> None:
        self._show_rows()
        bucket = self.is_bucket()
        self.up_radio.setText(self.tr("&Upload (local → bucket)") if bucket else self.tr("&Upload (local → remote)"))
        self.down_radio.setText(self.tr("Do&wnload (bucket → local)") if bucket
                                else self.tr("Do&wnload (remote → local)"))
        self.error_label.setText("")
        self._fit()

    def _show_rows(self) -> None:
        """Each row shown when it applies: the host's or the bucket's, the no-account line, the key's."""
        bucket = self.is_bucket()
        mode = self.encryption()
        rows: dict[Any, bool] = {
            self.host_combo: not bucket,
            self.remote_edit: not bucket,
            self.url_browse: bucket,
            self.url_error: bucket and bool(self.url_error.text()),
            self.account_combo: bucket,
            self.no_account_label: bucket and bool(self.no_account_label.text()),
            self.encryption_combo: bucket,
            self.key_combo: bucket and mode == ENC_KEY,
            self.kms_edit: bucket and mode == ENC_KMS,
            self.encryption_note: bucket,
        }
        for w, visible in rows.items():
            self.form.setRowVisible(self._row_of(w), visible)

    def _row_of(self, widget: QWidget) -> int:
        pos: Any = self.form.getWidgetPosition(widget)
        row = int(pos[0])
        if row < 0:  # a widget inside a row's layout
            for r in range(self.form.rowCount()):
                item = self.form.itemAt(r, QFormLayout.ItemRole.FieldRole)
                lay = item.layout() if item is not None else None
                if lay is not None and lay.indexOf(widget) >= 0:
                    return r
        return row

    def url(self) -> BucketUrl | None:
        """The typed location when it parses, else None (its error is under the field)."""
        try:
            return parse_bucket_url(self.url_edit.text())
        except LabGpuError:
            return None

    def _on_url_changed(self) -> None:
        text = self.url_edit.text().strip()
        self.url_error.setText("")
        if text:
            try:
                parse_bucket_url(text)
            except LabGpuError as exc:
                self.url_error.setText(f"{exc.text()} {exc.hint()}".strip())
        # the scheme alone names the cloud, while the rest is still being typed
        self._fill_accounts(SCHEMES.get(text.partition("://")[0].lower(), "") if "://" in text else "")
        self._show_rows()
        self._fit()

    def _fit(self) -> None:
        """Grow to the height the wrapped lines need at this width (Qt sizes a dialog by its
        minimum, which does not count the lines a word-wrapped label takes)."""
        layout = self.layout()
        if layout is None or not self.isVisible():
            return
        layout.activate()
        need = layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth() else -1
        if need > self.height():
            self.resize(self.width(), need)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self._fit()
        QTimer.singleShot(0, self._snug)  # once the wrapped lines have their height: no empty band

    def _snug(self) -> None:
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth():
            layout.activate()
            self.resize(self.width(), max(self.minimumSizeHint().height(), layout.totalHeightForWidth(self.width())))

    def _fill_accounts(self, provider: str) -> None:
        """The accounts of ``provider``'s cloud (every storage cloud's while no location is typed)."""
        current = self.account_combo.currentData()
        shown = [a for a in self.accounts if not provider or a.provider == provider]
        self.account_combo.blockSignals(True)
        self.account_combo.clear()
        for a in shown:
            self.account_combo.addItem(f"{a.name} — {display_name(a.provider)} ({a.region})", a.name)
        i = self.account_combo.findData(current)
        self.account_combo.setCurrentIndex(i if i >= 0 else 0)
        self.account_combo.blockSignals(False)
        self.account_combo.setEnabled(bool(shown))
        self.url_browse.setEnabled(bool(shown) and self.ctx is not None)
        if shown:
            self.no_account_label.setText("")
            return
        if provider:
            service = SERVICE_NAMES.get(next(s for s, p in SCHEMES.items() if p == provider), provider)
            text = self.tr("No {cloud} account yet: {service} needs one. Add it on the Accounts page "
                           "(its keys go to your system keyring), then open this dialog again.").format(
                cloud=display_name(provider), service=service)
        else:
            text = self.tr("No cloud account with object storage yet (AWS, Tencent Cloud, Alibaba Cloud or "
                           "Huawei Cloud). Add one on the Accounts page, then open this dialog again.")
        self.no_account_label.setText(text)
        self.add_account_button.setEnabled(self.ctx is not None)

    def encryption(self) -> str:
        return str(self.encryption_combo.currentData())

    def _on_encryption_changed(self) -> None:
        mode = self.encryption()
        self._show_rows()
        name = self.key_combo.currentText().strip()
        if mode == ENC_KEY:
            if name in self.key_names:
                text = self.tr("The key {name} is in your system keyring; it never leaves this computer and is "
                               "never written to a file. Save its recovery phrase with labgpu keys export {name} "
                               "and keep it safe: without the key nobody, you included, can read these files.")
            else:
                text = self.tr("A new key {name} is made in your system keyring when you press OK; it never "
                               "leaves this computer and is never written to a file. Save its recovery phrase with "
                               "labgpu keys export {name} and keep it safe: without the key nobody, you included, "
                               "can read these files.")
            text = text.format(name=name or "NAME")
        elif mode == ENC_KMS:
            text = self.tr("The cloud encrypts each object with its KMS key when it stores it; anyone this "
                           "account lets read the bucket reads the files. The KMS key may cost extra.")
        else:
            text = self.tr("Files are stored as they are; the cloud may still encrypt its disks.")
        self.encryption_note.setText(text)
        self._fit()

    # actions ---------------------------------------------------------------------------------------
    def _on_browse_clicked(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, self.tr("Choose the local folder"), self.local_edit.text()
        )
        if path:
            self.local_edit.setText(path)

    def _on_url_browse_clicked(self) -> None:
        from app.ui.remote.bucket_browser import BucketBrowser

        account = self.account_combo.currentData()
        if self.ctx is None or not account:
            return
        self.browser = BucketBrowser(self.ctx, str(account), self.url(), self)
        self.browser.accepted.connect(self._on_browser_accepted)
        self.browser.open()

    def _on_browser_accepted(self) -> None:
        chosen = self.browser.chosen() if self.browser is not None else None
        account = self.account_combo.currentData()
        if chosen is not None:
            self.url_edit.setText(str(chosen))
            i = self.account_combo.findData(account)
            if i >= 0:
                self.account_combo.setCurrentIndex(i)
        if self.browser is not None:
            self.browser.deleteLater()
            self.browser = None

    def _on_add_account_clicked(self) -> None:
        if self.ctx is not None:
            self.reject()
            self.ctx.navigate("accounts")

    def _on_buttons_accepted(self) -> None:
        problem = self._local_problem() or (self._bucket_problem() if self.is_bucket() else self._host_problem())
        if problem:
            self.error_label.setText(problem)
            self.tabs.setCurrentIndex(0)  # every check is of a field on the first tab
            return
        self.accept()

    def _local_problem(self) -> str:
        if not self.local_edit.text().strip():
            return self.tr("Enter the local folder.")
        local = Path(self.local_edit.text().strip()).expanduser()
        if local.exists() and not local.is_dir():
            return self.tr("{path} is a file, not a folder. Choose a folder with Browse.").format(path=str(local))
        if not local.exists() and (not self.down_radio.isChecked() or not local.parent.is_dir()):
            # Upload reads the folder; a download may create it, but only inside a folder that exists.
            return self.tr("The folder {folder} does not exist on this computer. Check the path "
                           "or choose a folder with Browse.").format(folder=str(local))
        return ""

    def _host_problem(self) -> str:
        if not self.host_combo.currentText().strip():
            return self.tr("Choose a host. Add one on the Hosts page first.")
        if not self.remote_edit.text().strip():
            return self.tr("Enter the remote folder.")
        try:
            remote_target(self.remote_edit.text().strip())  # the same check the engine makes
        except LabGpuError as exc:
            return f"{exc.text()} {exc.hint()}".strip()
        return ""

    def _bucket_problem(self) -> str:
        if not self.url_edit.text().strip():
            return self.tr("Enter the bucket location, e.g. s3://my-lab-data/imagenet, or use Browse buckets.")
        try:
            url = parse_bucket_url(self.url_edit.text())
        except LabGpuError as exc:
            return f"{exc.text()} {exc.hint()}".strip()
        if not self.account_combo.currentData():
            return self.tr("Choose an account of {cloud} for this bucket.").format(cloud=display_name(url.provider))
        mode = self.encryption()
        if mode == ENC_KEY:
            from app.core.cryptkeys import check_key_name

            try:
                check_key_name(self.key_combo.currentText().strip())
            except LabGpuError as exc:
                return f"{exc.text()} {exc.hint()}".strip()
        if mode == ENC_KMS:
            try:
                from app.core.bucketsse import parse_sse, sse_params

                sse_params(url.scheme, parse_sse(self.sse_text()))  # the service takes it, or says why not
            except LabGpuError as exc:
                return f"{exc.text()} {exc.hint()}".strip()
        return ""

    def sse_text(self) -> str:
        if self.encryption() != ENC_KMS:
            return ""
        kid = self.kms_edit.text().strip()
        return f"kms:{kid}" if kid else "kms"

    def pair(self) -> SyncPair:
        excludes = [ln.strip() for ln in self.excludes_edit.toPlainText().splitlines() if ln.strip()]
        bucket = self.is_bucket()
        return SyncPair(
            host="" if bucket else self.host_combo.currentText().strip(),
            local_path=self.local_edit.text().strip(),
            remote_path=str(parse_bucket_url(self.url_edit.text())) if bucket else self.remote_edit.text().strip(),
            direction=DOWN if self.down_radio.isChecked() else UP,
            excludes=excludes,
            gitignore=self.gitignore_check.isChecked(),
            mirror_delete=self.delete_check.isChecked(),
            verify=self.verify_check.isChecked(),
            bwlimit_kbps=float(self.bw_spin.value()) or None,
            id=self._id,
            account=str(self.account_combo.currentData() or "") if bucket else "",
            encrypt_key=self.key_combo.currentText().strip() if bucket and self.encryption() == ENC_KEY else "",
            sse=self.sse_text() if bucket else "",
        )
