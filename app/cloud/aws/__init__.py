"""The AWS EC2 provider plugin: its spec and its Provider, registered in one place.

Modules: spec (what LabGPU knows about AWS), provider (AwsProvider). boto3 is imported lazily.
"""

from __future__ import annotations

from app.cloud.registry import register_plugin

from .provider import AwsProvider as AwsProvider
from .provider import _console_text as _console_text
from .provider import _endpoint_for as _endpoint_for
from .provider import gpu_model_key as gpu_model_key
from .provider import login_user_for as login_user_for
from .provider import quota_for as quota_for
from .spec import SPEC as SPEC

register_plugin(SPEC, AwsProvider)
