"""The composition root: joins layers that must not import each other.

``remote`` never imports ``cloud`` (see the import-linter contracts in pyproject.toml), yet a
connection to a launched instance can check its host key against what the instance's cloud says
it printed at first boot. The entry point (app/__main__.py) calls :func:`install` once; code that
builds connections does not need to know where the check comes from.

Likewise core reads provider specs (names, billing rules) that the cloud plugins declare: the
loader that imports the plugins is installed here (from app/__init__.py).
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
    from app.remote import vouch  # not app.remote.ssh: paramiko would cost ~200 ms at start-up

    vouch.set_console_voucher(console_fingerprints)


def load_provider_plugins() -> None:
    """Import the built-in provider plugins (their specs then reach app.core.providers)."""
    from app.cloud.registry import load_builtin

    load_builtin()


def install_provider_loader() -> None:
    """Core reads provider specs without importing app.cloud: it calls this loader the first time
    a spec is asked for. Installed by app/__init__.py, so every entry point (GUI, CLI, watcher
    processes, tests) sees the same providers. Fills a slot rather than importing app.core.providers,
    which the window does not need before it shows (start-up time)."""
    from app.core import provider_loader

    provider_loader.loader = load_provider_plugins
