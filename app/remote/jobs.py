"""Training jobs on a host: started detached, recorded on the host, read back over any later connection.

A job lives under ``~/.labgpu/jobs/<id>/`` on the host (the login user's home; fixed names, always
quoted):

- ``run.sh`` — the wrapper, written whole by LabGPU from one ``stdin`` (never a shell line): its
  second line is ``# labgpu-job {json}`` (name, argv, working folder: what another laptop lists),
  then the argv as ``set -- 'arg' 'arg' …`` quoted once with :func:`shlex.quote` (POSIX single
  quotes: quotes, ``$``, ``;``, newlines and every other byte but NUL arrive exactly as typed); the
  command runs as ``( exec "$@" )``, a program and its arguments, never a shell line;
- ``env`` (tmux only) — the starting session's environment (``export -p``), read by the wrapper: a
  tmux server started earlier would otherwise hand the job its own, older environment; ``umask`` — the
  login's umask, which the command runs with (the folder itself is written under 077);
- ``proc`` — ``pid``/``pgid``/``started`` (``date +%s`` on the host) written by the wrapper when it
  starts; ``exit`` — ``code``/``ended`` written by the wrapper when the command ends (it traps TERM/HUP/INT
  so it outlives the command long enough to write it; :func:`stop` writes ``code=137`` itself when it
  had to KILL the group); ``log`` — the command's stdout and stderr; ``detach`` — how it was started.

Detached so it survives the SSH connection, laptop sleep and gateway timeouts: in a tmux session
(``tmux -L labgpu``, session ``labgpu-<id>``) when the host has tmux, else ``setsid`` (else
``nohup``) with the output to the log file; :func:`probe` says which, once per start.

Every script's own answer starts with ``@@labgpu `` and is read from there, so a login shell's rc file
that prints a banner (even without a newline at its end) is never taken for it. The host's words are
data: a job id read back from the host is used only when it is 16 hex digits
(never a path), every file is read with a byte cap, numbers are checked, and the log is read from an
offset with a cap per read (:func:`read_log`), so a log of gigabytes, binary output or
carriage-return progress bars never reaches memory whole. Times are the host's own clock
(``host_now_epoch``), so durations are right even where that clock is off.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
import secrets
import shlex
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.core.errors import InputError, LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.vocab import JobState

if TYPE_CHECKING:  # paramiko is loaded by the connection itself, not by the job commands
    from app.remote.ssh.connection import Connection

log = logging.getLogger(__name__)

ID_HEX = 16  # secrets.token_hex(8)
_ID = re.compile(r"^[0-9a-f]{16}$")
_CTRL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
DETACH_MODES = ("tmux", "setsid", "nohup")
MAX_ARGV_BYTES = 128 * 1024  # the whole command, quoted (a command line, not a data file)
MAX_READ = 1024 * 1024  # log bytes per read_log call, at most
MAX_LIST = 2000  # job folders listed per host
MAX_META = 64 * 1024  # the run.sh header line read back
MAX_GRACE_S = 600
MARK = "@@labgpu "  # starts each line of the scripts' own answers

MSG_BAD_ID = QT_TRANSLATE_NOOP("LabGPU", "Not a job id: {id}")
HINT_BAD_ID = QT_TRANSLATE_NOOP("LabGPU", "A job id is 16 hex digits, as `labgpu jobs` lists it.")
MSG_BAD_ARGV = QT_TRANSLATE_NOOP("LabGPU", "The command cannot be started: {why}")
HINT_BAD_ARGV = QT_TRANSLATE_NOOP("LabGPU", "Give the program and its arguments after `--`, e.g. "
                                            "`labgpu run HOST -- python train.py --epochs 3`.")
WHY_EMPTY = QT_TRANSLATE_NOOP("LabGPU", "no command was given")
WHY_NUL = QT_TRANSLATE_NOOP("LabGPU", "an argument contains a NUL character")
WHY_TOO_LONG = QT_TRANSLATE_NOOP("LabGPU", "the command is longer than 128 KiB")
WHY_UNCONFIRMED = QT_TRANSLATE_NOOP("LabGPU", "it did not report its start within 15 s; `labgpu jobs` shows "
                                              "whether it runs")
MSG_START_FAILED = QT_TRANSLATE_NOOP("LabGPU", "The job could not be started on {host}: {why}")
HINT_START_FAILED = QT_TRANSLATE_NOOP("LabGPU", "Check that the login user can write to its home folder and that "
                                                "/bin/sh exists; the job's folder is ~/.labgpu/jobs/{id}.")
MSG_HOST_ANSWER = QT_TRANSLATE_NOOP("LabGPU", "{host} gave an answer LabGPU cannot read about job {id}.")
HINT_HOST_ANSWER = QT_TRANSLATE_NOOP("LabGPU", "Try again; if it repeats, look at ~/.labgpu/jobs/{id} on the host.")


# -- the on-host scripts ------------------------------------------------------------------------------

# Before the argv is set: the wrapper's own record (pid, process group, start time on the host's clock).
_WRAPPER_HEAD = r"""D="$HOME/.labgpu/jobs/$ID"
cd "$D" || exit 2
if [ -r "$D/env" ]; then . "$D/env"; fi
u=$(head -c 8 "$D/umask" 2>/dev/null)
case "$u" in [0-7][0-7][0-7]|[0-7][0-7][0-7][0-7]) umask "$u";; esac
trap 'SIG=1' HUP INT TERM
PG=""
if read -r st < "/proc/$$/stat" 2>/dev/null; then st=${st##*) }; set -- $st; PG=$3
else PG=$(ps -o pgid= -p $$ 2>/dev/null | tr -d ' '); fi
case "$PG" in ''|*[!0-9]*) PG=$$;; esac
printf 'pid=%s\npgid=%s\nstarted=%s\n' "$$" "$PG" "$(date +%s)" > "$D/proc.tmp" && mv -f "$D/proc.tmp" "$D/proc"
: >> "$D/log"
cd "$HOME" || exit 2
case "$W" in "~") W="";; "~/"*) W="$HOME/${W#"~/"}";; esac
if [ -n "$W" ] && ! cd -- "$W" 2>> "$D/log"; then
  echo "labgpu: cannot enter the working folder" >> "$D/log"
  rc=126
else
"""

# After the argv: the command as a program with its arguments, then its exit status.
_WRAPPER_TAIL = r"""  ( exec "$@" ) < /dev/null >> "$D/log" 2>&1
  rc=$?
fi
printf 'code=%s\nended=%s\n' "$rc" "$(date +%s)" > "$D/exit.tmp" && mv -f "$D/exit.tmp" "$D/exit"
"""

_PROBE = ('if command -v tmux >/dev/null 2>&1 && tmux -V >/dev/null 2>&1; then echo tmux; '
          'elif command -v setsid >/dev/null 2>&1; then echo setsid; else echo nohup; fi')

# $1 id, $2 detach mode ("" = probe here); stdin: run.sh
_START = r"""case "$1" in ''|*[!0-9a-f]*) echo "@@labgpu err bad id"; exit 2;; esac
U=$(umask)
umask 077
J="$HOME/.labgpu/jobs"; D="$J/$1"
mkdir -p "$J" || { echo "@@labgpu err cannot create $J"; exit 3; }
mkdir "$D" 2>/dev/null || { echo "@@labgpu err the job folder exists already"; exit 3; }
cat > "$D/run.sh" || { echo "@@labgpu err cannot write run.sh"; exit 3; }
chmod 700 "$D/run.sh"
printf '%s\n' "$U" > "$D/umask"  # the command gets the login's umask (a tmux server may have another)
umask "$U"
M="$2"
if [ -z "$M" ]; then M=$(""" + _PROBE + r"""); fi
printf '%s\n' "$M" > "$D/detach"
case "$M" in
  tmux) export -p > "$D/env" 2>/dev/null  # the pane gets the tmux server's environment: give it this one
        tmux -L labgpu new-session -d -s "labgpu-$1" "sh \"\$HOME/.labgpu/jobs/$1/run.sh\"" \
          < /dev/null > "$D/detach.err" 2>&1 \
          || { echo "@@labgpu err tmux: $(head -c 300 "$D/detach.err")"; rm -rf "$D"; exit 4; } ;;
  setsid) setsid sh "$D/run.sh" < /dev/null > /dev/null 2>&1 & ;;
  *) nohup sh "$D/run.sh" < /dev/null > /dev/null 2>&1 & ;;
esac
i=0
while [ ! -s "$D/proc" ] && [ $i -lt 150 ]; do sleep 0.1 2>/dev/null || sleep 1; i=$((i+1)); done
echo "@@labgpu mode $M"
head -c 512 "$D/proc" 2>/dev/null
echo; echo "now=$(date +%s)"
"""

# Is the wrapper of job $id (pid $p) alive? Its command line names its own run.sh (a pid reused after a
# reboot names something else; a zombie has no command line).
_ALIVE_FN = r"""alive() {  # id pid
  case "$2" in ''|*[!0-9]*) return 1;; esac
  if [ -r "/proc/$2/cmdline" ]; then tr '\000' ' ' < "/proc/$2/cmdline" 2>/dev/null | grep -q "jobs/$1/run.sh"
  else ps -o args= -p "$2" 2>/dev/null | grep -q "jobs/$1/run.sh"; fi
}
field() {  # file key: the first value of key=, digits only
  v=$(head -c 512 "$1" 2>/dev/null | sed -n "s/^$2=\([0-9][0-9]*\)\$/\1/p" | head -n 1); echo "$v"
}
"""

# $1 "meta"|"" then ids: one block per job (every line prefixed, so no file can forge another block).
_STATUS = _ALIVE_FN + r"""W="$1"; shift
J="$HOME/.labgpu/jobs"
echo "@@labgpu now=$(date +%s)"
for id in "$@"; do
  case "$id" in ''|*[!0-9a-f]*) continue;; esac
  D="$J/$id"
  echo "@@labgpu job $id"
  if [ ! -d "$D" ]; then echo "gone=1"; continue; fi
  # alive first, then the exit file: the wrapper writes it before it exits, so a wrapper found gone has
  # written it already (read the other way round, a job ending between the two reads would look lost)
  if alive "$id" "$(field "$D/proc" pid)"; then echo "alive=1"; fi
  { head -c 512 "$D/proc" 2>/dev/null; echo; } | sed 's/^/p./'
  { head -c 512 "$D/exit" 2>/dev/null; echo; } | sed 's/^/x./'
  { head -c 32 "$D/detach" 2>/dev/null; echo; } | head -n 1 | sed 's/^/d./'
  if [ -f "$D/log" ]; then ls -lnL "$D/log" 2>/dev/null | awk 'NR==1 { print "size=" $5 }'; fi
  if [ "$W" = meta ]; then head -n 2 "$D/run.sh" 2>/dev/null | tail -n 1 | head -c MAXMETA | sed 's/^/m./'; echo; fi
done
""".replace("MAXMETA", str(MAX_META))

# $1 id, $2 offset, $3 max bytes: the log's size, then at most $3 bytes from $2 (base64, or hex by od)
_READ = r"""case "$1" in ''|*[!0-9a-f]*) exit 2;; esac
case "$2$3" in *[!0-9]*) exit 2;; esac
L="$HOME/.labgpu/jobs/$1/log"
[ -f "$L" ] || { echo "@@labgpu size=-"; exit 0; }
ls -lnL "$L" 2>/dev/null | awk 'NR==1 { print "@@labgpu size=" $5 }'
if command -v base64 >/dev/null 2>&1; then echo "@@labgpu enc=b64"; tail -c +$(($2 + 1)) "$L" | head -c "$3" | base64
else echo "@@labgpu enc=hex"; tail -c +$(($2 + 1)) "$L" | head -c "$3" | od -An -v -tx1; fi
"""

# $1 id, $2 grace seconds: TERM to the wrapper's process group, KILL after the grace period.
_STOP = _ALIVE_FN + r"""case "$1" in ''|*[!0-9a-f]*) echo "ERR bad id"; exit 2;; esac
case "$2" in ''|*[!0-9]*) echo "ERR bad grace"; exit 2;; esac
D="$HOME/.labgpu/jobs/$1"
P=$(field "$D/proc" pid)
alive "$1" "$P" || { echo "@@labgpu stop none"; exit 0; }
PG=""
if read -r st < "/proc/$P/stat" 2>/dev/null; then st=${st##*) }; set -- "$1" "$2" $st; PG=$5
else PG=$(ps -o pgid= -p "$P" 2>/dev/null | tr -d ' '); set -- "$1" "$2"; fi
case "$PG" in ''|*[!0-9]*|0|1) PG="";; esac
sig() { if [ -n "$PG" ]; then kill -s "$1" -- "-$PG" 2>/dev/null || kill -s "$1" "$P" 2>/dev/null
        else kill -s "$1" "$P" 2>/dev/null; fi; }
sig TERM
i=0; lim=$(($2 * 10))
while alive "$1" "$P" && [ $i -lt $lim ]; do sleep 0.1 2>/dev/null || sleep 1; i=$((i+1)); done
if alive "$1" "$P"; then
  sig KILL
  i=0; while alive "$1" "$P" && [ $i -lt 100 ]; do sleep 0.1 2>/dev/null || sleep 1; i=$((i+1)); done
  if [ ! -s "$D/exit" ]; then
    printf 'code=137\nended=%s\nkilled=1\n' "$(date +%s)" > "$D/exit.tmp" && mv -f "$D/exit.tmp" "$D/exit"
  fi
  echo "@@labgpu stop killed"
else
  echo "@@labgpu stop term"
fi
"""

# newest first (the folder's time): a host with thousands of old job folders still shows its new jobs
_LIST = 'echo "@@labgpu ids"; ls -1t "$HOME/.labgpu/jobs" 2>/dev/null | head -n ' + str(MAX_LIST) + '; true'

_REMOVE = r"""case "$1" in ''|*[!0-9a-f]*) exit 2;; esac
rm -rf -- "$HOME/.labgpu/jobs/$1"
"""


# -- values ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HostJobStart:
    """What :func:`start` saw: the wrapper's pid, how it was detached, its start on the host's clock."""

    pid: int
    detach: str
    started_epoch: int
    host_now_epoch: int | None = None  # the host's clock when start returned


@dataclass(frozen=True)
class HostJobMeta:
    """What the job's run.sh says about itself (for a job another laptop started): plain, bounded."""

    name: str
    argv: list[str]
    workdir: str


@dataclass(frozen=True)
class HostJobStatus:
    """A job as its host reports it; times are the host's clock (``host_now_epoch`` read in the same call)."""

    state: JobState
    exit_code: int | None
    started_epoch: int | None
    ended_epoch: int | None
    host_now_epoch: int
    log_size: int
    pid: int | None = None
    detach: str = ""
    meta: HostJobMeta | None = None
    killed: bool = False  # stop had to KILL it (the exit status is LabGPU's, 137)

    @property
    def runtime_s(self) -> float | None:
        """Seconds it ran (or has run so far), on the host's clock alone."""
        if self.started_epoch is None:
            return None
        end = self.ended_epoch if self.state == JobState.EXITED and self.ended_epoch is not None \
            else self.host_now_epoch
        return float(max(0, end - self.started_epoch))


@dataclass(frozen=True)
class StopResult:
    """What :func:`stop` did: "none" (it was not running), "term" (it ended on TERM) or "killed"."""

    how: str
    status: HostJobStatus | None = field(default=None)


def new_id() -> str:
    """A fresh job id (made on this computer, never taken from a host)."""
    return secrets.token_hex(ID_HEX // 2)


def is_job_id(text: object) -> bool:
    return isinstance(text, str) and bool(_ID.match(text))


def check_id(job_id: str) -> str:
    """``job_id`` when it is one (16 hex digits); InputError otherwise (it never becomes a path)."""
    if not is_job_id(job_id):
        raise InputError(MSG_BAD_ID, HINT_BAD_ID, code="BadJobId", id=plain(str(job_id), 40))
    return job_id


def plain(text: str, limit: int = 300) -> str:
    """A host's text as one bounded plain line."""
    return _CTRL.sub(" ", str(text)).strip()[:limit]


def _after(out: str, marker: str) -> list[str]:
    """The output's lines from the first that starts with ``marker`` (what a login shell's rc file printed
    before the command — a banner — is not the command's answer)."""
    at = out.find(marker)  # not always at a line's start: a banner may end without a newline
    return out[at:].splitlines() if at >= 0 else []


def _host(conn: Any) -> str:
    return str(getattr(getattr(conn, "record", None), "name", "?"))


def _int(text: str | None, lo: int = 0, hi: int = 2 ** 62) -> int | None:
    if text is None or not text.isdigit() or len(text) > 19:
        return None
    v = int(text)
    return v if lo <= v <= hi else None


def check_argv(argv: list[str]) -> list[str]:
    """The command as given (a list of strings, not empty, no NUL, at most 128 KiB quoted)."""
    args = [str(a) for a in argv]
    why = ""
    if not args or args[0] == "":
        why = WHY_EMPTY
    elif any("\x00" in a for a in args):
        why = WHY_NUL
    elif sum(len(shlex.quote(a).encode("utf-8", "surrogateescape")) + 1 for a in args) > MAX_ARGV_BYTES:
        why = WHY_TOO_LONG
    if why:
        raise InputError(MSG_BAD_ARGV, HINT_BAD_ARGV, code="BadJobCommand", why=translate(why))
    return args


def job_script(job_id: str, argv: list[str], workdir: str = "", name: str = "") -> bytes:
    """The job's run.sh: its header (name, argv, working folder as JSON), then the wrapper with the argv
    quoted once (POSIX single quotes) — the only shell parse the command ever meets."""
    check_id(job_id)
    args = check_argv(argv)
    if "\x00" in workdir or "\n" in workdir:
        raise InputError(MSG_BAD_ARGV, HINT_BAD_ARGV, code="BadJobCommand", why="workdir")
    meta = json.dumps({"v": 1, "id": job_id, "name": name[:200], "argv": args, "workdir": workdir},
                      ensure_ascii=True)
    text = "\n".join([
        "#!/bin/sh",
        f"# labgpu-job {meta}",
        f"ID={job_id}",
        f"W={shlex.quote(workdir)}",
        _WRAPPER_HEAD.rstrip("\n"),
        "set -- " + " ".join(shlex.quote(a) for a in args),
        _WRAPPER_TAIL,
    ])
    return text.encode("utf-8", "surrogateescape")


# -- operations ------------------------------------------------------------------------------------------

def probe(conn: Connection) -> str:
    """How a job would be detached on this host: "tmux", "setsid" (or "nohup" where neither exists)."""
    rc, out, _err = conn.exec(["sh", "-c", _PROBE], timeout=30)
    word = out.strip().splitlines()[-1] if out.strip() else ""
    return word if rc == 0 and word in DETACH_MODES else "nohup"


def start(conn: Connection, job_id: str, argv: list[str], workdir: str = "", *, name: str = "",
          detach: str = "") -> HostJobStart:
    """Write the job's folder and start it detached (``detach`` "" = :func:`probe` on the host, in the
    same call); returns once the wrapper has recorded its pid. LabGpuError when it could not start."""
    script = job_script(job_id, argv, workdir, name)
    if detach and detach not in DETACH_MODES:
        raise ValueError(detach)
    rc, out, err = conn.exec(["sh", "-c", _START, "labgpu-job", job_id, detach], stdin=script, timeout=60,
                             max_output=64 * 1024)
    mode, kv = "", {}
    for line in _after(out, MARK + "mode "):
        if line.startswith(MARK + "mode "):
            mode = line[len(MARK) + 5:].strip()
        elif "=" in line:
            k, _, v = line.partition("=")
            kv[k.strip()] = v.strip()
    pid, started = _int(kv.get("pid"), 1), _int(kv.get("started"))
    if rc == 0 and mode in DETACH_MODES and (pid is None or started is None):
        # started, but its wrapper has not said so (a very slow host): it may still run; never started twice
        raise LabGpuError(MSG_START_FAILED, HINT_START_FAILED, code="JobStartUnconfirmed", host=_host(conn),
                          id=job_id, why=translate(WHY_UNCONFIRMED))
    if rc != 0 or mode not in DETACH_MODES or pid is None or started is None:
        why = next((ln[len(MARK) + 4:] for ln in _after(out, MARK + "err ")[:1]), "") or err or out
        raise LabGpuError(MSG_START_FAILED, HINT_START_FAILED, code="JobStart", host=_host(conn), id=job_id,
                          why=plain(why) or f"exit {rc}")
    return HostJobStart(pid, mode, started, _int(kv.get("now")))


def _meta(line: str) -> HostJobMeta | None:
    prefix = "# labgpu-job "
    if not line.startswith(prefix):
        return None
    try:
        data = json.loads(line[len(prefix):])
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    argv = data.get("argv")
    args = [plain(a, 2000) for a in argv[:200] if isinstance(a, str)] if isinstance(argv, list) else []
    name, wd = data.get("name"), data.get("workdir")
    return HostJobMeta(plain(name, 200) if isinstance(name, str) else "", args,
                       plain(wd, 1000) if isinstance(wd, str) else "")


def _parse_block(lines: list[str], now: int) -> HostJobStatus:
    if "gone=1" in lines:
        return HostJobStatus(JobState.LOST, None, None, None, now, 0)
    p = {ln[2:].partition("=")[0]: ln[2:].partition("=")[2] for ln in lines if ln.startswith("p.")}
    x = {ln[2:].partition("=")[0]: ln[2:].partition("=")[2] for ln in lines if ln.startswith("x.")}
    detach = next((ln[2:].strip() for ln in lines if ln.startswith("d.") and ln[2:].strip()), "")
    size = next((_int(ln[5:]) for ln in lines if ln.startswith("size=")), None)
    meta = next((_meta(ln[2:]) for ln in lines if ln.startswith("m.# labgpu-job ")), None)
    started, pid = _int(p.get("started")), _int(p.get("pid"), 1)
    code, ended = _int(x.get("code"), 0, 255), _int(x.get("ended"))
    if code is not None:
        state = JobState.EXITED
    elif "alive=1" in lines:
        state = JobState.RUNNING
    else:
        state = JobState.LOST
    if state != JobState.EXITED:
        ended = None
    return HostJobStatus(state, code if state == JobState.EXITED else None, started, ended, now, size or 0, pid,
                         detach if detach in DETACH_MODES else "", meta, x.get("killed") == "1")


def statuses(conn: Connection, job_ids: list[str], *, meta: bool = False) -> dict[str, HostJobStatus]:
    """Each job's status in one call (ids that are not job ids are skipped); ``meta``: also what its
    run.sh says (name, argv, working folder), for jobs this computer did not start."""
    ids = [i for i in job_ids if is_job_id(i)]
    if not ids:
        return {}
    rc, out, err = conn.exec(["sh", "-c", _STATUS, "labgpu-jobs", "meta" if meta else "", *ids], timeout=60,
                             max_output=(4 + (68 if meta else 2)) * 1024 * len(ids) + 4096)
    lines = _after(out, MARK + "now=")
    now = _int(lines[0][len(MARK) + 4:]) if lines else None
    if rc != 0 or now is None:
        raise LabGpuError(MSG_HOST_ANSWER, HINT_HOST_ANSWER, code="JobStatus", host=_host(conn), id=ids[0])
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines[1:]:
        if line.startswith(MARK + "job "):
            jid = line[len(MARK) + 4:].strip()
            current = blocks.setdefault(jid, []) if jid in ids else None
        elif current is not None:
            current.append(line)
    return {jid: _parse_block(blocks[jid], now) if jid in blocks
            else HostJobStatus(JobState.LOST, None, None, None, now, 0) for jid in ids}


def status(conn: Connection, job_id: str, *, meta: bool = False) -> HostJobStatus:
    """The job's state: running, exited (with its code) or lost (its folder gone, or its process gone
    without an exit status)."""
    return statuses(conn, [check_id(job_id)], meta=meta)[job_id]


def _decode(enc: str, body: str) -> bytes:
    try:
        if enc == "b64":
            return base64.b64decode("".join(body.split()), validate=False)
        if enc == "hex":
            return bytes.fromhex("".join(body.split()))
    except (ValueError, binascii.Error):
        pass
    return b""


def read_log(conn: Connection, job_id: str, offset: int, max_bytes: int = 256 * 1024) -> tuple[bytes, int, int]:
    """At most ``max_bytes`` (≤ 1 MiB) of the job's log from ``offset``: (data, next offset, log size).
    Nothing before ``offset`` is read again; a log that shrank below it (replaced) goes on from its end."""
    check_id(job_id)
    offset = max(0, int(offset))
    max_bytes = max(1, min(MAX_READ, int(max_bytes)))
    rc, out, _err = conn.exec(["sh", "-c", _READ, "labgpu-log", job_id, str(offset), str(max_bytes)],
                              timeout=60, max_output=3 * max_bytes + 4096)
    at = out.find(MARK + "size=")
    head, _, rest = out[max(0, at):].partition("\n")
    size = _int(head[len(MARK) + 5:]) if at >= 0 else None
    if rc != 0 or size is None:
        return b"", offset, 0 if head == MARK + "size=-" else offset
    if offset > size:
        return b"", size, size
    enc, _, body = rest.partition("\n")
    data = _decode(enc[len(MARK) + 4:] if enc.startswith(MARK + "enc=") else "", body)[:max_bytes]
    return data, offset + len(data), size


CATCH_UP_WINDOW = 4 * 1024 * 1024  # bytes asked for at once over SFTP (pipelined 32 KiB reads)
_SFTP_READ = 32 * 1024
SFTP_TIMEOUT_S = 60.0


def stream_log(conn: Connection, job_id: str, offset: int, end: int,
               chunk: int = MAX_READ) -> Iterator[bytes] | None:
    """The log's bytes from ``offset`` to ``end`` (its size as the last status said) over SFTP, in chunks of
    at most ``chunk`` bytes: the way to catch up on a long log (one pipelined SFTP read instead of one
    command per MiB). Memory stays within one window of :data:`CATCH_UP_WINDOW`. None where the host has no
    SFTP or the log is not a regular file (a FIFO, a folder): the caller reads with :func:`read_log`. A log
    that shrank ends the stream where it ends."""
    check_id(job_id)
    try:
        sftp = conn.open_sftp()
    except (LabGpuError, OSError, EOFError) as exc:
        log.info("no SFTP for the log of job %s: %s", job_id, exc)
        return None
    path = f".labgpu/jobs/{job_id}/log"  # relative: the login's home, like the scripts' $HOME
    try:
        # stat before open: opening a FIFO blocks until a writer comes; and a host that swaps one in after
        # the stat meets the channel's timeout instead of a read that hangs
        chan = sftp.get_channel()
        if chan is not None:
            chan.settimeout(SFTP_TIMEOUT_S)
        if not stat.S_ISREG(sftp.stat(path).st_mode or 0):
            sftp.close()
            return None
        f = sftp.open(path, "rb")
        st = f.stat()
        if not stat.S_ISREG(st.st_mode or 0):
            f.close()
            sftp.close()
            return None
    except (OSError, EOFError) as exc:
        sftp.close()
        log.info("the log of job %s cannot be opened over SFTP: %s", job_id, exc)
        return None

    def chunks() -> Iterator[bytes]:
        pos, stop_at = max(0, int(offset)), min(int(end), int(st.st_size or 0))
        try:
            while pos < stop_at:
                upto = min(stop_at, pos + CATCH_UP_WINDOW)
                parts = [(o, min(_SFTP_READ, upto - o)) for o in range(pos, upto, _SFTP_READ)]
                buf = bytearray()
                for data in f.readv(parts):
                    if not data:
                        return
                    buf += data
                    pos += len(data)
                    while len(buf) >= chunk:
                        yield bytes(buf[:chunk])
                        del buf[:chunk]
                if buf:
                    yield bytes(buf)
        finally:
            f.close()
            sftp.close()

    return chunks()


def stop(conn: Connection, job_id: str, grace_s: float = 10) -> StopResult:
    """TERM to the job's process group (the wrapper and everything the command started), KILL after
    ``grace_s`` seconds when something is still there; the process group is read live on the host
    (never from a file), and never 0 or 1."""
    check_id(job_id)
    grace = max(0, min(MAX_GRACE_S, int(round(grace_s))))
    rc, out, err = conn.exec(["sh", "-c", _STOP, "labgpu-stop", job_id, str(grace)], timeout=grace + 60,
                             max_output=64 * 1024)
    how = next((ln[len(MARK) + 5:].strip() for ln in _after(out, MARK + "stop ")[:1]), "")
    if rc != 0 or how not in ("none", "term", "killed"):
        raise LabGpuError(MSG_HOST_ANSWER, HINT_HOST_ANSWER, code="JobStop", host=_host(conn), id=job_id)
    return StopResult(how, status(conn, job_id))


def list_ids(conn: Connection) -> list[str]:
    """The job ids the host has, newest first (its folder names that are job ids; anything else is ignored)."""
    _rc, out, _err = conn.exec(["sh", "-c", _LIST], timeout=60, max_output=MAX_LIST * 300)
    seen: list[str] = []
    for line in _after(out, MARK + "ids")[1:]:
        name = line.strip()
        if is_job_id(name) and name not in seen:
            seen.append(name)
    return seen


def remove(conn: Connection, job_id: str) -> None:
    """Delete the job's folder on the host (its log too); for a job that is not running."""
    check_id(job_id)
    conn.exec(["sh", "-c", _REMOVE, "labgpu-rm", job_id], timeout=60)
