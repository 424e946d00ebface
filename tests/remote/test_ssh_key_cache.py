"""A passphrase-protected key is opened (its bcrypt KDF run) once per process, as ssh-agent holds it — and a key
file that changed is opened again, never answered from memory."""

from __future__ import annotations

import os

import paramiko
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from app.remote.ssh import auth


def _write_key(path, passphrase: str) -> str:
    key = Ed25519PrivateKey.generate()
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                       serialization.BestAvailableEncryption(passphrase.encode())))
    os.chmod(path, 0o600)
    return key.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()


def test_an_encrypted_key_is_opened_once_and_again_when_its_file_changes(tmp_path):
    path = tmp_path / "labgpu_ed25519"
    first_pub = _write_key(path, "pass-1")
    first = auth._decrypted(str(path), "pass-1")
    assert auth._decrypted(str(path), "pass-1") is first  # the same opened key: no second KDF
    assert f"{first.get_name()} {first.get_base64()}" == first_pub
    with pytest.raises((paramiko.SSHException, ValueError, TypeError)):
        auth._decrypted(str(path), "wrong")  # a wrong passphrase is never answered from memory
    second_pub = _write_key(path, "pass-2")  # the key was replaced (a new key, a new passphrase)
    second = auth._decrypted(str(path), "pass-2")
    assert f"{second.get_name()} {second.get_base64()}" == second_pub != first_pub
    with pytest.raises((paramiko.SSHException, ValueError, TypeError)):
        auth._decrypted(str(path), "pass-1")
    for i in range(auth._DECRYPTED_MAX + 3):  # bounded: a few keys at most
        other = tmp_path / f"k{i}"
        _write_key(other, "p")
        auth._decrypted(str(other), "p")
    assert len(auth._DECRYPTED) == auth._DECRYPTED_MAX
