"""What a server offers a sync, found once per connection, and framing for its exec output.

Real servers differ: a login shell may print a banner on stdout or stderr (``.bashrc``
echoing a welcome or a conda message), an account may allow SFTP and nothing else
(``ForceCommand internal-sftp``, chrooted or not), the login shell may be dash, ``find``/``tar``
may be BusyBox's (no ``-printf``, other options) or missing, and a Windows OpenSSH server has no
POSIX shell at all (``cmd.exe`` answers exec requests) while still serving SFTP.

Two rules make a sync tell the truth on all of them:

* **Framing.** Every exec command LabGPU runs is wrapped so that its stdout and stderr are
  enclosed in markers holding a fresh random nonce, and its exit status travels inside the end
  marker (:func:`frame`/:func:`unframe`). Whatever a shell prints around the command (before or
  after) lies outside the markers and is dropped; output without both markers is never parsed
  (the step fails with a clear error, or — for the probe — the server counts as having no shell).
* **One probe per connection** (:func:`probe_command`/:func:`parse_probe`) decides the path:
  ``fast`` (GNU ``find -printf`` listing and ``tar -x`` streams for many small files),
  ``shell`` (a POSIX shell with ``sha256sum``/``head`` for checksums and verified resume; listing
  and transfers over SFTP) or ``sftp`` (pure SFTP: listing, folders, checksums by reading back).
  Every path gives the same files and the same JSON summary; the capability shows in
  ``--json`` (``server``) and in the Sync page's details.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

FAST, SHELL, SFTP = "fast", "shell", "sftp"


@dataclass(frozen=True)
class ServerCaps:
    """What the probe found. ``mode`` is the path the engine takes."""

    shell_ok: bool = False  # a POSIX shell answered the framed probe
    find_printf: bool = False  # GNU find with -printf (one-round-trip listing)
    gnu_tar: bool = False  # GNU tar (small files streamed through ``tar -x``)
    sha256: bool = False  # sha256sum and head (checksums, verified resume without reading back)
    df: bool = False  # df -Pk (free space); without it SFTP statvfs is asked
    note: str = ""  # why the probe chose this (e.g. "no POSIX shell: 'printf' is not recognized")

    @property
    def mode(self) -> str:
        if self.shell_ok and self.find_printf and self.gnu_tar and self.sha256:
            return FAST
        if self.shell_ok and self.sha256:
            return SHELL
        return SFTP

    def summary(self) -> dict[str, object]:
        return {
            "mode": self.mode,
            "shell": self.shell_ok,
            "find_printf": self.find_printf,
            "gnu_tar": self.gnu_tar,
            "sha256sum": self.sha256,
            "df": self.df,
            "note": self.note,
        }


NO_SHELL = ServerCaps(note="not probed")


def new_nonce() -> bytes:
    return secrets.token_hex(12).encode()


def _markers(nonce: bytes) -> tuple[bytes, bytes]:
    return b"<<LABGPU-" + nonce + b"-BEGIN>>", b"<<LABGPU-" + nonce + b"-END:"


def frame(command: bytes, nonce: bytes) -> bytes:
    """``command`` wrapped for a POSIX shell: markers around its stdout and stderr, its exit
    status inside the end marker. The command runs in a subshell-free group so ``cd`` etc. keep
    working; the markers are printed with ``printf`` (dash/bash/busybox builtins)."""
    begin, end = _markers(nonce)
    return (
        b"printf '%s' '" + begin + b"'; printf '%s' '" + begin + b"' >&2; { "
        + command
        + b"\n}; labgpu_rc=$?; printf '%s' '" + end + b"' >&2; printf '%s%d>>' '" + end + b"' \"$labgpu_rc\"; "
        + b"exit \"$labgpu_rc\""
    )


def unframe(out: bytes, err: bytes, nonce: bytes) -> tuple[int, bytes, bytes] | None:
    """(exit status, stdout, stderr) of a framed command, or None if the frame is not complete
    (no POSIX shell, output cut, or the command was killed) — such output is never trusted."""
    begin, end = _markers(nonce)
    b = out.find(begin)
    e = out.rfind(end)
    if b < 0 or e < 0 or e < b + len(begin):
        return None
    tail = out[e + len(end) :]
    close = tail.find(b">>")
    if close <= 0:
        return None
    try:
        rc = int(tail[:close])
    except ValueError:
        return None
    body = out[b + len(begin) : e]
    eb, ee = err.find(begin), err.rfind(end)
    if eb >= 0 and ee >= eb + len(begin):
        err_body = err[eb + len(begin) : ee]
    elif eb >= 0:
        err_body = err[eb + len(begin) :]
    else:
        err_body = err
    return rc, body, err_body


# The probe: each tool is tried the way the engine uses it; one letter per working tool.
PROBE = (
    b"labgpu_f=; find . -maxdepth 0 -printf '' >/dev/null 2>&1 && labgpu_f=F; "
    b"labgpu_g=; case \"$(tar --version 2>/dev/null)\" in *'GNU tar'*) labgpu_g=G;; esac; "
    b"labgpu_s=; sha256sum -z /dev/null >/dev/null 2>&1 && command -v head >/dev/null 2>&1 && labgpu_s=S; "
    b"labgpu_d=; command -v df >/dev/null 2>&1 && labgpu_d=D; "
    b"printf '%s %s %s %s OK' \"$labgpu_f\" \"$labgpu_g\" \"$labgpu_s\" \"$labgpu_d\""
)


def parse_probe(framed: tuple[int, bytes, bytes] | None, raw_out: bytes, raw_err: bytes) -> ServerCaps:
    if framed is None:
        text = (raw_out + b" " + raw_err).decode("utf-8", "replace").strip().splitlines()
        why = text[0][:200] if text else "no output"
        return ServerCaps(note=f"no POSIX shell answered ({why}): SFTP only")
    _rc, body, _err = framed
    fields = body.split(b" ")
    if len(fields) != 5 or fields[4] != b"OK":
        return ServerCaps(note="the shell's answer to the probe was not understood: SFTP only")
    caps = ServerCaps(
        shell_ok=True,
        find_printf=fields[0] == b"F",
        gnu_tar=fields[1] == b"G",
        sha256=fields[2] == b"S",
        df=fields[3] == b"D",
    )
    missing = [
        name
        for name, ok in (
            ("find -printf", caps.find_printf),
            ("GNU tar", caps.gnu_tar),
            ("sha256sum -z/head", caps.sha256),
        )
        if not ok
    ]
    note = "POSIX shell" + (f"; without {', '.join(missing)}" if missing else " with GNU find and tar")
    return ServerCaps(
        shell_ok=True,
        find_printf=caps.find_printf,
        gnu_tar=caps.gnu_tar,
        sha256=caps.sha256,
        df=caps.df,
        note=note,
    )


# One exec per connection for the fast path: the probe, the root folder's state, the free space
# near it and (GNU find only) the listing — a no-change re-sync costs one round trip after login.
FIND_PRINTF = b"'%y %s %T@ %m %P\\0'"


def probe_list_command(root_q: bytes) -> bytes:
    """``root_q``: the shell-quoted, anchored remote root (never an option). Output sections:
    probe fields ``\n`` root state (D folder / F not a folder / N missing) ``\n`` the ``df``
    output for the nearest existing folder ``\0`` and then the NUL-separated ``find`` records.

    Few processes (each costs a fork on the server, which a no-change re-sync on a loaded
    machine feels): when the root is a folder, the listing itself shows whether ``find
    -printf`` works (field ``L``)."""
    return (
        b"labgpu_g=; case \"$(tar --version 2>/dev/null)\" in *'GNU tar'*) labgpu_g=G;; esac; "
        b"labgpu_s=; sha256sum -z /dev/null >/dev/null 2>&1 && command -v head >/dev/null 2>&1 && labgpu_s=S; "
        b"labgpu_d=; command -v df >/dev/null 2>&1 && labgpu_d=D; "
        b"if [ -d " + root_q + b" ]; then labgpu_st=D; labgpu_f=L; else "
        b"labgpu_f=; find . -maxdepth 0 -printf '' >/dev/null 2>&1 && labgpu_f=F; "
        b"if [ -e " + root_q + b" ]; then labgpu_st=F; else labgpu_st=N; fi; fi; "
        b"printf '%s %s %s %s OK\\n%s\\n' \"$labgpu_f\" \"$labgpu_g\" \"$labgpu_s\" \"$labgpu_d\" \"$labgpu_st\"; "
        b"labgpu_p=" + root_q + b'; while [ ! -e "$labgpu_p" ]; do labgpu_p=$(dirname -- "$labgpu_p"); done; '
        b'[ -n "$labgpu_d" ] && df -Pk -- "$labgpu_p" 2>/dev/null; printf \'\\0\'; '
        b'[ "$labgpu_st" = D ] && find -H ' + root_q + b" -mindepth 1 -printf " + FIND_PRINTF
    )


@dataclass
class ProbeListing:
    caps: ServerCaps
    state: str = ""  # D, F, N ("" if not known)
    free: int | None = None  # bytes free near the root (df), None if unknown
    listing: bytes | None = None  # find records when caps.find_printf and state D
    rc: int = 0  # the command's exit status (non-zero with a listing: find hit errors)
    err: bytes = b""  # its stderr (inside the frame)


def parse_probe_list(framed: tuple[int, bytes, bytes] | None, raw_out: bytes, raw_err: bytes) -> ProbeListing:
    if framed is None:
        return ProbeListing(parse_probe(None, raw_out, raw_err))
    rc, body, err = framed
    head, sep, rest = body.partition(b"\n")
    state, sep2, rest = rest.partition(b"\n")
    if not sep or not sep2 or state not in (b"D", b"F", b"N"):
        return ProbeListing(ServerCaps(note="the shell's answer to the probe was not understood: SFTP only"))
    listed = head.startswith(b"L ")
    if listed:  # the root is a folder: the listing shows whether find -printf works
        lower = err.lower()
        works = rc == 0 or not (b"printf" in lower or b"unrecognized" in lower or b"unknown" in lower)
        head = (b"F" if works else b"") + head[1:]
    caps = parse_probe((rc, head, err), raw_out, raw_err)
    if not caps.shell_ok:
        return ProbeListing(caps)
    df_out, _, records = rest.partition(b"\0")
    free = None
    lines = df_out.strip().splitlines()
    fields = lines[-1].split() if lines else []
    if caps.df and len(fields) >= 4:
        try:
            free = int(fields[3]) * 1024
        except ValueError:
            free = None
    listing = records if (caps.find_printf and state == b"D") else None
    return ProbeListing(caps, state.decode(), free, listing, rc, err)
