"""SSH connections to saved hosts: key / agent / password auth, ~/.ssh/config, ProxyJump, VPN.

Threading contract (the sync engine and the UI rely on it):

- A :class:`Connection` owns one ``paramiko.Transport``. paramiko runs one thread per Transport
  that alone reads and writes the socket; that thread is the connection's owning thread. Nothing
  else touches the socket.
- Any thread may open channels on it: :meth:`Connection.open_sftp` returns a NEW SFTP client on
  its own channel each call, :meth:`Connection.exec` and :meth:`Connection.open_direct_tcpip` open
  their own channels. A channel/SFTP client must then be used by one thread at a time (open one
  per worker for parallel transfers).
- Everything here blocks: the UI calls it through ``ctx.runner`` only.

Connecting: the host record (``app.core.hosts``) is merged with ``~/.ssh/config`` (explicit
values win, as on the ssh command line); a host marked ``via_vpn`` brings its VPN profile up
first (``app.remote.vpn.VpnManager``) and is reached at its private address; ``ProxyJump`` hops
are chained through ``direct-tcpip`` channels passed as ``sock=``. Every hop's host key goes
through :mod:`app.remote.hostkeys` — never auto-added.
"""

from __future__ import annotations

from app.remote.hostkeys import AcceptCallback

from .auth import DEFAULT_KEY_FILES
from .connection import Connection, open_connection
from .errors import HostAuthError, HostUnreachableError, SshError
from .target import Target, console_fingerprints_for, find_host, resolve_target, set_console_voucher, ssh_config_path
from .tuning import DEFAULT_TUNING, RECONNECT_DELAYS, TransportTuning

__all__ = [
    "DEFAULT_KEY_FILES",
    "DEFAULT_TUNING",
    "RECONNECT_DELAYS",
    "AcceptCallback",
    "Connection",
    "HostAuthError",
    "HostUnreachableError",
    "SshError",
    "Target",
    "TransportTuning",
    "console_fingerprints_for",
    "find_host",
    "open_connection",
    "resolve_target",
    "set_console_voucher",
    "ssh_config_path",
]
