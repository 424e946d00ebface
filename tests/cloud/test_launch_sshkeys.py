"""LabGPU's ed25519 key: encrypted, 0600, passphrase only in the keyring; or the user's own key."""

from __future__ import annotations

import subprocess

import keyring
import pytest
from keyring.backends import fail

from app.cloud import netaddr, sshkeys
from app.core.errors import InputError
from app.core.paths import default_paths
from app.core.secrets import SecretsUnavailableError


def test_default_key_created_once_encrypted_0600(secret_service, labgpu_home):
    paths = default_paths()
    key = sshkeys.ensure_default_key(paths)
    assert key.private_path.stat().st_mode & 0o777 == 0o600
    assert key.public_key.startswith("ssh-ed25519 ")
    assert sshkeys.ensure_default_key(paths) == key  # reused, not replaced
    passphrase = sshkeys.key_passphrase(key)
    assert passphrase
    assert passphrase.encode() not in key.private_path.read_bytes()
    # ssh-keygen agrees: wrong passphrase refused, the right one gives the same public key and fingerprint.
    bad = subprocess.run(
        ["ssh-keygen", "-y", "-P", "wrong", "-f", str(key.private_path)], capture_output=True
    )
    assert bad.returncode != 0
    good = subprocess.run(
        ["ssh-keygen", "-y", "-P", passphrase, "-f", str(key.private_path)], capture_output=True, text=True
    )
    assert good.stdout.split()[:2] == key.public_key.split()[:2]
    fp = subprocess.run(
        ["ssh-keygen", "-l", "-f", str(key.private_path) + ".pub"], capture_output=True, text=True
    )
    assert key.fingerprint in fp.stdout
    assert key.cloud_name.startswith("labgpu-")
    assert len(key.cloud_name) == 23


def test_no_keyring_no_key_file(labgpu_home):
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        with pytest.raises(SecretsUnavailableError):
            sshkeys.ensure_default_key(default_paths())
    finally:
        keyring.set_keyring(previous)
    assert not list(sshkeys.key_dir(default_paths()).glob("labgpu_ed25519*"))


def test_existing_user_key(tmp_path):
    k = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "me@lab", "-f", str(k)], check=True)
    pub = (tmp_path / "id_ed25519.pub").read_text().strip()
    assert sshkeys.load_key(k).public_key == pub
    (tmp_path / "id_ed25519.pub").unlink()  # derived from the unencrypted private key
    assert sshkeys.load_key(k).public_key.split()[:2] == pub.split()[:2]
    (tmp_path / "junk").write_text("hello")
    with pytest.raises(InputError):
        sshkeys.load_key(tmp_path / "junk")


def test_cidr_rules():
    assert netaddr.validate_cidr("203.0.113.7") == "203.0.113.7/32"
    assert netaddr.validate_cidr(" 10.8.0.1/24 ") == "10.8.0.0/24"
    assert netaddr.validate_cidr("2001:db8::1/64") == "2001:db8::/64"
    for broad in ("0.0.0.0/0", "0.0.0.0/1", "::/0", "2000::/3"):
        with pytest.raises(InputError) as err:
            netaddr.validate_cidr(broad)
        assert err.value.code == "CidrTooBroad"


def test_public_address_lookup(public_ip_server, monkeypatch):
    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", f"http://127.0.0.1:9/,{public_ip_server}")
    assert netaddr.public_address(timeout=30) == "203.0.113.9"  # first service down: the next one answers
    assert netaddr.ssh_source_cidr() == "203.0.113.9/32"
