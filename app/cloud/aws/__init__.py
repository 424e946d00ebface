"""The AWS EC2 provider plugin: its spec and its Provider, registered in one place.

Modules: spec (what LabGPU knows about AWS: names, regions, billing rule, tags, capabilities),
errors (error table and service quotas), client (boto3 plumbing, imported lazily), launch (the
launch steps), prices (live prices), provider (AwsProvider: the Provider protocol).
"""

from __future__ import annotations

from app.cloud.registry import register_plugin

from .client import _console_text as _console_text
from .client import _endpoint_for as _endpoint_for
from .client import gpu_model_key as gpu_model_key
from .client import login_user_for as login_user_for
from .errors import ERRORS as ERRORS
from .errors import quota_for as quota_for
from .provider import AwsProvider as AwsProvider
from .spec import SPEC as SPEC

register_plugin(SPEC, AwsProvider)
