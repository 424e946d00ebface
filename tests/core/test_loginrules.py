"""Which SSH logins are unusual, and the sentences that say why (issue 27)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from ipaddress import ip_network

import pytest

from app.core.loginrules import (
    CODES,
    UNKNOWN_KEY,
    UNKNOWN_SOURCE,
    UNKNOWN_USER,
    UNUSUAL_HOUR,
    WHY_TEXT,
    LoginPolicy,
    Verdict,
    in_hours,
    judge,
    why_texts,
)
from app.core.logins import HostContext, LoginEvent, parse_sshd_message, parse_syslog_line

UTC = timezone.utc
CST = timezone(timedelta(hours=8))
FP_OWN = "SHA256:" + "A" * 43
FP_OTHER = "SHA256:" + "B" * 43

POLICY = LoginPolicy(
    own_sessions=frozenset({("198.51.100.7", 50122)}),
    own_sources=frozenset({"198.51.100.7"}),
    trusted_networks=(ip_network("10.8.0.0/24"), ip_network("2001:db8:1::/48")),
    expected_users=frozenset({"ubuntu"}),
    known_keys=frozenset({FP_OWN}),
    unusual_hours=(1, 6),
    tz=CST,
)


def login(source: str = "198.51.100.7", port: int = 40000, user: str = "ubuntu", fp: str = FP_OWN,
          time: datetime | None = datetime(2026, 12, 5, 12, 0, tzinfo=UTC), accepted: bool = True) -> LoginEvent:
    return LoginEvent(time, user, "publickey" if fp else "password", source, port, accepted, False,
                      "ED25519" if fp else "", fp, "journal", "", "accepted" if accepted else "failed")


def test_a_usual_login_is_not_unusual() -> None:
    assert judge(login(), POLICY) == Verdict(own=False, unusual=False, why=())
    assert judge(login(source="10.8.0.9"), POLICY).unusual is False
    assert judge(login(source="2001:db8:1::5"), POLICY).unusual is False


def test_each_reason() -> None:
    assert judge(login(source="203.0.113.9"), POLICY).why == (UNKNOWN_SOURCE,)
    assert judge(login(time=datetime(2026, 12, 5, 19, 12, tzinfo=UTC)), POLICY).why == (UNUSUAL_HOUR,)  # 03:12 CST
    assert judge(login(user="root"), POLICY).why == (UNKNOWN_USER,)
    assert judge(login(fp=FP_OTHER), POLICY).why == (UNKNOWN_KEY,)
    everything = judge(login(source="203.0.113.9", user="root", fp=FP_OTHER,
                             time=datetime(2026, 12, 5, 19, 12, tzinfo=UTC)), POLICY)
    assert everything.unusual and everything.why == CODES


def test_own_session_is_never_unusual_even_at_odd_hours_as_odd_user() -> None:
    ev = login(port=50122, user="root", fp=FP_OTHER, time=datetime(2026, 12, 5, 19, 12, tzinfo=UTC))
    assert judge(ev, POLICY) == Verdict(own=True, unusual=False, why=())
    # the same address from another port is not the own session
    assert judge(replace(ev, port=50123), POLICY).own is False


def test_failed_logins_are_never_unusual() -> None:
    assert judge(login(source="203.0.113.9", user="root", accepted=False), POLICY) == Verdict(False, False, ())


def test_ipv4_mapped_ipv6_equals_its_ipv4() -> None:
    assert judge(login(source="::ffff:198.51.100.7", port=50122), POLICY).own
    assert judge(login(source="::ffff:10.8.0.3"), POLICY).unusual is False
    mapped_policy = replace(POLICY, own_sessions=frozenset({("::ffff:198.51.100.7", 50122)}),
                            own_sources=frozenset({"::ffff:198.51.100.7"}), trusted_networks=())
    assert judge(login(port=50122), mapped_policy).own
    assert judge(login(), mapped_policy).unusual is False
    # a trusted IPv6 range written as mapped IPv4 holds the plain IPv4 address
    v6_policy = replace(POLICY, own_sources=frozenset(), trusted_networks=(ip_network("::ffff:10.8.0.0/120"),))
    assert judge(login(source="10.8.0.200"), v6_policy).unusual is False


def test_wrapped_hours_in_another_time_zone() -> None:
    night = replace(POLICY, unusual_hours=(23, 6), tz=timezone(timedelta(hours=-5)))
    for utc_hour, unusual in [(4, True), (10, True), (11, False), (3, False), (12, False)]:  # local = utc - 5
        ev = login(time=datetime(2026, 12, 5, utc_hour, 30, tzinfo=UTC))
        assert (UNUSUAL_HOUR in judge(ev, night).why) is unusual, utc_hour
    assert [h for h in range(24) if in_hours(h, (23, 6))] == [0, 1, 2, 3, 4, 5, 23]
    assert [h for h in range(24) if in_hours(h, (1, 6))] == [1, 2, 3, 4, 5]
    assert not any(in_hours(h, (5, 5)) for h in range(24))


def test_unknown_time_is_never_an_unusual_hour_and_off_means_off() -> None:
    assert judge(login(time=None), POLICY).why == ()
    off = replace(POLICY, unusual_hours=None)
    assert judge(login(time=datetime(2026, 12, 5, 19, 12, tzinfo=UTC)), off).why == ()


def test_unknown_source_or_key_is_not_claimed() -> None:
    assert judge(login(source=""), POLICY).why == ()  # a wtmp console login: no address seen
    assert judge(login(fp=""), POLICY).why == ()  # a password login has no key to judge
    assert judge(login(user="root"), replace(POLICY, expected_users=frozenset())).why == ()
    assert judge(login(fp=FP_OTHER), replace(POLICY, known_keys=frozenset())).why == ()


def test_forged_user_cannot_make_a_stranger_look_like_the_student() -> None:
    p = parse_sshd_message("Accepted password for x from 198.51.100.7 port 50122 ssh2 from 203.0.113.9 port 4 ssh2")
    assert p is not None and p.source == "203.0.113.9"
    ctx = HostContext(datetime(2026, 12, 6, tzinfo=UTC), UTC, 0.0)
    ev = parse_syslog_line("Dec  5 12:00:00 h sshd[1]: Accepted password for x from 198.51.100.7 port 50122 ssh2 "
                           "from 203.0.113.9 port 4 ssh2", ctx)
    assert ev is not None
    verdict = judge(ev, POLICY)
    assert not verdict.own and verdict.why == (UNKNOWN_SOURCE, UNKNOWN_USER)


def test_why_texts_english() -> None:
    ev = login(source="203.0.113.9", user="root", fp=FP_OTHER, time=datetime(2026, 12, 5, 19, 12, tzinfo=UTC))
    texts = why_texts(judge(ev, POLICY), ev, POLICY)
    assert texts == [
        "from 203.0.113.9, an address LabGPU has never connected from",
        "at 03:12, inside your unusual hours (01:00–06:00)",
        "as a user LabGPU did not set up (root)",
        f"with a key LabGPU does not know (ED25519 {FP_OTHER})",
    ]


def test_why_texts_translated_and_a_broken_translation_falls_back() -> None:
    zh = {WHY_TEXT[UNKNOWN_SOURCE]: "来自 {source}，LabGPU 从未从这个地址连接过"}
    table = {**zh, WHY_TEXT[UNKNOWN_USER]: "用户 {nobody}"}
    ev = login(source="203.0.113.9", user="root")
    texts = why_texts(judge(ev, POLICY), ev, POLICY, tr=lambda s: table.get(s, s))
    assert texts[1] == "as a user LabGPU did not set up (root)"
    assert texts[0] == "来自 203.0.113.9，LabGPU 从未从这个地址连接过"


def test_user_braces_are_not_a_template() -> None:
    ev = login(user="{source}{0}")
    texts = why_texts(judge(ev, POLICY), ev, POLICY)
    assert texts == ["as a user LabGPU did not set up ({source}{0})"]


@pytest.mark.parametrize("code", CODES)
def test_every_code_has_a_text(code: str) -> None:
    assert WHY_TEXT[code]
