"""The provider plugins: which packages provide clouds LabGPU can launch on, and their factories.

A plugin is a package (``app/cloud/<name>/``) whose ``__init__`` calls :func:`register_plugin`
once with its :class:`~app.core.providers.ProviderSpec` and a factory of its Provider. The built-in
plugins are listed in ``BUILTIN_PLUGINS`` (PyInstaller bundles them as hidden imports, see
packaging/spec_support.py); :func:`load_builtin` imports them and raises when one cannot be
imported, naming it, instead of leaving the cloud out silently. Tests register their own with
:func:`register_plugin` and remove it with :func:`unregister_plugin`.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.core import providers
from app.core.providers import ProviderPluginError, ProviderSpec

if TYPE_CHECKING:
    from app.cloud.base import Provider

BUILTIN_PLUGINS: tuple[str, ...] = ("app.cloud.aws", "app.cloud.tencent", "app.cloud.alibaba")

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
        cls = getattr(importlib.import_module(module, package), class_name)
        return cls()  # type: ignore[no-any-return]

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
