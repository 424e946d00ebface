"""Host-key trust against a real sshd: first contact, refusal, a changed key, forgetting, AWS console."""

from __future__ import annotations

import base64

import pytest

from app.core.hosts import HostRecord
from app.core.paths import default_paths
from app.remote.hostkeys import (
    HostKeyChangedError,
    HostKeyMismatchError,
    HostKeyUnknownError,
    KnownHosts,
    forget_host_key,
    parse_console_fingerprints,
)
from app.remote.ssh import open_connection

pytestmark = pytest.mark.usefixtures("private_home")


def _rec(sshd, name="box") -> HostRecord:
    return HostRecord(
        name=name,
        hostname=sshd.host,
        port=sshd.port,
        user=sshd.user,
        key_path=str(sshd.client_key),
        auth="key",
    )


def test_first_contact_prompt_shows_the_real_fingerprint_and_refusal_stores_nothing(sshd):
    prompts = []
    with pytest.raises(HostKeyUnknownError) as ei:
        open_connection(_rec(sshd), accept=lambda p: prompts.append(p) or False)
    (p,) = prompts
    assert p.fingerprint == sshd.host_key_fingerprint  # same text as ssh-keygen -lf prints
    assert p.key_type == "ssh-ed25519"
    assert (p.hostname, p.port, p.host) == (sshd.host, sshd.port, "box")
    assert ei.value.code == "HostKeyRefused"
    assert sshd.host_key_fingerprint in ei.value.one_line()
    assert KnownHosts(default_paths()).known_keys(sshd.host, sshd.port) == []
    # No callback at all: refused too, with the prompt attached for a UI to show.
    with pytest.raises(HostKeyUnknownError) as ei:
        open_connection(_rec(sshd))
    assert ei.value.code == "HostKeyUnknown"
    assert ei.value.prompt.fingerprint == sshd.host_key_fingerprint


def test_accepted_key_is_remembered_in_openssh_format(sshd):
    calls = []
    with open_connection(_rec(sshd), accept=lambda p: calls.append(p) or True):
        pass
    with open_connection(_rec(sshd), accept=lambda p: calls.append(p) or False):
        pass  # known now: no second prompt
    assert len(calls) == 1
    text = (default_paths().data_dir / "known_hosts").read_text()
    assert text.startswith(f"[{sshd.host}]:{sshd.port} ssh-ed25519 ")
    assert sshd.host_key_pub.split()[1] in text


def test_changed_key_is_refused_until_forgotten(sshd):
    with open_connection(_rec(sshd), accept=lambda p: True):
        pass
    old_fp = sshd.host_key_fingerprint
    with sshd.changed_host_key() as new_fp:
        asked = []
        for _ in range(2):  # refused every time, accept callback never consulted
            with pytest.raises(HostKeyChangedError) as ei:
                open_connection(_rec(sshd), accept=lambda p: asked.append(p) or True)
        assert asked == []
        err = ei.value
        assert err.code == "HostKeyChanged"
        assert new_fp in err.text()
        assert old_fp in err.text()
        assert "CHANGED" in err.text()
        assert "forget" in err.hint().lower()
        assert forget_host_key(sshd.host, sshd.port) is True
        with open_connection(_rec(sshd), accept=lambda p: asked.append(p) or True) as conn:
            assert conn.fingerprint == new_fp
        assert [p.fingerprint for p in asked] == [new_fp]
    # Back to the original server: now the ORIGINAL key is the changed one.
    with pytest.raises(HostKeyChangedError):
        open_connection(_rec(sshd), accept=lambda p: True)
    forget_host_key(sshd.host, sshd.port)


def test_users_known_hosts_is_read_but_never_written(sshd, private_home):
    user_file = private_home / ".ssh" / "known_hosts"
    user_file.write_text(sshd.known_hosts_line + "\n")
    before = user_file.read_bytes()
    with open_connection(_rec(sshd)) as conn:  # no accept callback needed: the user trusts it already
        assert conn.fingerprint == sshd.host_key_fingerprint
    with sshd.changed_host_key():
        with pytest.raises(HostKeyChangedError):
            open_connection(_rec(sshd), accept=lambda p: True)
        forget_host_key(sshd.host, sshd.port)  # cannot edit the user's file: ignores its entry instead
        with open_connection(_rec(sshd), accept=lambda p: True):
            pass
    assert user_file.read_bytes() == before
    forget_host_key(sshd.host, sshd.port)


def test_hashed_user_known_hosts_entries_work(sshd, private_home):
    import subprocess

    user_file = private_home / ".ssh" / "known_hosts"
    user_file.write_text(sshd.known_hosts_line + "\n")
    subprocess.run(["ssh-keygen", "-H", "-f", str(user_file)], check=True, capture_output=True)
    assert user_file.read_text().startswith("|1|")
    with open_connection(_rec(sshd)) as conn:
        assert conn.is_active


CONSOLE = """[   10.1] cloud-init[700]: Cloud-init v. 24.1 running 'modules:final'
<14>Dec  2 12:00:01 ec2: #############################################################
<14>Dec  2 12:00:01 ec2: -----BEGIN SSH HOST KEY FINGERPRINTS-----
<14>Dec  2 12:00:01 ec2: 256 {fp} root@ip-172-31-0-5 (ED25519)
<14>Dec  2 12:00:01 ec2: -----END SSH HOST KEY FINGERPRINTS-----
<14>Dec  2 12:00:01 ec2: #############################################################
-----BEGIN SSH HOST KEY KEYS-----
{pub}
-----END SSH HOST KEY KEYS-----
attacker-controlled line: SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
"""


def test_console_output_fingerprints_are_parsed_and_compared(sshd):
    text = CONSOLE.format(fp=sshd.host_key_fingerprint, pub=sshd.host_key_pub)
    fps = parse_console_fingerprints(text)
    assert fps == [sshd.host_key_fingerprint]  # both blocks agree; text outside blocks ignored
    # A match is trusted without a prompt (the console is an independent channel).
    with open_connection(_rec(sshd), expected_fingerprints=fps) as conn:
        assert conn.is_active
    forget_host_key(sshd.host, sshd.port)
    other = "SHA256:" + base64.b64encode(b"x" * 32).decode().rstrip("=")
    with pytest.raises(HostKeyMismatchError):
        open_connection(_rec(sshd), accept=lambda p: True, expected_fingerprints=[other])
    assert KnownHosts(default_paths()).known_keys(sshd.host, sshd.port) == []


def test_no_auto_add_policy_anywhere_in_app():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "app"
    use = re.compile(
        r"(AutoAddPolicy|WarningPolicy)\s*[(,)]|import[^\n]*(AutoAddPolicy|WarningPolicy)"
        r"|\.(AutoAddPolicy|WarningPolicy)\b"
    )
    offenders = [str(p) for p in root.rglob("*.py") if use.search(p.read_text())]
    assert offenders == []
    assert use.search("client.set_missing_host_key_policy(paramiko.AutoAddPolicy())")


def test_server_with_several_key_types_is_not_a_changed_key(extra_sshd, private_home):
    """Trusting its ecdsa key, a later connection asks for ecdsa first (as OpenSSH does)."""
    import paramiko

    from tests.fixtures.sshd import add_host_key

    ecdsa = add_host_key(extra_sshd, "ecdsa")
    extra_sshd.restart()
    KnownHosts(default_paths()).add(extra_sshd.host, extra_sshd.port, paramiko.ECDSAKey.from_path(str(ecdsa)))
    with open_connection(_rec(extra_sshd)) as conn:
        assert conn.transport.get_remote_server_key().get_name() == "ecdsa-sha2-nistp256"
    # Trusting only the ed25519 key works too, and nothing is prompted.
    forget_host_key(extra_sshd.host, extra_sshd.port)
    KnownHosts(default_paths()).add(
        extra_sshd.host, extra_sshd.port, paramiko.Ed25519Key.from_path(str(extra_sshd.host_key))
    )
    with open_connection(_rec(extra_sshd)) as conn:
        assert conn.fingerprint == extra_sshd.host_key_fingerprint


def test_console_check_for_a_launched_aws_instance_uses_its_account(
    moto, aws_proxy, sshd, secret_service, monkeypatch
):
    """The connection asks EC2 (moto here) for the console output with the instance's own account,
    through the cloud service the entry point wires in (remote never imports cloud); moto prints no
    cloud-init block, so the user is asked as on any first contact."""
    from dataclasses import replace

    import boto3

    from app import wiring
    from app.remote import vouch

    assert vouch.console_voucher() is None  # nothing wired: a plain first contact
    monkeypatch.setattr(vouch, "_console_voucher", None)
    wiring.install()  # what app/__main__.py does; monkeypatch puts None back afterwards
    assert vouch.console_voucher() is wiring.console_fingerprints

    from app.core.accounts import Account, AccountBook, Credentials
    from app.core.hosts import instance_hosts
    from app.core.instances import Ledger
    from app.core.store import Store
    from app.remote.ssh import console_fingerprints_for

    store = Store(paths=default_paths())
    Ledger(store)  # registers its schema
    store.migrate()
    book = AccountBook(store)
    book.add(
        Account(name="lab", provider="aws", region="us-east-1", endpoint=aws_proxy.url),
        Credentials(key_id="AKIAMOTOTESTKEY00001", secret="x"),
    )
    ec2 = boto3.client(
        "ec2",
        region_name="us-east-1",
        endpoint_url=moto.url,
        aws_access_key_id="AKIAMOTOTESTKEY00001",
        aws_secret_access_key="x",
    )
    iid = ec2.run_instances(ImageId="ami-0ub0000000000c3", MinCount=1, MaxCount=1, InstanceType="t3.micro")[
        "Instances"
    ][0]["InstanceId"]
    from app.cloud.base import Instance

    Ledger(store).observe(
        Instance(
            id=iid,
            account="lab",
            provider="aws",
            region="us-east-1",
            zone="us-east-1a",
            instance_type="t3.micro",
            state="running",
            spot=False,
            public_ip="198.51.100.4",
        )
    )
    (rec,) = [h for h in instance_hosts(store=store) if h.instance_id == iid]
    assert console_fingerprints_for(rec) == []
    assert [p.get("InstanceId") for p in aws_proxy.params("GetConsoleOutput")] == [iid]
    aws_proxy.inject("GetConsoleOutput", "UnauthorizedOperation", status=403)
    assert console_fingerprints_for(rec) == []  # an AWS error never blocks connecting
    assert console_fingerprints_for(replace(rec, instance_id="i-00000000000000000")) == []  # unknown
    prompts = []
    rec = replace(rec, hostname=sshd.host, port=sshd.port, user=sshd.user, key_path=str(sshd.client_key))
    with open_connection(rec, accept=lambda p: prompts.append(p) or True):
        pass
    assert [p.fingerprint for p in prompts] == [sshd.host_key_fingerprint]
    book.remove("lab")
