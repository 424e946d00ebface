"""Set up LabGPU from a source checkout with nothing but Python (stdlib only).

    python3 packaging/bootstrap.py app     # install into .venv (first time) and start the app
    python3 packaging/bootstrap.py test    # install what the tests need, then run the whole suite

`python3 main.py` does the `app` step by itself when the dependencies are missing. System packages
are installed with apt-get when run as root on Debian/Ubuntu; otherwise the missing ones are printed
with the command that installs them.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
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
    # a real systemd journal file for the login records (tests/remote/test_logins_journal.py): made from
    # journal export text by systemd's own writer, read by the system's journalctl
    "systemd-journal-remote",
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


MIRROR_EXAMPLE = "PIP_INDEX_URL=https://pypi.tuna.tsinghua.edu.cn/simple python3 main.py"


class _Status:
    """One line of progress: rewritten in place on a terminal, printed as it changes elsewhere."""

    def __init__(self) -> None:
        self.tty = sys.stdout.isatty()
        self.open = False
        self.last = ""

    def show(self, text: str) -> None:
        if text == self.last:
            return
        self.last = text
        if self.tty:
            width = shutil.get_terminal_size((100, 20)).columns - 1
            print("\r" + f"[labgpu setup]   {text}"[:width].ljust(width), end="", flush=True)
            self.open = True
        else:
            print(f"[labgpu setup]   {text}", flush=True)

    def done(self) -> None:
        if self.open:
            print(flush=True)
            self.open = False
        self.last = ""


def _package_name(rest: str) -> str:
    """`boto3<2,>=1.34 (from labgpu==0.1.0)` → boto3; `/path/numpy-2.4.6-cp311-….whl (from x)` → numpy."""
    word = rest.split(" ", 1)[0].strip()
    if "/" in word or word.endswith((".whl", ".tar.gz", ".zip")):
        word = word.rstrip("/").rsplit("/", 1)[-1].split("-", 1)[0]
    for stop in "<>=!~;[( ":
        word = word.split(stop, 1)[0]
    return word or rest.strip()


def _pip_supports_raw_progress(py: Path) -> bool:
    out = subprocess.run([str(py), "-m", "pip", "install", "--help"], capture_output=True, text=True)
    return "raw" in out.stdout


def pip_with_progress(py: Path, args: list[str], cwd: Path | None = None) -> tuple[int, int]:
    """``pip ARGS`` showing where it is: each package as it is found, each download (with how much of it
    has arrived where pip says), how many are being installed; pip's warnings and errors as pip says
    them, and its last lines when it fails. Returns (exit status, packages installed)."""
    cmd = [str(py), "-m", "pip", *args, "--disable-pip-version-check"]
    if _pip_supports_raw_progress(py):
        cmd += ["--progress-bar", "raw"]
    env = dict(os.environ, PYTHONUNBUFFERED="1", PIP_NO_INPUT="1")
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace")
    status = _Status()
    tail: collections.deque[str] = collections.deque(maxlen=40)
    found, installed, download, shown = 0, 0, "", -1
    assert proc.stdout is not None
    for raw in proc.stdout:
        line = raw.rstrip()
        tail.append(line)
        text = line.strip()
        if text.startswith("Progress ") and download:
            parts = text.split()  # "Progress 262144 of 17501549"
            if len(parts) == 4 and parts[1].isdigit() and parts[3].isdigit() and int(parts[3]):
                pct = int(parts[1]) * 100 // int(parts[3])
                step = pct if status.tty else pct // 25 * 25  # every 25 % in a log, every 1 % on a terminal
                if step != shown:
                    shown = step
                    status.show(f"downloading {download}: {pct} %")
        elif text.startswith(("Collecting ", "Requirement already satisfied: ", "Processing ", "Obtaining ")):
            found += 1
            rest = text.split(" ", 1)[1].split(": ", 1)[-1]
            name = "this checkout" if rest.startswith("file:") else _package_name(rest)
            status.show(f"found {found} package{'s' if found != 1 else ''}: {name}")
        elif text.startswith(("Downloading ", "Using cached ")):
            rest = text.split(" ", 1)[1] if text.startswith("Downloading ") else text.split(" ", 2)[2]
            download, shown = _package_name(rest), -1
            size = rest[rest.rfind("(") + 1:-1] if rest.endswith(")") else ""
            verb = "downloading" if text.startswith("Downloading ") else "from the cache:"
            status.show(f"{verb} {download}" + (f" ({size})" if size else ""))
        elif text.startswith("Installing collected packages:"):
            count = len([p for p in text.split(":", 1)[1].split(",") if p.strip()])
            status.done()
            log(f"  installing {count} package{'s' if count != 1 else ''}…")
        elif text.startswith("Successfully installed "):
            installed = len(text.split()) - 2
        elif text.startswith("Looking in indexes:"):
            status.done()
            log("  package index: " + text.split(":", 1)[1].strip())
        elif text.startswith(("ERROR", "WARNING: Retrying")):
            status.done()
            print(line, flush=True)
    rc = proc.wait()
    status.done()
    if rc:
        print("\n".join(line for line in tail if line.strip()), flush=True)
        log(f"pip stopped with exit status {rc} (its last lines are above).")
        log("If the downloads fail or crawl, use a nearer mirror of PyPI, e.g.:  " + MIRROR_EXAMPLE)
    return rc, installed


def ensure_venv(extras: str = "") -> Path:
    """.venv with LabGPU and the given extras ("test", "package", "test,package"). Extras already
    installed for the same pyproject.toml are kept (a later `app` run does not reinstall `test`).
    Each step says what it does and shows pip's progress; pip failing ends the run (SystemExit)."""
    py = venv_python()
    stamp = VENV / ".labgpu-installed"
    project = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    wanted = {e for e in extras.split(",") if e}
    have = _stamp_extras(stamp.read_text(), project) if stamp.exists() and py.exists() else None
    if have is not None and wanted <= have:
        return py
    wanted |= have or set()
    steps = 2 if py.exists() else 3
    step = 0
    if not py.exists():
        step += 1
        log(f"step {step}/{steps}: creating a virtual environment in {VENV}")
        rc = subprocess.call([sys.executable, "-m", "venv", str(VENV)])
        if rc:
            log("could not create it: install python3-venv (Debian/Ubuntu: sudo apt install python3-venv) and retry")
            raise SystemExit(rc)
    step += 1
    log(f"step {step}/{steps}: updating pip")
    if not os.environ.get("PIP_INDEX_URL"):
        log("  packages come from the index pip is set up with (pypi.org unless pip.conf names another); "
            "for a mirror:  " + MIRROR_EXAMPLE)
    started = time.monotonic()
    rc, _ = pip_with_progress(py, ["install", "--upgrade", "pip"])
    if rc:
        raise SystemExit(rc)
    step += 1
    target = f".[{','.join(sorted(wanted))}]" if wanted else "."
    what = f"LabGPU with {', '.join(sorted(wanted))}" if wanted else "LabGPU"
    log(f"step {step}/{steps}: installing {what} and the Python packages it uses"
        + (" (the first time: a few hundred MB, a few minutes)" if have is None else ""))
    rc, installed = pip_with_progress(py, ["install", "-e", target], cwd=ROOT)
    if rc:
        raise SystemExit(rc)
    stamp.write_text(f"{project} extras={','.join(sorted(wanted))}\n")
    log(f"done: {installed} package{'s' if installed != 1 else ''} installed in {time.monotonic() - started:.0f} s")
    scripts = "Scripts" if os.name == "nt" else "bin"
    log(f"the command line: python3 main.py --help (or {VENV / scripts / 'labgpu'} --help)")
    return py


def run_app(argv: list[str]) -> int:
    ensure_system_packages(APT_RUNTIME, required=False)
    py = ensure_venv()
    return subprocess.call([str(py), str(ROOT / "main.py"), *argv], cwd=ROOT)


def run_checks(py: Path, env: dict[str, str]) -> int:
    """ruff, mypy (strict on every package, the UI included) and the import-linter layer contracts, and
    vulture (dead code): side by side (each is one process, and they read the tree only), each one's output
    shown whole, in this order, once it is done."""
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
    log("checks: " + ", ".join(name for name, _ in checks))
    running = [(name, subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
               for name, cmd in checks]
    failed = 0
    for name, proc in running:
        out, _ = proc.communicate()
        log(f"check: {name}")
        sys.stdout.flush()
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
        if proc.returncode and not failed:
            log(f"check failed: {name} (exit {proc.returncode}); fix it before the tests run")
            failed = proc.returncode
    return failed


def start_bytecode_warmup(py: Path, env: dict[str, str]) -> subprocess.Popen[bytes] | None:
    """Collect the suite once, in one process, beside the static checks: it writes the bytecode of app/ and
    the assertion-rewritten test modules (__pycache__, ignored by git). On a fresh clone every pytest-xdist
    worker otherwise compiled them all itself, at the same moment (collection 6.6 s of CPU cold, 2.4 s warm,
    times eight workers)."""
    try:
        return subprocess.Popen([str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None


def start_frozen_build(py: Path, env: dict[str, str]) -> subprocess.Popen[bytes] | None:
    """Start the frozen-bundle build the packaging tests use (tests/packaging/frozen_build.py) now, beside the
    static checks and the other tests: it is the suite's longest single step (~2 minutes of one core) and the
    fixture waits for it under the same lock, so it no longer runs alone at the end of one worker's files.
    Its output goes to build/frozen-test/background.log; a build that fails here is built (and its error
    shown) again by the fixture."""
    log_path = ROOT / "build" / "frozen-test" / "background.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    code = "from tests.packaging.frozen_build import get_frozen_build; get_frozen_build()"
    log(f"building the frozen bundle for the packaging tests in the background (log: {log_path})")
    with open(log_path, "wb") as out:
        try:
            return subprocess.Popen([str(py), "-c", code], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        except OSError as exc:
            log(f"could not start the frozen build early ({exc}); the packaging tests build it")
            return None


def stop_frozen_build(proc: subprocess.Popen[bytes] | None) -> None:
    """The early build ends with the command: normally the packaging tests have waited for it already; when
    the run stopped before them, it is stopped with its children (nothing is left running)."""
    if proc is None or proc.poll() is not None:
        return
    log("stopping the frozen build started for the packaging tests (they did not run)")

    def kill(sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, sig)  # PyInstaller's own children too
            else:
                proc.kill()

    kill(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        kill(getattr(signal, "SIGKILL", signal.SIGTERM))
        proc.wait()


def available_memory() -> int | None:
    """Bytes of memory available now (Linux's MemAvailable), or None where it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def suite_workers(available: int | None) -> int:
    """How many pytest workers the suite runs: eight where ~1 GB each fits with room to spare, fewer on a machine
    short of memory (a swapping suite is slower than a narrower one)."""
    gib = 1 << 30
    if available is None or available >= 14 * gib:
        return 8
    if available >= 9 * gib:
        return 6
    return 4 if available >= 5 * gib else 2


def run_tests(argv: list[str]) -> int:
    if not ensure_system_packages(APT_TEST, required=True):
        log("the suite runs real sshd, OpenVPN, Secret Service and Xvfb peers; install the packages above first")
        return 3
    if sys.platform != "linux":
        log("the real-peer tests (sshd, OpenVPN in network namespaces, Secret Service) need Linux; "
            "on Windows/macOS run the suite in WSL2 or a Debian VM")
    py = ensure_venv("test,package")  # package: PyInstaller, for the frozen-build smoke test
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("LABGPU_HOME", None)
    # The suite starts ~900 `labgpu` processes: each would compile app/'s modules again (~0.1 s) without the
    # bytecode cache a first run writes (app/**/__pycache__, ignored by git).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    build = None
    if not argv:  # the whole suite (CI): the static checks first, so a broken layer fails the run
        build = start_frozen_build(py, env)
        warmup = start_bytecode_warmup(py, env)
        rc = 1
        try:
            rc = run_checks(py, env)
        finally:
            if warmup is not None:
                if rc:
                    warmup.kill()
                warmup.wait()  # its exit status does not matter: the suite's own collection reports errors
            if rc:
                stop_frozen_build(build)
        if rc:
            return rc
    # Several workers (pytest-xdist), one test file at a time each, so a module's peers are made once. Eight on two
    # cores: most tests wait on a peer (sshd, a cloud server, a child process) much of the time, so two left the
    # cores half idle; beside other busy processes more workers also get a fairer share of the CPU (measured
    # beside two busy processes, the whole command, before tests/fixtures/clirun.py: 4 workers 10:50-11:18, 6
    # 10:15, 8 9:53; with it 6 9:29, 8 9:02; quiet, 6 and 4 the same). A worker holds up to ~1 GB (Qt, the SDKs,
    # the peers; 8 workers: 9.3 GB in use at the peak): fewer where memory is short (suite_workers).
    # LABGPU_TEST_WORKERS=N chooses; 1 runs the suite in one process (as does -n 0 in ARGS).
    workers = os.environ.get("LABGPU_TEST_WORKERS") or str(suite_workers(available_memory()))
    spread = [] if workers in ("", "0", "1") or "-n" in argv else ["-n", workers, "--dist", "loadfile"]
    cmd = [str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", *spread, *argv]
    log("running: " + " ".join(cmd[2:]))
    try:
        rc = subprocess.call(cmd, cwd=ROOT, env=env)
    finally:
        stop_frozen_build(build)
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
