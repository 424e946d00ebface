"""The slot for the function that imports the provider plugins (their specs then reach providers).

The composition root fills it (``app/__init__.py`` → ``app.wiring.install_provider_loader``) without
importing :mod:`app.core.providers`, whose spec classes and catalog specs cost start-up time the
window does not need before it shows; providers reads the slot the first time a spec is asked for.
"""

from __future__ import annotations

from collections.abc import Callable

loader: Callable[[], None] | None = None
