"""A host's SSH login records read over LabGPU's own SSH connection, incrementally and bounded.

Where sshd's words are (probed once per check, in this order, each without root first and with
``sudo -n`` only where that needs no password):

- the systemd journal: ``journalctl -o json`` of the identifiers sshd logs under (``sshd``, and
  ``sshd-session`` / ``sshd-auth`` since OpenSSH 9.8), read forward from the last entry's
  ``__CURSOR`` (or ``--since @EPOCH`` the first time). A user outside the groups ``adm`` /
  ``systemd-journal`` sees only their own entries; journalctl says so on stderr ("not seeing messages
  from other users"), which is how "denied" is told from "nothing happened";
- a log file: ``/var/log/auth.log`` (Debian, Ubuntu), ``/var/log/secure`` (RHEL family) or the path the
  student set for the host (a server whose sshd runs with ``-E FILE``), read from a byte offset of a
  known inode. A file rotated since the last read (its inode is no longer the path's) is finished from
  the rotated copy that still has that inode (``FILE.1``, or ``FILE-DATE`` with dateext) before the new
  file is read from its start; a rotated copy already compressed away is said (``lost``). A file
  shorter than the offset (copytruncate) is read from its start;
- ``last`` / ``lastb`` (wtmp / btmp, util-linux ``-i -w --time-format iso``): sessions only, no method or key,
  when no sshd log can be read (said as such).

Every script's own lines start with ``@@labgpu ``; file bytes travel base64-encoded (never a marker
inside), journal entries one JSON object per line after the ``data`` marker. What a host sends is data:
at most ``max_bytes`` per read and ``budget`` per check, only whole lines (a line still being written
waits for the next check), lines longer than MAX_LINE cut. The script's arguments are LabGPU's own
(fixed paths, the student's path, numbers, a cursor the host gave back, all quoted by ``Connection.exec``
and after ``--``); a rotated file's name is globbed and used on the host only, never read back.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.remote.ssh.connection import Connection

MARK = "@@labgpu "
SYSTEM_LOGS = ("/var/log/auth.log", "/var/log/secure")
MAX_BYTES = 4 * 1024 * 1024  # file bytes per read
MAX_ENTRIES = 5000  # journal entries per read
BUDGET = 64 * 1024 * 1024  # bytes per check (the rest is read at the next check)
FIRST_TAIL = 16 * 1024 * 1024  # a log's first read starts this far before its end
MAX_LAST = 500  # sessions read from wtmp / btmp
_CURSOR = re.compile(r"^[A-Za-z0-9=;_\-]{1,512}$")
_INODE = re.compile(r"^[0-9]{1,20}$")

# $1 mode; the header every mode prints first: the host's clock and zone, the session as the host saw
# it (client address, client port, server address, server port), the login user and sudo -n
_HEAD = r"""M='@@labgpu '
printf '%snow=%s tz=%s\n' "$M" "$(date +%s)" "$(date +%z)"
printf '%sconn=%s\n' "$M" "$SSH_CONNECTION"
printf '%suser=%s\n' "$M" "$(id -un 2>/dev/null)"
r() { if [ "$SUDO" = 1 ]; then sudo -n "$@"; else "$@"; fi; }
"""

# probe: which sources exist and which the login user (or sudo -n) can read; $2 = the student's path
_PROBE = _HEAD + r"""
if sudo -n true >/dev/null 2>&1; then echo "${M}sudo yes"; else echo "${M}sudo no"; fi
if command -v journalctl >/dev/null 2>&1 && [ -n "$(find /run/log/journal /var/log/journal -name '*.journal' \
    2>/dev/null | head -n 1)" ]; then
  v=$(journalctl --version 2>/dev/null | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
  e=$(journalctl --no-pager -n 1 -o cat SYSLOG_IDENTIFIER=sshd SYSLOG_IDENTIFIER=sshd-session 2>&1)
  case "$e" in *"not seeing messages"*|*"insufficient permissions"*|*"ermission denied"*)
    echo "${M}journal denied ${v:-0}";;
  ""|"-- No entries --") echo "${M}journal empty ${v:-0}";;
  *) echo "${M}journal ok ${v:-0}";; esac
else echo "${M}journal missing 0"; fi
for f in "$@"; do
  [ -n "$f" ] || continue
  if [ ! -e "$f" ]; then echo "${M}file missing"
  elif [ -r "$f" ]; then echo "${M}file ok"
  else echo "${M}file denied"; fi
done
if command -v last >/dev/null 2>&1; then echo "${M}last ok"; else echo "${M}last missing"; fi
"""

# journal: $1 cursor ("" = first read), $2 since (epoch), $3 max entries, $4 version (output-fields ≥ 236)
_JOURNAL = _HEAD + r"""cur=$1 since=$2 max=$3 ver=$4
set -- journalctl -q --no-pager -o json SYSLOG_IDENTIFIER=sshd SYSLOG_IDENTIFIER=sshd-session \
  SYSLOG_IDENTIFIER=sshd-auth
[ "$ver" -ge 236 ] 2>/dev/null && set -- "$@" --output-fields=MESSAGE,SYSLOG_IDENTIFIER,_PID
if [ -n "$cur" ]; then set -- "$@" "--after-cursor=$cur"; else set -- "$@" "--since=@$since"; fi
echo "${M}data"
r "$@" 2>/dev/null | head -n "$max"
echo "${M}end"
"""

# file: $1 path, $2 inode read last ("" = none), $3 offset in it, $4 max bytes, $5 a first read's tail
_FILE = _HEAD + r"""p=$1 ino=$2 off=$3 max=$4 tail=$5
st=$(r stat -L -c '%i %s' -- "$p" 2>/dev/null) || { echo "${M}missing"; exit 0; }
r test -r "$p" || { echo "${M}denied"; exit 0; }
set -- $st; cino=$1; csize=$2
echo "${M}file $cino $csize"
if [ -n "$ino" ] && [ "$ino" != "$cino" ]; then
  for f in "$p".1 "$p"-[0-9]*; do
    [ -f "$f" ] || continue
    s=$(r stat -L -c '%i %s' -- "$f" 2>/dev/null) || continue
    set -- $s
    if [ "$1" = "$ino" ]; then
      echo "${M}rot $1 $2"; echo "${M}data"
      r tail -c +"$((off + 1))" -- "$f" | head -c "$max" | base64; echo "${M}end"; exit 0
    fi
  done
  echo "${M}lost"; exit 0
fi
[ "$ino" = "$cino" ] && [ "$off" -le "$csize" ] || off=0
[ -z "$ino" ] && [ "$csize" -gt "$tail" ] && off=$((csize - tail))
echo "${M}from $off"; echo "${M}data"
r tail -c +"$((off + 1))" -- "$p" | head -c "$max" | base64; echo "${M}end"
"""

# last: $1 "last" | "lastb", $2 max sessions
_LAST = _HEAD + r"""echo "${M}data"
r "$1" -i -w --time-format iso -n "$2" 2>/dev/null || r "$1" -n "$2" 2>/dev/null
echo "${M}end"
"""


@dataclass(frozen=True)
class HostHead:
    """What every script says first: the host's clock (epoch seconds) and UTC offset, the session as the
    host saw it, the login user."""

    now: int | None
    tz: str
    client: str  # LabGPU's address as the host saw it ("" unknown)
    client_port: int
    user: str


@dataclass
class Probe:
    head: HostHead
    sudo: bool
    journal: str  # "ok" | "denied" | "empty" (no sshd entry in it) | "missing"
    journal_version: int
    files: dict[str, str]  # path → "ok" | "denied" | "missing"
    last: bool


@dataclass
class FileChunk:
    """One read of a log file: the whole lines read and where the next read starts."""

    lines: list[str]
    inode: str
    offset: int
    rotated: bool = False  # the lines came from the rotated copy (the new file comes next)
    lost: bool = False  # the rotated copy was gone: what it had after the offset was not read
    truncated: bool = False  # the file was shorter than the offset: read from its start
    more: bool = False  # the read stopped at max_bytes
    cut_lines: int = 0  # lines longer than MAX_LINE (cut)
    status: str = "ok"  # "ok" | "missing" | "denied"
    nbytes: int = 0


@dataclass
class JournalChunk:
    lines: list[str]
    cursor: str
    more: bool
    nbytes: int = 0


@dataclass
class LastChunk:
    lines: list[str] = field(default_factory=list)


MAX_LINE = 4096


def _lines_after(out: str, marker: str) -> list[str]:
    at = out.find(MARK + marker)
    return out[at:].splitlines() if at >= 0 else []


def parse_head(out: str) -> HostHead:
    now: int | None = None
    tz, client, port, user = "", "", 0, ""
    for line in _lines_after(out, "now="):
        if not line.startswith(MARK):
            continue
        body = line[len(MARK):]
        if body.startswith("now="):
            parts = body.split()
            n = parts[0][4:]
            now = int(n) if n.isdigit() and len(n) <= 12 else None
            tz = parts[1][3:][:8] if len(parts) > 1 and parts[1].startswith("tz=") else ""
        elif body.startswith("conn="):
            words = body[5:].split()
            if len(words) == 4 and words[1].isdigit() and len(words[1]) <= 5:
                client, port = words[0][:64], int(words[1])
        elif body.startswith("user="):
            user = body[5:].strip()[:64]
        elif body.startswith("data"):
            break
    return HostHead(now, tz, client, port, user)


def _data(out: str) -> str:
    """The text between the first ``data`` marker and the last ``end`` marker."""
    at = out.find("\n" + MARK + "data\n")
    if at < 0:
        return ""
    body = out[at + len(MARK) + 6:]
    end = body.rfind(MARK + "end")
    return body[:end] if end >= 0 else body


def _script_env(sudo: bool) -> str:
    return "SUDO=1; " if sudo else "SUDO=0; "


def _run(conn: Connection, script: str, args: list[str], sudo: bool, max_output: int) -> str:
    rc, out, _err = conn.exec(["sh", "-c", _script_env(sudo) + script, "labgpu-logins", *args],
                              timeout=120, max_output=max_output)
    return out


def probe(conn: Connection, paths: tuple[str, ...]) -> Probe:
    out = _run(conn, _PROBE, list(paths), False, 64 * 1024)
    head = parse_head(out)
    sudo, journal, jver, last = False, "missing", 0, False
    states: list[str] = []
    for line in _lines_after(out, "now="):
        if not line.startswith(MARK):
            continue
        words = line[len(MARK):].split()
        if not words:
            continue
        if words[0] == "sudo":
            sudo = words[1:2] == ["yes"]
        elif words[0] == "journal" and len(words) >= 2:
            journal = words[1] if words[1] in ("ok", "denied", "empty", "missing") else "missing"
            jver = int(words[2]) if len(words) > 2 and words[2].isdigit() and len(words[2]) < 6 else 0
        elif words[0] == "file" and len(words) >= 2:
            states.append(words[1] if words[1] in ("ok", "denied", "missing") else "missing")
        elif words[0] == "last":
            last = words[1:2] == ["ok"]
    wanted = [p for p in paths if p]
    files = {p: (states[i] if i < len(states) else "missing") for i, p in enumerate(wanted)}
    return Probe(head, sudo, journal, jver, files, last)


def _whole_lines(data: bytes) -> tuple[list[str], int, int]:
    """(lines, bytes consumed, lines cut): only up to the last newline; a chunk without any newline
    (one line longer than the whole read) is consumed whole as one cut line."""
    end = data.rfind(b"\n")
    if end < 0:
        return ([data[:MAX_LINE].decode("utf-8", "replace")], len(data), 1) if data else ([], 0, 0)
    lines, cut = [], 0
    for raw in data[:end].split(b"\n"):
        if len(raw) > MAX_LINE:
            cut += 1
            raw = raw[:MAX_LINE]
        lines.append(raw.decode("utf-8", "replace"))
    return lines, end + 1, cut


def read_file(conn: Connection, path: str, inode: str, offset: int, *, sudo: bool = False,
              max_bytes: int | None = None, tail: int | None = None) -> tuple[HostHead, FileChunk]:
    """One read of ``path`` from ``offset`` of the file that had ``inode``; a first read (``inode`` "")
    starts ``tail`` bytes before the end (a line cut there is dropped)."""
    inode = inode if _INODE.match(inode or "") else ""
    offset = max(0, int(offset)) if inode else 0
    max_bytes = max(1024, min(MAX_BYTES, int(MAX_BYTES if max_bytes is None else max_bytes)))
    tail = FIRST_TAIL if tail is None else tail
    out = _run(conn, _FILE, [path, inode, str(offset), str(max_bytes), str(max(0, int(tail)))], sudo,
               max_bytes * 2 + 64 * 1024)
    head = parse_head(out)
    cur_ino, rot, lost, start = "", False, False, offset
    for line in _lines_after(out, "now="):
        if not line.startswith(MARK):
            continue
        words = line[len(MARK):].split()
        if not words:
            continue
        if words[0] in ("missing", "denied"):
            return head, FileChunk([], inode, offset, status=words[0])
        if words[0] == "file" and len(words) == 3 and _INODE.match(words[1]):
            cur_ino = words[1]
        elif words[0] == "rot":
            rot = True
        elif words[0] == "lost":
            lost = True
        elif words[0] == "from" and len(words) == 2 and words[1].isdigit():
            start = int(words[1])
        elif words[0] == "data":
            break
    if lost:
        return head, FileChunk([], cur_ino, 0, lost=True, more=True)
    try:
        data = base64.b64decode("".join(_data(out).split()), validate=True)[:max_bytes]
    except (binascii.Error, ValueError):
        data = b""
    lines, used, cut = _whole_lines(data)
    if not inode and start > 0 and lines:  # a first read from the tail: its first line is cut
        lines = lines[1:]
    if rot:
        # the rotated copy's rest: once read to its end, the new file is next (from 0)
        done = len(data) < max_bytes
        return head, FileChunk(lines, cur_ino if done else inode, 0 if done else offset + used, rotated=True,
                               more=True, cut_lines=cut, nbytes=len(data))
    truncated = bool(inode) and inode == cur_ino and start == 0 and offset > 0
    return head, FileChunk(lines, cur_ino, start + used, truncated=truncated, more=len(data) >= max_bytes,
                           cut_lines=cut, nbytes=len(data))


def read_journal(conn: Connection, cursor: str, since_epoch: int, *, version: int, sudo: bool = False,
                 max_entries: int = MAX_ENTRIES) -> tuple[HostHead, JournalChunk]:
    """Journal entries of sshd after ``cursor`` (or since ``since_epoch``), at most ``max_entries``. The
    caller parses each line (app.core.logins.parse_journal_json) and keeps the last cursor it gave."""
    cursor = cursor if _CURSOR.match(cursor or "") else ""
    max_entries = max(1, min(MAX_ENTRIES, int(max_entries)))
    out = _run(conn, _JOURNAL, [cursor, str(max(0, int(since_epoch))), str(max_entries), str(int(version))],
               sudo, max_entries * 8192 + 64 * 1024)
    head = parse_head(out)
    lines = [ln[:MAX_LINE * 4] for ln in _data(out).splitlines() if ln.startswith("{")]
    return head, JournalChunk(lines, cursor, more=len(lines) >= max_entries,
                              nbytes=sum(len(x) for x in lines))


def read_last(conn: Connection, failed: bool, *, sudo: bool = False, n: int = MAX_LAST) -> tuple[HostHead, LastChunk]:
    out = _run(conn, _LAST, ["lastb" if failed else "last", str(max(1, min(MAX_LAST, int(n))))], sudo,
               n * 512 + 64 * 1024)
    return parse_head(out), LastChunk([ln[:MAX_LINE] for ln in _data(out).splitlines()][: n + 4])


def iter_file(conn: Connection, path: str, inode: str, offset: int, *, sudo: bool = False,
              budget: int | None = None, max_bytes: int | None = None,
              tail: int | None = None) -> Iterator[tuple[HostHead, FileChunk]]:
    """Reads until the file is caught up or ``budget`` bytes were read (the rest waits for the next check)."""
    budget = BUDGET if budget is None else budget
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    used = 0
    for _ in range(1 + budget // max(1, max_bytes) + 2):
        head, chunk = read_file(conn, path, inode, offset, sudo=sudo, max_bytes=max_bytes, tail=tail)
        yield head, chunk
        used += chunk.nbytes
        if chunk.status != "ok" or not chunk.more or used >= budget:
            return
        if chunk.nbytes == 0 and not chunk.rotated and not chunk.lost:
            return
        inode, offset = chunk.inode, chunk.offset
