"""The notifier: events in, notices out on every channel that asked for them — off the caller's thread.

``Notifier.notify(kind, params, target=…)`` only puts the event on a queue and returns; a worker thread
(started when there is work, gone when the queue is empty) reads the channels from the settings, drops
an event already sent about the same target within ``dedupe_minutes`` (de-duplication), holds back what a
channel's ``max_per_hour`` does not allow (a rate limit per channel, on the notifier's clock), writes
each channel's message in the student's language (Settings → Language, or ``lang``), sends it with the
channel's secrets from the keyring, and records each channel's last result (``notify-last.json`` in the
data folder: ok or the error's sentence, never a secret). A failure is logged and recorded; it never
reaches the caller, so a guard is never stopped by a notice.

One notifier per LabGPU home in a process (:func:`notifier_for`): the window, the tray and ``labgpu
watch`` each hand their guard events to it through :func:`guard_hook`; the VPN service hands its tunnel
drops through :mod:`app.notify.vpn`.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Protocol

from app.core import secrets
from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths, atomic_write_text, default_paths
from app.core.settings import Settings, SettingsStore

from .config import SECRET_FIELDS, ChannelConfig, NotifySettings, notify_settings, secret_key
from .events import TEST, TOPIC_OF, Message, compose, plain, resolve_language

log = logging.getLogger(__name__)

LAST_FILE = "notify-last.json"
_RATE_WINDOW_S = 3600.0

MSG_RATE_LIMITED = QT_TRANSLATE_NOOP("LabGPU", "held back: more than {n} notices in an hour on this channel")
MSG_UNKNOWN_KIND = QT_TRANSLATE_NOOP("LabGPU", "this LabGPU cannot send on a {kind} channel")
MSG_NO_CHANNEL = QT_TRANSLATE_NOOP("LabGPU", "There is no notification channel named {name!r}.")
HINT_NO_CHANNEL = QT_TRANSLATE_NOOP("LabGPU", "See the channels with `labgpu notify ls`, or add one with "
                                              "`labgpu notify add`.")


class _Event(Protocol):
    time: datetime
    target_id: str
    kind: str
    message: str
    detail: dict[str, Any]


@dataclass
class Result:
    """One channel's last try: ok, or the error's template and parameters (shown translated)."""

    channel: str
    ok: bool
    at: str  # ISO UTC
    kind: str = ""
    template: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    note: str = ""  # what the service answered on success

    def text(self) -> str:
        from app.core.i18n import translate

        if self.ok:
            return self.note or "ok"
        try:
            return translate(self.template).format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.template

    def to_json(self) -> dict[str, Any]:
        return {"channel": self.channel, "ok": self.ok, "at": self.at, "kind": self.kind,
                "template": self.template, "params": self.params, "note": self.note}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Result | None:
        try:
            params = doc.get("params") or {}
            return cls(str(doc["channel"]), bool(doc["ok"]), str(doc.get("at", "")), str(doc.get("kind", "")),
                       str(doc.get("template", "")),
                       {str(k): plain(v) for k, v in params.items()} if isinstance(params, dict) else {},
                       plain(doc.get("note", ""), 200))
        except (KeyError, TypeError, AttributeError):
            return None


SecretReader = Callable[[str], "str | None"]


def read_secrets(cfg: ChannelConfig, get: SecretReader = secrets.get_secret) -> dict[str, str]:
    """The channel's secrets from the keyring (entries it names; missing ones are simply absent)."""
    out: dict[str, str] = {}
    for f in SECRET_FIELDS.get(cfg.kind, ()):
        key = secret_key(cfg.name, f.name)
        if key in cfg.secret_keys:
            value = get(key)
            if value:
                out[f.name] = value
    return out


class Notifier:
    def __init__(self, paths: Paths, *, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, settings: Callable[[], Settings] | None = None,
                 senders: Mapping[str, Any] | None = None) -> None:
        self.paths = paths
        self.clock = clock  # de-duplication and rate limits (monotonic; tests pass a fake one)
        self.wall = wall  # the time a signature and a mail carry
        self._settings = settings or (lambda: SettingsStore(paths).load())
        self._senders: dict[str, Any] | None = dict(senders) if senders else None
        self._queue: queue.Queue[tuple[str, dict[str, Any], str, str | None, str]] = queue.Queue()
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._sent_at: dict[tuple[str, str, str], float] = {}  # (kind, target, job) → when last sent
        self._rate: dict[str, deque[float]] = {}  # channel → send times within the last hour
        self._file_lock = threading.Lock()

    @property
    def senders(self) -> dict[str, Any]:
        """kind → sender; the senders' module (smtplib, ssl, urllib) is imported when a notice is first sent."""
        if self._senders is None:
            from .channels import SENDERS

            self._senders = dict(SENDERS)
        return self._senders

    @classmethod
    def from_paths(cls, paths: Paths | None = None) -> Notifier:
        return notifier_for(paths or default_paths())

    # -- the API others call --------------------------------------------------------------------
    def notify(self, kind: str, params: Mapping[str, Any], *, target: str, lang: str | None = None,
               message: str = "") -> None:
        """Queue event ``kind`` about ``target`` (params fill its template; ``message``: the event's own
        sentence, used when the template cannot be filled). Returns at once; never raises."""
        try:
            if kind not in TOPIC_OF:
                return
            self._queue.put((kind, dict(params), str(target), lang, message))
            self._ensure_worker()
        except Exception:  # noqa: BLE001 - a notice must never stop its caller
            log.exception("could not queue a notice")

    def notify_guard_event(self, ev: _Event) -> None:
        """A watcher's GuardEvent (app.core.guards): queued like :meth:`notify`."""
        self.notify(str(ev.kind), dict(ev.detail or {}), target=ev.target_id, message=ev.message)

    def send_test(self, name: str, *, settings: Settings | None = None,
                  channel_cfg: ChannelConfig | None = None, secret_values: Mapping[str, str] | None = None) -> Result:
        """Send a test notice on channel ``name`` now, on this thread (not de-duplicated, not rate
        limited); returns its result (also recorded as the channel's last result). ``channel_cfg`` and
        ``secret_values``: a channel not saved yet (the dialog's Send a test)."""
        s = settings if settings is not None else self._settings()
        cfg = channel_cfg
        if cfg is None:
            cfg = next((c for c in notify_settings(s).channels if c.name == name), None)
        if cfg is None:
            raise LabGpuError(MSG_NO_CHANNEL, HINT_NO_CHANNEL, code="NoChannel", name=name)
        lang = resolve_language(s.language)
        msg = compose(TEST, {"channel": cfg.name}, target=cfg.name, lang=lang, when=self._when())
        values = dict(secret_values) if secret_values is not None else read_secrets(cfg)
        result = self._send_one(cfg, values, msg)
        if channel_cfg is None:
            self._record([result])
        return result

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until every queued event has been handled (True) or ``timeout`` passed (tests, exit)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                worker = self._worker
            if worker is None or not worker.is_alive():
                if self._queue.empty():
                    return True
                self._ensure_worker()
                continue
            worker.join(max(0.0, deadline - time.monotonic()))
            if time.monotonic() >= deadline:
                return self._queue.empty() and not worker.is_alive()

    def last_results(self) -> dict[str, Result]:
        try:
            doc = json.loads((self.paths.data_dir / LAST_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(doc, dict):
            return {}
        out = {}
        for name, item in doc.items():
            r = Result.from_json(item) if isinstance(item, dict) else None
            if r is not None:
                out[str(name)] = r
        return out

    # -- the worker ------------------------------------------------------------------------------
    def _ensure_worker(self) -> None:
        with self._lock:
            if self._worker is not None and self._worker.is_alive():
                return
            self._worker = threading.Thread(target=self._drain, name="labgpu-notify", daemon=True)
            self._worker.start()

    def _drain(self) -> None:
        while True:
            batch = []
            try:
                while True:
                    batch.append(self._queue.get_nowait())
            except queue.Empty:
                pass
            if not batch:
                with self._lock:
                    if self._queue.empty():
                        self._worker = None
                        return
                continue
            try:
                self._handle(batch)
            except Exception:  # noqa: BLE001 - the worker says so and goes on with the next events
                log.exception("notices could not be sent")

    def _handle(self, batch: list[tuple[str, dict[str, Any], str, str | None, str]]) -> None:
        s = self._settings()
        ns = notify_settings(s)
        live = [c for c in ns.channels if c.enabled]
        if not live:
            return
        results: list[Result] = []
        for kind, params, target, lang, message in batch:
            topic = TOPIC_OF[kind]
            wanted = [c for c in live if topic in c.events]
            if not wanted or self._duplicate((kind, target, str(params.get("job", ""))), ns):
                continue
            language = resolve_language(lang or s.language)
            msg = compose(kind, params, target=target, lang=language, when=self._when(), fallback=message)
            for cfg in wanted:
                if not self._allowed(cfg):
                    log.warning("notice %s about %s held back on %s (rate limit)", kind, target, cfg.name)
                    results.append(Result(cfg.name, False, self._when(), kind, MSG_RATE_LIMITED,
                                          {"n": cfg.max_per_hour}))
                    continue
                try:
                    values = read_secrets(cfg)
                except LabGpuError as exc:
                    results.append(self._failed(cfg, kind, exc))
                    continue
                results.append(self._send_one(cfg, values, msg))
        self._record(results)

    def _duplicate(self, key: tuple[str, str, str], ns: NotifySettings) -> bool:
        """(kind, target, job): the same one within ``dedupe_minutes`` is sent once."""
        now = self.clock()
        window = ns.dedupe_minutes * 60.0
        with self._lock:
            last = self._sent_at.get(key)
            if last is not None and now - last < window:
                log.info("notice %s about %s sent %.0f s ago: not again", key[0], key[1], now - last)
                return True
            self._sent_at[key] = now
            for key in [k for k, t in self._sent_at.items() if now - t >= max(window, 1.0)]:
                del self._sent_at[key]
        return False

    def _allowed(self, cfg: ChannelConfig) -> bool:
        now = self.clock()
        with self._lock:
            times = self._rate.setdefault(cfg.name, deque())
            while times and now - times[0] >= _RATE_WINDOW_S:
                times.popleft()
            if len(times) >= cfg.max_per_hour:
                return False
            times.append(now)
        return True

    def _send_one(self, cfg: ChannelConfig, values: Mapping[str, str], msg: Message) -> Result:
        sender = self.senders.get(cfg.kind)
        if sender is None:
            return Result(cfg.name, False, self._when(), msg.kind, MSG_UNKNOWN_KIND, {"kind": plain(cfg.kind, 40)})
        try:
            note = str(sender(cfg, values, msg, self.wall()))
        except LabGpuError as exc:
            return self._failed(cfg, msg.kind, exc)
        except Exception as exc:  # noqa: BLE001 - any sender trouble is this channel's result, never a crash
            from .channels import NotifyError

            log.exception("channel %s failed", cfg.name)
            return self._failed(cfg, msg.kind, NotifyError(
                QT_TRANSLATE_NOOP("LabGPU", "Sending failed: {why}"), "", code="NotifyFailed",
                why=plain(f"{type(exc).__name__}: {exc}", 300)))
        log.info("notice %s sent on %s (%s)", msg.kind, cfg.name, cfg.kind)
        return Result(cfg.name, True, self._when(), msg.kind, note=plain(note, 200))

    def _failed(self, cfg: ChannelConfig, kind: str, exc: LabGpuError) -> Result:
        log.warning("notice %s on %s failed: %s", kind, cfg.name, exc.one_line())
        params = {k: plain(v) for k, v in exc.params.items()}
        return Result(cfg.name, False, self._when(), kind, exc.template, params)

    def _when(self) -> str:
        return datetime.fromtimestamp(self.wall(), timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")

    def _record(self, results: list[Result]) -> None:
        if not results:
            return
        with self._file_lock:
            current = {name: r.to_json() for name, r in self.last_results().items()}
            for r in results:
                current[r.channel] = r.to_json()
            try:
                self.paths.data_dir.mkdir(parents=True, exist_ok=True)
                atomic_write_text(self.paths.data_dir / LAST_FILE, json.dumps(current, ensure_ascii=False, indent=1))
            except OSError as exc:
                log.warning("could not record the notices' results: %s", exc)

    def forget(self, name: str) -> None:
        """A removed channel's last result goes too."""
        with self._file_lock:
            current = {n: r.to_json() for n, r in self.last_results().items() if n != name}
            try:
                atomic_write_text(self.paths.data_dir / LAST_FILE, json.dumps(current, ensure_ascii=False, indent=1))
            except OSError as exc:
                log.warning("could not record the notices' results: %s", exc)


_notifiers: dict[str, Notifier] = {}
_notifiers_lock = threading.Lock()


def notifier_for(paths: Paths) -> Notifier:
    """The process's one notifier for this LabGPU home (shared by the window, the tray and the CLI)."""
    key = str(paths.config_dir)
    with _notifiers_lock:
        n = _notifiers.get(key)
        if n is None:
            n = _notifiers[key] = Notifier(paths)
        return n


class GuardHook:
    """What a Watcher calls with each GuardEvent it publishes: queued for the notifier, never raises;
    ``flush`` when the watcher closes, so the notices of its last events still leave."""

    def __init__(self, paths: Paths) -> None:
        self.notifier = notifier_for(paths)

    def __call__(self, ev: Any) -> None:
        try:
            self.notifier.notify_guard_event(ev)
        except Exception:  # noqa: BLE001 - a notice must never stop a guard
            log.exception("guard event not handed to the notifier")

    def flush(self, timeout: float = 10.0) -> None:
        try:
            if not self.notifier.flush(timeout):
                log.warning("notices still being sent after %.0f s; left to finish on their own", timeout)
        except Exception:  # noqa: BLE001
            log.exception("waiting for the notices failed")


def guard_hook(paths: Paths) -> GuardHook:
    return GuardHook(paths)
