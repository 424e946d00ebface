"""The advisor: five questions as a wizard, then the ranked offers with reasons and exclusions.

Answers survive restarts (settings ``extra["advisor"]["answers"]``). The catalog loads on a pool
thread; the ranking itself is pure and fast (``app.core.advisor.advise``) and runs on the GUI
thread whenever the result step is shown. "Show in offers table" hands the Ranking to the offers
page through ``ctx.navigate("offers", ranking)``.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core import advisor as core
from app.core.currency import convert, effective_rate, format_money
from app.core.models import PROVIDERS, Offer
from app.core.settings import read_section, write_section
from app.ui.context import AppContext
from app.ui.shared.estimator import SETTINGS_KEY, EstimatorWidget
from app.ui.tasks import Task

log = logging.getLogger(__name__)

STEP_COUNT = 5
RESULT_INDEX = STEP_COUNT

# Presets shown in step 1 (parameters in millions), so nobody has to know the number by heart.
MODEL_PRESETS: tuple[tuple[str, float, str], ...] = (
    ("ResNet-50", 25.6, "vision"), ("ViT-B/16", 86, "vision"), ("ViT-L/16", 304, "vision"),
    ("BERT-base", 110, "nlp"), ("BERT-large", 340, "nlp"), ("GPT-2 XL", 1558, "nlp"),
    ("Llama 7B", 7000, "nlp"), ("Llama 13B", 13000, "nlp"), ("Llama 70B", 70000, "nlp"),
)


def load_offers(paths: Any) -> list[Offer]:
    """Runs on a pool thread: the bundled catalog merged with cached live prices."""
    from app.core.catalog import load_catalog

    return list(load_catalog(paths).offers)


ANSWERS_PATH = (SETTINGS_KEY, "answers")  # extra["advisor"]["answers"]: the last answers, as AdvisorAnswers fields


def saved_answers(ctx: AppContext) -> core.AdvisorAnswers:
    """The answers saved last (a field of the wrong type falls back to its default)."""
    return read_section(ctx.settings, ANSWERS_PATH, core.AdvisorAnswers)


class AdvisorPage(QWidget):
    page_id = "advisor"
    result_ready = Signal(object)  # core.AdvisorResult, after each ranking
    offers_loaded = Signal()

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("AdvisorPage", "Advisor")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.offers: list[Offer] | None = None
        self.load_error: BaseException | None = None
        self.result: core.AdvisorResult | None = None
        self._loading: Task | None = None
        self._offers_by_key: dict[tuple[str, str, str], Offer] = {}
        self._build()
        self._restore_answers()
        self._update_vram_hint()
        self._ready = False  # no settings write while the page builds itself
        self.go_to(0)
        self._ready = True
        self._start_loading()

    # --- layout -------------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 16, 24, 12)
        title = QLabel(self.tr("Which GPU, where, and what will it cost?"), self)
        title.setStyleSheet("font-size: 20px; font-weight: 600;")
        outer.addWidget(title)

        indicator = QHBoxLayout()
        indicator.setSpacing(6)
        self.step_labels: list[QLabel] = []
        names = [self.tr("1 Task"), self.tr("2 Budget"), self.tr("3 Data"), self.tr("4 Framework"),
                 self.tr("5 Scale"), self.tr("Result")]
        for name in names:
            lab = QLabel(name, self)
            lab.setAlignment(Qt.AlignmentFlag.AlignCenter)
            lab.setMinimumWidth(90)
            self.step_labels.append(lab)
            indicator.addWidget(lab)
        indicator.addStretch(1)
        outer.addLayout(indicator)

        self.stack = QStackedWidget(self)
        self.stack.addWidget(self._build_task_step())
        self.stack.addWidget(self._build_budget_step())
        self.stack.addWidget(self._build_data_step())
        self.stack.addWidget(self._build_framework_step())
        self.stack.addWidget(self._build_scale_step())
        self.stack.addWidget(self._build_result_step())
        outer.addWidget(self.stack, 1)

        buttons = QHBoxLayout()
        self.status_label = QLabel(self)
        self.status_label.setObjectName("advisorStatus")
        self.status_label.setStyleSheet("color: palette(mid);")
        buttons.addWidget(self.status_label, 1)
        self.back_button = QPushButton(self.tr("< &Back"), self)
        self.back_button.setToolTip(self.tr("Previous step (Alt+Left)"))
        self.next_button = QPushButton(self.tr("&Next >"), self)
        self.next_button.setToolTip(self.tr("Next step (Enter)"))
        self.restart_button = QPushButton(self.tr("Start &over"), self)
        self.show_in_offers_button = QPushButton(self.tr("Show in &offers table"), self)
        self.show_in_offers_button.setObjectName("showInOffers")
        for b in (self.back_button, self.next_button, self.restart_button, self.show_in_offers_button):
            buttons.addWidget(b)
        outer.addLayout(buttons)
        self.back_button.clicked.connect(self._on_back_button_clicked)
        self.next_button.clicked.connect(self._on_next_button_clicked)
        self.restart_button.clicked.connect(self._on_restart_button_clicked)
        self.show_in_offers_button.clicked.connect(self._on_show_in_offers_button_clicked)

        ctx_scope = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            sc = QShortcut(QKeySequence(key), self)
            sc.setContext(ctx_scope)
            sc.activated.connect(self._on_next_shortcut_activated)
        back = QShortcut(QKeySequence("Alt+Left"), self)
        back.setContext(ctx_scope)
        back.activated.connect(self._on_back_button_clicked)

    def _page(self, heading: str, intro: str) -> tuple[QWidget, QVBoxLayout]:
        page = QWidget(self)
        lay = QVBoxLayout(page)
        lay.setContentsMargins(0, 8, 0, 0)
        h = QLabel(heading, page)
        h.setStyleSheet("font-size: 16px; font-weight: 600;")
        lay.addWidget(h)
        if intro:
            i = QLabel(intro, page)
            i.setWordWrap(True)
            i.setStyleSheet("color: palette(mid);")
            lay.addWidget(i)
        return page, lay

    @staticmethod
    def _form() -> QFormLayout:
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        return form

    def _radio_group(self, parent: QWidget, lay: QVBoxLayout, options: list[tuple[str, str, str]],
                     name: str) -> QButtonGroup:
        group = QButtonGroup(parent)
        group.setObjectName(name)
        for i, (value, text, help_text) in enumerate(options):
            rb = QRadioButton(text, parent)
            rb.setObjectName(f"{name}_{value}")
            rb.setProperty("value", value)
            group.addButton(rb, i)
            lay.addWidget(rb)
            if help_text:
                hl = QLabel(help_text, parent)
                hl.setWordWrap(True)
                hl.setStyleSheet("color: palette(mid); margin-left: 24px;")
                lay.addWidget(hl)
        return group

    def _build_task_step(self) -> QWidget:
        page, lay = self._page(self.tr("Step 1 of 5: what are you training?"),
                               self.tr("The model size decides how much GPU memory you need."))
        self.task_group = self._radio_group(page, lay, [
            ("vision", self.tr("&Computer vision (CNNs, ViTs, detection, segmentation)"), ""),
            ("nlp", self.tr("&NLP / LLM (BERT, GPT, Llama, T5)"), ""),
            ("other", self.tr("&Other (speech, recommender, scientific)"), ""),
        ], "task")
        form = self._form()
        self.preset_combo = QComboBox(page)
        self.preset_combo.addItem(self.tr("Custom size"), None)
        for name, millions, task in MODEL_PRESETS:
            self.preset_combo.addItem(f"{name} ({core.format_params(millions)})", (millions, task))
        form.addRow(self.tr("&Known model:"), self.preset_combo)
        self.params_spin = QDoubleSpinBox(page)
        self.params_spin.setObjectName("paramsSpin")
        self.params_spin.setRange(0.1, 2_000_000)
        self.params_spin.setDecimals(1)
        self.params_spin.setSuffix(self.tr(" million parameters"))
        self.params_spin.setSingleStep(10)
        self.params_spin.setMinimumWidth(260)
        form.addRow(self.tr("Model &size:"), self.params_spin)
        self.workload_combo = QComboBox(page)
        self.workload_combo.addItem(self.tr("Training or fine-tuning (Adam, mixed precision)"), "train")
        self.workload_combo.addItem(self.tr("Inference only (fp16)"), "inference")
        form.addRow(self.tr("&Workload:"), self.workload_combo)
        lay.addLayout(form)
        self.vram_label = QLabel(page)
        self.vram_label.setObjectName("vramEstimate")
        self.vram_label.setWordWrap(True)
        self.vram_label.setStyleSheet("background: palette(alternate-base); padding: 8px; "
                                      "border-radius: 4px;")
        lay.addWidget(self.vram_label)
        lay.addStretch(1)
        self.preset_combo.activated.connect(self._on_preset_combo_activated)
        self.params_spin.valueChanged.connect(self._on_task_inputs_changed)
        self.workload_combo.currentIndexChanged.connect(self._on_task_inputs_changed)
        self.task_group.idToggled.connect(self._on_task_inputs_changed)
        return page

    def _build_budget_step(self) -> QWidget:
        page, lay = self._page(self.tr("Step 2 of 5: how long, and how will you pay?"),
                               self.tr("Short experiments pay by the hour; projects of several months can "
                                       "save with a monthly prepaid plan plus spot for extra runs."))
        self.budget_group = self._radio_group(page, lay, [
            ("short", self.tr("&Short experiment (hours to a few days)"),
             self.tr("On-demand, or spot if your job saves checkpoints.")),
            ("long", self.tr("&Project of months"),
             self.tr("Compares a monthly prepaid price with hourly prices at your hours per month.")),
        ], "budget")
        form = self._form()
        self.hours_spin = QSpinBox(page)
        self.hours_spin.setRange(1, 730)
        self.hours_spin.setSuffix(self.tr(" h per month"))
        form.addRow(self.tr("GPU &hours per month:"), self.hours_spin)
        self.spot_check = QCheckBox(self.tr("My job saves checkpoints and can be &interrupted (spot)"), page)
        form.addRow(self.spot_check)
        self.overhead_spin = QSpinBox(page)
        self.overhead_spin.setRange(0, 500)
        self.overhead_spin.setSuffix(" %")
        self.overhead_spin.setToolTip(self.tr("Extra time on spot for restarts and lost work"))
        form.addRow(self.tr("Spot &overhead:"), self.overhead_spin)
        self.max_price_spin = QDoubleSpinBox(page)
        self.max_price_spin.setRange(0, 100_000)
        self.max_price_spin.setDecimals(2)
        self.max_price_spin.setPrefix("¥")
        self.max_price_spin.setSpecialValueText(self.tr("no limit"))
        form.addRow(self.tr("&Max price per hour:"), self.max_price_spin)
        lay.addLayout(form)
        lay.addStretch(1)
        self.budget_group.idToggled.connect(self._on_budget_group_toggled)
        self.spot_check.toggled.connect(self.overhead_spin.setEnabled)
        return page

    def _build_data_step(self) -> QWidget:
        page, lay = self._page(self.tr("Step 3 of 5: how sensitive is your data?"),
                               self.tr("Patient records, unpublished industry data or data under a "
                                       "contract usually need dedicated hardware in a given country."))
        self.sensitive_check = QCheckBox(self.tr("My data is &sensitive: dedicated or bare-metal "
                                                 "hardware only"), page)
        self.sensitive_check.setObjectName("sensitiveCheck")
        lay.addWidget(self.sensitive_check)
        form = self._form()
        self.country_combo = QComboBox(page)
        self.country_combo.setObjectName("countryCombo")
        names = {
            "": self.tr("Anywhere"), "CN": self.tr("China (mainland)"), "US": self.tr("United States"),
            "HK": self.tr("Hong Kong"), "SG": self.tr("Singapore"), "JP": self.tr("Japan"),
            "DE": self.tr("Germany"), "GB": self.tr("United Kingdom"), "IE": self.tr("Ireland"),
            "NL": self.tr("Netherlands"), "SE": self.tr("Sweden"), "KR": self.tr("South Korea"),
            "IN": self.tr("India"), "AU": self.tr("Australia"), "CA": self.tr("Canada"),
            "FR": self.tr("France"),
        }
        for code in core.COUNTRIES:
            self.country_combo.addItem(names.get(code, code), code)
        form.addRow(self.tr("Data must &stay in:"), self.country_combo)
        lay.addLayout(form)
        self.country_hint = QLabel(self.tr("Sensitive data usually must stay in one country: choose it "
                                           "above (for example China (mainland))."), page)
        self.country_hint.setObjectName("countryHint")
        self.country_hint.setWordWrap(True)
        self.country_hint.setStyleSheet("color: #b26a00;")
        lay.addWidget(self.country_hint)
        self.sensitive_check.toggled.connect(self._on_data_inputs_changed)
        self.country_combo.currentIndexChanged.connect(self._on_data_inputs_changed)
        note = QLabel(self.tr("Regions whose country LabGPU does not know are left out when a country is "
                              "required. Hong Kong counts separately from mainland China."), page)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        lay.addWidget(note)
        lay.addStretch(1)
        return page

    def _build_framework_step(self) -> QWidget:
        page, lay = self._page(self.tr("Step 4 of 5: which framework?"), "")
        self.framework_group = self._radio_group(page, lay, [
            ("pytorch", self.tr("&PyTorch"), self.tr("Runs on every NVIDIA GPU in the catalog.")),
            ("tensorflow", self.tr("&TensorFlow"), self.tr("Runs on every NVIDIA GPU in the catalog.")),
            ("jax", self.tr("&JAX"), self.tr("Best on Ampere or newer (A100, A10, L4, H100): bf16 and "
                                             "fast XLA kernels. Older GPUs are ranked lower.")),
        ], "framework")
        note = QLabel(self.tr("vGPU and fractional-GPU offers are left out for training whatever the "
                              "framework."), page)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        lay.addWidget(note)
        lay.addStretch(1)
        return page

    def _build_scale_step(self) -> QWidget:
        page, lay = self._page(self.tr("Step 5 of 5: how many GPUs?"), "")
        self.scale_group = self._radio_group(page, lay, [
            ("single", self.tr("&One GPU"), ""),
            ("multi_gpu", self.tr("&Several GPUs in one machine"), self.tr("NVLink between GPUs helps.")),
            ("multi_node", self.tr("Several &machines"),
             self.tr("Needs an RDMA-class network between machines: EFA, InfiniBand or RoCE.")),
        ], "scale")
        form = self._form()
        self.gpus_spin = QSpinBox(page)
        self.gpus_spin.setObjectName("gpusSpin")
        self.gpus_spin.setRange(1, 1024)
        form.addRow(self.tr("&GPUs in total:"), self.gpus_spin)
        lay.addLayout(form)
        lay.addStretch(1)
        self.scale_group.idToggled.connect(self._on_scale_group_toggled)
        return page

    def _build_result_step(self) -> QWidget:
        page, lay = self._page(self.tr("Recommendations"), "")
        self.summary_label = QLabel(page)
        self.summary_label.setObjectName("advisorSummary")
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.summary_label)
        split = QSplitter(Qt.Orientation.Vertical, page)
        self.ranked_table = QTableWidget(0, 5, split)
        self.ranked_table.setObjectName("rankedTable")
        self.ranked_table.setHorizontalHeaderLabels([self.tr("#"), self.tr("Offer"), self.tr("GPUs"),
                                                     self.tr("On-demand / h"), self.tr("Why")])
        self._setup_table(self.ranked_table)
        self.ranked_table.itemSelectionChanged.connect(self._on_ranked_table_selection_changed)
        self.result_tabs = QTabWidget(split)
        self.result_tabs.setObjectName("resultTabs")
        est_scroll = QScrollArea(self.result_tabs)
        est_scroll.setWidgetResizable(True)
        est_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.estimator = EstimatorWidget(self.ctx, est_scroll)
        self.estimator.setObjectName("advisorEstimator")
        est_scroll.setWidget(self.estimator)
        self.result_tabs.addTab(est_scroll, self.tr("Cost of the selected offer"))
        self.excluded_table = QTableWidget(0, 2, self.result_tabs)
        self.excluded_table.setObjectName("excludedTable")
        self.excluded_table.setHorizontalHeaderLabels([self.tr("Offer"), self.tr("Reason")])
        self._setup_table(self.excluded_table)
        self.excluded_table.setWordWrap(False)
        self.result_tabs.addTab(self.excluded_table, self.tr("Left out, and why"))
        split.addWidget(self.ranked_table)
        split.addWidget(self.result_tabs)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([480, 320])
        lay.addWidget(split, 1)
        return page

    @staticmethod
    def _setup_table(table: QTableWidget) -> None:
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.verticalHeader().setVisible(False)
        table.setWordWrap(True)
        table.setAlternatingRowColors(True)
        header = table.horizontalHeader()
        for c in range(table.columnCount() - 1):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(table.columnCount() - 1, QHeaderView.ResizeMode.Stretch)

    # --- answers <-> widgets --------------------------------------------------------------------

    @staticmethod
    def _check(group: QButtonGroup, value: str) -> None:
        for b in group.buttons():
            if b.property("value") == value:
                b.setChecked(True)
                return
        group.buttons()[0].setChecked(True)

    @staticmethod
    def _checked(group: QButtonGroup) -> str:
        b = group.checkedButton()
        return str(b.property("value")) if b is not None else ""

    def answers(self) -> core.AdvisorAnswers:
        return core.AdvisorAnswers(
            task=self._checked(self.task_group), params_millions=self.params_spin.value(),
            workload=str(self.workload_combo.currentData()), budget=self._checked(self.budget_group),
            hours_per_month=float(self.hours_spin.value()), spot_ok=self.spot_check.isChecked(),
            spot_overhead_pct=float(self.overhead_spin.value()),
            max_price_cny=self.max_price_spin.value() or None, sensitive=self.sensitive_check.isChecked(),
            data_country=str(self.country_combo.currentData() or ""),
            framework=self._checked(self.framework_group), scale=self._checked(self.scale_group),
            gpus=self.gpus_spin.value(),
        ).normalised()

    def set_answers(self, a: core.AdvisorAnswers) -> None:
        a = a.normalised()
        self._check(self.task_group, a.task)
        self.params_spin.setValue(a.params_millions)
        self.workload_combo.setCurrentIndex(max(0, self.workload_combo.findData(a.workload)))
        self._check(self.budget_group, a.budget)
        self.hours_spin.setValue(round(a.hours_per_month))
        self.spot_check.setChecked(a.spot_ok)
        self.overhead_spin.setValue(round(a.spot_overhead_pct))
        self.overhead_spin.setEnabled(a.spot_ok)
        self.max_price_spin.setValue(a.max_price_cny or 0.0)
        self.sensitive_check.setChecked(a.sensitive)
        self.country_combo.setCurrentIndex(max(0, self.country_combo.findData(a.data_country)))
        self._check(self.framework_group, a.framework)
        self._check(self.scale_group, a.scale)
        self.gpus_spin.setValue(a.gpus)
        self._sync_enabled()

    def _restore_answers(self) -> None:
        self.set_answers(saved_answers(self.ctx))

    def _save_answers(self) -> None:
        write_section(self.ctx.settings, ANSWERS_PATH, self.answers())
        try:
            self.ctx.settings_store.save(self.ctx.settings)
        except OSError as exc:
            log.warning("could not save advisor answers: %s", exc)

    def _sync_enabled(self) -> None:
        self.hours_spin.setEnabled(self._checked(self.budget_group) == "long")
        no_country = not self.country_combo.currentData()
        self.country_hint.setVisible(self.sensitive_check.isChecked() and no_country)
        scale = self._checked(self.scale_group)
        self.gpus_spin.setEnabled(scale != "single")
        if scale == "single":
            self.gpus_spin.setValue(1)
        elif self.gpus_spin.value() < 2:
            self.gpus_spin.setValue(8 if scale == "multi_gpu" else 16)

    # --- navigation -----------------------------------------------------------------------------

    def current_step(self) -> int:
        return self.stack.currentIndex()

    def go_to(self, index: int) -> None:
        index = max(0, min(RESULT_INDEX, index))
        self.stack.setCurrentIndex(index)
        for i, lab in enumerate(self.step_labels):
            if i == index:
                style = "background: palette(highlight); color: palette(highlighted-text);"
            elif i < index:
                style = "color: palette(text);"
            else:
                style = "color: palette(mid);"
            lab.setStyleSheet(f"{style} padding: 4px 8px; border-radius: 10px; font-weight: "
                              f"{'600' if i == index else '400'};")
        self.back_button.setEnabled(index > 0)
        self.next_button.setVisible(index < RESULT_INDEX)
        self.next_button.setText(self.tr("Show &recommendations") if index == STEP_COUNT - 1
                                 else self.tr("&Next >"))
        self.restart_button.setVisible(index == RESULT_INDEX)
        self.show_in_offers_button.setVisible(index == RESULT_INDEX)
        if self._ready:
            self._save_answers()
        if index == RESULT_INDEX:
            self._rank()
        else:
            self.status_label.setText(self._load_status())

    @Slot()
    def _on_next_button_clicked(self) -> None:
        self.go_to(self.current_step() + 1)

    @Slot()
    def _on_next_shortcut_activated(self) -> None:
        if self.current_step() < RESULT_INDEX:
            self.go_to(self.current_step() + 1)

    @Slot()
    def _on_back_button_clicked(self) -> None:
        if self.current_step() > 0:
            self.go_to(self.current_step() - 1)

    @Slot()
    def _on_restart_button_clicked(self) -> None:
        self.go_to(0)

    @Slot()
    def _on_show_in_offers_button_clicked(self) -> None:
        if self.result is not None:
            self.ctx.navigate("offers", self.result.ranking)

    # --- step slots -----------------------------------------------------------------------------

    @Slot(int)
    def _on_preset_combo_activated(self, index: int) -> None:
        data = self.preset_combo.itemData(index)
        if data:
            millions, task = data
            self._check(self.task_group, task)
            self.params_spin.setValue(millions)

    @Slot()
    def _on_task_inputs_changed(self, *_args: object) -> None:
        self._update_vram_hint()

    @Slot()
    def _on_data_inputs_changed(self, *_args: object) -> None:
        self._sync_enabled()

    @Slot(int, bool)
    def _on_budget_group_toggled(self, _id: int, _checked: bool) -> None:
        self._sync_enabled()

    @Slot(int, bool)
    def _on_scale_group_toggled(self, _id: int, checked: bool) -> None:
        if checked:
            self._sync_enabled()

    def _update_vram_hint(self) -> None:
        a = self.answers()
        match = next((i for i in range(1, self.preset_combo.count())
                      if self.preset_combo.itemData(i) == (a.params_millions, a.task)), 0)
        self.preset_combo.setCurrentIndex(match)
        v = core.estimate_vram(a.task, a.params_millions, a.workload)
        if v.tier_gb is not None and v.tier_gb <= 80:
            head = self.tr("About %1 GB of GPU memory: choose GPUs with at least %2 GB.") \
                .replace("%1", f"{v.gb:.1f}").replace("%2", str(v.tier_gb))
        else:
            head = self.tr("About %1 GB of GPU memory: more than most single GPUs, so choose several "
                           "GPUs (with FSDP / ZeRO-3) in step 5.").replace("%1", f"{v.gb:.0f}")
        self.vram_label.setText("<b>" + head + "</b><br>" + "<br>".join(v.breakdown))

    # --- catalog and result ---------------------------------------------------------------------

    def _start_loading(self) -> None:
        self.load_error = None
        self._loading = self.ctx.runner.run(self, load_offers, self.ctx.paths, name="advisor-catalog",
                                            on_done=self._on_catalog_loaded,
                                            on_error=self._on_catalog_failed)
        self.status_label.setText(self._load_status())

    def _load_status(self) -> str:
        if self.load_error is not None:
            return self.tr("The catalog could not be loaded; press F5 to try again.")
        if self.offers is None:
            return self.tr("Loading the offer catalog…")
        return self.tr("%1 offers in the catalog").replace("%1", str(len(self.offers)))

    @Slot(object)
    def _on_catalog_loaded(self, offers: object) -> None:
        self._loading = None
        self.offers = list(offers) if isinstance(offers, list) else []
        self._offers_by_key = {o.key: o for o in self.offers}
        self.offers_loaded.emit()
        if self.current_step() == RESULT_INDEX:
            self._rank()
        else:
            self.status_label.setText(self._load_status())

    @Slot(object)
    def _on_catalog_failed(self, exc: object) -> None:
        self._loading = None
        self.load_error = exc if isinstance(exc, BaseException) else RuntimeError(str(exc))
        self.status_label.setText(self._load_status())
        if isinstance(exc, BaseException):
            self.ctx.errors.report(exc)
        if self.current_step() == RESULT_INDEX:
            self._rank()

    def refresh(self) -> None:
        """F5: reload the catalog (live prices may have been refreshed elsewhere)."""
        if self._loading is None:
            self._start_loading()

    def shutdown(self) -> None:
        if self._loading is not None:
            self._loading.cancel()

    def _rank(self) -> None:
        self.ranked_table.setRowCount(0)
        self.excluded_table.setRowCount(0)
        if self.offers is None:
            self.summary_label.setText(self._load_status())
            self.status_label.setText(self._load_status())
            self.show_in_offers_button.setEnabled(False)
            return
        rate = effective_rate(self.ctx.settings)
        self.result = core.advise(self.offers, self.answers(), rate)
        r = self.result.ranking
        self.summary_label.setText("\n".join(self.result.summary))
        self.status_label.setText(self.tr("%1 recommended, %2 left out").replace("%1", str(len(r.items)))
                                  .replace("%2", str(len(r.excluded))))
        self.ranked_table.setRowCount(len(r.items))
        for row, item in enumerate(r.items):
            offer = self._offers_by_key.get(item.key)
            cells = [str(item.rank), self._offer_label(item.key), self._gpu_text(offer),
                     self._price_text(offer, rate), "\n".join(f"• {s}" for s in item.reasons)]
            for col, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setData(Qt.ItemDataRole.UserRole, item.key)
                if col == 4:
                    cell.setToolTip(text)
                self.ranked_table.setItem(row, col, cell)
        self.ranked_table.resizeRowsToContents()
        self.excluded_table.setRowCount(len(r.excluded))
        for row, (key, reason) in enumerate(r.excluded):
            self.excluded_table.setItem(row, 0, QTableWidgetItem(self._offer_label(key, one_line=True)))
            cell = QTableWidgetItem(reason)
            cell.setToolTip(reason)
            self.excluded_table.setItem(row, 1, cell)
        self.result_tabs.setTabText(1, self.tr("Left out, and why (%1)").replace("%1", str(len(r.excluded))))
        self.show_in_offers_button.setEnabled(True)
        if r.items:
            self.ranked_table.selectRow(0)
        else:
            self.estimator.set_offer(None)
            self.summary_label.setText(self.summary_label.text() + "\n\n" + self.tr(
                "No offer fits every answer. The table below says why each was left out; change an "
                "answer with Back."))
        self.result_ready.emit(self.result)

    @staticmethod
    def _offer_label(key: tuple[str, str, str], one_line: bool = False) -> str:
        provider, region, instance = key
        return f"{PROVIDERS.get(provider, provider)} {instance}{' · ' if one_line else chr(10)}{region}"

    @staticmethod
    def _gpu_text(offer: Offer | None) -> str:
        if offer is None:
            return ""
        return f"{offer.gpu_count:g} × {offer.gpu_model}\n{offer.vram_gb:g} GB"

    def _price_text(self, offer: Offer | None, rate: Any) -> str:
        if offer is None or offer.price_on_demand is None:
            return self.tr("unknown")
        native = format_money(offer.price_on_demand, offer.currency)
        if offer.currency == "CNY":
            return native
        cny = convert(offer.price_on_demand, offer.currency, "CNY", rate)
        return f"{native}\n≈ {format_money(cny, 'CNY')}"

    @Slot()
    def _on_ranked_table_selection_changed(self) -> None:
        rows = self.ranked_table.selectionModel().selectedRows()
        if not rows:
            return
        cell = self.ranked_table.item(rows[0].row(), 0)
        if cell is None:
            return
        key = cell.data(Qt.ItemDataRole.UserRole)
        self.estimator.set_offer(self._offers_by_key.get(tuple(key)))
