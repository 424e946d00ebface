"""The Tencent Cloud CVM provider plugin: its spec and its Provider, registered in one place.

Modules: spec (what LabGPU knows about Tencent Cloud: names, regions, billing rule, tags,
capabilities), errors (error table), client (SDK plumbing, imported lazily; reading instances),
prices (live prices), launch (the launch steps), provider (TencentProvider: the Provider protocol).
"""

from __future__ import annotations

from app.cloud.registry import register_plugin

from .client import currency_for as currency_for
from .client import key_pair_name as key_pair_name
from .client import parse_endpoint as parse_endpoint
from .errors import DOCUMENTED_ERROR_CODES as DOCUMENTED_ERROR_CODES
from .errors import map_error as map_error
from .provider import TencentProvider as TencentProvider
from .spec import SPEC as SPEC

register_plugin(SPEC, TencentProvider)
