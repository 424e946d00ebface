"""Spot-interruption watch: every 5 s, over the instance's SSH connection, ask its metadata service.

Where to ask and how to read the answer come from the provider's spec (``ProviderSpec.spot_notice``,
a :class:`~app.core.providers.SpotNoticeSource`: plain data, so this module never imports a
plugin). The built-ins declare, in their spec.py:

- AWS (IMDSv2): ``PUT http://169.254.169.254/latest/api/token`` with
  ``X-aws-ec2-metadata-token-ttl-seconds``, then ``GET /latest/meta-data/spot/instance-action``
  with ``X-aws-ec2-metadata-token``: 200 ``{"action": "terminate|stop|hibernate", "time":
  "2017-09-18T08:22:00Z"}`` (format "aws-instance-action-json"); 404 = nothing pending.
- Tencent CVM: ``GET http://metadata.tencentyun.com/latest/meta-data/spot/termination-time``:
  200 ``2018-08-18 12:05:33`` (format "timestamp", tz "+08:00": no zone marker); 404 = not being
  reclaimed. A timestamp with a zone marker (``2015-01-05T18:02:00Z``) is read as written.
- Google Cloud: ``GET http://metadata.google.internal/computeMetadata/v1/instance/preempted`` with the
  header ``Metadata-Flavor: Google`` (refused without it): ``FALSE``, then ``TRUE`` once the Spot VM is
  being preempted (format "flag", about 30 s before it stops): one notice at the instance's clock.
- Azure: ``GET http://169.254.169.254/metadata/scheduledevents?api-version=2020-07-01`` with ``Metadata: true``
  (refused without it): ``{"Events": [...]}``; a Spot eviction is an event of type ``Preempt`` whose
  ``NotBefore`` (``Mon, 19 Sep 2016 18:29:47 GMT``) is at least 30 s ahead (format "azure-scheduled-events").

The request runs ON the instance (the metadata service answers only there) with whatever it has:
python3 (preferred), else curl. Neither → the watch says it cannot read notices (never "no notice").
The remote command is fixed text with the source's URLs and header names as quoted arguments;
nothing from the metadata answer is executed. A notice is reported once per notice time.

Plausible times only: the clouds post a notice about two minutes before the reclaim (AWS "Spot
Instance interruption notices": "a two-minute warning",
https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html; Tencent
"竞价实例回收通知": the termination-time item appears about 2 minutes before,
https://cloud.tencent.com/document/product/213/37970). The probe prints the instance's own clock, so
the check does not depend on the laptop's: a time more than ``PAST_S`` before it or more than
``FUTURE_S`` after it is ignored with a log line (once per time), and a time that overflows the
calendar is read as unreadable.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from typing import Any

from app.core import providers
from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.providers import SpotNoticeSource

log = logging.getLogger(__name__)

POLL_S = 5.0
SESSION_LIFETIME_S = "300"
PAST_S = 120.0  # a reclaim time this far before the instance's clock is old news (ignored)
FUTURE_S = 3600.0  # …and one this far after it is not a notice a cloud posts (ignored)

# argv: URL TOKEN_URL TOKEN_TTL_HEADER TOKEN_HEADER HEADER ("" = none; HEADER is "Name: value")
PY_PROBE = r"""
import sys, time, urllib.request, urllib.error
url, turl, tttl, thdr, hdr = sys.argv[1:6]
extra = dict([[p.strip() for p in hdr.split(":", 1)]]) if ":" in hdr else {}
print("NOW", int(time.time()))
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
if turl:
    s, tok = req(turl, "PUT", {tttl: "@TTL@"} if tttl else {})
    if s != 200:
        print(tok); print("STATUS", s, "token"); sys.exit(0)
    s, body = req(url, headers={thdr: tok.strip(), **extra})
else:
    s, body = req(url, headers=extra)
print(body); print("STATUS", s)
""".replace("@TTL@", SESSION_LIFETIME_S)

CURL_PROBE = r"""
url=$1; turl=$2; tttl=$3; thdr=$4; hdr=$5
echo "NOW $(date +%s)"
if [ -n "$hdr" ]; then set -- -H "$hdr"; else set --; fi
if [ -n "$turl" ]; then
  if [ -n "$tttl" ]; then
    tok=$(curl -s -f -m 2 --noproxy '*' -X PUT -H "$tttl: @TTL@" "$turl") || { echo; echo "STATUS 0 token"; exit 0; }
  else
    tok=$(curl -s -f -m 2 --noproxy '*' -X PUT "$turl") || { echo; echo "STATUS 0 token"; exit 0; }
  fi
  out=$(curl -s -m 2 --noproxy '*' -w '\nSTATUS %{http_code}' -H "$thdr: $tok" "$@" "$url")
else
  out=$(curl -s -m 2 --noproxy '*' -w '\nSTATUS %{http_code}' "$@" "$url")
fi
printf '%s\n' "$out"
""".replace("@TTL@", SESSION_LIFETIME_S)

MSG_NO_TOOL = QT_TRANSLATE_NOOP("LabGPU", "{host}: cannot read spot interruption notices: the instance has "
                                          "neither python3 nor curl — install curl, or watch the cloud console")
MSG_UNREADABLE = QT_TRANSLATE_NOOP("LabGPU", "{host}: the metadata service did not answer ({why}); interruption "
                                             "notices cannot be read right now")


FLAG_RAW = "TRUE"  # a "flag" source's notice (its time is when it was first read)


@dataclass(frozen=True)
class SpotNotice:
    provider: str
    action: str  # "terminate" | "stop" | "hibernate" (aws-instance-action-json); else "terminate"
    time: datetime  # when the instance will be reclaimed (UTC)
    raw: str


def source_for(provider: str) -> SpotNoticeSource:
    """The provider's declared spot-notice source; ValueError when it declares none."""
    source = providers.spot_notice_source(provider)
    if source is None:
        raise ValueError(provider)
    if source.format not in providers.SPOT_NOTICE_FORMATS:
        raise ValueError(f"{provider}: unknown spot notice format {source.format!r}")
    return source


def probe_argv(tool: str, source: SpotNoticeSource) -> list[str]:
    args = [source.url, source.token_url, source.token_ttl_header, source.token_header, source.header]
    if tool == "python3":
        return ["python3", "-c", PY_PROBE, *args]
    if tool == "curl":
        return ["sh", "-c", CURL_PROBE, "spotwatch", *args]
    raise ValueError(tool)


_OFFSET_RE = re.compile(r"^([+-])(\d{2}):?(\d{2})$")


def zone_of(tz: str) -> timezone:
    """ "UTC" or an offset such as "+08:00" as a timezone."""
    if tz.upper() in ("UTC", "Z", ""):
        return timezone.utc
    m = _OFFSET_RE.match(tz)
    if m is None:
        raise ValueError(f"unknown time zone {tz!r}")
    delta = timedelta(hours=int(m.group(2)), minutes=int(m.group(3)))
    return timezone(-delta if m.group(1) == "-" else delta)


def parse_time(text: str, tz: str) -> datetime:
    """A reclaim time as the metadata service writes it, in UTC: "2018-08-18 12:05:33" (in ``tz``)
    or "2015-01-05T18:02:00Z" / "…+08:00" (its own zone). ValueError when it is not a time."""
    text = text.strip()
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?", text):
        raise ValueError(text)
    try:
        when = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
        if when.tzinfo is None:
            when = when.replace(tzinfo=zone_of(tz))
        return when.astimezone(timezone.utc)
    except OverflowError:  # e.g. 9999-12-31 23:59:59 in +08:00 … -08:00: outside the calendar in UTC
        raise ValueError(text) from None


def instance_now(output: str) -> datetime | None:
    """The instance's clock, as the probe printed it ("NOW <epoch seconds>"), or None."""
    for ln in output.split("\n"):
        if ln.startswith("NOW "):
            text = ln[4:].strip()
            if text.isdigit() and len(text) <= 12:
                try:
                    return datetime.fromtimestamp(int(text), timezone.utc)
                except (OverflowError, OSError, ValueError):
                    return None
    return None


def plausible(notice_time: datetime, now: datetime) -> str:
    """"" when a cloud would post this reclaim time now, else why not ("past" / "far-future")."""
    delta = (notice_time - now).total_seconds()
    if delta < -PAST_S:
        return "past"
    if delta > FUTURE_S:
        return "far-future"
    return ""


def pick_tool(which_output: str) -> str | None:
    """From `command -v python3 curl` output: the tool to use, or None."""
    found = [ln.strip().rsplit("/", 1)[-1] for ln in which_output.splitlines() if ln.strip()]
    for tool in ("python3", "curl"):
        if tool in found:
            return tool
    return None


def parse_answer(provider: str, output: str, source: SpotNoticeSource | None = None
                 ) -> tuple[int, SpotNotice | None, str]:
    """(HTTP status, notice or None, error text). Status 0 = the request itself failed. ``source``
    defaults to the provider's declared one."""
    source = source_for(provider) if source is None else source
    lines = [ln for ln in output.rstrip("\n").split("\n") if not ln.startswith("NOW ")]
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
    if not body:  # an empty answer: nothing scheduled, like the 404 (Alibaba's termination-time item)
        return 200, None, ""
    if source.format == "aws-instance-action-json":
        try:
            doc = json.loads(body)
            when = parse_time(str(doc["time"]), "UTC")
            action = str(doc.get("action", "terminate"))
        except (ValueError, KeyError, TypeError):
            return 200, None, f"unreadable notice: {body[:200]}"
        return 200, SpotNotice(provider, action, when, body), ""
    if source.format == "azure-scheduled-events":
        return _scheduled_event(provider, source, output, body)
    if source.format == "flag":
        flag = body.strip().upper()
        if flag == "FALSE":
            return 200, None, ""
        if flag != "TRUE":
            return 200, None, f"unreadable notice: {body[:200]}"
        # the reclaim has begun: its time is the instance's clock now (once per watch: see FLAG_KEY)
        return 200, SpotNotice(provider, source.action, instance_now(output) or datetime.now(timezone.utc),
                               FLAG_RAW), ""
    try:
        when = parse_time(body, source.tz)
    except ValueError:
        return 200, None, f"unreadable notice: {body[:200]}"
    return 200, SpotNotice(provider, source.action, when, body), ""


def _scheduled_event(provider: str, source: SpotNoticeSource, output: str, body: str
                     ) -> tuple[int, SpotNotice | None, str]:
    """Azure's Scheduled Events document: the first Preempt event (a Spot eviction) as a notice at its NotBefore
    (an event already Started has none: the instance's clock then); other events (reboots, redeploys) are not
    reclaims."""
    try:
        doc = json.loads(body)
        events = [e for e in doc.get("Events") or [] if isinstance(e, dict)]
    except (ValueError, AttributeError):
        return 200, None, f"unreadable notice: {body[:200]}"
    preempt = next((e for e in events[:64] if str(e.get("EventType", "")) == "Preempt"), None)
    if preempt is None:
        return 200, None, ""
    not_before = str(preempt.get("NotBefore") or "")[:64]
    if not_before:
        try:
            when = parsedate_to_datetime(not_before).astimezone(timezone.utc)
        except (TypeError, ValueError, OverflowError):
            return 200, None, f"unreadable notice: {not_before}"
    else:
        when = instance_now(output) or datetime.now(timezone.utc)
    return 200, SpotNotice(provider, source.action, when, body[:4096]), ""


class SpotWatch:
    """Polls one instance. ``on_notice(notice)`` once per notice; ``on_problem(text)`` when notices
    cannot be read (once per kind of problem, again after it recovered)."""

    def __init__(self, host: str, provider: str, connect: Callable[[], Any],
                 on_notice: Callable[[SpotNotice], None], *, on_problem: Callable[[str], None] | None = None,
                 interval_s: float = POLL_S, source: SpotNoticeSource | None = None) -> None:
        self.source = source_for(provider) if source is None else source
        self.host = host
        self.provider = provider
        self.connect = connect
        self.on_notice = on_notice
        self.on_problem = on_problem
        self.interval_s = interval_s
        self.tool: str | None = None
        self.polls = 0
        self._seen: set[str] = set()
        self.ignored: list[tuple[str, str]] = []  # (reclaim time, "past" | "far-future") not announced
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
        rc, out, err = conn.exec(probe_argv(self.tool, self.source), timeout=15)
        self.polls += 1
        status, notice, why = parse_answer(self.provider, out, self.source)
        if notice is None:
            if status in (200, 404) and not why:
                self._report_problem("")
            else:
                self._report_problem(translate(MSG_UNREADABLE).format(host=self.host, why=why or err.strip()[:200]))
            return None
        self._report_problem("")
        key = FLAG_RAW if notice.raw == FLAG_RAW else notice.time.isoformat()  # a flag stays TRUE: once
        if key in self._seen:
            return None
        self._seen.add(key)
        now = instance_now(out) or datetime.now(timezone.utc)
        why_not = plausible(notice.time, now)
        if why_not:
            log.warning("spot watch %s: ignored a %s reclaim time %s (the instance's clock says %s)",
                        self.host, why_not, key, now.isoformat())
            self.ignored.append((key, why_not))
            return None
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
