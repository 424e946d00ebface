"""The pasted-password forms as the parser and the log redaction see them."""

from __future__ import annotations

import logging

import pytest

from app.core.errors import InputError
from app.core.logsetup import setup_logging
from app.core.paths import default_paths
from app.core.sshcmd import find_pasted_secret, parse_ssh_command

SECRET = "Pw9!x-Secret"


@pytest.mark.parametrize(
    ("command", "form"),
    [
        (f"sshpass -p {SECRET} ssh -p 22 root@h.example.com", "sshpass -p"),
        (f"/usr/bin/sshpass -v -p{SECRET} ssh root@h.example.com", "sshpass -p"),
        ("sshpass -e ssh root@h.example.com", "sshpass"),
        (f"ssh root:{SECRET}@h.example.com", "user:password@host"),
        (f"ssh -J jump:{SECRET}@j.example.com root@h.example.com", "user:password@host"),
        (f"ssh root@h.example.com 密码：{SECRET}", "密码:"),
        (f"ssh root@h.example.com\nPassword: {SECRET}", "password:"),
        (f"ssh root@h.example.com (root passwd={SECRET})", "passwd:"),
    ],
)
def test_each_form_is_refused_without_repeating_the_password(command, form):
    with pytest.raises(InputError) as ei:
        parse_ssh_command(command)
    err = ei.value
    assert err.code == "PasswordInCommand"
    assert f"({form})" in err.text()
    assert SECRET not in err.one_line() and SECRET not in repr(err.params)
    assert "Password field" in err.hint()


@pytest.mark.parametrize(
    "command",
    ["ssh -p 22 root@h.example.com", "ssh -o PasswordAuthentication=no root@h.example.com",
     "ssh root@2001:db8::7", "ssh -L 8080:localhost:80 root@[::1]",
     # a path that ends in "passwd" before an IPv6 address (found by the fuzzer): no password there
     "ssh -p /etc/passwd ::1", "ssh -i ~/keys/old.passwd: root@h.example.com"],
)
def test_ordinary_commands_hold_no_secret(command):
    assert find_pasted_secret(command) is None


def test_the_log_file_never_holds_a_pasted_password(labgpu_home):
    paths = default_paths()
    setup_logging(paths)
    log = logging.getLogger("test.pasted")
    other = "Kx8-other-one"  # never parsed: the patterns alone must hide it
    log.warning("user pasted: sshpass -p %s ssh root@h", other)
    log.warning("user pasted: ssh root:%s@h -p 22", other)
    log.warning("user pasted: ssh root@h 密码：%s", other)
    log.warning("user pasted: ssh root@h 密码 %s", other)
    with pytest.raises(InputError):
        parse_ssh_command(f"ssh root@h password: {SECRET}")
    log.warning("a caller that slips: %s", f"the student typed {SECRET}")  # registered on parse
    for h in logging.getLogger().handlers:
        h.flush()
    text = paths.log_file.read_text(encoding="utf-8")
    assert "user pasted" in text and "a caller that slips" in text
    assert other not in text and SECRET not in text
