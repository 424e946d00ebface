"""PySide6's import hook asks of every module whether it uses PySide6; LabGPU answers from the file's bytes
(app/ui/__init__.py) so the tray does not keep every source file in linecache (about 5 MiB; the tray's memory
is measured by tests/benchmarks/bench_startup.py). The answer stays PySide's: a module naming PySide6 is one, a
module that does not is not."""

from __future__ import annotations

import linecache
import sys


def test_imports_are_judged_by_their_bytes_and_their_sources_are_not_cached(tmp_path, monkeypatch):
    import app.ui  # noqa: F401 - installs the answer

    feature = sys.modules["shibokensupport.feature"]
    assert getattr(feature._mod_uses_pyside, "labgpu", False)
    (tmp_path / "uses_qt_probe.py").write_text("from PySide6 import QtCore\nVALUE = 1\n", encoding="utf-8")
    (tmp_path / "plain_probe.py").write_text("VALUE = 2\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("uses_qt_probe", "plain_probe"):
        sys.modules.pop(name, None)
        feature.pyside_feature_dict.pop(name, None)
    try:
        import importlib

        probes = [importlib.import_module(name) for name in ("uses_qt_probe", "plain_probe")]
        for module in probes:  # what PySide's import hook calls after each import (feature.feature_imported)
            feature.pyside_feature_dict.pop(module.__name__, None)
            feature.feature_imported(module)
        assert feature.pyside_feature_dict["uses_qt_probe"] == 0  # uses PySide6: its features may switch
        assert feature.pyside_feature_dict["plain_probe"] == -1  # ignored, as PySide's own reading decides
        cached = set(linecache.cache)
        assert str(tmp_path / "uses_qt_probe.py") not in cached and str(tmp_path / "plain_probe.py") not in cached
    finally:
        for name in ("uses_qt_probe", "plain_probe"):
            sys.modules.pop(name, None)
