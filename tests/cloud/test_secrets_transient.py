"""A Secret Service that loses its default collection for a moment (gnome-keyring reloading a
keyring file another program changed) does not fail a keyring call: it is tried again. A collection
that stays gone is said clearly after the retries. Real gnome-keyring; the gap is made by pointing
the "default" alias at a keyring that does not exist (gnome-keyring reads the alias from the file
``keyrings/default`` when it has none) and the retry's wait is a fake clock that puts it back."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core import secrets
from app.core.secrets import SecretsUnavailableError

SERVICE_PATH = "/org/freedesktop/secrets"
SERVICE_IFACE = "org.freedesktop.Secret.Service"


@contextlib.contextmanager
def _service() -> Iterator[object]:
    import secretstorage
    from secretstorage.util import DBusAddressWrapper

    with contextlib.closing(secretstorage.dbus_init()) as bus:
        yield DBusAddressWrapper(SERVICE_PATH, SERVICE_IFACE, bus)


def _set_default(path: str) -> None:
    with _service() as service:
        service.call("SetAlias", "so", "default", path)  # type: ignore[attr-defined]


@pytest.fixture
def default_alias(secret_service) -> Iterator[str]:
    """The default collection's path; the alias is put back after the test whatever happened."""
    with _service() as service:
        (path,) = service.call("ReadAlias", "s", "default")  # type: ignore[attr-defined]
    assert path != "/"
    try:
        yield path
    finally:
        _set_default(path)


@pytest.fixture
def lose_default(secret_service, default_alias):
    """Make the default collection missing: the daemon's alias goes, and the file it then reads
    names a keyring that does not exist."""
    alias_file = Path(secret_service["XDG_DATA_HOME"]) / "keyrings" / "default"

    def lose() -> None:
        _set_default("/")  # the daemon forgets it and writes an empty file …
        alias_file.write_text("labgpu-no-such-keyring")  # … which it reads at the next lookup
        with _service() as service:
            assert service.call("ReadAlias", "s", "default") == ("/",)  # type: ignore[attr-defined]

    return lose


def test_a_default_collection_gone_for_a_moment_is_tried_again(default_alias, lose_default, monkeypatch, caplog):
    secrets.set_secret("account:blink:secret", "before")
    waits: list[float] = []

    def fake_sleep(seconds: float) -> None:  # the gap ends while the app waits
        waits.append(seconds)
        _set_default(default_alias)

    monkeypatch.setattr(secrets, "_sleep", fake_sleep)
    caplog.set_level(logging.INFO, logger="app.core.secrets")
    lose_default()
    assert secrets.get_secret("account:blink:secret") == "before"
    assert waits == [secrets.RETRY_DELAYS[0]]
    assert "failed for a moment" in caplog.text
    lose_default()
    secrets.set_secret("account:blink:secret", "after")  # a write, the same
    lose_default()
    assert secrets.delete_secret("account:blink:secret") is True
    assert waits == [secrets.RETRY_DELAYS[0]] * 3
    assert secrets.get_secret("account:blink:secret") is None


def test_a_default_collection_that_stays_gone_is_said_after_the_retries(default_alias, lose_default, monkeypatch):
    waits: list[float] = []
    monkeypatch.setattr(secrets, "_sleep", waits.append)
    lose_default()
    with pytest.raises(SecretsUnavailableError) as err:
        secrets.set_secret("account:gone:secret", "x")
    assert waits == list(secrets.RETRY_DELAYS)
    assert "keyring" in err.value.text().lower() and err.value.hint()
    _set_default(default_alias)
    assert secrets.get_secret("account:gone:secret") is None  # nothing half-written


@pytest.mark.filterwarnings("ignore:the Secret Service daemon used by this test went")
def test_a_keyring_daemon_that_crashed_is_started_again_and_keeps_what_was_stored(
        keyring_daemon, monkeypatch):
    """gnome-keyring 42 can abort with several programs using it; on a desktop D-Bus starts it again
    on the next call (here too: the test bus activates the same daemon). Nothing stored is lost and
    the next LabGPU call just works — no error for the student, no retry needed."""
    waits: list[float] = []
    monkeypatch.setattr(secrets, "_sleep", waits.append)
    secrets.set_secret("account:crash:secret", "kept")
    before = keyring_daemon.crash()
    assert secrets.get_secret("account:crash:secret") == "kept"
    assert waits == []  # the call waited for D-Bus to start it: not even a retry
    after = keyring_daemon.daemon_pid()
    assert after and after != before
    from tests.fixtures.keyring_service import _daemon_log_tail  # what the fixture's warning shows

    said = _daemon_log_tail(keyring_daemon, before)
    assert f"gnome-keyring-daemon:{before}" in said and f"gnome-keyring-daemon:{after}" not in said
    secrets.set_secret("account:crash:secret", "changed")
    assert secrets.get_secret("account:crash:secret") == "changed"
    assert secrets.delete_secret("account:crash:secret") is True


@pytest.mark.filterwarnings("ignore:the Secret Service daemon used by this test went")
def test_a_keyring_daemon_that_crashes_in_the_middle_of_a_write_is_tried_again(
        keyring_daemon, monkeypatch, caplog):
    """The write's encryption session was opened with the daemon that then died: the new daemon
    answers NoSession. The write is done again from the start, once, and lands."""
    import secretstorage.collection

    real_open_session = secretstorage.collection.open_session
    crashed: list[int] = []

    def open_session_then_crash(connection):  # type: ignore[no-untyped-def]
        session = real_open_session(connection)
        if not crashed:
            crashed.append(keyring_daemon.crash())
        return session

    monkeypatch.setattr(secretstorage.collection, "open_session", open_session_then_crash)
    waits: list[float] = []
    monkeypatch.setattr(secrets, "_sleep", waits.append)
    caplog.set_level(logging.INFO, logger="app.core.secrets")
    secrets.set_secret("account:midwrite:secret", "landed")
    assert crashed and crashed[0]
    assert waits == [secrets.RETRY_DELAYS[0]]
    assert "failed for a moment (DBusErrorResponse)" in caplog.text
    assert secrets.get_secret("account:midwrite:secret") == "landed"
    assert secrets.delete_secret("account:midwrite:secret") is True
