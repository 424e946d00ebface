"""The Tencent Cloud CVM provider plugin: its spec and its Provider, registered in one place.

Modules: spec (what LabGPU knows about Tencent Cloud), provider (TencentProvider). The SDK is
imported lazily.
"""

from __future__ import annotations

from app.cloud.registry import register_plugin

from .provider import DOCUMENTED_ERROR_CODES as DOCUMENTED_ERROR_CODES
from .provider import TencentProvider as TencentProvider
from .provider import currency_for as currency_for
from .provider import key_pair_name as key_pair_name
from .provider import parse_endpoint as parse_endpoint
from .spec import SPEC as SPEC

register_plugin(SPEC, TencentProvider)
