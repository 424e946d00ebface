"""The provider plugins: which packages provide clouds LabGPU can launch on, and their factories.

A plugin is a package (``app/cloud/<name>/``) whose ``__init__`` calls :func:`register_plugin`
once with its :class:`~app.core.providers.ProviderSpec` and a factory of its Provider. The built-in
plugins are found, not listed: every subpackage of ``app.cloud`` that has a ``spec`` module is one
(:func:`discover_plugins`; packaging/spec_support.py applies the same rule to the source tree so
PyInstaller bundles each as hidden imports). :func:`load_builtin` imports them and raises when one
cannot be imported, naming it, instead of leaving the cloud out silently. A new plugin package
needs no edit here. Tests register their own with
:func:`register_plugin` and remove it with :func:`unregister_plugin`.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.core import providers
from app.core.providers import ProviderPluginError, ProviderSpec

if TYPE_CHECKING:
    from collections.abc import Mapping

    from app.cloud.base import Provider
    from app.core.accounts import ImportCandidate

PLUGIN_MARKER = "spec"  # a subpackage of app.cloud with this module is a provider plugin


def discover_plugins(paths: list[str] | None = None, prefix: str = "app.cloud.") -> tuple[str, ...]:
    """The packages under ``paths`` (app.cloud's by default) that have a ``spec`` module, sorted.

    Reads the folders only (nothing is imported); works in a PyInstaller bundle too, whose
    pkgutil hook lists the modules in its archive."""
    if paths is None:
        import app.cloud

        paths = list(app.cloud.__path__)
    found = []
    for info in pkgutil.iter_modules(paths):
        if not info.ispkg:
            continue
        inner = [os.path.join(p, info.name) for p in paths]
        if any(m.name == PLUGIN_MARKER and not m.ispkg for m in pkgutil.iter_modules(inner)):
            found.append(prefix + info.name)
    return tuple(sorted(found))


BUILTIN_PLUGINS: tuple[str, ...] = discover_plugins()

_FACTORIES: dict[str, Callable[[], Provider]] = {}
_lock = threading.RLock()
_loaded = False
_loading = False


def register_plugin(spec: ProviderSpec, factory: Callable[[], Provider] | None = None) -> None:
    """Declare a provider: its spec (read by core, ui, cli) and, when it can launch, its factory."""
    providers.register_spec(spec)
    if factory is not None:
        _FACTORIES[spec.id] = factory


def lazy_factory(package: str, module: str, class_name: str) -> Callable[[], Provider]:
    """A factory that imports the provider's module (its SDK plumbing) only when a provider is made,
    so registering a plugin at start-up costs its spec alone."""

    def make() -> Provider:
        made: Provider = getattr(importlib.import_module(module, package), class_name)()
        return made

    return make


def lazy_exports(package: str, names: dict[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for a plugin package: ``names`` maps a public name to the submodule
    that defines it, imported on first use."""

    def __getattr__(name: str) -> object:  # noqa: N807 - the module protocol's name
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module, package), name)

    return __getattr__


def unregister_plugin(provider_id: str) -> None:
    _FACTORIES.pop(provider_id, None)
    providers.unregister_spec(provider_id)


def load_builtin() -> None:
    """Import every built-in plugin once; an ImportError is raised with the plugin's name."""
    global _loaded, _loading
    if _loaded:
        return
    with _lock:
        if _loaded or _loading:
            return
        _loading = True
        try:
            for name in BUILTIN_PLUGINS:
                try:
                    importlib.import_module(name)
                except ImportError as exc:
                    raise ProviderPluginError(f"provider plugin {name} cannot be imported: {exc}") from exc
            _loaded = True
        finally:
            _loading = False


def factory(provider_id: str) -> Callable[[], Provider] | None:
    if provider_id not in _FACTORIES:
        load_builtin()
    return _FACTORIES.get(provider_id)


def spec(provider_id: str) -> ProviderSpec | None:
    load_builtin()
    return providers.find_spec(provider_id)


def run_importer(
    importer_id: str, *, env: Mapping[str, str] | None = None, **options: str | None
) -> list[ImportCandidate]:
    """Run the account importer a plugin declared (ProviderSpec.importers) with ``options`` (None =
    the importer's default; a ``region`` left out is the provider's default region) and return its
    candidates. The importer's module is imported here, not at start-up."""
    load_builtin()
    found = providers.find_importer(importer_id)
    if found is None:
        raise KeyError(importer_id)
    owner, decl = found
    given = {k: v for k, v in options.items() if v is not None}
    unknown = sorted(set(given) - {o.name for o in decl.options})
    if unknown:
        raise TypeError(f"importer {importer_id} takes no option {', '.join(unknown)}")
    if decl.option("region") is not None and not given.get("region"):
        given["region"] = owner.default_region
    module, _, function = decl.target.partition(":")
    fn = getattr(importlib.import_module(module), function)
    return list(fn(env=env, **given))
