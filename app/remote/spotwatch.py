"""Spot-interruption watch: every 5 s, over the instance's SSH connection, ask its metadata service.

- AWS (IMDSv2): ``PUT http://169.254.169.254/latest/api/token`` with
  ``X-aws-ec2-metadata-token-ttl-seconds``, then ``GET /latest/meta-data/spot/instance-action``
  with ``X-aws-ec2-metadata-token``: 200 ``{"action": "terminate|stop|hibernate", "time":
  "2017-09-18T08:22:00Z"}``; 404 = nothing pending.
- Tencent CVM: ``GET http://metadata.tencentyun.com/latest/meta-data/spot/termination-time``:
  200 ``2018-08-18 12:05:33`` (UTC+8, no zone marker); 404 = not being reclaimed.

The request runs ON the instance (the metadata service answers only there) with whatever it has:
python3 (preferred), else curl. Neither → the watch says it cannot read notices (never "no notice").
The remote command is fixed text with the provider as a quoted argument; nothing from the
metadata answer is executed. A notice is reported once per notice time.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP, translate

log = logging.getLogger(__name__)

AWS_TOKEN_URL = "http://169.254.169.254/latest/api/token"  # noqa: S105 - a URL, not a secret
AWS_ACTION_URL = "http://169.254.169.254/latest/meta-data/spot/instance-action"
TENCENT_URL = "http://metadata.tencentyun.com/latest/meta-data/spot/termination-time"
TENCENT_TZ = timezone(timedelta(hours=8))
POLL_S = 5.0

PY_PROBE = r"""
import sys, urllib.request, urllib.error
p = sys.argv[1]
op = urllib.request.build_opener(urllib.request.ProxyHandler({}))
def req(url, method="GET", headers=None):
    r = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with op.open(r, timeout=2) as f:
            return f.status, f.read(4096).decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, ""
    except Exception as e:
        return 0, str(e)[:200]
if p == "aws":
    s, tok = req("@TOKEN@", "PUT", {"X-aws-ec2-metadata-token-ttl-seconds": "300"})
    if s != 200:
        print(tok); print("STATUS", s, "token"); sys.exit(0)
    s, body = req("@ACTION@", headers={"X-aws-ec2-metadata-token": tok.strip()})
else:
    s, body = req("@TENCENT@")
print(body); print("STATUS", s)
"""

CURL_PROBE = r"""
if [ "$1" = aws ]; then
  tok=$(curl -s -f -m 2 --noproxy '*' -X PUT -H 'X-aws-ec2-metadata-token-ttl-seconds: 300' @TOKEN@) \
    || { echo; echo "STATUS 0 token"; exit 0; }
  out=$(curl -s -m 2 --noproxy '*' -w '\nSTATUS %{http_code}' -H "X-aws-ec2-metadata-token: $tok" @ACTION@)
else
  out=$(curl -s -m 2 --noproxy '*' -w '\nSTATUS %{http_code}' @TENCENT@)
fi
printf '%s\n' "$out"
"""


def _fill(script: str) -> str:
    out = script.replace("@TOKEN@", AWS_TOKEN_URL).replace("@ACTION@", AWS_ACTION_URL)
    return out.replace("@TENCENT@", TENCENT_URL)


PY_PROBE = _fill(PY_PROBE)
CURL_PROBE = _fill(CURL_PROBE)

MSG_NO_TOOL = QT_TRANSLATE_NOOP("LabGPU", "{host}: cannot read spot interruption notices: the instance has "
                                          "neither python3 nor curl — install curl, or watch the cloud console")
MSG_UNREADABLE = QT_TRANSLATE_NOOP("LabGPU", "{host}: the metadata service did not answer ({why}); interruption "
                                             "notices cannot be read right now")


@dataclass(frozen=True)
class SpotNotice:
    provider: str
    action: str  # "terminate" | "stop" | "hibernate" (AWS); "terminate" for Tencent
    time: datetime  # when the instance will be reclaimed (UTC)
    raw: str


class SpotWatchError(LabGpuError):
    pass


def probe_argv(tool: str, provider: str) -> list[str]:
    if tool == "python3":
        return ["python3", "-c", PY_PROBE, provider]
    if tool == "curl":
        return ["sh", "-c", CURL_PROBE, "spotwatch", provider]
    raise ValueError(tool)


def pick_tool(which_output: str) -> str | None:
    """From `command -v python3 curl` output: the tool to use, or None."""
    found = [ln.strip().rsplit("/", 1)[-1] for ln in which_output.splitlines() if ln.strip()]
    for tool in ("python3", "curl"):
        if tool in found:
            return tool
    return None


def parse_answer(provider: str, output: str) -> tuple[int, SpotNotice | None, str]:
    """(HTTP status, notice or None, error text). Status 0 = the request itself failed."""
    lines = output.rstrip("\n").split("\n")
    status_line = next((ln for ln in reversed(lines) if ln.startswith("STATUS ")), "")
    if not status_line:
        return 0, None, output.strip()[:200] or "no answer"
    body = "\n".join(lines[:lines.index(status_line)]).strip() if status_line in lines else ""
    parts = status_line.split()
    try:
        status = int(parts[1])
    except (IndexError, ValueError):
        return 0, None, status_line
    if status == 404:
        return 404, None, ""
    if status != 200:
        why = " ".join(parts[2:]) or f"HTTP {status}"
        return status, None, (f"{why}: {body[:200]}" if body else why)
    if provider == "aws":
        try:
            doc = json.loads(body)
            when = datetime.fromisoformat(str(doc["time"]).replace("Z", "+00:00")).astimezone(timezone.utc)
            action = str(doc.get("action", "terminate"))
        except (ValueError, KeyError, TypeError):
            return 200, None, f"unreadable notice: {body[:200]}"
        return 200, SpotNotice("aws", action, when, body), ""
    try:
        naive = datetime.strptime(body.strip(), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return 200, None, f"unreadable notice: {body[:200]}"
    return 200, SpotNotice("tencent", "terminate", naive.replace(tzinfo=TENCENT_TZ).astimezone(timezone.utc), body), ""


class SpotWatch:
    """Polls one instance. ``on_notice(notice)`` once per notice; ``on_problem(text)`` when notices
    cannot be read (once per kind of problem, again after it recovered)."""

    def __init__(self, host: str, provider: str, connect: Callable[[], Any],
                 on_notice: Callable[[SpotNotice], None], *, on_problem: Callable[[str], None] | None = None,
                 interval_s: float = POLL_S) -> None:
        if provider not in ("aws", "tencent"):
            raise ValueError(provider)
        self.host = host
        self.provider = provider
        self.connect = connect
        self.on_notice = on_notice
        self.on_problem = on_problem
        self.interval_s = interval_s
        self.tool: str | None = None
        self.polls = 0
        self._seen: set[str] = set()
        self._problem = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> SpotWatch:
        self._thread = threading.Thread(target=self._run, name=f"spotwatch-{self.host}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _report_problem(self, text: str) -> None:
        if text == self._problem:
            return
        self._problem = text
        if text and self.on_problem is not None:
            try:
                self.on_problem(text)
            except Exception:  # noqa: BLE001
                log.exception("spot problem callback failed")

    def poll_once(self) -> SpotNotice | None:
        """One poll (also used by tests). Returns a NEW notice, else None."""
        conn = self.connect()
        if self.tool is None:
            rc, out, _err = conn.exec(["sh", "-c", "command -v python3; command -v curl; true"], timeout=15)
            self.tool = pick_tool(out)
            if self.tool is None:
                self._report_problem(translate(MSG_NO_TOOL).format(host=self.host))
                return None
        rc, out, err = conn.exec(probe_argv(self.tool, self.provider), timeout=15)
        self.polls += 1
        status, notice, why = parse_answer(self.provider, out)
        if notice is None:
            if status in (200, 404) and not why:
                self._report_problem("")
            else:
                self._report_problem(translate(MSG_UNREADABLE).format(host=self.host, why=why or err.strip()[:200]))
            return None
        self._report_problem("")
        key = notice.time.isoformat()
        if key in self._seen:
            return None
        self._seen.add(key)
        return notice

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                notice = self.poll_once()
            except LabGpuError as exc:
                self._report_problem(exc.one_line())
                notice = None
            except Exception as exc:  # noqa: BLE001 - a dropped link must not end the watch
                log.info("spot poll of %s failed: %r", self.host, exc)
                self._report_problem(f"{type(exc).__name__}: {exc}")
                notice = None
            if notice is not None:
                try:
                    self.on_notice(notice)
                except Exception:  # noqa: BLE001
                    log.exception("spot notice callback failed")
            self._stop.wait(self.interval_s)
