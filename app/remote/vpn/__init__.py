"""OpenVPN tunnels LabGPU brings up: the openvpn process, its management interface, VpnManager.

Why it is built this way:

- ``openvpn`` runs as a detached process (its own session) so the tunnel outlives the command
  that started it: ``labgpu vpn up P`` returns once CONNECTED; ``vpn status``/``vpn down`` later
  talk to the same management socket (a unix socket under the data dir's ``runtime/vpn``).
- It is started with ``--management SOCK unix --management-hold --management-query-passwords
  --auth-nocache``: nothing happens until LabGPU says ``hold release``, and every username,
  password or key passphrase is asked over the socket and answered from the keyring
  (``vpn:<profile>:username|password|key_passphrase``), so no secret is ever in a file or argv.
- OpenVPN serves one management client at a time. A CLI call holds the socket only for the
  seconds it needs; the desktop app's :class:`VpnMonitor` holds it while the app runs and keeps
  a small runtime file up to date, which ``status`` reads when the socket is busy.
- Any LabGPU process that attaches (``up``, ``ensure_up``, ``status``, the monitor) answers a
  pending credential prompt, unless the user asked for the tunnel to be down: with
  ``--auth-nocache`` OpenVPN asks again after each reconnect.

Privileges (see docs/vpn.md): creating a tun device and routes needs root. Linux as root runs
openvpn directly; a normal user gets ``pkexec openvpn …`` (polkit asks for the password) or is
told how to import the profile into NetworkManager instead. Windows needs the OpenVPN interactive
service and macOS a privileged helper (Tunnelblick); there LabGPU explains what to do.

``LABGPU_VPN_NETNS`` (tests only) runs openvpn inside that network namespace
(``ip netns exec NS openvpn …``); the management socket stays reachable because unix sockets
are not bound to a network namespace.

The modules, one job each:

- ``states``: the states a tunnel reports, :class:`VpnStatus`, :class:`VpnError`.
- ``privileges``: which openvpn to run and how it gets the rights it needs.
- ``management``: one connection to the management socket (:class:`ManagementSession`).
- ``diagnosis``: OpenVPN's messages and log lines → an error with a next step.
- ``driver``: :class:`TunnelDriver`, management lines → status, answers to prompts.
- ``pids``: the processes LabGPU started, and whether a pid is still its openvpn.
- ``store``: stored profiles and the runtime files (socket, pid, log, status).
- ``process``: starting openvpn and reading why it stopped.
- ``keeper``: the detached keeper process (:func:`run_keeper`) and its control.
- ``manager``: :class:`VpnManager`, the API the CLI, the GUI and the SSH code use.
- ``monitor``: :class:`VpnMonitor`, the desktop app's live watcher.
"""

from __future__ import annotations

from app.remote.vpn.diagnosis import credential_labels, diagnose_log
from app.remote.vpn.driver import TunnelDriver
from app.remote.vpn.keeper import run_keeper, set_keepers_enabled
from app.remote.vpn.management import ManagementBusyError, ManagementClosedError, ManagementSession
from app.remote.vpn.manager import VpnManager
from app.remote.vpn.monitor import VpnMonitor
from app.remote.vpn.privileges import (
    OPENVPN_ENV,
    PrivilegePlan,
    find_openvpn,
    privilege_plan,
    windows_interactive_service_available,
)
from app.remote.vpn.states import (
    CONNECTED,
    DISCONNECTED,
    FAILED,
    NEEDS_CREDENTIALS,
    OPENVPN_STATES,
    STARTING,
    TRANSITIONAL,
    VpnError,
    VpnStatus,
    parse_state_fields,
)
from app.remote.vpn.store import NETNS_ENV, StoredProfile

__all__ = [
    "CONNECTED",
    "DISCONNECTED",
    "FAILED",
    "NEEDS_CREDENTIALS",
    "NETNS_ENV",
    "OPENVPN_ENV",
    "OPENVPN_STATES",
    "STARTING",
    "TRANSITIONAL",
    "ManagementBusyError",
    "ManagementClosedError",
    "ManagementSession",
    "PrivilegePlan",
    "StoredProfile",
    "TunnelDriver",
    "VpnError",
    "VpnManager",
    "VpnMonitor",
    "VpnStatus",
    "credential_labels",
    "diagnose_log",
    "find_openvpn",
    "parse_state_fields",
    "privilege_plan",
    "run_keeper",
    "set_keepers_enabled",
    "windows_interactive_service_available",
]
