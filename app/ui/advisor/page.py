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
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core import advisor as core
from app.core.currency import convert, effective_rate
from app.core.models import Offer
from app.core.settings import read_section, write_section
from app.core.vram import suggested_scale
from app.ui import theme
from app.ui.advisor.params_spin import ParamsSpinBox
from app.ui.advisor.result import AdvisorResultPanel
from app.ui.advisor.wizard import check_value, checked_value, form_layout, radio_group, step_page
from app.ui.context import AppContext
from app.ui.shared.estimator import SETTINGS_KEY
from app.ui.shared.plain import PlainLabel, esc, rich_label
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
        self._scale_from_advice = False  # step 5 was set by _follow_memory_advice, not by the user
        self._ready = False  # no settings write (nor step-5 advice) while the page builds itself
        self._build()
        self._restore_answers()
        self._update_vram_hint()
        self.go_to(0)
        self._ready = True
        self._start_loading()
        ctx.settings_changed.connect(self._on_ctx_settings_changed)

    # --- layout -------------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 16, 24, 12)
        title = PlainLabel(self.tr("Which GPU, where, and what will it cost?"), self)
        title.setStyleSheet("font-size: 20px; font-weight: 600;")
        outer.addWidget(title)

        indicator = QHBoxLayout()
        indicator.setSpacing(6)
        self.step_labels: list[QLabel] = []
        names = [self.tr("1 Task"), self.tr("2 Budget"), self.tr("3 Data"), self.tr("4 Framework"),
                 self.tr("5 Scale"), self.tr("Result")]
        for name in names:
            lab = PlainLabel(name, self)
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
        self.status_label = PlainLabel(self)
        self.status_label.setObjectName("advisorStatus")
        self.status_label.setStyleSheet("color: palette(mid);")
        buttons.addWidget(self.status_label, 1)
        self.back_button = QPushButton(self.tr("< &Back"), self)
        self.back_button.setToolTip(self.tr("Previous step (Alt+Left)"))
        self.next_button = QPushButton(self.tr("&Next >"), self)
        self.next_button.setToolTip(self.tr("Next step (Enter)"))
        self.restart_button = QPushButton(self.tr("Start &over"), self)
        self.show_in_offers_button = QPushButton(self.tr("Show in o&ffers table"), self)
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

    def _build_task_step(self) -> QWidget:
        page, lay = step_page(self, self.tr("Step 1 of 5: what are you training?"),
                              self.tr("The model size decides how much GPU memory you need."))
        self.task_group = radio_group(page, lay, [
            ("vision", self.tr("&Computer vision (CNNs, ViTs, detection, segmentation)"), ""),
            ("nlp", self.tr("N&LP / LLM (BERT, GPT, Llama, T5)"), ""),
            ("other", self.tr("&Other (speech, recommender, scientific)"), ""),
        ], "task")
        form = form_layout()
        self.preset_combo = QComboBox(page)
        self.preset_combo.addItem(self.tr("Custom size"), None)
        for name, millions, task in MODEL_PRESETS:
            self.preset_combo.addItem(f"{name} ({core.format_params(millions)})", (millions, task))
        form.addRow(self.tr("&Known model:"), self.preset_combo)
        self.params_spin = ParamsSpinBox(str(self.ctx.language).startswith("zh"), page)
        self.params_spin.setObjectName("paramsSpin")
        self.params_spin.setMinimumWidth(260)
        form.addRow(self.tr("Model &size:"), self.params_spin)
        self.workload_combo = QComboBox(page)
        self.workload_combo.addItem(self.tr("Training or fine-tuning (Adam, mixed precision)"), "train")
        self.workload_combo.addItem(self.tr("Inference only (fp16)"), "inference")
        form.addRow(self.tr("&Workload:"), self.workload_combo)
        lay.addLayout(form)
        self.vram_label = rich_label(parent=page)  # markup the UI composes; values escaped
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
        page, lay = step_page(self, self.tr("Step 2 of 5: how long, and how will you pay?"),
                              self.tr("Short experiments pay by the hour; projects of several months can "
                                      "save with a monthly prepaid plan plus spot for extra runs."))
        self.budget_group = radio_group(page, lay, [
            ("short", self.tr("&Short experiment (hours to a few days)"),
             self.tr("On-demand, or spot if your job saves checkpoints.")),
            ("long", self.tr("&Project of months"),
             self.tr("Compares a monthly prepaid price with hourly prices at your hours per month.")),
        ], "budget")
        form = form_layout()
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
        self._price_currency = "CNY"  # the cap is typed in the display currency, kept in CNY
        self._set_price_currency(self.ctx.settings.display_currency)
        self.max_price_spin.setSpecialValueText(self.tr("no limit"))
        form.addRow(self.tr("&Max price per hour:"), self.max_price_spin)
        lay.addLayout(form)
        lay.addStretch(1)
        self.budget_group.idToggled.connect(self._on_budget_group_toggled)
        self.spot_check.toggled.connect(self.overhead_spin.setEnabled)
        return page

    def _build_data_step(self) -> QWidget:
        page, lay = step_page(self, self.tr("Step 3 of 5: how sensitive is your data?"),
                              self.tr("Patient records, unpublished industry data or data under a "
                                      "contract usually need dedicated hardware in a given country."))
        self.sensitive_check = QCheckBox(self.tr("My data is &sensitive: dedicated or bare-metal "
                                                 "hardware only"), page)
        self.sensitive_check.setObjectName("sensitiveCheck")
        lay.addWidget(self.sensitive_check)
        form = form_layout()
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
        form.addRow(self.tr("Data must stay &in:"), self.country_combo)
        lay.addLayout(form)
        self.country_hint = PlainLabel(self.tr("Sensitive data usually must stay in one country: choose it "
                                           "above (for example China (mainland))."), page)
        self.country_hint.setObjectName("countryHint")
        self.country_hint.setWordWrap(True)
        self.country_hint.setStyleSheet(f"color: {theme.css('warning')};")
        lay.addWidget(self.country_hint)
        self.sensitive_check.toggled.connect(self._on_data_inputs_changed)
        self.country_combo.currentIndexChanged.connect(self._on_data_inputs_changed)
        note = PlainLabel(self.tr("Regions whose country LabGPU does not know are left out when a country is "
                              "required. Hong Kong counts separately from mainland China."), page)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        lay.addWidget(note)
        lay.addStretch(1)
        return page

    def _build_framework_step(self) -> QWidget:
        page, lay = step_page(self, self.tr("Step 4 of 5: which framework?"), "")
        self.framework_group = radio_group(page, lay, [
            ("pytorch", self.tr("&PyTorch"), self.tr("Runs on every NVIDIA GPU in the catalog.")),
            ("tensorflow", self.tr("&TensorFlow"), self.tr("Runs on every NVIDIA GPU in the catalog.")),
            ("jax", self.tr("&JAX"), self.tr("Best on Ampere or newer (A100, A10, L4, H100): bf16 and "
                                             "fast XLA kernels. Older GPUs are ranked lower.")),
        ], "framework")
        note = PlainLabel(self.tr("vGPU and fractional-GPU offers are left out for training whatever the "
                              "framework."), page)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        lay.addWidget(note)
        lay.addStretch(1)
        return page

    def _build_scale_step(self) -> QWidget:
        page, lay = step_page(self, self.tr("Step 5 of 5: how many GPUs?"), "")
        self.scale_group = radio_group(page, lay, [
            ("single", self.tr("&One GPU"), ""),
            ("multi_gpu", self.tr("&Several GPUs in one machine"), self.tr("NVLink between GPUs helps.")),
            ("multi_node", self.tr("Several &machines"),
             self.tr("Needs an RDMA-class network between machines: EFA, InfiniBand or RoCE.")),
        ], "scale")
        form = form_layout()
        self.gpus_spin = QSpinBox(page)
        self.gpus_spin.setObjectName("gpusSpin")
        self.gpus_spin.setRange(1, 1024)
        form.addRow(self.tr("&GPUs in total:"), self.gpus_spin)
        lay.addLayout(form)
        lay.addStretch(1)
        self.scale_group.idToggled.connect(self._on_scale_group_toggled)
        self.scale_group.buttonClicked.connect(self._on_scale_chosen)
        self.gpus_spin.editingFinished.connect(self._on_scale_chosen)
        return page

    def _build_result_step(self) -> QWidget:
        page, lay = step_page(self, self.tr("Recommendations"), "")
        self.result_panel = AdvisorResultPanel(self.ctx, lambda key: self._offers_by_key.get(key), page)
        # the panel's widgets, as the page has always named them
        self.summary_label = self.result_panel.summary_label
        self.ranked_table = self.result_panel.ranked_table
        self.result_tabs = self.result_panel.result_tabs
        self.estimator = self.result_panel.estimator
        self.excluded_table = self.result_panel.excluded_table
        lay.addWidget(self.result_panel, 1)
        return page

    # --- answers <-> widgets --------------------------------------------------------------------

    def answers(self) -> core.AdvisorAnswers:
        return core.AdvisorAnswers(
            task=checked_value(self.task_group), params_millions=self.params_spin.value(),
            workload=str(self.workload_combo.currentData()), budget=checked_value(self.budget_group),
            hours_per_month=float(self.hours_spin.value()), spot_ok=self.spot_check.isChecked(),
            spot_overhead_pct=float(self.overhead_spin.value()),
            max_price_cny=self._max_price_cny(), sensitive=self.sensitive_check.isChecked(),
            data_country=str(self.country_combo.currentData() or ""),
            framework=checked_value(self.framework_group), scale=checked_value(self.scale_group),
            gpus=self.gpus_spin.value(),
        ).normalised()

    def set_answers(self, a: core.AdvisorAnswers) -> None:
        a = a.normalised()
        check_value(self.task_group, a.task)
        self.params_spin.setValue(a.params_millions)
        self.workload_combo.setCurrentIndex(max(0, self.workload_combo.findData(a.workload)))
        check_value(self.budget_group, a.budget)
        self.hours_spin.setValue(round(a.hours_per_month))
        self.spot_check.setChecked(a.spot_ok)
        self.overhead_spin.setValue(round(a.spot_overhead_pct))
        self.overhead_spin.setEnabled(a.spot_ok)
        self._show_max_price(a.max_price_cny)
        self.sensitive_check.setChecked(a.sensitive)
        self.country_combo.setCurrentIndex(max(0, self.country_combo.findData(a.data_country)))
        check_value(self.framework_group, a.framework)
        check_value(self.scale_group, a.scale)
        self.gpus_spin.setValue(a.gpus)
        self._sync_enabled()

    def _max_price_cny(self) -> float | None:
        value = self.max_price_spin.value()
        if not value:
            return None
        if self._price_currency == "CNY":
            return value
        return round(convert(value, self._price_currency, "CNY", effective_rate(self.ctx.settings)) or 0, 2)

    def _show_max_price(self, cny: float | None) -> None:
        if not cny or self._price_currency == "CNY":
            self.max_price_spin.setValue(cny or 0.0)
        else:
            self.max_price_spin.setValue(round(convert(cny, "CNY", self._price_currency,
                                                       effective_rate(self.ctx.settings)) or 0, 2))

    def _set_price_currency(self, currency: str) -> None:
        cny = self._max_price_cny() if hasattr(self, "max_price_spin") else None
        self._price_currency = "USD" if currency == "USD" else "CNY"
        self.max_price_spin.setPrefix("$" if self._price_currency == "USD" else "¥")
        self._show_max_price(cny)

    @Slot()
    def _on_ctx_settings_changed(self) -> None:
        if self.ctx.settings.display_currency != self._price_currency:
            self._set_price_currency(self.ctx.settings.display_currency)

    def _restore_answers(self) -> None:
        self.set_answers(saved_answers(self.ctx))

    def _save_answers(self) -> None:
        write_section(self.ctx.settings, ANSWERS_PATH, self.answers())
        try:
            self.ctx.settings_store.save(self.ctx.settings)
        except OSError as exc:
            log.warning("could not save advisor answers: %s", exc)

    def _sync_enabled(self) -> None:
        self.hours_spin.setEnabled(checked_value(self.budget_group) == "long")
        no_country = not self.country_combo.currentData()
        self.country_hint.setVisible(self.sensitive_check.isChecked() and no_country)
        scale = checked_value(self.scale_group)
        self.gpus_spin.setEnabled(scale != "single")
        if scale == "single":
            self.gpus_spin.setValue(1)
        elif self.gpus_spin.value() < 2:
            self.gpus_spin.setValue(8 if scale == "multi_gpu" else 16)

    # --- navigation -----------------------------------------------------------------------------

    def language_state(self) -> object:
        """What a language switch must keep (the window rebuilds its pages): the step; the answers are
        saved in the settings and come back with them."""
        self._save_answers()
        return {"step": self.current_step()}

    def restore_language_state(self, state: object) -> None:
        if isinstance(state, dict) and isinstance(state.get("step"), int):
            self.go_to(state["step"])

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
            check_value(self.task_group, task)
            self.params_spin.setValue(millions)

    @Slot()
    def _on_task_inputs_changed(self, *_args: object) -> None:
        self._update_vram_hint()
        if self._ready:
            self._follow_memory_advice()

    def _follow_memory_advice(self) -> None:
        """Step 5 follows step 1: a model that needs several GPUs preselects them (one GPU would rank
        nothing), a model that fits one GPU goes back to one GPU."""
        a = self.answers()
        scale, gpus = suggested_scale(core.estimate_vram(a.task, a.params_millions, a.workload))
        if scale == "single":
            if a.scale != "single" and self._scale_from_advice:
                check_value(self.scale_group, "single")
            return
        if a.scale == "single" or self._scale_from_advice:
            check_value(self.scale_group, scale)
            self.gpus_spin.setValue(gpus)
            self._scale_from_advice = True

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

    @Slot()
    def _on_scale_chosen(self) -> None:
        self._scale_from_advice = False  # the user's own choice from now on

    def _update_vram_hint(self) -> None:
        a = self.answers()
        match = next((i for i in range(1, self.preset_combo.count())
                      if self.preset_combo.itemData(i) == (a.params_millions, a.task)), 0)
        self.preset_combo.setCurrentIndex(match)
        v = core.estimate_vram(a.task, a.params_millions, a.workload)
        if v.tier_gb is not None and v.tier_gb <= 80:
            head = self.tr("About {gb} GB of GPU memory: choose GPUs with at least {tier_gb} GB.").format(
                gb=f"{v.gb:.1f}", tier_gb=str(v.tier_gb))
        else:
            head = self.tr("About {gb} GB of GPU memory: more than most single GPUs, so choose several "
                           "GPUs (with FSDP / ZeRO-3) in step 5.").format(gb=f"{v.gb:.0f}")
        self.vram_label.setText("<b>" + esc(head) + "</b><br>" + "<br>".join(esc(b) for b in v.breakdown))

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
        return self.tr("{count} offers in the catalog").format(count=str(len(self.offers)))

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

    def status_text(self, fit: int, excluded: int) -> str:
        """What the result lists: the best few (with their reasons) of the offers that fit."""
        from app.ui.advisor.result import TOP

        if fit > TOP:
            return self.tr("The {top} best of {fit} offers that fit ({excluded} left out)").format(
                top=str(TOP), fit=str(fit), excluded=str(excluded))
        return self.tr("{fit} offers fit ({excluded} left out)").format(
            fit=str(fit), excluded=str(excluded))

    def _rank(self) -> None:
        self.result_panel.clear()
        if self.offers is None:
            self.summary_label.setText(self._load_status())
            self.status_label.setText(self._load_status())
            self.show_in_offers_button.setEnabled(False)
            return
        rate = effective_rate(self.ctx.settings)
        self.result = core.advise(self.offers, self.answers(), rate)
        r = self.result.ranking
        self.result_panel.set_summary(self.result)
        self.status_label.setText(self.status_text(len(r.items), len(r.excluded)))
        self.result_panel.show_result(self.result, rate)
        self.show_in_offers_button.setEnabled(True)
        self.result_panel.select_best(self.result)
        self.result_ready.emit(self.result)
