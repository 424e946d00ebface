"""The offers page's background jobs that fetch prices: live prices with every cloud account, and
Azure's public price list (no account). Both run on the pool; the page reloads the catalog after."""

from __future__ import annotations

from typing import Any


def refresh_live_prices(service: Any) -> tuple[int, dict[str, Any]]:
    """(number of live prices fetched, {account: error}) through the app's CloudService."""
    errors: dict[str, Any] = {}
    offers = service.refresh_prices(errors=errors)
    return len(offers), errors


def refresh_public_prices(endpoint: str, paths: Any, task: Any = None) -> Any:
    """Azure's public prices, reporting (done, total, what) to `task` as each part arrives."""
    from app.cloud.public_prices import refresh_public_prices as fetch

    report = (lambda done, total, what: task.report((done, total, what))) if task is not None else None
    return fetch(azure_endpoint_setting=endpoint, paths=paths, progress=report)
