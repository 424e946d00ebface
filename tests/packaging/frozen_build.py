"""Build the frozen bundle, .deb and tarball ONCE per source state, for tests/packaging/test_frozen.py.

The cache lives in build/frozen-test/<key>/ where key hashes app/, resources/, packaging/, main.py,
pyproject.toml and the PyInstaller/PySide6/Python versions: a re-run of the suite with nothing changed
reuses it; any change to what ships rebuilds it. The installers store the files uncompressed here (.deb
-Znone, tarball gzip level 0: xz alone took ~20 s of CPU per run); the release sizes are measured by
`python3 packaging/build.py`, see docs/packaging.md.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "frozen-test"
HASHED = ("app", "resources", "packaging", "main.py", "pyproject.toml")


def _load(name: str, path: Path):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


build = _load("labgpu_packaging_build", ROOT / "packaging" / "build.py")
S = sys.modules["spec_support"]


@dataclass(frozen=True)
class FrozenBuild:
    bundle: Path
    exe: Path
    deb: Path
    tarball: Path
    version: str
    build_seconds: float
    cached: bool
    work: Path


def source_key() -> str:
    h = hashlib.sha256()
    for name in HASHED:
        base = ROOT / name
        paths = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for p in paths:
            if "__pycache__" in p.parts or p.suffix in (".pyc", ".pyo"):
                continue
            h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    import PyInstaller
    import PySide6

    h.update(f"{sys.version} {PyInstaller.__version__} {PySide6.__version__}".encode())
    return h.hexdigest()[:20]


def get_frozen_build() -> FrozenBuild:
    key = source_key()
    base = CACHE / key
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two sessions at once build it once
        meta = base / "build.json"
        cached = meta.exists()
        if not cached:
            for old in CACHE.iterdir():
                if old.is_dir() and old.name != key:
                    shutil.rmtree(old, ignore_errors=True)
            shutil.rmtree(base, ignore_errors=True)
            version = S.read_version()
            t0 = time.monotonic()
            bundle = build.run_pyinstaller(sys.executable, base / "dist", base / "work" / "pyinstaller")
            t_bundle = time.monotonic() - t0
            deb = build.make_deb(bundle, base / "out", version, base / "work", compressor="none")
            tarball = build.make_tarball(bundle, base / "out", version, level=0)
            seconds = time.monotonic() - t0
            meta.write_text(json.dumps({
                "version": version, "bundle": str(bundle), "deb": str(deb), "tarball": str(tarball),
                "seconds": seconds, "bundle_seconds": t_bundle,
            }))
        data = json.loads(meta.read_text())
    bundle = Path(data["bundle"])
    return FrozenBuild(bundle=bundle, exe=bundle / "labgpu", deb=Path(data["deb"]), tarball=Path(data["tarball"]),
                       version=data["version"], build_seconds=float(data["seconds"]), cached=cached,
                       work=base / "work")
