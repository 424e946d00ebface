"""The notifier: events from a watcher reach the channels that asked for them, in the Settings language,
once per window (de-duplication) and within each channel's rate (a fake clock), off the caller's thread;
a failing channel is recorded, never raised; no secret lands in a file."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest

from app.core.guards import GuardEvent
from app.core.paths import default_paths
from app.core.settings import SettingsStore
from app.core.vocab import GuardEventKind
from app.notify.config import ChannelConfig
from app.notify.dispatch import Notifier, notifier_for
from app.notify.manage import save_channel
from app.notify.vpn import VpnDropWatch
from tests.notify import peers as P
from tests.notify.test_cli_notify import _files_hold

pytestmark = pytest.mark.usefixtures("secret_service")


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _channel(peer, name: str = "phone", lang: str = "en", **kw) -> None:
    store = SettingsStore(default_paths())
    s = store.load()
    s.language = lang
    save_channel(s, ChannelConfig(name=name, kind="ntfy", **kw),
                 {"url": peer.base + P.NTFY_TOPIC, "token": P.NTFY_TOKEN})
    store.save(s)


def _ev(kind: str, target: str = "ins-1", **detail) -> GuardEvent:
    return GuardEvent(datetime.now(timezone.utc), target, kind, "the event's own words", detail)


def test_a_watcher_event_reaches_the_channel_in_the_settings_language(peer):
    from app.watch import Watcher

    _channel(peer, lang="zh_CN")
    w = Watcher(default_paths())
    try:
        w.emit(_ev(GuardEventKind.STOP_FAILED, tries=3, why="RequestLimitExceeded\x1b[2J"))
        assert notifier_for(default_paths()).flush(30)
    finally:
        w.close()
    got = peer.received("ntfy")
    assert len(got) == 1
    assert got[0].title == "ins-1 无法停止：仍在计费"
    assert "RequestLimitExceeded" in got[0].text and "\x1b" not in got[0].text


def test_dedupe_and_rate_limit_on_a_fake_clock(peer):
    _channel(peer, max_per_hour=2)
    clock = FakeClock()
    n = Notifier(default_paths(), clock=clock)
    n.notify(GuardEventKind.IDLE_NOTIFY, {"pct": 5, "minutes": 10}, target="ins-1")
    n.notify(GuardEventKind.IDLE_NOTIFY, {"pct": 5, "minutes": 10}, target="ins-1")  # same: dropped
    assert n.flush(30)
    assert len(peer.received("ntfy")) == 1
    clock.t += 29 * 60
    n.notify(GuardEventKind.IDLE_NOTIFY, {"pct": 5, "minutes": 10}, target="ins-1")  # still in the window
    n.notify(GuardEventKind.IDLE_NOTIFY, {"pct": 5, "minutes": 10}, target="ins-2")  # another target
    n.notify(GuardEventKind.JOB_ENDED, {"name": "a", "job": "j1", "exit_code": 0}, target="ins-2")  # over 2/h
    assert n.flush(30)
    assert [r.title for r in peer.received("ntfy")] == ["ins-1: the GPUs are idle", "ins-2: the GPUs are idle"]
    last = n.last_results()["phone"]
    assert not last.ok and "held back" in last.text()
    clock.t += 61 * 60  # the hour has passed for the first send, and the dedupe window too
    n.notify(GuardEventKind.IDLE_NOTIFY, {"pct": 5, "minutes": 10}, target="ins-1")
    assert n.flush(30)
    assert len(peer.received("ntfy")) == 3 and n.last_results()["phone"].ok


def test_only_the_events_a_channel_asked_for(peer):
    _channel(peer, events=["job-failed"])
    n = Notifier(default_paths(), clock=FakeClock())
    n.notify(GuardEventKind.IDLE_NOTIFY, {"pct": 5, "minutes": 10}, target="ins-1")
    n.notify(GuardEventKind.SYNC_DONE, {}, target="ins-1")  # never sent away
    n.notify(GuardEventKind.JOB_FAILED, {"name": "train", "job": "ab12", "state": "exited", "exit_code": 1},
             target="gpu1")
    assert n.flush(30)
    got = peer.received("ntfy")
    assert [g.title for g in got] == ["Job train on gpu1 did not end well"]
    assert "labgpu logs ab12" in got[0].text


def test_a_failing_channel_never_reaches_the_caller_and_no_secret_is_written(peer, labgpu_home):
    _channel(peer)
    peer.close()  # the service is gone
    n = notifier_for(default_paths())
    caller = threading.current_thread()
    n.notify(GuardEventKind.SPOT_NOTICE, {"when": "12:00", "action": "stop"}, target="ins-9")
    assert n.flush(60)
    last = n.last_results()["phone"]
    assert not last.ok and "Could not reach" in last.text()
    assert threading.current_thread() is caller
    assert _files_hold(labgpu_home, [P.NTFY_TOKEN, P.NTFY_TOPIC]) == []


def test_a_vpn_tunnel_that_drops_by_itself_is_told_once(peer):
    _channel(peer)
    n = Notifier(default_paths(), clock=FakeClock())
    watch = VpnDropWatch(n)
    assert not watch.observe("lab", "CONNECTING", False, "", False)
    assert not watch.observe("lab", "CONNECTED", True, "", False)
    assert watch.observe("lab", "RECONNECTING", False, "openvpn stopped; restarting in 1 s", False)
    assert not watch.observe("lab", "RECONNECTING", False, "again", False)
    assert not watch.observe("lab", "CONNECTED", True, "", False)
    assert not watch.observe("lab", "EXITING", False, "", True)  # the student disconnected it
    assert n.flush(30)
    got = peer.received("ntfy")
    assert [g.title for g in got] == ["VPN lab is down"]
    assert "openvpn stopped" in got[0].text


def test_a_service_that_hangs_never_holds_up_the_watcher(peer):
    """The service holds the request (a gate the test opens): the watcher's emit has long returned, the
    guard goes on, and the notice arrives once the service answers."""
    from app.watch import Watcher

    _channel(peer)
    gate = peer.services.hold = threading.Event()
    w = Watcher(default_paths())
    try:
        w.emit(_ev(GuardEventKind.SPOT_NOTICE, when="12:00", action="terminate"))
        assert peer.services.holding.wait(30)  # the notice is in flight, held by the service…
        assert w.events[-1].kind == GuardEventKind.SPOT_NOTICE  # …and emit returned long ago
        w.emit(_ev(GuardEventKind.IDLE_NOTIFY, pct=3, minutes=10))  # the guard goes on meanwhile
        assert peer.received("ntfy") == []
        gate.set()
        assert notifier_for(default_paths()).flush(30)
    finally:
        gate.set()
        w.close()
    assert [r.title for r in peer.received("ntfy")] == ["ins-1 will be reclaimed by the cloud",
                                                         "ins-1: the GPUs are idle"]
