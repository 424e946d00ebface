"""What a launch uses when the user leaves a field empty: one rule for the launch dialog and `labgpu launch`.

- Region: the one asked for (an offer may be in another region than the account's), else the
  account's region.
- Zone: the one asked for, else "" (any zone: the launcher tries each on capacity errors).
- Spot maximum price: the user's own cap (more than 0), else the settings' share of the on-demand
  price (``spot_bid_fraction``, default 80 %), rounded to 4 decimals; unknown when the on-demand
  price is. A non-spot launch has no cap unless the user gave one.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP

DEFAULT_SPOT_BID_FRACTION = 0.8  # of the on-demand price


@dataclass(frozen=True)
class SpotCap:
    price: float  # per hour, in the provider's currency
    fraction: float | None  # its share of on-demand (None: the user's cap with on-demand unknown)
    default: bool  # the settings' share of on-demand, not a price the user chose


@dataclass(frozen=True)
class LaunchDefaults:
    region: str
    zone: str  # "" = any zone
    spot_cap: SpotCap | None  # None: on-demand without a cap, or a spot default with on-demand unknown


def spot_cap(
    on_demand: float | None, fraction: float = DEFAULT_SPOT_BID_FRACTION, user_cap: float | None = None
) -> SpotCap | None:
    """The spot maximum: ``user_cap`` when given (InputError BadMaxPrice unless more than 0), else
    ``fraction`` × ``on_demand``; None when neither is known."""
    if user_cap is not None:
        if user_cap <= 0:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "The maximum price must be more than 0."),
                QT_TRANSLATE_NOOP("LabGPU", "Pass --max-price in the provider's currency per hour."),
                code="BadMaxPrice",
            )
        return SpotCap(user_cap, user_cap / on_demand if on_demand else None, False)
    if on_demand is None:
        return None
    return SpotCap(round(on_demand * fraction, 4), fraction, True)


def launch_defaults(
    account_region: str,
    *,
    spot: bool,
    on_demand: float | None = None,
    fraction: float = DEFAULT_SPOT_BID_FRACTION,
    max_price: float | None = None,
    region: str = "",
    zone: str = "",
) -> LaunchDefaults:
    """The region, zone and spot maximum a launch uses for what was left empty."""
    cap = spot_cap(on_demand if spot else None, fraction, max_price)
    return LaunchDefaults(region or account_region, zone, cap)
