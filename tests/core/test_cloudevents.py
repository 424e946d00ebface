"""app/core/cloudevents.py: cloud text made plain and bounded, and the verdict on each event (pure, no peer)."""

from __future__ import annotations

import unicodedata
from datetime import datetime, timezone

from hypothesis import given
from hypothesis import strategies as st

from app.core.audit import AuditEntry
from app.core.cloudevents import (
    MAX_RESOURCES,
    WHY_CONSOLE,
    WHY_FOREIGN,
    WHY_OTHER,
    WHY_OWN,
    WHY_READ,
    AlertedEvents,
    classify,
    judge,
    make_event,
    plain,
    token_matches,
)

T = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


def _entry(rid: str) -> AuditEntry:
    return AuditEntry(1, T, "lab", "aws", "stop", "i-1", "ok", rid, "")


def _ev(name: str, rid: str = "", resources: tuple[str, ...] = (), read_only: bool = False, token: str = ""):
    return make_event(time=T, name=name, request_id=rid, resources=resources, read_only=read_only,
                      client_token=token, actor="someone")


def test_plain_takes_out_control_and_bidi_characters_and_caps():
    assert plain("Stop\x1b[31mInstances\u202e\u200b\nnext\ttab") == "Stop [31mInstances next tab"
    assert plain("x" * 10_000, 100) == "x" * 99 + "…"
    assert plain(None) == ""


@given(st.text(max_size=3000), st.integers(min_value=1, max_value=500))
def test_plain_is_always_printable_and_bounded(text, limit):
    out = plain(text, limit)
    assert len(out) <= limit
    assert all(unicodedata.category(ch)[0] not in "CZ" or ch == " " for ch in out)


def test_make_event_bounds_the_resource_list_and_each_field():
    ev = make_event(time=datetime(2026, 5, 1, 12), name="n" * 5000, resources=[f"i-{n}" for n in range(10_000)],
                    actor="a" * 10_000, raw="r" * 100_000)
    assert len(ev.resources) == MAX_RESOURCES and len(ev.name) <= 128 and len(ev.actor) <= 256
    assert len(ev.raw) <= 2000 and ev.time.tzinfo is not None


def test_client_tokens_match_the_launch_and_its_zone_attempts():
    assert token_matches("lg-abc", ["lg-abc"]) and token_matches("lg-abc~2", ["lg-abc"])
    assert not token_matches("lg-abcd", ["lg-abc"]) and not token_matches("", ["lg-abc"])


def test_each_verdict():
    events = [_ev("ConsoleLogin"), _ev("StopInstances", "rid-own", ("i-1",)), _ev("StopInstances", "rid-x", ("i-1",)),
              _ev("RunInstances", "rid-lost", ("i-2",), token="lg-t~1"), _ev("DescribeInstances", "r", ("i-1",), True),
              _ev("StopInstances", "rid-y", ("i-other",))]
    got = [(v.by_labgpu, v.foreign, v.why, v.resource) for v in judge(events, [_entry("rid-own")], {"i-1", "i-2"},
                                                                      ["lg-t"])]
    assert got == [(False, True, WHY_CONSOLE, ""), (True, False, WHY_OWN, "i-1"), (False, True, WHY_FOREIGN, "i-1"),
                   (True, False, WHY_OWN, "i-2"), (False, False, WHY_READ, ""), (False, False, WHY_OTHER, "")]
    assert [v.event.name for v in classify(events, [_entry("rid-own")], {"i-1", "i-2"}, ["lg-t"])] == [
        "ConsoleLogin", "StopInstances"]


def test_a_foreign_event_is_alerted_once(labgpu_home):
    from app.core.store import Store

    store = Store()
    store.migrate()
    book = AlertedEvents(store)
    ev = make_event(time=T, name="StopInstances", event_id="e-1")
    assert book.first_time("lab", ev) and not book.first_time("lab", ev)
    assert book.first_time("other", ev)
    store.close()
