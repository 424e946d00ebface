"""The provider plugin registry: built-ins found by name, and a plugin that cannot be imported is an error."""

from __future__ import annotations

import pytest

from app.cloud import registry
from app.core import providers


def test_builtin_plugins_register_specs_and_factories():
    registry.load_builtin()
    for pid in ("aws", "tencent"):
        spec = providers.spec(pid)
        assert spec.capabilities.launch
        assert registry.factory(pid) is not None
    assert providers.spec("aws").billing_rule.minimum_s == 60
    assert registry.factory("azure") is None  # a catalog-only cloud: a spec, no launcher


def test_a_plugin_that_cannot_be_imported_fails_loudly_with_its_name(monkeypatch):
    monkeypatch.setattr(registry, "BUILTIN_PLUGINS", (*registry.BUILTIN_PLUGINS, "app.cloud.nosuchcloud"))
    monkeypatch.setattr(registry, "_loaded", False)
    with pytest.raises(providers.ProviderPluginError, match="app.cloud.nosuchcloud"):
        registry.load_builtin()
