"""The UI modules whose mypy errors are ignored (pyproject.toml): the list only shrinks, and a module that
type-checks clean must leave it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10: mypy depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]

# The modules that had mypy errors when the list was made. Nothing may be added; remove a module from
# here (and from pyproject.toml) once it is clean.
BASELINE = frozenset({
    "app.ui.cloud.accounts_page",
})


def _mypy_config() -> dict[str, Any]:
    config: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    return config


def _ignored_modules() -> list[str]:
    names: list[str] = []
    for override in _mypy_config().get("overrides", []):
        if override.get("ignore_errors"):
            module = override["module"]
            names += [module] if isinstance(module, str) else module
    return names


def test_ignored_modules_are_only_ui_modules_from_the_baseline():
    listed = _ignored_modules()
    assert listed, "pyproject.toml lost the ignore_errors override for the UI"
    assert len(listed) == len(set(listed)), "a module is listed twice"
    assert sorted(set(listed) - BASELINE) == [], "only modules from the baseline may have their errors ignored"


def test_every_ignored_module_exists():
    missing = [m for m in _ignored_modules() if not (ROOT / (m.replace(".", "/") + ".py")).is_file()]
    assert missing == [], "a module that was renamed or removed must leave the list"


def _ini_value(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _config_without_ignores(path: Path) -> None:
    """pyproject's mypy configuration as a mypy.ini, less the ignore_errors overrides."""
    config = _mypy_config()
    lines = ["[mypy]"]
    lines += [f"{k} = {_ini_value(v)}" for k, v in config.items() if k != "overrides"]
    for override in config.get("overrides", []):
        if override.get("ignore_errors"):
            continue
        module = override["module"]
        lines.append(f"[mypy-{_ini_value([module] if isinstance(module, str) else module)}]")
        lines += [f"{k} = {_ini_value(v)}" for k, v in override.items() if k != "module"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
def test_a_clean_module_leaves_the_list(tmp_path):
    ini = tmp_path / "mypy.ini"
    _config_without_ignores(ini)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ini),
         "--cache-dir", str(ROOT / ".mypy_cache" / "unignored"), "app/ui"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr  # 2: mypy itself failed
    with_errors = {m.group(1).replace("/", ".").replace("\\", ".")
                   for m in re.finditer(r"^(app[/\\]ui[/\\]\S+)\.py:\d+: error:", proc.stdout, re.M)}
    clean = sorted(set(_ignored_modules()) - with_errors)
    assert clean == [], "these modules type-check clean: remove them from the ignore_errors list"
