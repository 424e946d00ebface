"""What a launch is asked for and what it answers (LaunchOptions, LaunchResult), its client tokens and the
sentences CloudService.launch (app/cloud/launch.py) adds to a zone's refusal."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from app.cloud.base import PriceTooLowError
from app.core.backstops import BackstopRecord
from app.core.guards import GuardConfig
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.instances import LedgerEntry
from app.core.launch_defaults import SpotCap

LAUNCH_RETRY_HINT = QT_TRANSLATE_NOOP(
    "LabGPU",
    "The launch may have gone through: 'labgpu ls' (or the instances page) shows it within a minute. "
    "To retry safely, repeat it with --client-token {token} (the retry button does this): the same "
    "token never makes a second instance.",
)


@dataclass(frozen=True)
class LaunchOptions:
    account: str
    instance_type: str
    zone: str = ""
    image_id: str = ""
    spot: bool = False
    max_price: float | None = None  # the student's own spot maximum; None: spot_cap, else the default share
    region: str = ""  # "" = the account's default region (an offer may be in another one)
    ssh_from: str = ""  # CIDR; "" = this computer's public address
    ssh_key_path: str = ""  # "" = LabGPU's own key of a type the cloud imports (created on first use)
    disk_gb: int = 100
    name: str = ""
    client_token: str = ""  # "" = new; pass the same token to retry the same launch
    wait: bool = True  # wait until running (with its address)
    # Worked out once by the caller (app/usecases/launch.plan_launch) from the settings it was given and
    # the price it looked up; CloudService reads no settings. None: looked up here (the default share).
    spot_cap: SpotCap | None = None  # the spot maximum to send, when max_price is None
    price_source: str = ""  # where the on-demand price behind a default spot_cap came from
    zones: tuple[str, ...] | None = None  # the region's zones for this type, as listed; None: listed here
    guard: GuardConfig | None = None  # recorded with the pending launch, so a crash never loses it

    @property
    def max_runtime_hours(self) -> float | None:
        """The guard's maximum runtime, also handed to the cloud at launch (the cloud-enforced backstop)."""
        return self.guard.max_hours if self.guard is not None else None


@dataclass(frozen=True)
class LaunchResult:
    entry: LedgerEntry
    client_token: str
    notes: list[str] = field(default_factory=list)  # sentences shown after the launch (zone moves, image)
    ssh_key_path: str = ""  # the private key whose public half the cloud registered
    ssh_key_type: str = ""  # its type: "ed25519", "rsa", …
    ssh_key_fingerprint: str = ""  # "SHA256:…"
    ssh_key_own: bool = False  # LabGPU's own key (passphrase in the keyring), not one the user chose
    backstop: BackstopRecord | None = None  # the maximum runtime the cloud accepted (read back), or why not


def new_client_token() -> str:
    return "lg-" + uuid.uuid4().hex  # 35 ASCII chars: within both clouds' 64-char limit


# The next step of a capacity error in a zone the student asked for (LabGPU does not move away from it).
ZONE_KEPT_HINT = QT_TRANSLATE_NOOP("LabGPU", "{why} LabGPU kept to {zone} because you chose it: leave the zone empty (Any zone, or no --zone) to let it try the region's other zones.")  # noqa: E501 - one string for lupdate


def attempt_token(token: str, attempt: int) -> str:
    """Each zone attempt needs its own token (same token + other zone = IdempotentParameterMismatch)."""
    return token if attempt == 0 else f"{token}~{attempt}"


def lowest_price_error(errors: list[PriceTooLowError]) -> PriceTooLowError:
    """Of the zones' price refusals, the one with the lowest spot price (what the cap would need)."""

    def price(e: PriceTooLowError) -> float:
        try:
            return float(str(e.params.get("spot_price", "")))
        except ValueError:
            return float("inf")

    return min(errors, key=price)
