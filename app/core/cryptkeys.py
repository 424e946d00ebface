"""Encryption keys of bucket pairs: the key only in the OS keyring, its name in the Store.

A key is 32 random bytes (``os.urandom``), kept in the keyring as ``crypt:<name>`` (hex) through
``app.core.secrets``; the database row holds its name, its key id (an HKDF value, see objcrypt) and
where it came from. Nothing else is ever written: no file holds the key or its recovery phrase.

The recovery phrase is the key in Crockford's base32 (https://www.crockford.com/base32.html: the
digits and letters without I, L, O and U; reading ignores case and hyphens and takes I/L as 1 and O
as 0) followed by a check group: 52 characters for the 256 key bits, 8 characters (40 bits) of
SHA-256 over the key, in 12 groups of 5, e.g. ``7ZQ1M-...-K3D9X``. A typed phrase whose check does
not match is refused (a mistyped character passes with a chance of 1 in 2^40); when changing one
character would make it match, the error names that group. A word list (BIP-39, EFF) would read
more easily, but bundling one needs its licence checked, so the phrase uses the alphabet instead.

Contract:
    keys = CryptKeys(paths)
    keys.create(name) -> PairCrypt        keys.get(name) -> PairCrypt (NoKey: "labgpu keys import")
    keys.names() / keys.infos()           keys.export_phrase(name) -> str
    keys.import_phrase(name, phrase) -> PairCrypt                 keys.remove(name)
Every method may block on the keyring: the UI calls them through ctx.runner.
"""

from __future__ import annotations

import builtins
import hashlib
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from . import damage, secrets
from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP
from .logsetup import register_secret
from .objcrypt import KEY_BYTES, CryptError, PairCrypt
from .paths import Paths
from .store import Store, register_schema

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$")
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32
_READ = {c: i for i, c in enumerate(ALPHABET)} | {"I": 1, "L": 1, "O": 0}
KEY_CHARS = 52  # ceil(256 / 5)
CHECK_CHARS = 8  # 40 bits
GROUP = 5
GROUPS = (KEY_CHARS + CHECK_CHARS) // GROUP  # 12
_CHECK_LABEL = b"labgpu key phrase v1"

register_schema(
    "cryptkeys",
    [
        """
    CREATE TABLE crypt_keys (
        name TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        source TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    """,
    ],
)

NO_KEY = QT_TRANSLATE_NOOP("LabGPU", "There is no encryption key named '{name}' on this computer.")
NO_KEY_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Import it from its recovery phrase with 'labgpu keys import {name}', or list the keys with "
              "'labgpu keys ls'.")
KEY_GONE = QT_TRANSLATE_NOOP("LabGPU", "The keyring has no secret for the encryption key '{name}'.")
KEY_MISMATCH = QT_TRANSLATE_NOOP(
    "LabGPU", "The keyring's secret for the encryption key '{name}' is not the key LabGPU recorded (key id {key_id}).")
BAD_PHRASE_LEN = QT_TRANSLATE_NOOP(
    "LabGPU", "A recovery phrase has {expected} characters in {groups} groups; this one has {count}.")
BAD_PHRASE_CHAR = QT_TRANSLATE_NOOP("LabGPU", "The recovery phrase has a character that cannot be in one: '{char}'.")
BAD_PHRASE_CHECK = QT_TRANSLATE_NOOP("LabGPU", "The recovery phrase does not match its check group: it has a typo.")
BAD_PHRASE_GROUP = QT_TRANSLATE_NOOP(
    "LabGPU", "The recovery phrase does not match its check group: group {group} looks mistyped.")
BAD_PHRASE_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Copy the phrase again from where you kept it. Hyphens, spaces and case do not matter.")


class KeyNameError(InputError):
    """A key name that cannot be used."""


@dataclass(frozen=True)
class KeyInfo:
    name: str
    key_id: str
    source: str  # "new" | "import"
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "key_id": self.key_id, "source": self.source,
                "created_at": self.created_at.isoformat()}


def secret_entry(name: str) -> str:
    return f"crypt:{name}"


def check_key_name(name: str) -> None:
    if not _NAME_RE.match(name or ""):
        raise KeyNameError(
            QT_TRANSLATE_NOOP("LabGPU", "'{name}' cannot be the name of an encryption key."),
            QT_TRANSLATE_NOOP("LabGPU", "Use letters, digits, '.', '_' or '-' (at most 63)."),
            code="BadKeyName", name=name[:80])


# -- the recovery phrase -------------------------------------------------------------------------

def _check_group(key: bytes) -> int:
    return int.from_bytes(hashlib.sha256(_CHECK_LABEL + key).digest()[:5], "big")


def _encode(value: int, chars: int) -> str:
    return "".join(ALPHABET[(value >> (5 * (chars - 1 - i))) & 31] for i in range(chars))


def key_to_phrase(key: bytes) -> str:
    """The key as 12 groups of 5 Crockford base32 characters, the last 8 characters a check."""
    if len(key) != KEY_BYTES:
        raise ValueError("a key is 32 bytes")
    text = _encode(int.from_bytes(key, "big") << 4, KEY_CHARS) + _encode(_check_group(key), CHECK_CHARS)
    return "-".join(text[i : i + GROUP] for i in range(0, len(text), GROUP))


def _values(phrase: str) -> list[int]:
    text = re.sub(r"[\s\-]", "", phrase).upper()
    for c in text:
        if c not in _READ:
            raise CryptError(BAD_PHRASE_CHAR, BAD_PHRASE_HINT, code="BadPhrase",
                             char=c if c.isprintable() else "?")
    if len(text) != KEY_CHARS + CHECK_CHARS:
        raise CryptError(BAD_PHRASE_LEN, BAD_PHRASE_HINT, code="BadPhrase", expected=KEY_CHARS + CHECK_CHARS,
                         groups=GROUPS, count=len(text))
    return [_READ[c] for c in text]


def _decode(values: list[int]) -> tuple[bytes | None, bool]:
    """(key, check matches); key None when the padding bits are not zero."""
    n = 0
    for v in values[:KEY_CHARS]:
        n = (n << 5) | v
    check = 0
    for v in values[KEY_CHARS:]:
        check = (check << 5) | v
    if n & 0xF:
        return None, False
    key = (n >> 4).to_bytes(KEY_BYTES, "big")
    return key, _check_group(key) == check


def phrase_to_key(phrase: str) -> bytes:
    """The key of a recovery phrase; CryptError(BadPhrase) for a typo, naming the group when it can."""
    values = _values(phrase)
    key, ok = _decode(values)
    if ok and key is not None:
        return key
    fixes = set()  # positions where one other character would make the check match
    for pos in range(len(values)):
        for v in range(32):
            if v == values[pos]:
                continue
            trial = list(values)
            trial[pos] = v
            if _decode(trial)[1]:
                fixes.add(pos)
    if len(fixes) == 1:
        raise CryptError(BAD_PHRASE_GROUP, BAD_PHRASE_HINT, code="BadPhrase", group=fixes.pop() // GROUP + 1)
    raise CryptError(BAD_PHRASE_CHECK, BAD_PHRASE_HINT, code="BadPhrase")


# -- the keys ------------------------------------------------------------------------------------

def _now() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


class CryptKeys:
    """The student's encryption keys: names in the Store, secrets in the keyring."""

    def __init__(self, paths: Paths | None = None, *, store: Store | None = None) -> None:
        self.store = store if store is not None else Store(paths=paths)

    def infos(self) -> builtins.list[KeyInfo]:
        rows = self.store.query("SELECT * FROM crypt_keys ORDER BY name")
        return [KeyInfo(r["name"], r["key_id"], r["source"], datetime.fromisoformat(r["created_at"])) for r in rows]

    def names(self) -> builtins.list[str]:
        return [i.name for i in self.infos()]

    def info(self, name: str) -> KeyInfo:
        for i in self.infos():
            if i.name == name:
                return i
        raise CryptError(NO_KEY, NO_KEY_HINT, code="NoKey", name=name[:80])

    def get(self, name: str) -> PairCrypt:
        """The key (reads the keyring; blocks). NoKey when there is none by that name."""
        return PairCrypt(self._key(name))

    def create(self, name: str) -> PairCrypt:
        return self._add(name, os.urandom(KEY_BYTES), "new")

    def import_phrase(self, name: str, phrase: str) -> PairCrypt:
        """Store the key of a recovery phrase under ``name``. The same key again is no error."""
        check_key_name(name)
        register_secret(phrase.strip())
        key = phrase_to_key(phrase)
        return self._add(name, key, "import")

    def export_phrase(self, name: str) -> str:
        phrase = key_to_phrase(self._key(name))
        register_secret(phrase)  # never in a log line
        return phrase

    def _key(self, name: str) -> bytes:
        info = self.info(name)
        value = secrets.get_secret(secret_entry(name))
        if not value:
            raise CryptError(KEY_GONE, NO_KEY_HINT, code="NoKey", name=name)
        try:
            key = bytes.fromhex(value)
            crypt = PairCrypt(key)
        except (ValueError, CryptError):
            crypt = None
        if crypt is None or crypt.key_id != info.key_id:
            raise CryptError(KEY_MISMATCH, NO_KEY_HINT, code="NoKey", name=name, key_id=info.key_id)
        return key

    def remove(self, name: str) -> None:
        """Delete the keyring entry, then the row (a locked keyring stops here, nothing half-done)."""
        self.info(name)
        secrets.delete_secret(secret_entry(name))
        self.store.execute("DELETE FROM crypt_keys WHERE name=?", (name,))

    def _lock(self) -> Any:
        return damage.file_lock(self.store.path.with_name(f".{self.store.path.name}.cryptkeys.lock"))

    def _add(self, name: str, key: bytes, source: str) -> PairCrypt:
        check_key_name(name)
        crypt = PairCrypt(key)
        with self._lock():
            rows = self.store.query("SELECT key_id FROM crypt_keys WHERE name=?", (name,))
            if rows:
                if source == "import" and rows[0]["key_id"] == crypt.key_id:
                    value = secrets.get_secret(secret_entry(name))
                    if value == key.hex():
                        return crypt
                else:
                    raise KeyNameError(
                        QT_TRANSLATE_NOOP("LabGPU", "An encryption key named '{name}' already exists."),
                        QT_TRANSLATE_NOOP(
                            "LabGPU", "Choose another name. Removing a key makes what it encrypted unreadable "
                                      "unless you kept its recovery phrase."),
                        code="KeyExists", name=name)
            # The keyring first: if it fails, nothing reaches the database.
            written = secrets.set_secret_owned(secret_entry(name), key.hex())
            try:
                self.store.execute(
                    "INSERT OR REPLACE INTO crypt_keys(name, key_id, source, created_at) VALUES(?,?,?,?)",
                    (name, crypt.key_id, source, _now().isoformat()))
            except BaseException:
                secrets.undo_owned(written)
                raise
        return crypt
