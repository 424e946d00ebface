"""Client-side encryption of a bucket pair: AES-256-GCM contents in chunks, AES-SIV names.

One 32-byte key per pair (kept in the keyring by ``cryptkeys``). Everything below is derived from
it with HKDF-SHA256 (RFC 5869), one ``info`` label per use, so no two uses share a key:

* ``key_id``: 8 bytes (16 hex digits), shown to the student and written in every object's header
  so that "another key" is told apart from "damaged". Never the key.
* names: a 64-byte AES-SIV key (RFC 5297, AES-256 in SIV mode). Each ``/`` component is encrypted
  on its own, deterministically (the same name always gives the same object key, so a re-sync finds
  its objects), and written as base32 (RFC 4648, lowercase, no ``=`` padding). A component of at
  most MAX_NAME_BYTES (255, the usual file-system limit) UTF-8 bytes becomes at most 434 characters,
  so a file name fits S3's 1,024-byte key ("Naming Amazon S3 objects"); a deep path whose encrypted
  key is too long is refused by ``buckets.key_problem`` like any other long key.
* contents: a per-object key and nonce prefix from HKDF(key, salt = the object's random 32-byte
  file nonce); the chunks are AES-256-GCM (NIST SP 800-38D) with the "STREAM" construction
  (Hoang, Reyhanitabar, Rogaway, Vizár, "Online Authenticated-Encryption and its Nonce-Reuse
  Misuse-Resistance", 2015; the layout Tink's AES-GCM-HKDF streaming AEAD uses): the 12-byte
  nonce of chunk i is ``prefix(7) || i (4, big-endian) || last (1: 0x01 on the last chunk)`` and
  the header is the associated data of every chunk. So a flipped bit, a chunk moved, dropped,
  repeated or swapped in from another object, a cut at a chunk boundary (the new last chunk was not
  sealed as last) and anything appended all fail authentication: a damaged object is refused, never
  decrypted to garbage.

Object layout (version 1)::

    offset  size  field
    0       7     magic  b"LGPUENC"
    7       1     version 0x01
    8       8     key id (HKDF of the key, info "labgpu objcrypt v1 key id")
    16      32    file nonce (random, os.urandom)
    48      ...   chunks: AES-GCM(ciphertext || 16-byte tag), CHUNK (64 KiB) plain bytes each,
                  the last one 1..CHUNK bytes (0 only for an empty object: it still has one
                  sealed, empty, last chunk, so a cut to the bare header is detected)

``encrypted_size(n) = 48 + n + 16 * max(1, ceil(n / CHUNK))``.
"""

from __future__ import annotations

import base64
import os
import struct
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, AESSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .errors import LabGpuError
from .i18n import QT_TRANSLATE_NOOP

MAGIC = b"LGPUENC"
VERSION = 1
KEY_BYTES = 32
KEY_ID_BYTES = 8
NONCE_BYTES = 32
TAG_BYTES = 16
HEADER_SIZE = len(MAGIC) + 1 + KEY_ID_BYTES + NONCE_BYTES  # 48
CHUNK = 64 * 1024
SEALED = CHUNK + TAG_BYTES
MAX_CHUNKS = 1 << 32  # the 4-byte chunk counter: 256 TiB, far above S3's 5 TiB object limit
MAX_NAME_BYTES = 255
CHECK_NAME = ".labgpu-crypt"  # the key check object at the prefix root (its name is not encrypted)
_CHECK_PAYLOAD = b"LabGPU key check v1\n"

_INFO_KEY_ID = b"labgpu objcrypt v1 key id"
_INFO_NAMES = b"labgpu objcrypt v1 names"
_INFO_FILE = b"labgpu objcrypt v1 file"

WRONG_KEY = QT_TRANSLATE_NOOP(
    "LabGPU", "These objects were encrypted with another key (key id {found}; yours is {mine}).")
WRONG_KEY_NAMED = QT_TRANSLATE_NOOP(
    "LabGPU", "'{name}' was encrypted with another key (key id {found}; yours is {mine}).")
WRONG_KEY_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Choose the key this pair was encrypted with (labgpu keys ls), or import it with 'labgpu keys import'.")
DAMAGED = QT_TRANSLATE_NOOP("LabGPU", "An encrypted object is damaged or was changed without the key.")
DAMAGED_NAMED = QT_TRANSLATE_NOOP("LabGPU", "The encrypted object '{name}' is damaged or was changed without the key.")
DAMAGED_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "LabGPU did not decrypt it. Upload it again from a good copy, or delete it from the bucket.")
NOT_ENCRYPTED_NAMED = QT_TRANSLATE_NOOP("LabGPU", "'{name}' is not an object LabGPU encrypted.")
NOT_ENCRYPTED = QT_TRANSLATE_NOOP("LabGPU", "This is not an object LabGPU encrypted.")
NOT_ENCRYPTED_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Another program wrote it, or it was damaged. Encrypted pairs only read what LabGPU encrypted.")
NEWER = QT_TRANSLATE_NOOP("LabGPU", "This object was encrypted by a newer LabGPU (format {version}).")
NEWER_HINT = QT_TRANSLATE_NOOP("LabGPU", "Update LabGPU, then sync again.")
BAD_NAME = QT_TRANSLATE_NOOP("LabGPU", "The encrypted name '{name}' is damaged or was made with another key.")
BAD_NAME_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "LabGPU leaves this object alone. Check that the pair uses the right key.")
LONG_NAME = QT_TRANSLATE_NOOP("LabGPU", "The name '{name}' is longer than {limit} bytes and cannot be encrypted.")
LONG_NAME_HINT = QT_TRANSLATE_NOOP("LabGPU", "Rename it to something shorter, then sync again.")
BAD_KEY = QT_TRANSLATE_NOOP("LabGPU", "An encryption key must be 32 bytes.")
BAD_KEY_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Create a key with 'labgpu keys new' or import one with 'labgpu keys import'.")


class CryptError(LabGpuError):
    """WrongKey, DamagedObject, NoKey, BadPhrase, NameTooLong."""


def _hkdf(key: bytes, length: int, info: bytes, salt: bytes | None = None) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(key)


def _damaged(name: str = "") -> CryptError:
    if name:
        return CryptError(DAMAGED_NAMED, DAMAGED_HINT, code="DamagedObject", name=name)
    return CryptError(DAMAGED, DAMAGED_HINT, code="DamagedObject")


@dataclass(frozen=True)
class Header:
    version: int
    key_id: str  # 16 hex digits
    nonce: bytes
    raw: bytes


def parse_header(header: bytes, *, name: str = "") -> Header:
    """The header's fields; CryptError(DamagedObject) for a short header, a foreign or newer object."""
    if len(header) < len(MAGIC) or header[: len(MAGIC)] != MAGIC:
        if name:
            raise CryptError(NOT_ENCRYPTED_NAMED, NOT_ENCRYPTED_HINT, code="DamagedObject", name=name)
        raise CryptError(NOT_ENCRYPTED, NOT_ENCRYPTED_HINT, code="DamagedObject")
    if len(header) < len(MAGIC) + 1:
        raise _damaged(name)
    version = header[len(MAGIC)]
    if version != VERSION:
        raise CryptError(NEWER, NEWER_HINT, code="DamagedObject", version=version)
    if len(header) != HEADER_SIZE:
        raise _damaged(name)
    kid = header[len(MAGIC) + 1 : len(MAGIC) + 1 + KEY_ID_BYTES]
    return Header(version, kid.hex(), header[HEADER_SIZE - NONCE_BYTES :], bytes(header))


class _Chunks:
    """The per-object AES-GCM key and nonce prefix (shared by Sealer and Opener)."""

    def __init__(self, key: bytes, header: bytes) -> None:
        nonce = header[HEADER_SIZE - NONCE_BYTES :]
        derived = _hkdf(key, KEY_BYTES + 7, _INFO_FILE, salt=nonce)
        self._aead = AESGCM(derived[:KEY_BYTES])
        self._prefix = derived[KEY_BYTES:]
        self.header = bytes(header)

    def _nonce(self, index: int, last: bool) -> bytes:
        if not 0 <= index < MAX_CHUNKS:
            raise ValueError(f"chunk index {index} out of range")
        return self._prefix + struct.pack(">IB", index, 1 if last else 0)


class Sealer(_Chunks):
    """Encrypts one object's chunks. ``header`` goes first; chunk i at HEADER_SIZE + i * SEALED."""

    def seal(self, index: int, data: bytes | memoryview, last: bool) -> bytes:
        if len(data) > CHUNK or (not last and len(data) != CHUNK):
            raise ValueError(f"chunk {index}: {len(data)} bytes (every chunk but the last holds {CHUNK})")
        return self._aead.encrypt(self._nonce(index, last), data, self.header)


class Opener(_Chunks):
    """Decrypts one object's chunks; CryptError(DamagedObject) for any chunk that does not authenticate."""

    def __init__(self, key: bytes, header: bytes, name: str = "") -> None:
        super().__init__(key, header)
        self.name = name

    def open(self, index: int, data: bytes | memoryview, last: bool) -> bytes:
        if len(data) < TAG_BYTES or len(data) > SEALED or (not last and len(data) != SEALED):
            raise _damaged(self.name)
        try:
            return self._aead.decrypt(self._nonce(index, last), data, self.header)
        except InvalidTag:
            raise _damaged(self.name) from None


class PairCrypt:
    """The encryption of one pair: names, contents, the key check object."""

    CHUNK = CHUNK
    SEALED = SEALED
    HEADER_SIZE = HEADER_SIZE

    def __init__(self, key: bytes) -> None:
        if not isinstance(key, bytes | bytearray) or len(key) != KEY_BYTES:
            raise CryptError(BAD_KEY, BAD_KEY_HINT, code="NoKey")
        self._key = bytes(key)
        self._kid = _hkdf(self._key, KEY_ID_BYTES, _INFO_KEY_ID)
        self.key_id = self._kid.hex()
        self._siv = AESSIV(_hkdf(self._key, 64, _INFO_NAMES))

    def __repr__(self) -> str:  # never the key
        return f"PairCrypt(key_id={self.key_id})"

    # -- names -----------------------------------------------------------------------------------
    def encrypt_name(self, rel: str) -> str:
        """``a/b.txt`` → ``<enc a>/<enc b.txt>``: deterministic, so the same path maps to the same key."""
        out = []
        for part in rel.split("/"):
            raw = part.encode("utf-8", "surrogateescape")
            if not raw or part in (".", "..") or "\x00" in part:
                raise ValueError(f"not a relative path: {rel!r}")
            if len(raw) > MAX_NAME_BYTES:
                raise CryptError(LONG_NAME, LONG_NAME_HINT, code="NameTooLong", name=part[:80],
                                 limit=MAX_NAME_BYTES)
            sealed = self._siv.encrypt(raw, None)
            out.append(base64.b32encode(sealed).decode("ascii").rstrip("=").lower())
        return "/".join(out)

    def decrypt_name(self, enc: str) -> str:
        """The inverse of encrypt_name; CryptError(DamagedObject) for anything that is not one."""
        out = []
        for part in enc.split("/"):
            try:
                if not part or len(part) > encrypted_name_length(MAX_NAME_BYTES) or part != part.lower():
                    raise ValueError(part)
                padded = part.upper() + "=" * (-len(part) % 8)
                sealed = base64.b32decode(padded.encode("ascii"))
                raw = self._siv.decrypt(sealed, None)
                plain = raw.decode("utf-8", "surrogateescape")
            except (ValueError, InvalidTag, UnicodeError):
                raise CryptError(BAD_NAME, BAD_NAME_HINT, code="DamagedObject", name=_shown(enc)) from None
            if plain in ("", ".", "..") or "/" in plain or "\x00" in plain:
                raise CryptError(BAD_NAME, BAD_NAME_HINT, code="DamagedObject", name=_shown(enc))
            out.append(plain)
        return "/".join(out)

    # -- contents --------------------------------------------------------------------------------
    def encrypted_size(self, plain: int) -> int:
        return encrypted_size(plain)

    def plain_size(self, enc: int, *, name: str = "") -> int:
        return plain_size(enc, name=name)

    def new_file(self) -> Sealer:
        header = MAGIC + bytes([VERSION]) + self._kid + os.urandom(NONCE_BYTES)
        return Sealer(self._key, header)

    def sealer_for(self, header: bytes) -> Sealer:
        """The sealer of an upload begun earlier (its header kept with the multipart upload id)."""
        self._own(parse_header(header))
        return Sealer(self._key, header)

    def opener(self, header: bytes, *, name: str = "") -> Opener:
        """CryptError(WrongKey) when the object names another key id, DamagedObject for a bad header."""
        self._own(parse_header(header, name=name), name)
        return Opener(self._key, header, name)

    def _own(self, h: Header, name: str = "") -> None:
        if h.key_id != self.key_id:
            if name:
                raise CryptError(WRONG_KEY_NAMED, WRONG_KEY_HINT, code="WrongKey", name=name,
                                 found=h.key_id, mine=self.key_id)
            raise CryptError(WRONG_KEY, WRONG_KEY_HINT, code="WrongKey", found=h.key_id, mine=self.key_id)

    # -- key check object ------------------------------------------------------------------------
    def check_blob(self) -> bytes:
        """The contents of CHECK_NAME at the prefix root: a small object only this key opens."""
        return encrypt_bytes(self, _CHECK_PAYLOAD)

    def check(self, blob: bytes) -> None:
        """CryptError(WrongKey) when the pair's objects were encrypted with another key."""
        try:
            payload = decrypt_bytes(self, blob, name=CHECK_NAME)
        except CryptError as exc:
            if exc.code == "WrongKey":
                raise
            raise CryptError(DAMAGED_NAMED, DAMAGED_HINT, code="DamagedObject", name=CHECK_NAME) from None
        if payload != _CHECK_PAYLOAD:
            raise CryptError(DAMAGED_NAMED, DAMAGED_HINT, code="DamagedObject", name=CHECK_NAME)


def _shown(text: str) -> str:
    """Remote text in a message: bounded, control characters replaced."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= 80 else text[:77] + "…"


def encrypted_name_length(plain_bytes: int) -> int:
    """Characters of the encrypted form of a name component of ``plain_bytes`` UTF-8 bytes."""
    return -(-(plain_bytes + 16) * 8 // 5)


def chunk_count(plain: int) -> int:
    return max(1, -(-plain // CHUNK))


def encrypted_size(plain: int) -> int:
    if plain < 0:
        raise ValueError(plain)
    return HEADER_SIZE + plain + TAG_BYTES * chunk_count(plain)


def plain_size(enc: int, *, name: str = "") -> int:
    """The plain size of an encrypted object of ``enc`` bytes; DamagedObject if no object has that size."""
    body = enc - HEADER_SIZE
    if body < TAG_BYTES:
        raise _damaged(name)
    full, rest = divmod(body, SEALED)
    if rest == 0:
        return body - TAG_BYTES * full
    if rest < TAG_BYTES or (rest == TAG_BYTES and full > 0):
        raise _damaged(name)
    return body - TAG_BYTES * (full + 1)


def encrypt_bytes(crypt: PairCrypt, data: bytes) -> bytes:
    """A whole small object, encrypted (tests, the key check object)."""
    sealer = crypt.new_file()
    parts = [sealer.header]
    n = chunk_count(len(data))
    for i in range(n):
        parts.append(sealer.seal(i, data[i * CHUNK : (i + 1) * CHUNK], i == n - 1))
    return b"".join(parts)


def decrypt_bytes(crypt: PairCrypt, blob: bytes, *, name: str = "") -> bytes:
    dec = Decryptor(crypt, len(blob), name=name)
    out = dec.feed(blob)
    dec.finish()
    return out


class Decryptor:
    """Decrypts an object fed in order, in pieces of any size (a download stream).

    ``feed`` returns the plain bytes of each chunk once it is complete and authenticated; ``finish``
    raises unless the last chunk was seen. Resume: pass the stored ``header`` and ``start_chunk``
    and feed the object from offset ``HEADER_SIZE + start_chunk * SEALED``.
    """

    def __init__(self, crypt: PairCrypt, enc_size: int, *, name: str = "", header: bytes | None = None,
                 start_chunk: int = 0) -> None:
        self._crypt = crypt
        self._name = name
        self.plain_size = plain_size(enc_size, name=name)
        self._chunks = chunk_count(self.plain_size)
        self._last_len = enc_size - HEADER_SIZE - (self._chunks - 1) * SEALED
        if not 0 <= start_chunk < self._chunks or (start_chunk and header is None):
            raise ValueError(f"start chunk {start_chunk} of {self._chunks}")
        self._index = start_chunk
        self._opener: Opener | None = crypt.opener(header, name=name) if header is not None else None
        self._buf = bytearray()

    def _need(self) -> int:
        if self._opener is None:
            return HEADER_SIZE
        return self._last_len if self._index == self._chunks - 1 else SEALED

    def feed(self, data: bytes) -> bytes:
        if self._buf:
            self._buf += data
            view = memoryview(bytes(self._buf))
            self._buf = bytearray()
        else:
            view = memoryview(data)
        out = []
        pos = 0
        while self._index < self._chunks and len(view) - pos >= self._need():
            n = self._need()
            piece = view[pos : pos + n]
            pos += n
            if self._opener is None:
                self._opener = self._crypt.opener(bytes(piece), name=self._name)
                continue
            out.append(self._opener.open(self._index, piece, self._index == self._chunks - 1))
            self._index += 1
        if pos < len(view):
            if self._index >= self._chunks:
                raise _damaged(self._name)  # more than the size said: never happens with a correct size
            self._buf += view[pos:]
        return b"".join(out)

    @property
    def done(self) -> bool:
        return self._index >= self._chunks

    def finish(self) -> None:
        if not self.done:
            raise _damaged(self._name)
