"""The SSH key LabGPU registers with the cloud: its own key of a type that cloud imports, or one the
user already has.

LabGPU keeps one key per type under the data folder: ``labgpu_ed25519`` (what every launch used
before; AWS still gets it) and ``labgpu_rsa`` (RSA 4096, for the clouds whose key import takes RSA
only: Tencent Cloud; Alibaba Cloud lists rsa first). 4096 bits, not 3072: the EC2 key import page
names the RSA lengths it takes as 1024, 2048 and 4096, so one RSA key of LabGPU's works on every cloud
(https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/create-key-pairs.html, "Supported lengths").

Each key is written encrypted (OpenSSH format, bcrypt KDF) with 0600 permissions; its random
passphrase lives in the keyring (entry ``sshkey:<name>:passphrase``) and is stored *before* the key
file is written, so without a keyring no key file appears. Both halves are written under a temporary
name and renamed in, the private half last, and creation runs under a lock file, so two LabGPU
processes launching at once make one key. The cloud key-pair name is derived from the public key's
fingerprint, so the same key is never imported twice under different names and a different key never
hides behind an old name.

Which types a cloud's key import takes is its spec's ``ssh_key_types`` (preferred first);
:func:`key_for_launch` picks LabGPU's own key of the first type LabGPU can make, or checks the user's
key against that list BEFORE any cloud call.

Contract:
    key = ensure_default_key(paths)                    # → SshKey: labgpu_ed25519 (created once)
    key = ensure_default_key(paths, key_type="rsa")    # → labgpu_rsa (RSA 4096)
    key = load_key(Path("~/.ssh/id_ed25519"))          # an existing key (its .pub is read when present)
    key = key_for_launch(paths, "tencent", "")         # the key a launch on that cloud registers
    key_passphrase(key)                                # → str | None, from the keyring (LabGPU's key only)
    key.key_type                                       # "ed25519", "rsa", "ecdsa", "dsa" or ""
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets as pysecrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core import damage, providers, secrets
from app.core.errors import InputError
from app.core.hosts import OWN_KEY_NAMES
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths

DEFAULT_KEY_TYPE = "ed25519"
DEFAULT_KEY_NAME = OWN_KEY_NAMES[DEFAULT_KEY_TYPE]  # "labgpu_ed25519": existing users keep theirs
RSA_BITS = 4096  # see the module docstring: the one RSA length every cloud LabGPU launches on takes
OWN_KEY_TYPES = tuple(OWN_KEY_NAMES)  # the types LabGPU makes keys of: ("ed25519", "rsa")
# OpenSSH public key algorithm → the key type names the specs use (ssh-keygen -t).
_ALGORITHMS = {
    "ssh-ed25519": "ed25519",
    "ssh-rsa": "rsa",
    "ecdsa-sha2-nistp256": "ecdsa",
    "ecdsa-sha2-nistp384": "ecdsa",
    "ecdsa-sha2-nistp521": "ecdsa",
    "ssh-dss": "dsa",
}
TYPE_TITLES = {"ed25519": "ed25519", "rsa": "RSA", "ecdsa": "ECDSA", "dsa": "DSA"}
_lock = threading.Lock()


def _new_rsa_key() -> Any:
    """A fresh RSA private key (tests may hand out one made earlier in the session: generating one
    takes 0.1–1 s; what is written, encrypted and checked is the same)."""
    from cryptography.hazmat.primitives.asymmetric import rsa

    return rsa.generate_private_key(public_exponent=65537, key_size=RSA_BITS)


def _new_ed25519_key() -> Any:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.generate()


_GENERATORS: dict[str, Callable[[], Any]] = {"ed25519": _new_ed25519_key, "rsa": _new_rsa_key}


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

    @property
    def key_type(self) -> str:
        return key_type_of(self.public_key)

    @property
    def own(self) -> bool:
        """LabGPU's own key (its passphrase in the keyring), not one the user chose."""
        return bool(self.passphrase_entry)


def key_type_of(public_key: str) -> str:
    """"ed25519", "rsa", "ecdsa" or "dsa" for an OpenSSH public key line; "" for anything else."""
    return _ALGORITHMS.get(public_key.split(" ", 1)[0], "")


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


def own_key_path(paths: Paths, key_type: str = DEFAULT_KEY_TYPE) -> Path:
    """Where LabGPU's own key of ``key_type`` is (or will be) kept."""
    return key_dir(paths) / OWN_KEY_NAMES[key_type]


def accepted_types(provider_id: str) -> tuple[str, ...]:
    """The key types the provider's key import takes, preferred first (its spec's ``ssh_key_types``)."""
    found = providers.find_spec(provider_id)
    return tuple(found.ssh_key_types) if found is not None else providers.DEFAULT_SSH_KEY_TYPES


def own_key_type(provider_id: str) -> str:
    """The type of LabGPU's own key a launch on ``provider_id`` registers: the cloud's first
    accepted type that LabGPU makes keys of."""
    accepted = accepted_types(provider_id)
    for t in accepted:
        if t in OWN_KEY_TYPES:
            return t
    raise InputError(
        QT_TRANSLATE_NOOP("LabGPU", "{provider} imports only {types} keys, and LabGPU makes none of those."),
        QT_TRANSLATE_NOOP("LabGPU", "Choose an existing key of one of those types in the SSH key field."),
        code="NoOwnKeyType",
        provider=providers.display_name(provider_id),
        types=types_text(accepted),
    )


def types_text(types: Sequence[str]) -> str:
    """"RSA", "ed25519 or RSA", "RSA, DSA or ECDSA" (key type names are the same in every language)."""
    titles = [TYPE_TITLES.get(t, t) for t in types]
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " / " + titles[-1]


def ensure_default_key(paths: Paths, key_type: str = DEFAULT_KEY_TYPE) -> SshKey:
    """LabGPU's own key of ``key_type`` ("ed25519" or "rsa"), created on first use."""
    if key_type not in OWN_KEY_NAMES:
        raise ValueError(f"LabGPU makes no {key_type!r} keys")
    name = OWN_KEY_NAMES[key_type]
    folder = key_dir(paths.ensure())
    folder.mkdir(mode=0o700, exist_ok=True)
    priv, pub = folder / name, folder / f"{name}.pub"
    entry = passphrase_entry(name)
    # Two launches at once (threads, or the app and the CLI) must not create two keys and overwrite
    # one passphrase: the thread lock, then a lock file for other processes.
    with _lock, damage.file_lock(folder / f".{name}.lock"):
        if priv.exists() and pub.exists():
            line = pub.read_text(encoding="ascii").strip()
            return SshKey(priv, line, fingerprint(line), entry)
        return _create_key(priv, pub, entry, key_type)


def _write_atomic(path: Path, data: bytes, mode: int) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _create_key(priv: Path, pub: Path, entry: str, key_type: str) -> SshKey:
    from cryptography.hazmat.primitives import serialization

    passphrase = pysecrets.token_urlsafe(24)
    secrets.set_secret(entry, passphrase)  # keyring first: no keyring → no key file
    key = _GENERATORS[key_type]()
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
    priv.unlink(missing_ok=True)  # a private half without its public half is from a creation cut short
    _write_atomic(pub, (line + "\n").encode("ascii"), 0o644)  # public first: "both exist" = complete
    _write_atomic(priv, data, 0o600)
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
    try:
        fp = fingerprint(line)
    except (ValueError, TypeError):  # binascii.Error is a ValueError
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "{path} is not an SSH public key."),
            QT_TRANSLATE_NOOP("LabGPU", "Choose an ed25519 or RSA key made by ssh-keygen."),
            code="NoPublicKey",
            path=str(pub),
        ) from None
    return SshKey(path, line, fp)


def check_accepted(key: SshKey, provider_id: str) -> SshKey:
    """``key`` if the provider's key import takes its type; else an InputError that says what to do
    (raised before any cloud call)."""
    accepted = accepted_types(provider_id)
    if key.key_type in accepted:
        return key
    own = own_key_type(provider_id) if any(t in OWN_KEY_TYPES for t in accepted) else ""
    raise InputError(
        QT_TRANSLATE_NOOP("LabGPU", "{provider} imports {types} keys only, and {path} is a key of type {kind}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Choose a key of type {types}, or leave the SSH key field empty to use LabGPU's own {own} key.",
        ) if own else QT_TRANSLATE_NOOP("LabGPU", "Choose a key of type {types}."),
        code="KeyTypeNotAccepted",
        provider=providers.display_name(provider_id),
        types=types_text(accepted),
        path=str(key.private_path),
        kind=TYPE_TITLES.get(key.key_type, key.public_key.split(" ", 1)[0][:40]),
        own=TYPE_TITLES.get(own, own),
    )


def key_for_launch(paths: Paths, provider_id: str, key_path: str = "") -> SshKey:
    """The key a launch on ``provider_id`` registers: the user's key at ``key_path`` when given
    (refused when that cloud does not import its type), else LabGPU's own key of the type the cloud
    prefers among those LabGPU makes (ed25519 for AWS, RSA for Tencent and Alibaba)."""
    if key_path:
        return check_accepted(load_key(Path(key_path)), provider_id)
    return ensure_default_key(paths, own_key_type(provider_id))


def key_passphrase(key: SshKey) -> str | None:
    return secrets.get_secret(key.passphrase_entry) if key.passphrase_entry else None
