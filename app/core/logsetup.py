"""Rotating file log with a filter that keeps secrets out even if a caller slips."""

from __future__ import annotations

import logging
import os
import re
import threading

from .paths import Paths

_KEY = r"(?:secret[_-]?(?:access[_-]?)?key|secretkey|password|passphrase|token|authorization)"
# ``key=value``, ``key:value`` and quoted ``"key": "value"`` are data: the value is always hidden.
_QUOTED_RE = re.compile(r"(?i)(\b[\w-]*" + _KEY + r"['\"]?\s*[:=]\s*)(['\"])(.*?)(\2)")
_DATA_RE = re.compile(
    r"(?i)(\b[\w-]*" + _KEY + r"['\"]?)"
    r"(\s*=\s*|:)((?:Bearer|Basic|Token)\s+)?"
    r"([^\s'\",}&]+)"
)
# ``key: value`` (a colon and a space) is also how people write prose ("wrong password: the host
# refused"): the value is hidden only when it looks like a secret, not like an ordinary word.
_PROSE_RE = re.compile(
    r"(?i)(\b[\w-]*" + _KEY + r")(:\s+)((?:Bearer|Basic|Token)\s+)?([^\s'\",}&]+)"
)
_WORD_RE = re.compile(r"^[A-Za-z][a-z]{0,15}[.,;:!?)]*$")
_SIGNATURE_RE = re.compile(r"(?i)(Signature=)([0-9a-f]{16,})")
# Passwords pasted with an SSH command (app/core/sshcmd.py find_pasted_secret recognises the same
# forms): ``sshpass -p SECRET`` / ``-pSECRET``, ``user:SECRET@host`` and ``密码: SECRET`` (full-width
# colon, or none) are hidden always; an English ``password：SECRET`` with a full-width colon too.
_SSHPASS_RE = re.compile(r"(\bsshpass\b(?:\s+-[defPv]\S*(?:\s+\S+)?)*?\s+-p\s*)(\S+)")
_USER_PASS_RE = re.compile(r"(\b[A-Za-z0-9_.\-]+:)([^\s@/:'\"]+)(@[A-Za-z0-9\[])")
_CJK_SECRET_RE = re.compile(r"(?i)(密码|口令|password|passwd)(\s*[：]\s*|(?<=[码令])\s*[:=]?\s*)([^\s'\",}]+)")


def _looks_secret(value: str) -> bool:
    return not _WORD_RE.match(value)


_lock = threading.Lock()
_known_secrets: set[str] = set()


def register_secret(value: str) -> None:
    """Values that must never reach a log line (added by the secrets module when it reads one)."""
    if value and len(value) >= 4:
        with _lock:
            _known_secrets.add(value)


def redact(text: str) -> str:
    with _lock:
        secrets = sorted(_known_secrets, key=len, reverse=True)
    for s in secrets:
        if s in text:
            text = text.replace(s, "***")
    text = _SSHPASS_RE.sub(lambda m: m.group(1) + "***", text)
    text = _USER_PASS_RE.sub(lambda m: m.group(1) + "***" + m.group(3), text)
    text = _CJK_SECRET_RE.sub(lambda m: m.group(1) + m.group(2) + "***", text)
    text = _QUOTED_RE.sub(lambda m: m.group(1) + m.group(2) + "***" + m.group(4), text)
    text = _DATA_RE.sub(lambda m: m.group(1) + m.group(2) + (m.group(3) or "") + "***", text)
    text = _PROSE_RE.sub(
        lambda m: m.group(1) + m.group(2) + (m.group(3) or "")
        + ("***" if m.group(3) or _looks_secret(m.group(4)) else m.group(4)),
        text,
    )
    return _SIGNATURE_RE.sub(lambda m: m.group(1) + "***", text)


class RedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        clean = redact(msg)
        if clean != msg or record.args:
            record.msg, record.args = clean, None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


class RotatingLog(logging.FileHandler):
    """``logging.handlers.RotatingFileHandler``'s rule — past ``max_bytes`` the file becomes ``NAME.1``,
    ``NAME.1`` becomes ``NAME.2`` … up to ``backups`` — without importing logging.handlers, which
    pulls in socket, pickle and queue (~6 ms before the window shows, for a file handler)."""

    def __init__(self, path: os.PathLike[str] | str, max_bytes: int, backups: int) -> None:
        super().__init__(path, mode="a", encoding="utf-8")
        self.max_bytes, self.backups = max_bytes, backups

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self.max_bytes > 0 and self.stream is not None and \
                    self.stream.tell() + len(self.format(record)) + 1 >= self.max_bytes:
                self._roll_over()
        except Exception:  # noqa: BLE001 - logging never raises into the caller (as the stdlib handler)
            self.handleError(record)
            return
        super().emit(record)

    def _roll_over(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        base = self.baseFilename
        for i in range(self.backups - 1, 0, -1):
            if os.path.exists(f"{base}.{i}"):
                os.replace(f"{base}.{i}", f"{base}.{i + 1}")
        if self.backups > 0 and os.path.exists(base):
            os.replace(base, f"{base}.1")
        elif os.path.exists(base):
            open(base, "w").close()  # no backups kept: start the file again
        self.stream = self._open()


def setup_logging(paths: Paths, level: int = logging.INFO, to_stderr: bool = False) -> None:
    paths.ensure()
    root = logging.getLogger()
    for h in list(root.handlers):
        if getattr(h, "_labgpu", False):
            root.removeHandler(h)
            h.close()
    handler = RotatingLog(paths.log_file, max_bytes=2_000_000, backups=5)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"))
    handler.addFilter(RedactingFilter())
    handler._labgpu = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    if to_stderr:
        sh = logging.StreamHandler()
        sh.setLevel(logging.WARNING)
        sh.addFilter(RedactingFilter())
        sh._labgpu = True  # type: ignore[attr-defined]
        root.addHandler(sh)
    root.setLevel(level)
    for noisy in ("botocore", "boto3", "urllib3", "paramiko", "s3transfer"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
