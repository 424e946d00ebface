"""The core must stand without Qt: checked on the source and by importing it with Qt blocked."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "app.ui", "app.cloud", "app.remote", "app.cli",
             "paramiko", "boto3", "botocore", "tencentcloud")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_core_sources_import_nothing_of_qt_ui_or_sdks():
    offenders = []
    for path in sorted((ROOT / "app" / "core").rglob("*.py")):
        for name in _imports(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_core_imports_with_qt_made_unimportable():
    code = (
        "import sys, importlib, pkgutil\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import app.core\n"
        "for m in pkgutil.iter_modules(app.core.__path__):\n"
        "    importlib.import_module('app.core.' + m.name)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("ok")


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "lint-imports"
    return subprocess.run(
        [str(script), "--config", str(root / "pyproject.toml")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_layer_contracts_hold_and_catch_a_broken_layer(tmp_path):
    """The contracts the README's test command checks pass on the code, and are not vacuous: the
    same check fails on a copy where remote imports cloud and a ui feature imports another."""
    ok = _lint_imports(ROOT)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "0 broken" in ok.stdout
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "app", copy / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    (copy / "app" / "remote" / "_bad.py").write_text("from app.cloud import base  # noqa\n")
    (copy / "app" / "ui" / "offers" / "_bad.py").write_text("import app.ui.cloud.instances_page  # noqa\n")
    bad = _lint_imports(copy)
    assert bad.returncode != 0
    assert "app.remote._bad -> app.cloud" in bad.stdout
    assert "app.ui.offers._bad -> app.ui.cloud" in bad.stdout
