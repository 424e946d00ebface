"""Lean bulk data paths for paramiko channels: the ONE package that reaches into paramiko internals.

Why: on a 2-core machine the sync engine's big transfers were bound by Python work per 32 KiB
SSH packet in paramiko (a Message built and copied several times, a Condition and two locks, a
``socket.send`` per packet, a ``recv`` of 16 bytes then of the rest for every packet received).
OpenSSH's server accepts at most 32 KiB of data per packet, so the packet count cannot shrink;
the cost per packet can.

What it does (both only for AES-GCM, the cipher the engine negotiates first; anything else takes
paramiko's stock paths unchanged):

* :func:`sendall` — channel data out: takes as much send window as is open (up to a burst),
  builds the SSH packets for it directly (header struct + data + padding, encrypted with the
  transport's own ``AESGCM`` engine, IV counter and sequence number advanced exactly as paramiko
  does) and writes them with ONE ``sendmsg`` under the same locks paramiko uses (the transport's
  ``clear_to_send`` gate, so nothing is sent during a key exchange, and the packetizer's write
  lock). Byte and packet counters are kept, so rekeying triggers as before.
* :func:`install` — gives ONE transport's packetizer (its instance, never paramiko's class) a
  ``read_all`` that reads the socket in large chunks into a buffer (one ``recv_into`` per
  ~256 KiB instead of two ``recv`` per packet; the timeout, keepalive, rekey and EOF handling are
  the original's) and a ``read_message`` that decrypts AES-GCM packets straight from that buffer
  and cuts the message body out once (paramiko copies every packet five times); other ciphers go
  to the stock ``read_message``. :mod:`app.remote.ssh.dial` calls it for every transport it opens.
* :func:`shutdown_write` — EOF out, and (with :func:`sendall`) never a message after the channel's
  CLOSE, which OpenSSH answers by dropping the whole connection (see :mod:`.send`).
* :class:`LeanPipe` / :func:`recv_exact` — a receive buffer for channels read by one thread
  (the engine's SFTP channels) that wakes the reader once per SFTP reply, not per packet.

Safety: no security check is touched — host keys, authentication, ciphers, MACs and the GCM tag
check are paramiko's/cryptography's. Every fast path runs only on a transport that
:func:`install` enabled, and it enables one only when :func:`app.remote.paramiko_probe.check`
says this paramiko is a tested version whose internals are as expected; anything else uses the
stock paths (and the log says why once). Importing this module changes nothing in paramiko.
``tests/remote/test_fastssh.py`` asserts that the fast paths are on with the pinned paramiko,
that data sent through them arrives byte-exact at a real sshd, and that an unknown paramiko
takes the stock paths.
"""

from __future__ import annotations

from .gate import enabled, install
from .pipe import LeanPipe, recv_exact, use_lean_pipe
from .read import fast_read_all, fast_read_message
from .send import fast_send_usable, sendall, shutdown_write

__all__ = [
    "LeanPipe",
    "fast_read_all",
    "fast_read_message",
    "fast_send_usable",
    "enabled",
    "install",
    "recv_exact",
    "sendall",
    "shutdown_write",
    "use_lean_pipe",
]
