"""The SSH key LabGPU registers with the cloud: its own ed25519 key, or one the user already has.

LabGPU's key is written encrypted (OpenSSH format, bcrypt KDF) with 0600 permissions under the
data folder; its random passphrase lives in the keyring (entry ``sshkey:<name>:passphrase``) and
is stored *before* the key file is written, so without a keyring no key file appears. The cloud
key-pair name is derived from the public key's fingerprint, so the same key is never imported twice
under different names and a different key never hides behind an old name.

Contract:
    key = ensure_default_key(paths)          # → SshKey (creates it once)
    key = load_key(Path("~/.ssh/id_ed25519"))  # an existing key (its .pub is read when present)
    key_passphrase(key)                      # → str | None, from the keyring (LabGPU's key only)
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets as pysecrets
import threading
from dataclasses import dataclass
from pathlib import Path

from app.core import secrets
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths

DEFAULT_KEY_NAME = "labgpu_ed25519"
_lock = threading.Lock()


@dataclass(frozen=True)
class SshKey:
    private_path: Path
    public_key: str  # one OpenSSH line: "ssh-ed25519 AAAA… comment"
    fingerprint: str  # "SHA256:…" as ssh-keygen -l prints it
    passphrase_entry: str = ""  # keyring entry for LabGPU's own key; "" for the user's keys

    @property
    def cloud_name(self) -> str:
        """Key-pair name at the cloud: stable for this key, different for any other."""
        digest = hashlib.sha256(self.fingerprint.encode()).hexdigest()[:16]
        return f"labgpu-{digest}"


def fingerprint(public_key: str) -> str:
    parts = public_key.split()
    if len(parts) < 2:
        raise ValueError("not an OpenSSH public key line")
    blob = base64.b64decode(parts[1])
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def passphrase_entry(name: str) -> str:
    return f"sshkey:{name}:passphrase"


def key_dir(paths: Paths) -> Path:
    return paths.data_dir / "ssh"


def ensure_default_key(paths: Paths, name: str = DEFAULT_KEY_NAME) -> SshKey:
    """LabGPU's own key, created on first use."""
    folder = key_dir(paths.ensure())
    folder.mkdir(mode=0o700, exist_ok=True)
    priv, pub = folder / name, folder / f"{name}.pub"
    entry = passphrase_entry(name)
    with _lock:  # two launches at once must not create two keys (and overwrite one passphrase)
        if priv.exists() and pub.exists():
            line = pub.read_text(encoding="ascii").strip()
            return SshKey(priv, line, fingerprint(line), entry)
        return _create_key(priv, pub, entry)


def _create_key(priv: Path, pub: Path, entry: str) -> SshKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    name = priv.name
    passphrase = pysecrets.token_urlsafe(24)
    secrets.set_secret(entry, passphrase)  # keyring first: no keyring → no key file
    key = Ed25519PrivateKey.generate()
    data = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.BestAvailableEncryption(passphrase.encode()),
    )
    line = (
        key.public_key()
        .public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
        .decode()
        + " labgpu"
    )
    pub.write_text(line + "\n", encoding="ascii")  # public half first: "both exist" means complete
    tmp = priv.with_name(f".{name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, priv)
    return SshKey(priv, line, fingerprint(line), entry)


def load_key(path: Path) -> SshKey:
    """An existing key chosen by the user: its public half from ``<path>.pub`` or from the key itself."""
    path = Path(path).expanduser()
    pub = path.with_name(path.name + ".pub")
    if path.name.endswith(".pub"):
        pub, path = path, path.with_name(path.name[:-4])
    if pub.exists():
        line = pub.read_text(encoding="ascii", errors="replace").strip()
    else:
        from cryptography.hazmat.primitives import serialization

        try:
            key = serialization.load_ssh_private_key(path.read_bytes(), password=None)
        except (OSError, ValueError, TypeError):
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "LabGPU cannot read the public half of {path}."),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Put the public key next to it as {path}.pub (ssh-keygen -y -f KEY > KEY.pub)."
                ),
                code="NoPublicKey",
                path=str(path),
            ) from None
        line = (
            key.public_key()
            .public_bytes(
                serialization.Encoding.OpenSSH,
                serialization.PublicFormat.OpenSSH,
            )
            .decode()
        )
    if not line.startswith(("ssh-ed25519 ", "ssh-rsa ", "ecdsa-sha2-")):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "{path} is not an SSH public key."),
            QT_TRANSLATE_NOOP("LabGPU", "Choose an ed25519 or RSA key made by ssh-keygen."),
            code="NoPublicKey",
            path=str(pub),
        )
    return SshKey(path, line, fingerprint(line))


def key_passphrase(key: SshKey) -> str | None:
    return secrets.get_secret(key.passphrase_entry) if key.passphrase_entry else None
