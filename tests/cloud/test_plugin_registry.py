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


def _plugin_tree(root, name, *, spec=True, init="", extra=()):
    pkg = root / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(init)
    if spec:
        (pkg / "spec.py").write_text("")
    for module in extra:
        (pkg / f"{module}.py").write_text("")
    return pkg


def test_plugins_are_the_subpackages_with_a_spec_module(tmp_path):
    _plugin_tree(tmp_path, "zcloud")
    _plugin_tree(tmp_path, "acloud", extra=("client",))
    _plugin_tree(tmp_path, "helpers", spec=False, extra=("client",))  # a package without a spec
    (tmp_path / "spec.py").write_text("")  # a module, not a package
    (tmp_path / "notapkg").mkdir()
    (tmp_path / "notapkg" / "spec.py").write_text("")  # a folder without __init__
    found = registry.discover_plugins([str(tmp_path)], prefix="x.")
    assert found == ("x.acloud", "x.zcloud")
    # the real tree: the built-ins are found without a list naming them
    assert {"app.cloud.aws", "app.cloud.tencent"} <= set(registry.discover_plugins())
    assert registry.discover_plugins() == registry.BUILTIN_PLUGINS


def test_a_discovered_plugin_that_fails_to_import_is_named(tmp_path, monkeypatch):
    import sys

    _plugin_tree(tmp_path / "labgpu_probe_pkgs", "brokencloud", init="import labgpu_no_such_sdk\n")
    (tmp_path / "labgpu_probe_pkgs" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = registry.discover_plugins([str(tmp_path / "labgpu_probe_pkgs")], prefix="labgpu_probe_pkgs.")
    assert found == ("labgpu_probe_pkgs.brokencloud",)
    monkeypatch.setattr(registry, "BUILTIN_PLUGINS", (*registry.BUILTIN_PLUGINS, *found))
    monkeypatch.setattr(registry, "_loaded", False)
    with pytest.raises(providers.ProviderPluginError, match="labgpu_probe_pkgs.brokencloud.*labgpu_no_such_sdk"):
        registry.load_builtin()
    for name in [m for m in sys.modules if m.startswith("labgpu_probe_pkgs")]:
        del sys.modules[name]


def test_why_a_provider_has_no_public_price_list_comes_from_its_spec():
    from app.cloud.public_prices import no_public_list

    reasons = no_public_list()
    assert list(reasons)[:3] == ["aws", "gcp", "tencent"] and "azure" not in reasons  # Azure has one
    registry.register_plugin(providers.ProviderSpec("nolist", "No List", no_public_prices="ask the vendor"))
    try:
        assert no_public_list()["nolist"] == "ask the vendor"
    finally:
        registry.unregister_plugin("nolist")
    assert "nolist" not in no_public_list()
