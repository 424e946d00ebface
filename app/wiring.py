"""The composition root: joins layers that must not import each other.

``remote`` never imports ``cloud`` (see the import-linter contracts in pyproject.toml), yet a
connection to a launched instance can check its host key against what the instance's cloud says
it printed at first boot. The entry point (app/__main__.py) calls :func:`install` once; code that
builds connections does not need to know where the check comes from.
"""

from __future__ import annotations

from typing import Any


def console_fingerprints(rec: Any, paths: Any = None) -> list[str]:
    """The host-key fingerprints a launched instance's cloud reports (any provider that can)."""
    from app.cloud.launch import CloudService

    svc = CloudService(paths)
    try:
        return svc.host_key_fingerprints(rec.instance_id)
    finally:
        svc.close()


def install() -> None:
    from app.remote import ssh

    ssh.set_console_voucher(console_fingerprints)
