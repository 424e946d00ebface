"""The notification peers (tests/notify/peers.py) as fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.notify.peers import NotifyPeer, SmtpPeer, make_certs


@pytest.fixture
def peer() -> Iterator[NotifyPeer]:
    p = NotifyPeer()
    yield p
    p.close()


@pytest.fixture(scope="session")
def certs(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, str]:
    return make_certs(Path(tmp_path_factory.mktemp("notify-certs")))


@pytest.fixture(params=["ssl", "starttls"])
def smtp(request: pytest.FixtureRequest, certs: tuple[str, str, str]) -> Iterator[SmtpPeer]:
    server = SmtpPeer(request.param, certs[1], certs[2])
    server.mode = request.param  # type: ignore[attr-defined]
    yield server
    server.close()
