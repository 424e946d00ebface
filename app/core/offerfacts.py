"""What the advisor's steps need to know about an offer: GPU architecture, RDMA / NVLink, vGPU slices
(steps 4 and 5) and the country of a provider's region (step 3).

Split out of app/core/advisor.py, which re-exports these names.
"""

from __future__ import annotations

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
    # Tencent's GN7vw family is the vGPU (virtual workstation) variant of GN7.
    return offer.provider == "tencent" and offer.instance_type.upper().startswith("GN7VW")



# --- step 3: where a region is ----------------------------------------------------------------

_CN_MAINLAND_TENCENT = ("ap-guangzhou", "ap-shanghai", "ap-beijing", "ap-chengdu", "ap-chongqing",
                        "ap-nanjing", "ap-shenzhen", "ap-tianjin", "ap-qingyuan", "ap-hangzhou",
                        "ap-wuhan", "ap-changsha", "ap-shijiazhuang", "ap-jinan", "ap-fuzhou",
                        "ap-xian", "ap-zhengzhou", "ap-hefei", "ap-shenyang")
_PREFIX_COUNTRY = {
    "aws": (("us-", "US"), ("cn-", "CN"), ("ap-east-1", "HK"), ("ap-southeast-1", "SG"),
            ("ap-northeast-1", "JP"), ("ap-northeast-2", "KR"), ("ap-south-1", "IN"),
            ("ap-southeast-2", "AU"), ("ca-", "CA"), ("eu-central-1", "DE"), ("eu-west-1", "IE"),
            ("eu-west-2", "GB"), ("eu-west-3", "FR"), ("eu-north-1", "SE")),
    "azure": (("china", "CN"), ("eastus", "US"), ("westus", "US"), ("centralus", "US"),
              ("southcentralus", "US"), ("northcentralus", "US"), ("westcentralus", "US"),
              ("eastasia", "HK"), ("southeastasia", "SG"), ("japan", "JP"), ("korea", "KR"),
              ("uk", "GB"), ("northeurope", "IE"), ("westeurope", "NL"), ("germany", "DE"),
              ("swedencentral", "SE"), ("francecentral", "FR"), ("centralindia", "IN"),
              ("australia", "AU"), ("canada", "CA")),
    "gcp": (("us-", "US"), ("asia-east2", "HK"), ("asia-southeast1", "SG"), ("asia-northeast1", "JP"),
            ("asia-northeast3", "KR"), ("asia-south1", "IN"), ("europe-west3", "DE"),
            ("europe-west2", "GB"), ("europe-west4", "NL"), ("europe-west9", "FR"),
            ("australia-", "AU"), ("northamerica-", "CA")),
    "tencent": (("ap-hongkong", "HK"), ("ap-singapore", "SG"), ("ap-tokyo", "JP"), ("ap-seoul", "KR"),
                ("ap-mumbai", "IN"), ("na-siliconvalley", "US"), ("na-ashburn", "US"),
                ("eu-frankfurt", "DE"), ("na-toronto", "CA")),
    "alibaba": (("cn-hongkong", "HK"), ("cn-", "CN"), ("ap-southeast-1", "SG"), ("ap-northeast-1", "JP"),
                ("ap-northeast-2", "KR"), ("us-", "US"), ("eu-central-1", "DE"), ("eu-west-1", "GB")),
    "huawei": (("cn-south-2", "CN"), ("ap-southeast-1", "HK"), ("ap-southeast-3", "SG"), ("cn-", "CN"),
               ("af-", ""), ("la-", "")),
    "lambda": (("us-", "US"), ("asia-northeast-1", "JP"), ("asia-south-1", "IN"),
               ("europe-central-1", "DE"), ("me-west-1", "IL")),
    "paperspace": (("ny2", "US"), ("ca1", "US"), ("east coast", "US"), ("west coast", "US"),
                   ("ams1", "NL"), ("europe", "NL")),
}


def region_country(provider: str, region: str) -> str:
    """ISO country of a provider's region, '' when not known (then it never counts as in-country)."""
    r = region.strip().lower()
    if provider == "tencent" and r in _CN_MAINLAND_TENCENT:
        return "CN"
    for prefix, country in _PREFIX_COUNTRY.get(provider, ()):
        if r.startswith(prefix):
            return country
    return ""

