"""The states a tunnel reports (OpenVPN's own plus LabGPU's around the process), VpnStatus, VpnError."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

from app.core.errors import LabGpuError

# States OpenVPN reports (>STATE) plus LabGPU's own around the process.
OPENVPN_STATES = (
    "CONNECTING",
    "WAIT",
    "AUTH",
    "GET_CONFIG",
    "ASSIGN_IP",
    "ADD_ROUTES",
    "CONNECTED",
    "RECONNECTING",
    "EXITING",
    "RESOLVE",
    "TCP_CONNECT",
    "AUTH_PENDING",
)
DISCONNECTED = "DISCONNECTED"
STARTING = "STARTING"
NEEDS_CREDENTIALS = "NEEDS_CREDENTIALS"
FAILED = "FAILED"
CONNECTED = "CONNECTED"
# On the way up (or back up): LabGPU starting the process, then every OpenVPN state but the two ends
TRANSITIONAL = (STARTING, *(s for s in OPENVPN_STATES if s not in (CONNECTED, "EXITING")))


class VpnError(LabGpuError):
    """Something about a tunnel the user must act on."""


@dataclass(frozen=True)
class VpnStatus:
    """One observation of a tunnel. ``state`` is an OpenVPN state or DISCONNECTED/STARTING/
    NEEDS_CREDENTIALS/FAILED; ``since`` is the unix time the state began."""

    state: str
    local_ip: str = ""
    remote: str = ""
    since: float = 0.0
    message: str = ""

    @property
    def is_up(self) -> bool:
        return self.state == CONNECTED

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, doc: dict[str, object]) -> VpnStatus:
        return cls(
            state=str(doc.get("state") or DISCONNECTED),
            local_ip=str(doc.get("local_ip") or ""),
            remote=str(doc.get("remote") or ""),
            since=float(doc.get("since") or 0.0),  # type: ignore[arg-type]
            message=str(doc.get("message") or ""),
        )


def parse_state_fields(payload: str) -> VpnStatus:
    """``time,STATE,desc,local_ip,remote_ip,remote_port,local_addr,local_port,ipv6`` → VpnStatus."""
    parts = payload.split(",")
    parts += [""] * (9 - len(parts))
    try:
        since = float(parts[0])
    except ValueError:
        since = time.time()
    remote = parts[4]
    if remote and parts[5]:
        remote = f"{remote}:{parts[5]}"
    return VpnStatus(
        state=parts[1].strip().upper() or DISCONNECTED,
        local_ip=parts[3],
        remote=remote,
        since=since,
        message=parts[2],
    )
