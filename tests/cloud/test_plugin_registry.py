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


# -- each plugin's SDK stays behind the layers ---------------------------------------------------
def _sdk_packages(plugin: str) -> set[str]:
    """The top-level packages the plugin's modules import that are neither the standard library nor
    LabGPU itself: its SDK (read from the source with ast: import statements, and the lazy imports
    named to app.cloud.kit.load_sdk)."""
    import ast
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "app" / "cloud" / plugin.rsplit(".", 1)[-1]
    found: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
            elif (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "load_sdk"
                  and len(node.args) > 1 and isinstance(node.args[1], ast.Tuple)):
                # app.cloud.kit.load_sdk(provider, (("module", "name"), …), …): the plugin's lazy SDK imports
                found |= {pair.elts[0].value.split(".")[0] for pair in node.args[1].elts
                          if isinstance(pair, ast.Tuple) and isinstance(pair.elts[0], ast.Constant)}
    return {p for p in found if p not in sys.stdlib_module_names and p not in ("app", "__future__")}


def _forbidden(source: str) -> set[str]:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    [contract] = [c for c in contracts if c["type"] == "forbidden" and c["source_modules"] == [source]]
    return set(contract["forbidden_modules"])


@pytest.mark.parametrize("plugin", registry.BUILTIN_PLUGINS)
def test_every_sdk_a_plugin_imports_is_forbidden_to_core_and_remote(plugin):
    sdks = _sdk_packages(plugin)
    import importlib

    if getattr(importlib.import_module(f"{plugin}.spec"), "FROZEN_PACKAGES", None) == ():
        # a plugin that declares no package to bundle speaks plain HTTP (stdlib): it must import no SDK either
        assert not sdks, f"{plugin} declares no FROZEN_PACKAGES but imports {sorted(sdks)}"
        return
    assert sdks, f"{plugin} imports no SDK package: the scan found nothing"
    for layer in ("app.core", "app.remote"):
        missing = sdks - _forbidden(layer)
        assert not missing, f"{plugin} imports {sorted(missing)}: add them to the {layer} contract in pyproject.toml"


def test_the_sdk_scan_sees_the_lazy_imports():
    assert {"boto3", "botocore"} <= _sdk_packages("app.cloud.aws")
    assert "tencentcloud" in _sdk_packages("app.cloud.tencent")
