"""Immutable domain records shared by the catalog, advisor, estimator and launcher."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime

from .providers import CURRENCIES, NAMES

# id → English display name of every provider (a live view of app.core.providers' registry: the
# catalog-only clouds plus the launchable plugins). Ids are what the CLI and files use.
PROVIDERS: Mapping[str, str] = NAMES

# The currency each provider bills in (China sites in CNY), from the same specs.
NATIVE_CURRENCY: Mapping[str, str] = CURRENCIES


@dataclass(frozen=True)
class GpuSpec:
    model: str  # normalised key, e.g. "A100-40GB", "H100-SXM", "T4"
    name: str  # display name, e.g. "NVIDIA A100 40GB SXM4"
    vram_gb: float
    fp16_tflops: float | None  # dense tensor FP16
    fp32_tflops: float | None
    mem_bandwidth_gbs: float | None
    source: str = ""


@dataclass(frozen=True)
class Offer:
    provider: str  # key of PROVIDERS
    region: str
    instance_type: str
    gpu_model: str  # GpuSpec.model
    gpu_count: float  # may be fractional for vGPU slices (0.5 = half a physical card)
    vram_gb: float  # per GPU the instance sees: for a vGPU slice, the slice's memory (not the card's)
    vcpu: int | None
    ram_gb: float | None
    network_gbps: float | None
    price_on_demand: float | None  # per hour, in `currency`; None = unknown
    price_spot: float | None  # per hour
    price_prepaid_month: float | None  # per month
    currency: str  # "USD" | "CNY"
    price_source: str
    price_date: date | None  # when the price was true; None = undated snapshot
    fp16_tflops: float | None = None  # per GPU, from GpuSpec
    spot_available: bool = False
    interconnect: str = ""  # "NVLink", "EFA", "RDMA", "" …
    dedicated: bool = False  # bare metal / dedicated host possible
    notes: str = ""
    live: bool = False  # True when refreshed from the provider's API
    fetched_at: datetime | None = None  # when a live price was fetched
    origin: str = ""  # "public": fetched from a public price list without an account; "" otherwise
    sold_out: bool = False
    zone: str = ""
    extra: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.provider, self.region, self.instance_type)

    @property
    def total_vram_gb(self) -> float:
        """GPU memory the instance actually gets. A vGPU slice (gpu_count < 1) is one device with
        vram_gb of memory, already the slice's share: half a T4 gets 8 GB, not 8 × 0.5."""
        if self.gpu_count <= 0:
            return 0.0
        return self.vram_gb * max(self.gpu_count, 1.0)

    @property
    def total_fp16_tflops(self) -> float | None:
        return None if self.fp16_tflops is None else self.fp16_tflops * self.gpu_count


@dataclass(frozen=True)
class RankedOffer:
    key: tuple[str, str, str]  # Offer.key
    rank: int  # 1 = best
    score: float
    reasons: tuple[str, ...]  # why it was chosen, already in the user's language


@dataclass(frozen=True)
class Ranking:
    """What the advisor hands the offers table: the ranked offers, and what it left out and why."""

    title: str
    items: tuple[RankedOffer, ...]
    excluded: tuple[tuple[tuple[str, str, str], str], ...] = ()  # (Offer.key, reason)


# What a cloud says about one instance: providers return it, the ledger (core) records it.
@dataclass(frozen=True)
class Instance:
    id: str
    account: str
    provider: str
    region: str
    zone: str
    instance_type: str
    state: str  # one of STATES
    spot: bool
    public_ip: str = ""
    private_ip: str = ""
    price_per_hour: float | None = None
    currency: str = "USD"
    launched_at: datetime | None = None  # UTC
    name: str = ""
    image_id: str = ""
    key_name: str = ""
    raw_state: str = ""
    tags: dict[str, str] = field(default_factory=dict)
