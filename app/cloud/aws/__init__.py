"""The AWS EC2 provider plugin: its spec and its Provider, registered in one place.

Modules: spec (what LabGPU knows about AWS: names, regions, billing rule, tags, capabilities),
errors (error table and service quotas), client (boto3 plumbing, imported lazily), launch (the
launch steps), prices (live prices), provider (AwsProvider: the Provider protocol).

Importing the package registers the spec only (plain data: the offers table and the advisor need
it at start-up); the provider code is imported the first time a provider is made or one of the
names below is used.
"""

from __future__ import annotations

from app.cloud.registry import lazy_exports, lazy_factory, register_plugin

from .spec import SPEC as SPEC

__getattr__ = lazy_exports(
    __name__,
    {
        "AwsProvider": ".provider",
        "console_text": ".client",
        "endpoint_for": ".client",
        "gpu_model_key": ".client",
        "login_user_for": ".client",
        "ERRORS": ".errors",
        "quota_for": ".errors",
    },
)

register_plugin(SPEC, lazy_factory(__name__, ".provider", "AwsProvider"))
