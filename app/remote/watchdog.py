"""The optional on-instance watchdog: a small POSIX-sh script that applies the idle rule on the
instance itself and shuts it down, so the bill stops even when the laptop sleeps.

Installed over SSH as ``$HOME/.labgpu/watchdog.sh`` (fixed names under the login user's home,
always quoted; nothing from the user or the network becomes part of a path or an option). It
polls ``nvidia-smi --query-gpu=utilization.gpu`` every INTERVAL seconds; the host is idle only
when every line is a number below the threshold — an error, ``[N/A]`` (MIG) or no output counts
as busy and restarts the window, like the guards in the app. After WINDOW seconds of idle it runs
``sudo -n shutdown -h now`` (else ``sudo -n poweroff``, else ``shutdown -h now`` as root) and
logs to ``$HOME/.labgpu/watchdog.log``.

What a shutdown from inside does to the bill differs by cloud (check before relying on it):
- AWS EC2: an OS shutdown stops an EBS-backed instance by default
  (InstanceInitiatedShutdownBehavior=stop; "terminate" if it was launched so); EBS volumes keep
  billing while stopped; a spot instance is stopped or terminated per its interruption behaviour.
- Tencent CVM: an OS shutdown leaves the instance STOPPED, but the no-charge stop mode
  (StoppedMode=STOP_CHARGING) is applied only to stops requested through the console/API, so a
  pay-as-you-go instance shut down from inside may keep billing its compute until LabGPU (or
  you) stops it through the API (Tencent's "No Charges When Shut Down" page, intl.cloud.tencent.com/
  document/product/213/19922: the mode is chosen in the console or with StopInstances' StoppedMode,
  default KEEP_CHARGING). The watchdog is a safety net, not a replacement for the guard.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.core.errors import InputError, LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP

SCRIPT = r"""#!/bin/sh
# LabGPU watchdog: shut this machine down after WINDOW seconds with every GPU under BELOW %.
# Installed by LabGPU; remove with: rm -f "$HOME/.labgpu/watchdog.sh" and kill the pid in watchdog.pid
BELOW="$1"; WINDOW="$2"; INTERVAL="$3"
case "$BELOW$WINDOW$INTERVAL" in *[!0-9]*|'') echo "watchdog: bad arguments" >&2; exit 2;; esac
DIR="$HOME/.labgpu"
LOG="$DIR/watchdog.log"
echo $$ > "$DIR/watchdog.pid"
log() { echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ') $*" >> "$LOG"; }
log "started: below=$BELOW% window=${WINDOW}s interval=${INTERVAL}s"
since=""
while :; do
  out=$(nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits 2>&1)
  rc=$?
  idle=0
  if [ "$rc" -eq 0 ]; then
    idle=$(printf '%s\n' "$out" | awk -v t="$BELOW" '
      BEGIN { ok = 1; n = 0 }
      { v = $0; gsub(/[ \t\r]/, "", v); if (v == "") next; n++
        if (v !~ /^[0-9]+(\.[0-9]+)?$/ || v + 0 >= t) ok = 0 }
      END { if (n == 0) ok = 0; print ok }')
  fi
  now=$(date +%s)
  if [ "$idle" = 1 ]; then
    [ -n "$since" ] || since=$now
    if [ $((now - since)) -ge "$WINDOW" ]; then
      log "idle for $((now - since))s: shutting down"
      sudo -n shutdown -h now >> "$LOG" 2>&1 || sudo -n poweroff >> "$LOG" 2>&1 || shutdown -h now >> "$LOG" 2>&1 \
        || { log "shutdown failed: no permission (sudo -n)"; exit 1; }
      exit 0
    fi
  else
    [ -z "$since" ] || log "busy again (rc=$rc)"
    since=""
  fi
  sleep "$INTERVAL"
done
"""

MSG_INSTALL_FAILED = QT_TRANSLATE_NOOP("LabGPU", "Could not install the watchdog on {host}: {why}")
HINT_INSTALL_FAILED = QT_TRANSLATE_NOOP("LabGPU", "Check that the login user can write to its home folder "
                                                  "and that /bin/sh exists.")
MSG_BAD_VALUE = QT_TRANSLATE_NOOP("LabGPU", "Watchdog value out of range: {what} = {value}")
HINT_BAD_VALUE = QT_TRANSLATE_NOOP("LabGPU", "Threshold 1–100 %, window 1 s – 24 h, interval 1–600 s.")

_INSTALL = 'umask 077 && mkdir -p "$HOME/.labgpu" && cat > "$HOME/.labgpu/watchdog.sh.tmp" && ' \
           'mv -f "$HOME/.labgpu/watchdog.sh.tmp" "$HOME/.labgpu/watchdog.sh" && chmod 700 "$HOME/.labgpu/watchdog.sh"'
_STOP_OLD = 'p=$(cat "$HOME/.labgpu/watchdog.pid" 2>/dev/null); ' \
            'case "$p" in ""|*[!0-9]*) ;; *) if grep -q watchdog.sh "/proc/$p/cmdline" 2>/dev/null; ' \
            'then kill "$p"; fi;; esac; rm -f "$HOME/.labgpu/watchdog.pid"; true'
_START = 'cd "$HOME/.labgpu" || exit 1; ' \
         'if command -v setsid >/dev/null 2>&1; then S=setsid; else S=; fi; ' \
         '$S nohup /bin/sh "$HOME/.labgpu/watchdog.sh" "$1" "$2" "$3" >/dev/null 2>&1 </dev/null & ' \
         'i=0; while [ ! -s "$HOME/.labgpu/watchdog.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; ' \
         'cat "$HOME/.labgpu/watchdog.pid"'
_STATUS = 'p=$(cat "$HOME/.labgpu/watchdog.pid" 2>/dev/null); ' \
          'case "$p" in ""|*[!0-9]*) echo "PID none";; *) if grep -q watchdog.sh "/proc/$p/cmdline" 2>/dev/null; ' \
          'then echo "PID $p"; else echo "PID none"; fi;; esac; ' \
          'tail -n 20 "$HOME/.labgpu/watchdog.log" 2>/dev/null; true'


@dataclass(frozen=True)
class WatchdogStatus:
    running: bool
    pid: int | None
    log_tail: list[str]


def _int_in(what: str, value: float, lo: int, hi: int) -> int:
    try:
        v = int(round(float(value)))
    except (TypeError, ValueError):
        v = -1
    if not lo <= v <= hi:
        raise InputError(MSG_BAD_VALUE, HINT_BAD_VALUE, code="WatchdogValue", what=what, value=value)
    return v


def install(conn: Any, *, below_pct: float, window_s: float, interval_s: float = 60.0) -> int:
    """Install (or replace) and start the watchdog; returns its pid on the instance."""
    below = _int_in("below_pct", below_pct, 1, 100)
    window = _int_in("window_s", window_s, 1, 86_400)
    interval = _int_in("interval_s", interval_s, 1, 600)
    host = getattr(getattr(conn, "record", None), "name", "?")
    rc, _out, err = conn.exec(["sh", "-c", _INSTALL], stdin=SCRIPT.encode(), timeout=30)
    if rc != 0:
        raise LabGpuError(MSG_INSTALL_FAILED, HINT_INSTALL_FAILED, code="WatchdogInstall", host=host,
                          why=err.strip()[:200] or f"exit {rc}")
    conn.exec(["sh", "-c", _STOP_OLD], timeout=30)
    rc, out, err = conn.exec(["sh", "-c", _START, "watchdog", str(below), str(window), str(interval)], timeout=30)
    m = re.search(r"(\d+)\s*$", out)
    if rc != 0 or not m:
        raise LabGpuError(MSG_INSTALL_FAILED, HINT_INSTALL_FAILED, code="WatchdogInstall", host=host,
                          why=(err.strip() or out.strip())[:200] or f"exit {rc}")
    return int(m.group(1))


def status(conn: Any) -> WatchdogStatus:
    _rc, out, _err = conn.exec(["sh", "-c", _STATUS], timeout=30)
    lines = out.splitlines()
    first = lines[0] if lines else "PID none"
    pid = int(first.split()[1]) if first.startswith("PID ") and first.split()[1].isdigit() else None
    return WatchdogStatus(pid is not None, pid, lines[1:])


def remove(conn: Any) -> None:
    conn.exec(["sh", "-c", _STOP_OLD + '; rm -f "$HOME/.labgpu/watchdog.sh"'], timeout=30)
