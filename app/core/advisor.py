"""The five questions students ask before renting a GPU, turned into a ranked list with reasons.

1. Task and model size → how much GPU memory the job needs (``estimate_vram``).
2. Budget model: a short experiment pays by the hour (spot if it can be interrupted); a project of
   months compares prepaid with hourly at the planned hours per month.
3. Data sensitivity: sensitive data needs dedicated hardware; data that must stay in a country
   needs a region in that country.
4. Framework: PyTorch and TensorFlow run on every NVIDIA GPU here; JAX favours Ampere or newer
   (bf16); fractional/vGPU slices are not for training.
5. Scale: one GPU, several in one machine (NVLink helps), or several machines (needs an RDMA-class
   network: EFA, InfiniBand, RoCE).

Every offer ends either ranked, with the reasons it was chosen, or excluded, with the reason why.
Offers whose price is unknown rank after every priced one. The VRAM rules are the usual ones
(mixed-precision Adam keeps ~16 bytes per parameter: fp16 weights and gradients, fp32 master
weights and two fp32 Adam moments; fp16 inference keeps 2 bytes per parameter), not the claims of
the background articles.

Step 1 (the VRAM estimate) lives in vram.py and the offer facts the steps test (GPU architecture,
interconnect, vGPU slices, the country of a region) in offerfacts.py; both are re-exported here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from .costs import HOURS_PER_MONTH, break_even_hours
from .currency import ExchangeRate, convert, default_rate, format_money, money_text
from .i18n import QT_TRANSLATE_NOOP, translate
from .models import Offer, RankedOffer, Ranking
from .offerfacts import JAX_OLD_GPU_PENALTY as JAX_OLD_GPU_PENALTY
from .offerfacts import RECENT_ARCHS
from .offerfacts import gpu_arch as gpu_arch
from .offerfacts import has_nvlink as has_nvlink
from .offerfacts import has_rdma as has_rdma
from .offerfacts import is_fractional as is_fractional
from .offerfacts import region_country as region_country
from .providers import display_name
from .vram import ACTIVATION_ANCHOR as ACTIVATION_ANCHOR
from .vram import FRAMEWORK_OVERHEAD_GB as FRAMEWORK_OVERHEAD_GB
from .vram import INFER_ACTIVATION_FACTOR as INFER_ACTIVATION_FACTOR
from .vram import INFER_BYTES as INFER_BYTES
from .vram import SHARDED_ACTIVATION_SHARE as SHARDED_ACTIVATION_SHARE
from .vram import TRAIN_STATE_BYTES as TRAIN_STATE_BYTES
from .vram import TRAIN_STATE_BYTES_HIGH as TRAIN_STATE_BYTES_HIGH
from .vram import VRAM_TIERS as VRAM_TIERS
from .vram import VramEstimate as VramEstimate
from .vram import estimate_vram as estimate_vram
from .vram import gb_text

# --- answers ---------------------------------------------------------------------------------

TASKS = ("vision", "nlp", "other")
WORKLOADS = ("train", "inference")
BUDGETS = ("short", "long")
FRAMEWORKS = ("pytorch", "tensorflow", "jax")
SCALES = ("single", "multi_gpu", "multi_node")
# "" = anywhere. ISO 3166 codes; HK is its own jurisdiction for data rules, so it is not CN.
COUNTRIES = ("", "CN", "US", "HK", "SG", "JP", "DE", "GB", "IE", "NL", "SE", "KR", "IN", "AU", "CA", "FR")


@dataclass(frozen=True)
class AdvisorAnswers:
    task: str = "nlp"
    params_millions: float = 340.0  # BERT-large
    workload: str = "train"  # training or fine-tuning with Adam | inference
    budget: str = "short"
    hours_per_month: float = 200.0  # only for budget "long"
    spot_ok: bool = True  # the job checkpoints and can be interrupted
    spot_overhead_pct: float = 15.0
    max_price_cny: float | None = None  # per instance-hour, None = no limit
    sensitive: bool = False
    data_country: str = ""
    framework: str = "pytorch"
    scale: str = "single"
    gpus: int = 1  # GPUs wanted for multi_gpu / multi_node

    def normalised(self) -> AdvisorAnswers:
        """The same answers with every value inside its allowed set (settings may be stale)."""
        def pick(value: str, allowed: Sequence[str], default: str) -> str:
            return value if value in allowed else default

        params = self.params_millions if _finite_positive(self.params_millions) else 340.0
        gpus = self.gpus if isinstance(self.gpus, int) and 1 <= self.gpus <= 1024 else 1
        scale = pick(self.scale, SCALES, "single")
        if scale == "single":
            gpus = 1
        elif gpus < 2:
            gpus = 2 if scale == "multi_gpu" else 16
        hours = self.hours_per_month if _finite_positive(self.hours_per_month) else 200.0
        overhead = self.spot_overhead_pct if _finite(self.spot_overhead_pct) and \
            0 <= self.spot_overhead_pct <= 500 else 15.0
        max_price = self.max_price_cny if _finite_positive(self.max_price_cny) else None
        return replace(
            self, task=pick(self.task, TASKS, "nlp"), params_millions=float(params),
            workload=pick(self.workload, WORKLOADS, "train"), budget=pick(self.budget, BUDGETS, "short"),
            hours_per_month=float(min(hours, HOURS_PER_MONTH)), spot_overhead_pct=float(overhead),
            max_price_cny=max_price, data_country=pick(self.data_country.upper(), COUNTRIES, ""),
            framework=pick(self.framework, FRAMEWORKS, "pytorch"), scale=scale, gpus=gpus)


def _finite(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _finite_positive(value: object) -> bool:
    return _finite(value) and float(value) > 0  # type: ignore[arg-type]


# --- the ranking -------------------------------------------------------------------------------

R_PRICE_UNKNOWN = QT_TRANSLATE_NOOP("LabGPU", "price unknown")


@dataclass(frozen=True)
class AdvisorResult:
    ranking: Ranking
    vram: VramEstimate
    answers: AdvisorAnswers
    summary: tuple[str, ...] = field(default_factory=tuple)  # translated, one line per step


@dataclass
class _Candidate:
    offer: Offer
    cost: float | None  # CNY per hour (short) or per month (long) for the whole configuration
    work: float | None  # useful FP16 TFLOPS of the configuration
    reasons: list[str]
    nodes: int = 1
    penalty: float = 1.0  # > 1: ranked as if this much slower (JAX on pre-Ampere GPUs)
    used: float = 1.0  # GPUs of the configuration the job uses


def _t(template: str, **params: object) -> str:
    return translate(template).format(**params)


def _money(amount: float | None, currency: str, rate: ExchangeRate) -> str:
    if amount is None:
        return money_text(None, currency)
    text = format_money(amount, currency)
    if currency.upper() != "CNY":
        text += f" (≈ {format_money(convert(amount, currency, 'CNY', rate), 'CNY')})"
    return text


def _cny(amount: float | None, currency: str, rate: ExchangeRate) -> float | None:
    if amount is None:
        return None
    try:
        return convert(amount, currency, "CNY", rate)
    except ValueError:
        return None


def advise(offers: Iterable[Offer], answers: AdvisorAnswers, rate: ExchangeRate | None = None,
           today: date | None = None) -> AdvisorResult:
    """Rank `offers` for `answers`. Pure: the same inputs always give the same ranking."""
    rate = rate or default_rate()
    a = answers.normalised()
    vram = estimate_vram(a.task, a.params_millions, a.workload)
    need = float(vram.tier_gb) if vram.tier_gb is not None else vram.gb
    ranked: list[_Candidate] = []
    excluded: list[tuple[tuple[str, str, str], str]] = []
    for offer in offers:
        verdict = _consider(offer, a, vram, need, rate)
        if isinstance(verdict, str):
            excluded.append((offer.key, verdict))
        else:
            ranked.append(verdict)

    def sort_key(c: _Candidate) -> tuple[int, float, float, str]:
        if c.cost is None:
            # Unknown price: the closest fit first (fewest idle GPUs, then the least spare memory).
            idle = max(c.offer.gpu_count * c.nodes - c.used, 0.0)
            return (2, idle, c.offer.vram_gb, _label(c.offer))
        if a.workload == "inference" or not c.work:
            # Inference: the cheapest configuration that fits. Unknown speed: after known speed.
            return (0 if a.workload == "inference" else 1, c.cost * c.penalty, 0.0, _label(c.offer))
        return (0, c.cost * c.penalty / c.work, c.cost, _label(c.offer))

    ranked.sort(key=sort_key)
    items = []
    for i, c in enumerate(ranked, start=1):
        key = sort_key(c)
        items.append(RankedOffer(c.offer.key, i, round(-1.0 if key[0] == 2 else key[1], 6), tuple(c.reasons)))
    title = _t(QT_TRANSLATE_NOOP("LabGPU", "Advisor: {task}, {params} parameters, ≥ {vram} GB, {scale}"),
               task=translate(TASK_NAMES[a.task]), params=format_params(a.params_millions),
               vram=f"{need:g}" if vram.tier_gb is not None else gb_text(need),
               scale=translate(SCALE_NAMES[a.scale]))
    ranking = Ranking(title, tuple(items), tuple(excluded))
    return AdvisorResult(ranking, vram, a, _summary(a, vram, need))


def _label(offer: Offer) -> str:
    return f"{offer.provider}/{offer.region}/{offer.instance_type}"


def format_params(millions: float) -> str:
    if millions >= 1000:
        return f"{millions / 1000:g}B"
    return f"{millions:g}M"


TASK_NAMES = {
    "vision": QT_TRANSLATE_NOOP("LabGPU", "computer vision"),
    "nlp": QT_TRANSLATE_NOOP("LabGPU", "NLP / LLM"),
    "other": QT_TRANSLATE_NOOP("LabGPU", "other"),
}
SCALE_NAMES = {
    "single": QT_TRANSLATE_NOOP("LabGPU", "one GPU"),
    "multi_gpu": QT_TRANSLATE_NOOP("LabGPU", "several GPUs in one machine"),
    "multi_node": QT_TRANSLATE_NOOP("LabGPU", "several machines"),
}
FRAMEWORK_NAMES = {"pytorch": "PyTorch", "tensorflow": "TensorFlow", "jax": "JAX"}


def _summary(a: AdvisorAnswers, vram: VramEstimate, need: float) -> tuple[str, ...]:
    task_text = translate(TASK_NAMES[a.task])
    lines = [_t(QT_TRANSLATE_NOOP("LabGPU", "1. {task}, {params} parameters ({mode}): about {gb} GB of "
                                            "GPU memory, so at least {need} GB"),
                task=task_text[:1].upper() + task_text[1:], params=format_params(a.params_millions),
                mode=translate(WORKLOAD_NAMES[a.workload]), gb=gb_text(vram.gb), need=f"{need:g}")]
    if a.budget == "short":
        lines.append(translate(QT_TRANSLATE_NOOP("LabGPU", "2. Short experiment: pay by the hour, spot "
                                                           "when the job can be interrupted"))
                     if a.spot_ok else
                     translate(QT_TRANSLATE_NOOP("LabGPU", "2. Short experiment: pay by the hour, "
                                                           "on-demand")))
    else:
        lines.append(_t(QT_TRANSLATE_NOOP("LabGPU", "2. Project of months at {hours} h/month: prepaid where "
                                                    "it wins, spot for extra runs"),
                        hours=f"{a.hours_per_month:g}"))
    if a.sensitive or a.data_country:
        where = a.data_country or translate(QT_TRANSLATE_NOOP("LabGPU", "any country"))
        lines.append(_t(QT_TRANSLATE_NOOP("LabGPU", "3. Data: {kind}; must stay in: {where}"),
                        kind=translate(QT_TRANSLATE_NOOP("LabGPU", "sensitive, dedicated hardware only")
                                       if a.sensitive else QT_TRANSLATE_NOOP("LabGPU", "not sensitive")),
                        where=where))
    else:
        lines.append(translate(QT_TRANSLATE_NOOP("LabGPU", "3. Data: not sensitive, any region")))
    lines.append(_t(QT_TRANSLATE_NOOP("LabGPU", "4. Framework: {fw}"), fw=FRAMEWORK_NAMES[a.framework]))
    if a.scale == "single":
        lines.append(translate(QT_TRANSLATE_NOOP("LabGPU", "5. Scale: one GPU")))
    else:
        lines.append(_t(QT_TRANSLATE_NOOP("LabGPU", "5. Scale: {scale}, {gpus} GPUs in total"),
                        scale=translate(SCALE_NAMES[a.scale]), gpus=a.gpus))
    return tuple(lines)


WORKLOAD_NAMES = {
    "train": QT_TRANSLATE_NOOP("LabGPU", "training / fine-tuning"),
    "inference": QT_TRANSLATE_NOOP("LabGPU", "inference"),
}


def _consider(offer: Offer, a: AdvisorAnswers, vram: VramEstimate, need: float,
              rate: ExchangeRate) -> _Candidate | str:
    """A ranked candidate with its reasons, or the translated reason it is excluded."""
    reasons: list[str] = []
    if offer.sold_out:
        return translate(QT_TRANSLATE_NOOP("LabGPU", "sold out in this region"))
    gpus_here = offer.gpu_count if offer.gpu_count > 0 else 0.0
    if gpus_here <= 0:
        return translate(QT_TRANSLATE_NOOP("LabGPU", "no GPU in this offer"))

    # Step 4 first for fractional GPUs: they can never train, whatever the memory.
    if is_fractional(offer) and a.workload == "train":
        return translate(QT_TRANSLATE_NOOP("LabGPU", "vGPU / fractional GPU: not suitable for training"))

    # Step 5 and step 1 together: how many GPUs and machines, and is there enough memory.
    nodes = 1
    if a.scale == "single":
        if offer.vram_gb + 1e-9 < need:
            return _t(QT_TRANSLATE_NOOP("LabGPU", "{have} GB per GPU, the job needs {need} GB"),
                      have=f"{offer.vram_gb:g}", need=f"{need:g}")
        used = 1.0
        if gpus_here > 1:
            reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "has {n} GPUs: you would pay for {idle} idle ones"),
                              n=f"{gpus_here:g}", idle=f"{gpus_here - 1:g}"))
    elif a.scale == "multi_gpu":
        if gpus_here < a.gpus:
            if gpus_here == 1:
                return _t(QT_TRANSLATE_NOOP("LabGPU", "only 1 GPU in one machine, you asked for {want}"),
                          want=a.gpus)
            return _t(QT_TRANSLATE_NOOP("LabGPU", "only {n} GPUs in one machine, you asked for {want}"),
                      n=f"{gpus_here:g}", want=a.gpus)
        used = float(a.gpus)
        if gpus_here > a.gpus:
            reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "has {n} GPUs: you would pay for {idle} idle ones"),
                              n=f"{gpus_here:g}", idle=f"{gpus_here - a.gpus:g}"))
    else:
        if not has_rdma(offer):
            if has_nvlink(offer):
                return translate(QT_TRANSLATE_NOOP("LabGPU", "NVLink joins GPUs inside one machine "
                                                             "only; several machines need RDMA (EFA, "
                                                             "InfiniBand, RoCE)"))
            return translate(QT_TRANSLATE_NOOP("LabGPU", "no RDMA-class network (EFA, InfiniBand, RoCE) "
                                                         "between machines"))
        nodes = max(1, math.ceil(a.gpus / gpus_here - 1e-9))
        used = float(a.gpus)
        template = (QT_TRANSLATE_NOOP("LabGPU", "1 machine × {n} GPUs, joined by {net}") if nodes == 1
                    else QT_TRANSLATE_NOOP("LabGPU", "{nodes} machines × {n} GPUs, joined by {net}"))
        reasons.append(_t(template, nodes=nodes, n=f"{gpus_here:g}", net=offer.interconnect))
    if a.scale != "single":
        per_gpu_ok = offer.vram_gb + 1e-9 >= need
        sharded = vram.sharded_gb(used)
        if not per_gpu_ok and offer.vram_gb + 1e-9 < sharded:
            return _t(QT_TRANSLATE_NOOP("LabGPU", "{have} GB per GPU, the job needs {need} GB per GPU even "
                                                  "when sharded over {gpus} GPUs (FSDP / ZeRO-3, "
                                                  "activation checkpointing)"),
                      have=f"{offer.vram_gb:g}", need=gb_text(sharded), gpus=f"{used:g}")
        if per_gpu_ok:
            reasons.insert(0, _t(QT_TRANSLATE_NOOP("LabGPU", "{have} GB per GPU ≥ {need} GB needed: "
                                                             "plain data parallel works"),
                                 have=f"{offer.vram_gb:g}", need=f"{need:g}"))
        else:
            reasons.insert(0, _t(QT_TRANSLATE_NOOP("LabGPU", "{have} GB per GPU ≥ {need} GB per GPU "
                                                             "when sharded over {gpus} GPUs: needs FSDP / "
                                                             "ZeRO-3 and activation checkpointing"),
                                 have=f"{offer.vram_gb:g}", need=gb_text(sharded), gpus=f"{used:g}"))
        if a.scale == "multi_gpu" and has_nvlink(offer):
            reasons.append(translate(QT_TRANSLATE_NOOP("LabGPU", "NVLink between the GPUs")))
        elif a.scale == "multi_gpu" and used > 1:
            reasons.append(translate(QT_TRANSLATE_NOOP("LabGPU", "no NVLink: GPUs talk over PCIe, slower "
                                                                 "gradient exchange")))
    else:
        reasons.insert(0, _t(QT_TRANSLATE_NOOP("LabGPU", "{have} GB per GPU ≥ {need} GB needed"),
                             have=f"{offer.vram_gb:g}", need=f"{need:g}"))
    if is_fractional(offer):
        reasons.append(translate(QT_TRANSLATE_NOOP("LabGPU", "vGPU / fractional GPU: inference only")))

    # Step 3: data sensitivity and country.
    if a.sensitive and not offer.dedicated:
        return translate(QT_TRANSLATE_NOOP("LabGPU", "shared hardware; sensitive data needs a dedicated "
                                                     "or bare-metal offer"))
    if a.sensitive:
        reasons.append(translate(QT_TRANSLATE_NOOP("LabGPU", "dedicated / bare-metal hardware available")))
    if a.data_country:
        country = region_country(offer.provider, offer.region)
        if not country:
            return _t(QT_TRANSLATE_NOOP("LabGPU", "region {region}: country not known, data must stay in "
                                                  "{country}"), region=offer.region, country=a.data_country)
        if country != a.data_country:
            return _t(QT_TRANSLATE_NOOP("LabGPU", "region {region} is in {where}, data must stay in "
                                                  "{country}"),
                      region=offer.region, where=country, country=a.data_country)
        reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "region {region} is in {country}"),
                          region=offer.region, country=country))

    # Step 4: framework.
    penalty = 1.0
    arch = gpu_arch(offer.gpu_model)
    if a.framework == "jax":
        if arch in RECENT_ARCHS:
            reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "JAX: {gpu} is Ampere or newer (bf16, fast XLA "
                                                          "kernels)"), gpu=offer.gpu_model))
        elif arch:
            penalty = JAX_OLD_GPU_PENALTY
            reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "JAX: {gpu} is older than Ampere (no bf16): "
                                                          "ranked as if {pct} % slower"),
                              gpu=offer.gpu_model, pct=f"{(JAX_OLD_GPU_PENALTY - 1) * 100:.0f}"))
        else:
            return _t(QT_TRANSLATE_NOOP("LabGPU", "JAX: GPU {gpu} is not a known NVIDIA GPU"),
                      gpu=offer.gpu_model)
    elif not arch:
        reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "{fw}: GPU {gpu} is not in the list of known "
                                                      "NVIDIA GPUs; check driver support"),
                          fw=FRAMEWORK_NAMES[a.framework], gpu=offer.gpu_model))

    # Step 2: budget model → the cost that ranks.
    cur = offer.currency
    # a price that is not a positive finite number is no price (a broken or hostile list said 0 or ∞):
    # it must never rank an offer first as "free"
    od = offer.price_on_demand if _finite_positive(offer.price_on_demand) else None
    spot = offer.price_spot if _finite_positive(offer.price_spot) else None
    month = offer.price_prepaid_month if _finite_positive(offer.price_prepaid_month) else None
    overhead = 1.0 + a.spot_overhead_pct / 100.0
    hourly_rate: float | None  # CNY per instance-hour of useful work
    cost: float | None
    if a.budget == "short":
        use_spot = a.spot_ok and spot is not None and (od is None or spot * overhead < od)
        if use_spot:
            assert spot is not None
            hourly_rate = _cny(spot * overhead, cur, rate)
            reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "spot {price}/h, {overhead} % extra time for "
                                                          "interruptions included"),
                              price=_money(spot, cur, rate), overhead=f"{a.spot_overhead_pct:g}"))
            if od:
                reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "{pct} % cheaper than on-demand"),
                                  pct=f"{(1 - spot * overhead / od) * 100:.0f}"))
        elif od is not None:
            hourly_rate = _cny(od, cur, rate)
            reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "on-demand {price}/h"),
                              price=_money(od, cur, rate)))
            if a.spot_ok and spot is None:
                reasons.append(translate(QT_TRANSLATE_NOOP("LabGPU", "no spot price known for this offer")))
        else:
            hourly_rate = None
        cost = None if hourly_rate is None else hourly_rate * nodes
    else:
        hours = a.hours_per_month
        options: list[tuple[float, str]] = []
        if od is not None:
            options.append((od * hours, "od"))
        if month is not None:
            options.append((month, "prepaid"))
        if a.spot_ok and spot is not None:
            options.append((spot * overhead * hours, "spot"))
        if options:
            best_native, kind = min(options)
            monthly_cny = _cny(best_native, cur, rate)
            cost = None if monthly_cny is None else monthly_cny * nodes
            hourly_rate = None if monthly_cny is None else monthly_cny / hours
            be = break_even_hours(month, od)
            if kind == "prepaid":
                reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "prepaid {price}/month beats on-demand "
                                                              "above {be} h/month; you plan {hours}"),
                                  price=_money(month, cur, rate),
                                  be=f"{be:,.0f}" if be is not None else "?", hours=f"{hours:g}"))
                if a.spot_ok and spot is not None:
                    reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "add spot at {price}/h for extra runs "
                                                                  "beyond the prepaid base"),
                                      price=_money(spot, cur, rate)))
            elif kind == "spot":
                reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "spot {price}/h × {hours} h/month "
                                                              "(+{overhead} % for interruptions) is the "
                                                              "cheapest way"),
                                  price=_money(spot, cur, rate), hours=f"{hours:g}",
                                  overhead=f"{a.spot_overhead_pct:g}"))
                if month is not None:
                    reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "prepaid {price}/month for a steady base"),
                                      price=_money(month, cur, rate)))
            else:
                reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "on-demand {price}/h × {hours} h/month"),
                                  price=_money(od, cur, rate), hours=f"{hours:g}"))
                if be is not None and be <= HOURS_PER_MONTH:
                    reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "prepaid wins only above {be} h/month"),
                                      be=f"{be:,.0f}"))
                elif month is None:
                    reasons.append(translate(QT_TRANSLATE_NOOP("LabGPU", "no prepaid price known")))
        else:
            cost = hourly_rate = None

    if cost is None:
        reasons.append(translate(R_PRICE_UNKNOWN))
    elif a.max_price_cny is not None and hourly_rate is not None \
            and hourly_rate * nodes > a.max_price_cny + 1e-9:
        return _t(QT_TRANSLATE_NOOP("LabGPU", "{price} per hour is above your limit of {limit}"),
                  price=format_money(hourly_rate * nodes, "CNY"), limit=format_money(a.max_price_cny, "CNY"))

    work = None
    if offer.fp16_tflops:
        work = offer.fp16_tflops * used
        if a.workload == "train" and cost is not None:
            per = cost / work
            unit = translate(QT_TRANSLATE_NOOP("LabGPU", "per FP16-TFLOP-hour") if a.budget == "short"
                             else QT_TRANSLATE_NOOP("LabGPU", "per FP16-TFLOP-month"))
            reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "{cost} {unit} for the GPUs you use ({tflops} "
                                                          "TFLOPS)"),
                              cost=format_money(per, "CNY"), unit=unit, tflops=f"{work:,.0f}"))
    elif a.workload == "train":
        reasons.append(translate(QT_TRANSLATE_NOOP("LabGPU", "speed unknown (no FP16 TFLOPS figure): ranked "
                                                             "after offers with a known speed")))
    if offer.price_date is not None:
        reasons.append(_t(QT_TRANSLATE_NOOP("LabGPU", "price as of {date}"),
                          date=offer.price_date.isoformat()))
    elif cost is not None:
        reasons.append(translate(QT_TRANSLATE_NOOP("LabGPU", "price from an undated snapshot")))
    return _Candidate(offer, cost, work, reasons, nodes, penalty, used)


def provider_name(provider: str) -> str:
    return display_name(provider)
