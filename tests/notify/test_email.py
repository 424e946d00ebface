"""Mail through a real SMTP server (aiosmtpd) with implicit TLS and with STARTTLS, the certificate verified
against the test's own CA (named by the channel: never a switch that turns verification off)."""

from __future__ import annotations

from email.header import decode_header, make_header

import pytest

from app.core.paths import default_paths
from app.core.settings import Settings
from app.notify.config import ChannelConfig
from app.notify.dispatch import Notifier
from tests.notify.peers import SMTP_PASSWORD, SMTP_USER

# aiosmtpd warns about AUTH without STARTTLS on the implicit-TLS server, whose whole socket is TLS
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")


def _cfg(smtp, ca: str = "") -> ChannelConfig:
    return ChannelConfig(name="mail", kind="email", host="127.0.0.1", port=smtp.port, security=smtp.mode,
                         username=SMTP_USER, sender=SMTP_USER, recipients=["me@example.org"], ca_file=ca)


def _send(cfg: ChannelConfig, password: str, lang: str = "en"):
    return Notifier(default_paths(), settings=Settings).send_test(
        cfg.name, settings=Settings(language=lang), channel_cfg=cfg, secret_values={"password": password})


def test_mail_is_delivered_over_tls_with_the_login(smtp, certs):
    r = _send(_cfg(smtp, certs[0]), SMTP_PASSWORD)
    assert r.ok, r.text()
    assert smtp.logins == [(SMTP_USER, True)]
    assert smtp.envelopes == [(SMTP_USER, ["me@example.org"])]
    mail = smtp.messages[0]
    assert str(make_header(decode_header(mail["Subject"]))) == "LabGPU test notice"
    assert "channel mail works" in mail.get_payload(decode=True).decode()


def test_a_wrong_password_is_the_servers_refusal(smtp, certs):
    r = _send(_cfg(smtp, certs[0]), "not-the-password")
    assert not r.ok and r.params.get("host", "").startswith("127.0.0.1")
    assert "refused the login" in r.text()
    assert "not-the-password" not in r.text()
    assert smtp.messages == []


def test_a_certificate_no_trusted_ca_signed_is_refused(smtp):
    r = _send(_cfg(smtp), SMTP_PASSWORD)
    assert not r.ok and "certificate" in r.text()
    assert smtp.logins == [] and smtp.messages == []  # the password never left
