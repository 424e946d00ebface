"""The AWS EC2 provider plugin: its spec and its Provider, registered in one place.

Modules: spec (what LabGPU knows about AWS: names, regions, billing rule, tags, capabilities),
errors (error table and service quotas), client (boto3 plumbing, imported lazily), launch (the
launch steps), prices (live prices), provider (AwsProvider: the Provider protocol).

Importing the package registers the spec only (plain data: the offers table and the advisor need
it at start-up); the provider code is imported the first time a provider is made or one of the
names below is used.
"""

from __future__ import annotations

import importlib
from typing import Any

from app.cloud.registry import register_plugin

from .spec import SPEC as SPEC

_LAZY = {
    "AwsProvider": ".provider",
    "_console_text": ".client",
    "_endpoint_for": ".client",
    "gpu_model_key": ".client",
    "login_user_for": ".client",
    "ERRORS": ".errors",
    "quota_for": ".errors",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


def _provider() -> Any:
    from .provider import AwsProvider

    return AwsProvider()


register_plugin(SPEC, _provider)
