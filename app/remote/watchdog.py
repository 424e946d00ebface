"""The optional on-instance watchdog: a small POSIX-sh script that applies the idle rule on the
instance itself and shuts it down, so the bill stops even when the laptop sleeps.

Files under the login user's home, fixed names, always quoted (nothing from the user or the network
becomes part of a path or an option): ``~/.labgpu/watchdog.sh`` (the script), ``watchdog.conf``
(its settings and the id of the one process that may act on them), ``watchdog.status`` (what it
last said: watching / shutdown / error, read by the next connection), ``watchdog.log``, ``watchdog.pid``.

What it promises:
- it acts only while ``watchdog.conf`` names its own id, checked before every poll and again
  right before a shutdown: ``labgpu guard rm`` deletes the file, a changed guard writes a new id,
  so a removed or replaced watchdog never fires even where killing the old process failed;
- every ``nvidia-smi`` call runs under a timeout (coreutils/BusyBox ``timeout`` when it works; in
  any case the loop waits at most timeout + 3 s, kills what is left and goes on): a hang counts
  as busy, the loop continues;
- a GPU record is ``<uuid>, <utilization>``; a line that is not one (a warning before the CSV) is
  ignored, as app.core.gpumon ignores it; ``[N/A]`` (MIG), a lost GPU's line, a failed or hung call,
  or no record at all count as busy and restart the window, like the guards in the app;
- the window runs on ``/proc/uptime`` (monotonic): a wall clock stepped back does not stretch it;
- install first checks that the shutdown will be permitted (root, or ``sudo -n`` without a
  password) and refuses otherwise; a shutdown refused later is written to ``watchdog.status``, which
  :func:`status` and :func:`reconcile` read on the next connection;
- after a stop/start the process is gone (the files stay): :func:`reconcile` starts it again, or
  records why it cannot, so ``guard ls`` never claims a watchdog that is not running.

What a shutdown from inside does to the bill differs by cloud (check before relying on it):
- AWS EC2: an OS shutdown stops an EBS-backed instance by default
  (InstanceInitiatedShutdownBehavior=stop; "terminate" if it was launched so); EBS volumes keep
  billing while stopped; a spot instance is stopped or terminated per its interruption behaviour.
- Tencent CVM: an OS shutdown leaves the instance STOPPED with KEEP_CHARGING: the no-charge stop
  mode (StoppedMode=STOP_CHARGING) is applied only to stops requested through the console/API
  (intl.cloud.tencent.com/document/product/213/19922), and StopInstances accepts only RUNNING
  instances (tencentcloud/cvm/v20170312/cvm_client.py StopInstances doc string), so LabGPU settles
  it with TencentProvider.stop_charging_after_os_shutdown (start, then stop without charging).
The watchdog is a safety net, not a replacement for the guard.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from app.core.errors import InputError, LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP

SCRIPT = r"""#!/bin/sh
# LabGPU watchdog: shut this machine down after WINDOW seconds with every GPU under BELOW %.
# Installed by LabGPU. It reads $HOME/.labgpu/watchdog.conf before every poll and exits when that
# file is gone or names another id (the guard was removed or changed). Remove it with
# `labgpu guard rm`, or: rm -f "$HOME/.labgpu/watchdog.conf" (it exits at its next poll).
MYID="$1"
case "$MYID" in ''|*[!0-9a-f]*) echo "watchdog: bad arguments" >&2; exit 2;; esac
DIR="$HOME/.labgpu"
CONF="$DIR/watchdog.conf"; LOG="$DIR/watchdog.log"; ST="$DIR/watchdog.status"; SMI="$DIR/watchdog.smi"
log() { echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ' 2>/dev/null) $*" >> "$LOG"; }
# The window runs on /proc/uptime (monotonic: a clock stepped back or forward does not move it);
# `date +%s` only where there is no /proc/uptime.
if read -r u _ < /proc/uptime 2>/dev/null; then MONO=uptime; else MONO=date; fi
mono() {
  if [ "$MONO" = uptime ] && read -r u _ < /proc/uptime 2>/dev/null; then echo "${u%%.*}"; else date +%s; fi
}
status() {  # state, message: what the next LabGPU connection reads
  printf 'id=%s\nstate=%s\nuptime=%s\nmessage=%s\n' "$MYID" "$1" "$(mono)" "$2" > "$ST.tmp" && mv -f "$ST.tmp" "$ST"
}
load() {  # the configuration, strictly: numbers only, and it must name this process' id
  [ -r "$CONF" ] || return 1
  id=""; b=""; w=""; i=""; t=""
  while IFS='=' read -r k v; do
    case "$k" in id) id=$v;; below) b=$v;; window) w=$v;; interval) i=$v;; timeout) t=$v;; esac
  done < "$CONF"
  [ "$id" = "$MYID" ] || return 1
  for n in "$b" "$w" "$i" "$t"; do case "$n" in ''|*[!0-9]*) return 1;; esac; done
  BELOW=$b; WINDOW=$w; INTERVAL=$i; TIMEOUT=$t
}
quit() {  # message
  log "$1"
  [ "$(cat "$DIR/watchdog.pid" 2>/dev/null)" = "$$" ] && rm -f "$DIR/watchdog.pid"
  exit 0
}
load || { log "no configuration for id $MYID: not started"; exit 2; }
echo $$ > "$DIR/watchdog.pid"
# fractional sleeps where the shell's sleep has them (GNU, BusyBox), whole seconds otherwise
if sleep 0.01 2>/dev/null; then TICK=0.1; PER=10; else TICK=1; PER=1; fi
# every nvidia-smi call under a timeout: coreutils/BusyBox `timeout` when it works, and in any case
# this loop waits at most TIMEOUT + 3 s, kills what is left and goes on (a hang counts as busy)
TMO=""
if command -v timeout >/dev/null 2>&1 && timeout 5 true >/dev/null 2>&1; then
  if timeout -k 1 5 true >/dev/null 2>&1; then TMO="timeout -k 2"; else TMO="timeout"; fi
fi
SMI_PID=""
poll() {  # sets RC (124: timed out or still hung) and leaves the output in $SMI
  if [ -n "$SMI_PID" ] && kill -0 "$SMI_PID" 2>/dev/null; then RC=124; return; fi
  SMI_PID=""
  rm -f "$SMI" "$SMI.rc" "$SMI.pid"
  (
    if [ -n "$TMO" ]; then
      $TMO "$TIMEOUT" nvidia-smi --query-gpu=uuid,utilization.gpu --format=csv,noheader,nounits \
        > "$SMI" 2>&1 < /dev/null &
    else
      nvidia-smi --query-gpu=uuid,utilization.gpu --format=csv,noheader,nounits > "$SMI" 2>&1 < /dev/null &
    fi
    c=$!; echo "$c" > "$SMI.pid"; wait "$c"; echo "$?" > "$SMI.rc.tmp"; mv -f "$SMI.rc.tmp" "$SMI.rc"
  ) &
  SMI_PID=$!
  n=0; lim=$(( (TIMEOUT + 3) * PER ))
  while [ ! -s "$SMI.rc" ] && [ "$n" -lt "$lim" ]; do sleep "$TICK"; n=$((n + 1)); done
  if [ -s "$SMI.rc" ]; then
    RC=$(cat "$SMI.rc"); SMI_PID=""
  else
    RC=124
    c=$(cat "$SMI.pid" 2>/dev/null)
    case "$c" in ''|*[!0-9]*) ;; *) kill -TERM "$c" 2>/dev/null; sleep 1; kill -KILL "$c" 2>/dev/null;; esac
    log "nvidia-smi did not answer within ${TIMEOUT}s: counted as busy"
  fi
  case "$RC" in ''|*[!0-9]*) RC=1;; 124|137) log "nvidia-smi timed out after ${TIMEOUT}s: counted as busy";; esac
}
idle_now() {  # 1 when every GPU record reads a number under BELOW; lines that are not records ignored
  [ "$RC" = 0 ] || { echo 0; return; }
  awk -v t="$BELOW" '
    BEGIN { ok = 1; n = 0 }
    /Unable to determine the device handle/ { ok = 0; next }   # a lost GPU: unknown, so busy
    { i = index($0, ","); if (i == 0) next
      u = substr($0, 1, i - 1); v = substr($0, i + 1)
      gsub(/^[ \t]+/, "", u); gsub(/[ \t\r]+$/, "", u); gsub(/[ \t\r]/, "", v)
      if (u == "" || u ~ /[ \t]/ || v ~ /,/) next      # not a record (a warning line): ignored
      n++
      if (v !~ /^[0-9]+(\.[0-9]+)?$/ || v + 0 >= t) ok = 0 }
    END { if (n == 0) ok = 0; print ok }' "$SMI" 2>/dev/null || echo 0
}
status watching "below=$BELOW% window=${WINDOW}s interval=${INTERVAL}s"
log "started: below=$BELOW% window=${WINDOW}s interval=${INTERVAL}s timeout=${TIMEOUT}s clock=$MONO"
since=""
while :; do
  load || quit "configuration removed or replaced: exiting"
  poll
  now=$(mono)
  if [ "$(idle_now)" = 1 ]; then
    [ -n "$since" ] || since=$now
    if [ $((now - since)) -ge "$WINDOW" ]; then
      load || quit "configuration removed or replaced: exiting"
      log "idle for $((now - since))s: shutting down"
      status shutdown "idle for $((now - since))s under $BELOW%: shut down"
      if [ "$(id -u)" = 0 ]; then
        { shutdown -h now || poweroff; } >> "$LOG" 2>&1 && exit 0
      else
        { sudo -n shutdown -h now || sudo -n poweroff; } >> "$LOG" 2>&1 && exit 0
      fi
      why=$(tail -n 1 "$LOG" 2>/dev/null | tr -cd '[:print:]' | cut -c1-200)
      log "shutdown failed: no permission (sudo -n): $why"
      status error "the shutdown was refused: $why"
      since=""
    fi
  else
    [ -z "$since" ] || log "busy again (rc=$RC)"
    since=""
  fi
  sleep "$INTERVAL"
done
"""

MSG_INSTALL_FAILED = QT_TRANSLATE_NOOP("LabGPU", "Could not install the watchdog on {host}: {why}")
HINT_INSTALL_FAILED = QT_TRANSLATE_NOOP("LabGPU", "Check that the login user can write to its home folder "
                                                  "and that /bin/sh exists.")
MSG_BAD_VALUE = QT_TRANSLATE_NOOP("LabGPU", "Watchdog value out of range: {what} = {value}")
HINT_BAD_VALUE = QT_TRANSLATE_NOOP("LabGPU", "Threshold 1–100 %, window 1 s – 24 h, interval 1–600 s, "
                                             "nvidia-smi timeout 1–120 s.")
MSG_NO_PERMISSION = QT_TRANSLATE_NOOP("LabGPU", "The watchdog was not installed on {host}: it could not shut the "
                                                "machine down, because {user} is not root and sudo asks for a "
                                                "password ({why}).")
HINT_NO_PERMISSION = QT_TRANSLATE_NOOP("LabGPU", "Log in as root, or let {user} run shutdown without a password "
                                                 "(a sudoers line with NOPASSWD); until then only LabGPU's own "
                                                 "guards stop the instance, while LabGPU runs.")
MSG_REFUSED_LATER = QT_TRANSLATE_NOOP("LabGPU", "The watchdog on {host} could not shut the machine down: {why}")
MSG_REINSTALLED = QT_TRANSLATE_NOOP("LabGPU", "The watchdog on {host} was not running (the instance was stopped "
                                              "and started, or it had exited); LabGPU started it again.")
MSG_GONE = QT_TRANSLATE_NOOP("LabGPU", "The watchdog on {host} is gone and could not be started again: {why}")
MSG_UPDATED = QT_TRANSLATE_NOOP("LabGPU", "The watchdog on {host} now follows the changed guard: {below} % for "
                                          "{window} s.")
MSG_REMOVED = QT_TRANSLATE_NOOP("LabGPU", "The watchdog on {host} was removed with its guard.")
HINT_WATCHDOG = QT_TRANSLATE_NOOP("LabGPU", "See `labgpu guard ls`; `labgpu guard set {host} --watchdog` installs "
                                            "it again once the cause is fixed.")

_ID = re.compile(r"^[0-9a-f]{8,32}$")
_CTRL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
MAX_TEXT = 300  # a host's words are data: one line, bounded

_PERMISSION = ('if [ "$(id -u)" = 0 ]; then echo "OK root"; '
               'elif sudo -n true >/dev/null 2>&1; then echo "OK sudo"; '
               'else echo "NO $(id -un 2>/dev/null) $(sudo -n true 2>&1 </dev/null | head -n 1 | cut -c1-200)"; fi')
_INSTALL = ('umask 077 && mkdir -p "$HOME/.labgpu" && cat > "$HOME/.labgpu/watchdog.sh.tmp" && '
            'mv -f "$HOME/.labgpu/watchdog.sh.tmp" "$HOME/.labgpu/watchdog.sh" && '
            'chmod 700 "$HOME/.labgpu/watchdog.sh" && '
            'printf "id=%s\\nbelow=%s\\nwindow=%s\\ninterval=%s\\ntimeout=%s\\n" "$1" "$2" "$3" "$4" "$5" '
            '> "$HOME/.labgpu/watchdog.conf.tmp" && '
            'mv -f "$HOME/.labgpu/watchdog.conf.tmp" "$HOME/.labgpu/watchdog.conf"')
_STOP_OLD = ('p=$(cat "$HOME/.labgpu/watchdog.pid" 2>/dev/null); '
             'case "$p" in ""|*[!0-9]*) ;; *) if grep -q watchdog.sh "/proc/$p/cmdline" 2>/dev/null; '
             'then kill "$p"; fi;; esac; rm -f "$HOME/.labgpu/watchdog.pid"; true')
_START = ('cd "$HOME/.labgpu" || exit 1; rm -f "$HOME/.labgpu/watchdog.status"; '
          'if command -v setsid >/dev/null 2>&1; then S=setsid; else S=; fi; '
          '$S nohup /bin/sh "$HOME/.labgpu/watchdog.sh" "$1" >/dev/null 2>&1 </dev/null & '
          'i=0; while ! grep -qx "id=$1" "$HOME/.labgpu/watchdog.status" 2>/dev/null && [ $i -lt 100 ]; '
          'do sleep 0.1 2>/dev/null || sleep 1; i=$((i+1)); done; '
          'cat "$HOME/.labgpu/watchdog.pid" 2>/dev/null; true')
_STATUS = ('p=$(cat "$HOME/.labgpu/watchdog.pid" 2>/dev/null); '
           'case "$p" in ""|*[!0-9]*) echo "PID none";; *) if grep -q watchdog.sh "/proc/$p/cmdline" 2>/dev/null; '
           'then echo "PID $p"; else echo "PID none"; fi;; esac; '
           'echo "--conf"; head -c 1024 "$HOME/.labgpu/watchdog.conf" 2>/dev/null; '
           'echo "--status"; head -c 2048 "$HOME/.labgpu/watchdog.status" 2>/dev/null; '
           'echo "--log"; tail -n 20 "$HOME/.labgpu/watchdog.log" 2>/dev/null | cut -c1-300; true')
_REMOVE = ('rm -f "$HOME/.labgpu/watchdog.conf"; ' + _STOP_OLD +
           '; rm -f "$HOME/.labgpu/watchdog.sh" "$HOME/.labgpu/watchdog.status"; true')


@dataclass(frozen=True)
class WatchdogParams:
    """What the script runs with (whole numbers, checked)."""

    below_pct: int
    window_s: int
    interval_s: int
    smi_timeout_s: int

    def conf(self) -> dict[str, int]:
        return {"below": self.below_pct, "window": self.window_s, "interval": self.interval_s,
                "timeout": self.smi_timeout_s}


@dataclass(frozen=True)
class WatchdogStatus:
    running: bool
    pid: int | None
    log_tail: list[str]
    configured: bool = False           # watchdog.conf is there (it acts on it while running)
    conf: dict[str, int] = field(default_factory=dict)
    state: str = ""                    # what it last wrote: watching | shutdown | error | "" (none)
    message: str = ""                  # its words (plain, bounded)

    @property
    def failed(self) -> bool:
        return self.state == "error"


def _int_in(what: str, value: float, lo: int, hi: int) -> int:
    try:
        v = int(round(float(value)))
    except (TypeError, ValueError, OverflowError):
        v = -1
    if not lo <= v <= hi:
        raise InputError(MSG_BAD_VALUE, HINT_BAD_VALUE, code="WatchdogValue", what=what, value=value)
    return v


def params(*, below_pct: float, window_s: float, interval_s: float | None = None,
           smi_timeout_s: float | None = None) -> WatchdogParams:
    """Checked parameters; by default it polls window/5 (1–60 s) and gives nvidia-smi up to 30 s."""
    window = _int_in("window_s", window_s, 1, 86_400)
    interval = _int_in("interval_s", interval_s if interval_s is not None else max(1.0, min(60.0, window / 5)),
                       1, 600)
    timeout = _int_in("smi_timeout_s", smi_timeout_s if smi_timeout_s is not None else max(2, min(30, interval)),
                      1, 120)
    return WatchdogParams(_int_in("below_pct", below_pct, 1, 100), window, interval, timeout)


def params_for_guard(cfg: Any) -> WatchdogParams:
    """The watchdog's parameters for a GuardConfig (idle_below_pct, idle_minutes)."""
    return params(below_pct=cfg.idle_below_pct, window_s=max(1.0, float(cfg.idle_minutes) * 60.0))


def plain(text: str, limit: int = MAX_TEXT) -> str:
    """A host's text as one bounded plain line (control characters replaced)."""
    return _CTRL.sub(" ", str(text)).strip()[:limit]


def _host(conn: Any) -> str:
    return str(getattr(getattr(conn, "record", None), "name", "?"))


def check_permission(conn: Any) -> str:
    """'root' or 'sudo' when a shutdown will be permitted; else LabGpuError (message + next step)."""
    rc, out, err = conn.exec(["sh", "-c", _PERMISSION], timeout=30)
    line = str((str(out).strip().splitlines() or [""])[-1])
    if rc == 0 and line in ("OK root", "OK sudo"):
        return line.split()[1]
    parts = line.split(" ", 2)
    if rc == 0 and parts and parts[0] == "NO":
        user = plain(parts[1]) if len(parts) > 1 else "?"
        why = plain(parts[2]) if len(parts) > 2 else ""
        raise LabGpuError(MSG_NO_PERMISSION, HINT_NO_PERMISSION, code="WatchdogNoPermission", host=_host(conn),
                          user=user or "?", why=why or "sudo -n true failed")
    raise LabGpuError(MSG_INSTALL_FAILED, HINT_INSTALL_FAILED, code="WatchdogInstall", host=_host(conn),
                      why=plain(err or out) or f"exit {rc}")


def install(conn: Any, *, below_pct: float, window_s: float, interval_s: float | None = None,
            smi_timeout_s: float | None = None) -> int:
    """Install (or replace: a new id, so the old process exits) and start the watchdog; returns its
    pid on the instance. Refuses (LabGpuError) where the shutdown would not be permitted."""
    p = params(below_pct=below_pct, window_s=window_s, interval_s=interval_s, smi_timeout_s=smi_timeout_s)
    return install_params(conn, p)


def install_params(conn: Any, p: WatchdogParams) -> int:
    host = _host(conn)
    check_permission(conn)
    wid = secrets.token_hex(8)
    rc, _out, err = conn.exec(["sh", "-c", _INSTALL, "watchdog", wid, str(p.below_pct), str(p.window_s),
                               str(p.interval_s), str(p.smi_timeout_s)], stdin=SCRIPT.encode(), timeout=30)
    if rc != 0:
        raise LabGpuError(MSG_INSTALL_FAILED, HINT_INSTALL_FAILED, code="WatchdogInstall", host=host,
                          why=plain(err) or f"exit {rc}")
    conn.exec(["sh", "-c", _STOP_OLD], timeout=30)
    rc, out, err = conn.exec(["sh", "-c", _START, "watchdog", wid], timeout=30)
    m = re.search(r"(\d+)\s*$", out)
    st = status(conn)
    if rc != 0 or not m or not st.running or st.pid != int(m.group(1)):
        raise LabGpuError(MSG_INSTALL_FAILED, HINT_INSTALL_FAILED, code="WatchdogInstall", host=host,
                          why=plain(err or out) or "it did not start")
    return int(m.group(1))


def status(conn: Any) -> WatchdogStatus:
    _rc, out, _err = conn.exec(["sh", "-c", _STATUS], timeout=30)
    section, first = "", ""
    conf_lines: list[str] = []
    status_lines: list[str] = []
    log_lines: list[str] = []
    for line in out[:64 * 1024].splitlines():
        if line in ("--conf", "--status", "--log"):
            section = line[2:]
            continue
        if section == "conf":
            conf_lines.append(line)
        elif section == "status":
            status_lines.append(line)
        elif section == "log":
            log_lines.append(plain(line))
        elif not first:
            first = line
    bits = first.split()
    pid = int(bits[1]) if len(bits) == 2 and bits[0] == "PID" and bits[1].isdigit() else None
    conf: dict[str, int] = {}
    conf_id = ""
    for line in conf_lines:
        k, _, v = line.partition("=")
        if k == "id":
            conf_id = v.strip()
        elif k in ("below", "window", "interval", "timeout") and v.strip().isdigit():
            conf[k] = int(v.strip())
    kv = {k: v for k, _, v in (ln.partition("=") for ln in status_lines)}
    state = kv.get("state", "") if kv.get("id", "") == conf_id or not conf_id else ""
    if state not in ("watching", "shutdown", "error", ""):
        state = ""
    return WatchdogStatus(pid is not None, pid, log_lines, bool(_ID.match(conf_id)), conf, state,
                          plain(kv.get("message", "")) if state else "")


def remove(conn: Any) -> bool:
    """Remove the watchdog (its configuration first: even a process the kill misses exits at its next
    poll without acting). True when one was there."""
    st = status(conn)
    conn.exec(["sh", "-c", _REMOVE], timeout=30)
    return st.running or st.configured


# -- what the app remembers of each target's watchdog --------------------------------------------

@dataclass(frozen=True)
class WatchdogReport:
    """The outcome of :func:`reconcile`: ``state`` "running", "gone", "failed", "removal-pending", "removed"
    or "none"; ``message`` and ``hint`` templates with ``params`` (for a tray event / `labgpu watch`
    line), empty when all is well."""

    state: str
    message: str = ""
    hint: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        return str(LabGpuError(self.message, self.hint, **self.params).text()) if self.message else ""


class WatchdogBook:
    """``<data>/watchdog.json``: target → {state, message, checked}: what the last connection saw, so
    `labgpu guard ls` says "gone" or "failed" instead of the guard's wish."""

    _lock = threading.Lock()

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def default(cls) -> WatchdogBook:
        from app.core.paths import default_paths

        return cls(default_paths().data_dir / "watchdog.json")

    def all(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): {str(a): str(b) for a, b in v.items()} for k, v in data.items() if isinstance(v, dict)}

    def get(self, target: str) -> dict[str, str] | None:
        return self.all().get(target)

    def set(self, target: str, state: str, message: str = "") -> None:
        with self._lock:
            data = self.all()
            data[target] = {"state": state, "message": plain(message, 500),
                            "checked": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
            self._write(data)

    def forget(self, target: str) -> None:
        """Drop a target (its guard removed with the watchdog, or the instance terminated)."""
        with self._lock:
            data = self.all()
            if data.pop(target, None) is not None:
                self._write(data)

    def _write(self, data: dict[str, dict[str, str]]) -> None:
        from app.core.paths import atomic_write_text

        atomic_write_text(self.path, json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True))


def reconcile(conn: Any, target: str, cfg: Any | None, book: WatchdogBook) -> WatchdogReport:
    """Make the instance's watchdog match its guard, on a connection (the hook a watcher calls when
    it (re)connects to a guarded host, and `labgpu guard set/rm` use):

    - no guard, or a guard without the watchdog: remove a watchdog still there;
    - its process gone (stop/start, or it exited): start it again; where that is refused (sudo wants a
      password now), record "gone" with why;
    - its settings differ from the guard's: install anew (a new window, never the old one);
    - it wrote "error" (a shutdown refused): record "failed" with its words.
    """
    host = _host(conn) if _host(conn) != "?" else target
    want = cfg is not None and bool(getattr(cfg, "watchdog", False))
    st = status(conn)
    if not want:
        if st.running or st.configured:
            remove(conn)
            book.forget(target)
            return WatchdogReport("removed", MSG_REMOVED, "", {"host": host})
        book.forget(target)
        return WatchdogReport("none")
    p = params_for_guard(cfg)
    try:
        if not st.running or not st.configured:
            install_params(conn, p)
            book.set(target, "running")
            return WatchdogReport("running", MSG_REINSTALLED, "", {"host": host})
        if st.conf != p.conf():
            install_params(conn, p)
            book.set(target, "running")
            return WatchdogReport("running", MSG_UPDATED, "", {"host": host, "below": p.below_pct,
                                                               "window": p.window_s})
    except LabGpuError as exc:
        book.set(target, "gone", exc.text())
        return WatchdogReport("gone", MSG_GONE, HINT_WATCHDOG, {"host": host, "why": exc.text()})
    if st.failed:
        book.set(target, "failed", st.message)
        return WatchdogReport("failed", MSG_REFUSED_LATER, HINT_WATCHDOG, {"host": host, "why": st.message})
    book.set(target, "running")
    return WatchdogReport("running")
