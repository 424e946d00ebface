"""Long-lived services the pages share, kept in ``ctx.services`` (closed by ``ctx.shutdown()``)."""

from __future__ import annotations

from typing import Any


def cloud_service(ctx: Any) -> Any:
    """The app's CloudService (created on first use). Every call on it blocks (keyring, network):
    call it only through ``ctx.runner``."""
    svc = ctx.services.get("cloud")
    if svc is None:
        from app.cloud.launch import CloudService

        svc = CloudService(ctx.paths)
        ctx.services["cloud"] = svc
    return svc
