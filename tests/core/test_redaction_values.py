"""The log redactor hides secret values, not ordinary words (both ways)."""

from __future__ import annotations

import pytest

from app.core import logsetup
from app.core.logsetup import redact


@pytest.fixture(autouse=True)
def no_known_secrets(monkeypatch):
    """Only the rules are under test: values other tests' keyrings and hosts registered (a test
    password may well be an ordinary word) are set aside for these."""
    monkeypatch.setattr(logsetup, "_known_secrets", set())


@pytest.mark.parametrize(
    "text",
    [
        "wrong password: the host refused it",
        "the passphrase: is needed for this key",
        "token: expired.",
        "enter the password: ",
        "Authorization: none given",
        "instance i-0abc started in ap-guangzhou-3",
    ],
)
def test_ordinary_words_after_a_keyword_stay(text):
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("password: hunter22", "hunter22"),
        ("password=correct", "correct"),
        ('{"password": "horse battery"}', "horse battery"),
        ("SecretKey: abcdEFGH1234", "abcdEFGH1234"),
        ("Authorization: Bearer abc123xyz", "abc123xyz"),
        ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG", "wJalrXUtnFEMI/K7MDENG"),
        ("url?token=abc&x=1", "abc"),
        ("'passphrase': 'p w'", "p w"),
        ("Signature=0123456789abcdef0123", "0123456789abcdef0123"),
    ],
)
def test_secret_values_are_hidden_and_only_them(text, secret):
    out = redact(text)
    assert secret not in out
    assert "***" in out
    assert out.replace("***", secret, 1) == text  # nothing but the value was touched
