"""Host-key fingerprints as text: the canonical form and the block cloud-init prints on a console.

Pure text work, shared by the cloud side (which fetches a console output) and the SSH side (which
compares what a server offers); neither needs the other.
"""

from __future__ import annotations

import base64
import hashlib
import re


def normalize_fingerprint(text: str) -> str:
    """Accept ``SHA256:abc``, ``abc`` (no prefix) or with '=' padding; compare in canonical form."""
    text = text.strip()
    if text.upper().startswith("SHA256:"):
        text = text[7:]
    return "SHA256:" + text.rstrip("=")


_CONSOLE_FP_RE = re.compile(r"(SHA256:[A-Za-z0-9+/=]{20,})")


def parse_console_fingerprints(console_output: str) -> list[str]:
    """SHA256 fingerprints from an EC2 console output (cloud-init prints them at boot).

    cloud-init writes a ``-----BEGIN SSH HOST KEY FINGERPRINTS-----`` block (``256 SHA256:… root@ip
    (ED25519)``) and a ``-----BEGIN SSH HOST KEY KEYS-----`` block with the public keys; both are
    used. Only text inside those blocks counts: a line a user process printed elsewhere does not.
    """
    out: list[str] = []
    block = ""
    for line in console_output.splitlines():
        line = line.strip()
        if "-----BEGIN SSH HOST KEY FINGERPRINTS-----" in line:
            block = "fp"
            continue
        if "-----BEGIN SSH HOST KEY KEYS-----" in line:
            block = "keys"
            continue
        if "-----END SSH HOST KEY" in line:
            block = ""
            continue
        if block == "fp":
            m = _CONSOLE_FP_RE.search(line)
            if m:
                out.append(normalize_fingerprint(m.group(1)))
        elif block == "keys":
            parts = line.split()
            if len(parts) >= 2:
                try:
                    blob = base64.b64decode(parts[1])
                except ValueError:
                    continue
                out.append("SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("="))
    return list(dict.fromkeys(out))
