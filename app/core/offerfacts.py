"""What the advisor's steps need to know about an offer: GPU architecture, RDMA / NVLink, vGPU slices
(steps 4 and 5) and the country of a provider's region (step 3).

Split out of app/core/advisor.py, which re-exports these names.
"""

from __future__ import annotations

from . import providers
from .models import Offer

# Architecture by GpuSpec.model prefix (longest prefix wins). bf16 and TF32 arrived with Ampere.
_ARCH = {
    "P100": "pascal", "P40": "pascal", "P4": "pascal",
    "V100": "volta", "T4": "turing", "RTX2080": "turing",
    "A100": "ampere", "A800": "ampere", "A10": "ampere", "A30": "ampere", "A40": "ampere",
    "A16": "ampere", "A2": "ampere", "RTX3090": "ampere", "RTXA6000": "ampere",
    "L4": "ada", "L40": "ada", "RTX4090": "ada",
    "H100": "hopper", "H800": "hopper", "H200": "hopper", "H20": "hopper", "GH200": "hopper",
    "B200": "blackwell", "GB200": "blackwell",
}
RECENT_ARCHS = {"ampere", "ada", "hopper", "blackwell"}
# JAX/XLA is tuned for Ampere and newer (bf16, TF32); on Volta/Turing it falls back to fp16 with
# loss scaling or fp32. Rank such offers as if this much slower rather than hiding them.
JAX_OLD_GPU_PENALTY = 1.3
_RDMA_WORDS = ("efa", "infiniband", "rdma", "roce", "hpn", "gpudirect", "ib ")
_VGPU_WORDS = ("vgpu", "vws", "fractional", "grid", "mig", "1/2", "1/4", "1/8", "slice")


def gpu_arch(model: str) -> str:
    key = model.upper().replace(" ", "").replace("-", "")
    best = ""
    for prefix in _ARCH:
        if key.startswith(prefix) and len(prefix) > len(best):
            best = prefix
    return _ARCH.get(best, "")


def has_rdma(offer: Offer) -> bool:
    text = f" {offer.interconnect} ".lower()
    return any(w in text for w in _RDMA_WORDS)


def has_nvlink(offer: Offer) -> bool:
    return "nvlink" in offer.interconnect.lower() or "nvswitch" in offer.interconnect.lower()


def is_fractional(offer: Offer) -> bool:
    """A vGPU slice or a fraction of a GPU: fine for light inference, wrong for training."""
    if 0 < offer.gpu_count < 1:
        return True
    text = f"{offer.instance_type} {offer.notes}".lower()
    if any(w in text for w in _VGPU_WORDS):
        return True
    # Families a provider's spec names as vGPU variants (Tencent's GN7vw, virtual workstation GN7).
    found = providers.find_spec(offer.provider)
    prefixes = found.fractional_type_prefixes if found is not None else ()
    return bool(prefixes) and offer.instance_type.upper().startswith(prefixes)


# --- step 3: where a region is ----------------------------------------------------------------

def region_country(provider: str, region: str) -> str:
    """ISO country of a provider's region, '' when not known (then it never counts as in-country)."""
    r = region.strip().lower()
    found = providers.find_spec(provider)
    if found is None:
        return ""
    if r in found.mainland_regions:
        return "CN"
    for prefix, country in found.region_countries:
        if r.startswith(prefix):
            return country
    return ""
