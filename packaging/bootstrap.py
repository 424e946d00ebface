"""Set up LabGPU from a source checkout with nothing but Python (stdlib only).

    python3 packaging/bootstrap.py app     # install into .venv (first time) and start the app
    python3 packaging/bootstrap.py test    # install what the tests need, then run the whole suite

`python3 main.py` does the `app` step by itself when the dependencies are missing. System packages
are installed with apt-get when run as root on Debian/Ubuntu; otherwise the missing ones are printed
with the command that installs them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"

# Qt's xcb/offscreen platform libraries and CJK fonts: what a GUI needs on a minimal Debian/Ubuntu.
APT_RUNTIME = [
    "libegl1", "libgl1", "libxkbcommon0", "libfontconfig1", "libglib2.0-0", "libdbus-1-3",
    "libxkbcommon-x11-0", "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-image0",
    "libxcb-randr0", "libxcb-render-util0", "libxcb-shape0", "libxcb-xfixes0", "libxcb-xkb1",
    "libx11-xcb1", "fonts-noto-cjk", "python3-venv",
]
# Real peers the suite runs: sshd, OpenVPN in network namespaces, a Secret Service, an X server.
APT_TEST = APT_RUNTIME + [
    "xvfb", "xauth", "openssh-server", "openssh-client", "rsync", "openvpn", "iproute2", "openssl",
    "gnome-keyring", "dbus", "dbus-x11", "libsecret-tools", "trayer", "procps", "e2fsprogs", "busybox",
    "haskell-status-notifier-item-utils", "libglib2.0-bin",
    "tmux",  # the training jobs' detached sessions (tests/remote/test_jobs*.py run with and without it)
    # the frozen-build smoke test (tests/packaging): PyInstaller's objdump, the .deb, the NSIS script
    "binutils", "nsis", "x11-utils",
]


def log(msg: str) -> None:
    print(f"[labgpu setup] {msg}", flush=True)


def is_debian() -> bool:
    return sys.platform.startswith("linux") and shutil.which("dpkg-query") is not None \
        and shutil.which("apt-get") is not None


def missing_apt(packages: list[str]) -> list[str]:
    missing = []
    for pkg in packages:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True, text=True)
        if out.returncode != 0 or "install ok installed" not in out.stdout:
            missing.append(pkg)
    return missing


def ensure_system_packages(packages: list[str], required: bool) -> bool:
    """True when everything is there (or was installed)."""
    if not is_debian():
        if sys.platform.startswith("linux"):
            log("not a Debian/Ubuntu system: install the equivalents of: " + " ".join(packages))
        return True
    missing = missing_apt(packages)
    if not missing:
        return True
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        log("installing system packages: " + " ".join(missing))
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
                       check=True, env=env)
        return True
    log("missing system packages: " + " ".join(missing))
    log("install them with:  sudo apt-get install -y " + " ".join(missing))
    return not required


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _stamp_extras(text: str, want_hash: str) -> set[str] | None:
    """The extras a stamp says are installed, if it was written for this pyproject.toml."""
    parts = text.split()
    if not parts or parts[0] != want_hash:
        return None
    return {e for p in parts[1:] if p.startswith("extras=") for e in p[7:].split(",") if e}


def ensure_venv(extras: str = "") -> Path:
    """.venv with LabGPU and the given extras ("test", "package", "test,package"). Extras already
    installed for the same pyproject.toml are kept (a later `app` run does not reinstall `test`)."""
    py = venv_python()
    if not py.exists():
        log(f"creating a virtual environment in {VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    stamp = VENV / ".labgpu-installed"
    project = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    wanted = {e for e in extras.split(",") if e}
    have = _stamp_extras(stamp.read_text(), project) if stamp.exists() else None
    if have is not None and wanted <= have:
        return py
    wanted |= have or set()
    log("installing Python packages (first run takes a few minutes)")
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--upgrade", "pip"],
                   check=True)
    target = f".[{','.join(sorted(wanted))}]" if wanted else "."
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-e", target],
                   check=True, cwd=ROOT)
    stamp.write_text(f"{project} extras={','.join(sorted(wanted))}\n")
    return py


def run_app(argv: list[str]) -> int:
    ensure_system_packages(APT_RUNTIME, required=False)
    py = ensure_venv()
    return subprocess.call([str(py), str(ROOT / "main.py"), *argv], cwd=ROOT)


def run_checks(py: Path, env: dict[str, str]) -> int:
    """ruff, mypy (strict on every package, the UI included) and the import-linter layer contracts, and
    vulture (dead code)."""
    scripts = py.parent
    lint_imports = scripts / ("lint-imports.exe" if os.name == "nt" else "lint-imports")
    checks = [
        ("ruff", [str(py), "-m", "ruff", "check", "app", "tests", "packaging", "main.py"]),
        ("mypy", [str(py), "-m", "mypy", "app/core", "app/cloud", "app/remote", "app/usecases", "app/watch",
                  "app/cli", "app/ui", "app/notify"]),
        ("layer contracts", [str(lint_imports)]),
        # dead code: paths, whitelist and confidence in pyproject.toml [tool.vulture]
        ("vulture", [str(py), "-m", "vulture"]),
    ]
    for name, cmd in checks:
        log(f"check: {name}")
        rc = subprocess.call(cmd, cwd=ROOT, env=env)
        if rc:
            log(f"check failed: {name} (exit {rc}); fix it before the tests run")
            return rc
    return 0


def run_tests(argv: list[str]) -> int:
    if not ensure_system_packages(APT_TEST, required=True):
        log("the suite runs real sshd, OpenVPN, Secret Service and Xvfb peers; install the packages above first")
        return 3
    if sys.platform != "linux":
        log("the real-peer tests (sshd, OpenVPN in network namespaces, Secret Service) need Linux; "
            "on Windows/macOS run the suite in WSL2 or a Debian VM")
    py = ensure_venv("test,package")  # package: PyInstaller, for the frozen-build smoke test
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1")
    env.pop("LABGPU_HOME", None)
    if not argv:  # the whole suite (CI): the static checks first, so a broken layer fails the run
        rc = run_checks(py, env)
        if rc:
            return rc
    cmd = [str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", *argv]
    log("running: " + " ".join(cmd[2:]))
    rc = subprocess.call(cmd, cwd=ROOT, env=env)
    if rc == 5:
        log("pytest collected no tests: that is a failure here")
        return 1
    return rc


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("app", "test"):
        print(__doc__)
        return 2
    return run_app(argv[1:]) if argv[0] == "app" else run_tests(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
