"""The first run from a checkout as a student sees it: each step named, pip's progress shown (what it found,
each download, how many it installs), packages taken from the mirror PIP_INDEX_URL names, no setuptools
banner, and a failure that says what pip said and how to use a mirror.

The mirror is a real PEP 503 index served over HTTP on 127.0.0.1; the project it installs is a small
checkout with the real packaging/bootstrap.py and a dependency of 1.2 MB (pip shows progress above 512 kB).
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import io
import os
import shutil
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# An in-tree build backend (PEP 517 + PEP 660): the small checkout builds without setuptools, so the
# mirror needs to serve nothing but the dependency.
_BACKEND = r'''
import base64, hashlib, os, zipfile

NAME, VERSION = "firstrun_probe", "1.0"
DIST = f"{NAME}-{VERSION}.dist-info"
METADATA = "Metadata-Version: 2.1\nName: firstrun-probe\nVersion: 1.0\nRequires-Dist: probe-dep\n"
WHEEL = "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _write(directory, files):
    name = f"{NAME}-{VERSION}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(os.path.join(directory, name), "w") as z:
        for path, text in files.items():
            data = text.encode()
            z.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(data)}")
        record.append(f"{DIST}/RECORD,,")
        z.writestr(f"{DIST}/RECORD", "\n".join(record) + "\n")
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write(wheel_directory, {f"{NAME}/__init__.py": "", f"{DIST}/METADATA": METADATA, f"{DIST}/WHEEL": WHEEL})


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return _write(wheel_directory, {f"{NAME}.pth": here + "\n", f"{DIST}/METADATA": METADATA, f"{DIST}/WHEEL": WHEEL})


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []
'''

_PYPROJECT = """[build-system]
requires = []
build-backend = "probe_backend"
backend-path = ["_build"]

[project]
name = "firstrun-probe"
version = "1.0"
license = "MIT"
dependencies = ["probe-dep"]
"""


def _dep_wheel(directory: Path) -> Path:
    """probe_dep 1.0: 1.2 MB of incompressible data, stored, so the download is big enough for progress."""
    dist = "probe_dep-1.0.dist-info"
    files = {
        "probe_dep/__init__.py": b"VALUE = 42\n",
        "probe_dep/blob.bin": os.urandom(1_200_000),
        f"{dist}/METADATA": b"Metadata-Version: 2.1\nName: probe-dep\nVersion: 1.0\n",
        f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    path = directory / "probe_dep-1.0-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in files.items():
            z.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(data)}")
        record.append(f"{dist}/RECORD,,")
        z.writestr(f"{dist}/RECORD", "\n".join(record) + "\n")
    return path


class _Index:
    """A PEP 503 "simple" index on 127.0.0.1, like a PyPI mirror; remembers what was asked of it."""

    def __init__(self, root: Path, with_dep: bool) -> None:
        self.root = root
        self.requests: list[str] = []
        (root / "simple").mkdir(parents=True)
        if with_dep:
            wheel = _dep_wheel(root)
            (root / "simple" / "probe-dep").mkdir()
            (root / "simple" / "probe-dep" / "index.html").write_text(
                f'<html><body><a href="../../{wheel.name}">{wheel.name}</a></body></html>\n')
        index = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
                super().__init__(*args, directory=str(root), **kwargs)

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                index.requests.append(self.path)
                super().do_GET()

            def log_message(self, *args) -> None:  # type: ignore[no-untyped-def]
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/simple"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


def _checkout(tmp: Path) -> Path:
    """A checkout with the real bootstrap and a small project in place of LabGPU's."""
    co = tmp / "checkout"
    (co / "packaging").mkdir(parents=True)
    shutil.copy(ROOT / "packaging" / "bootstrap.py", co / "packaging" / "bootstrap.py")
    (co / "_build").mkdir()
    (co / "_build" / "probe_backend.py").write_text(_BACKEND)
    (co / "pyproject.toml").write_text(_PYPROJECT)
    return co


def _mirror_env(index_url: str) -> dict[str, str]:
    """This computer's pip settings left out (its own indexes, caches and constraints): only the mirror."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_INDEX_URL=index_url, PIP_NO_CACHE_DIR="1", PIP_RETRIES="0")
    return env


def _first_run(co: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    python = getattr(sys, "_base_executable", "") or sys.executable  # a system Python, as a student has
    code = ("import importlib.util, sys\n"
            "spec = importlib.util.spec_from_file_location('b', 'packaging/bootstrap.py')\n"
            "b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)\n"
            "print('VENV', b.ensure_venv(), flush=True)\n")
    return subprocess.run([python, "-c", code], cwd=co, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture
def mirror(tmp_path: Path) -> Iterator[_Index]:
    index = _Index(tmp_path / "mirror", with_dep=True)
    yield index
    index.close()


def test_first_run_names_each_step_shows_pips_progress_uses_the_mirror_and_says_why_it_failed(tmp_path, mirror):
    """A student's first run against a mirror that lacks a package fails saying what pip said and how to use
    a mirror; with the package there, the next start names each step and shows pip's progress."""
    co = _checkout(tmp_path)
    wheel = mirror.root / "simple" / "probe-dep"
    hidden = mirror.root / "hidden"
    wheel.rename(hidden)  # the mirror does not have it yet
    r = _first_run(co, _mirror_env(mirror.url))
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert "Traceback" not in out and "VENV" not in out
    assert "[labgpu setup] step 1/3: creating a virtual environment in" in out
    assert "ERROR: Could not find a version that satisfies the requirement probe-dep" in out
    assert "pip stopped with exit status" in out
    assert "PIP_INDEX_URL=https://pypi.tuna.tsinghua.edu.cn/simple python3 main.py" in out
    assert not (co / ".venv" / ".labgpu-installed").exists()  # the next start tries again

    hidden.rename(wheel)
    r = _first_run(co, _mirror_env(mirror.url))
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    lines = out.splitlines()
    steps = [ln for ln in lines if "step " in ln]
    assert steps == ["[labgpu setup] step 1/2: updating pip",
                     "[labgpu setup] step 2/2: installing LabGPU and the Python packages it uses "
                     "(the first time: a few hundred MB, a few minutes)"], out
    # pip's progress, in its order: what it found, the download with its size, how many it installs
    found = next(i for i, ln in enumerate(lines) if "found 2 packages: probe" in ln)
    download = next(i for i, ln in enumerate(lines) if "downloading probe_dep (1.2 MB)" in ln)
    install = next(i for i, ln in enumerate(lines) if ln == "[labgpu setup]   installing 2 packages…")
    assert found < download < install, out
    assert "[labgpu setup] done: 2 packages installed in" in out
    assert "python3 main.py --help" in out
    # the packages came from the mirror, and nothing else was said: no banner, no traceback
    assert "/simple/probe-dep/" in mirror.requests and "/probe_dep-1.0-py3-none-any.whl" in mirror.requests
    assert "Deprecat" not in out and "Traceback" not in out and "!!" not in out
    venv_python = co / ".venv" / "bin" / "python"
    got = subprocess.run([str(venv_python), "-c", "import probe_dep; print(probe_dep.VALUE)"], capture_output=True,
                         text=True, timeout=60)
    assert got.stdout.strip() == "42", got.stderr
    # the next start installs nothing and says nothing
    again = _first_run(co, _mirror_env(mirror.url))
    assert again.returncode == 0 and "[labgpu setup]" not in again.stdout + again.stderr


def test_a_download_shows_how_much_has_arrived(tmp_path, mirror):
    """With a pip that reports progress (24.1 and later: the one bootstrap updates to), each download
    shows its percentage as it arrives."""
    code = ("import importlib.util, sys\nfrom pathlib import Path\n"
            f"spec = importlib.util.spec_from_file_location('b', {str(ROOT / 'packaging' / 'bootstrap.py')!r})\n"
            "b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)\n"
            f"rc, _ = b.pip_with_progress(Path(sys.executable), ['download', '--no-deps', '-d', {str(tmp_path)!r}, "
            "'probe-dep'])\nsys.exit(rc)\n")
    pip_help = subprocess.run([sys.executable, "-m", "pip", "install", "--help"], capture_output=True, text=True)
    assert "raw" in pip_help.stdout, "the test environment's pip is older than 24.1"
    r = subprocess.run([sys.executable, "-c", code], env=_mirror_env(mirror.url), capture_output=True, text=True,
                       timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "[labgpu setup]   downloading probe_dep (1.2 MB)" in out
    assert "[labgpu setup]   downloading probe_dep: 100 %" in out, out
    assert (tmp_path / "probe_dep-1.0-py3-none-any.whl").stat().st_size > 1_200_000


def test_labgpu_builds_without_a_setuptools_deprecation_banner(tmp_path):
    """What the first run builds (pip's isolated build of pyproject.toml, with the newest setuptools the
    configured index has): no SetuptoolsDeprecationWarning banner, and the licence as an SPDX expression."""
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-w",
                        str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "Deprecat" not in out and "deprecated" not in out.lower(), out
    wheel = next(tmp_path.glob("labgpu-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = io.TextIOWrapper(z.open(meta), encoding="utf-8").read()
    assert "License-Expression: MIT" in metadata
