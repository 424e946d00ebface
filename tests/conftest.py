"""Shared test set-up: offscreen Qt, a fresh LABGPU_HOME per test, and a guard against leaks."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings as _hypothesis_settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_SCALE_FACTOR", "1")
os.environ.pop("LABGPU_HOME", None)

# The fuzzers (tests/core/test_fuzz_*.py) try the same inputs on every run, so the suite fails only
# when the code changed, never on a lucky draw. To hunt for new cases with fresh random inputs:
#   HYPOTHESIS_PROFILE=explore pytest tests/core -k fuzz
# and add what it finds as an @example or a plain test.
_hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
_hypothesis_settings.register_profile("explore", derandomize=False, database=None, print_blob=True)
_hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Fixtures for the real peers, one module each.
pytest_plugins = [
    "tests.fixtures.leftovers",  # first: a test that leaves a process running fails (see its docstring)
    "tests.fixtures.keyring_service",
    "tests.fixtures.peers",
    "tests.fixtures.alibaba_fixtures",
    "tests.fixtures.s3_peer",
]


@pytest.fixture(autouse=True)
def labgpu_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "labgpu-home"
    monkeypatch.setenv("LABGPU_HOME", str(home))
    monkeypatch.setenv("LC_ALL", os.environ.get("LC_ALL", "C.UTF-8"))
    return home


@pytest.fixture
def host_tmp() -> Iterator[Callable[[str], str]]:
    """Fresh names under /tmp for files that a test and its SSH host (this machine, often as another user)
    both reach — gates, ready flags, log folders; whatever they became is removed after the test."""
    made: list[str] = []

    def name(prefix: str) -> str:
        made.append(f"/tmp/{prefix}-{time.monotonic_ns()}")
        return made[-1]

    yield name
    for path in made:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(path)


def _live_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate()
            if t.is_alive() and not isinstance(t, threading._DummyThread)  # type: ignore[attr-defined]
            and t is not threading.main_thread()}


@pytest.fixture(autouse=True)
def no_leftover_threads(request: pytest.FixtureRequest):
    """Fail a test that leaves Python threads running (servers started by session fixtures are fine)."""
    before = _live_threads()
    yield
    if request.node.get_closest_marker("allow_threads"):
        return
    deadline = time.monotonic() + 30  # an upper bound for threads that are ending (a loaded machine is slow)
    while True:
        left = {t for t in _live_threads() - before if not t.name.startswith(("session-", "pytest_timeout"))}
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not left, f"test left threads running: {sorted(t.name for t in left)}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_threads: the test may leave threads (documented why)")


@pytest.fixture(autouse=True, scope="session")
def _one_rsa_key_per_session():
    """LabGPU's own RSA 4096 key (Tencent, Alibaba) takes 0.1-1 s to generate: every test home gets the
    session's one private key, still written, encrypted with its own passphrase and checked as a fresh
    one would be. tests/cloud/test_launch_sshkeys.py generates real ones where generation is the point."""
    import functools

    from app.cloud import sshkeys

    real = sshkeys._GENERATORS["rsa"]
    sshkeys._GENERATORS["rsa"] = functools.cache(real)
    yield
    sshkeys._GENERATORS["rsa"] = real


@pytest.fixture(autouse=True)
def _english_again_after_each_test():
    """A test that shows the app in Chinese leaves English behind: the translators are process-wide,
    so one left installed changed the words later tests read (monitor tests failed after a Chinese
    VPN test when run in that order)."""
    yield
    if "app.ui.i18n" not in sys.modules:
        return
    from PySide6.QtCore import QCoreApplication

    from app.core import i18n as core_i18n
    from app.ui import i18n as ui_i18n

    app = QCoreApplication.instance()
    if app is not None and (ui_i18n._installed or core_i18n.language() != "en"):
        ui_i18n.install(app, "en")


@pytest.fixture
def app_window(qtbot, labgpu_home):
    """The real main window, as the app builds it, in English."""
    from app.ui.app import build_main_window

    _app, ctx, window = build_main_window("en")
    ctx.errors.interactive = False
    qtbot.addWidget(window)
    window.show()
    yield ctx, window
    ctx.shutdown(5000)


def _sshd_servers(item: pytest.Item) -> list:
    """Every sshd peer the test holds: the session's ``sshd``, a module's own server, one inside a
    tuple (``host`` fixtures yield ``(name, server)``) or on a lab object (``vpn_lab.sshd``)."""
    from tests.fixtures.sshd import SshdServer

    found: dict[int, SshdServer] = {}
    for value in getattr(item, "funcargs", {}).values():
        for v in (value, *(value if isinstance(value, (tuple, list)) else ()), getattr(value, "sshd", None)):
            if isinstance(v, SshdServer):
                found.setdefault(id(v), v)
    return list(found.values())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """Remember where each sshd's log stood when the test began (see the report hook)."""
    marks = []
    for server in _sshd_servers(item):
        try:
            marks.append((server, server.log_file.stat().st_size))
        except OSError:
            marks.append((server, 0))
    item.stash[_SSHD_LOG_AT] = marks
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failed test that used an sshd peer carries what sshd logged during it: a lost connection or
    a refused login then says whether the server ended the session and why."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    for server, at in item.stash.get(_SSHD_LOG_AT, []):
        try:
            with open(server.log_file, "rb") as f:
                f.seek(at)
                text = f.read().decode(errors="replace")
        except OSError as exc:
            text = f"(the sshd log could not be read: {exc})"
        lines = text.splitlines()
        if len(lines) > 400:
            lines = [f"… {len(lines) - 400} earlier lines left out", *lines[-400:]]
        report.sections.append((f"sshd log during the test ({server.host}:{server.port})", "\n".join(lines)))


_SSHD_LOG_AT = pytest.StashKey[list]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """Before the test's fixtures end (its sshd still up): the jobs its LabGPU started on a host are stopped and
    their folders removed. Every test sshd logs in as the one shared test user, so a job folder left behind
    would be listed — and read — by every later test's `labgpu jobs` on this machine, run after run."""
    _remove_jobs_left_on_hosts()
    vpn_folder = _vpn_socket_folder()
    yield
    if vpn_folder is not None:  # openvpn is gone now (the fixtures stopped it): an empty folder goes too
        with contextlib.suppress(OSError):
            vpn_folder.rmdir()
    if nextitem is None or getattr(nextitem, "module", None) is not getattr(item, "module", None):
        _freeze_what_lives()


def _freeze_what_lives() -> None:
    """A test file has ended (its module fixtures too): its garbage is collected once, and what still lives —
    mostly the SDKs and modules its tests imported — is frozen out of later collections, as after collection
    (see pytest_collection). Without it every automatic full pass walked all of that again, file after file."""
    import gc

    gc.collect()
    gc.freeze()


def _vpn_socket_folder() -> Path | None:
    """The private /tmp folder LabGPU keeps a VPN control socket in when the test's data folder is too deep for
    one (pytest-xdist's temporary paths often are): LabGPU removes it when it stops openvpn itself, not when a
    fixture kills a tunnel the test left up."""
    import tempfile

    from app.core.paths import default_paths

    if not os.environ.get("LABGPU_HOME"):
        return None
    paths = default_paths()
    if not (paths.data_dir / "vpn").is_dir():
        return None
    from app.remote.vpn.store import VpnStore

    folder = VpnStore(paths).socket_path("lab").parent
    return folder if folder.parent == Path(tempfile.gettempdir()) else None


def _remove_jobs_left_on_hosts() -> None:
    import json
    import sqlite3

    from app.core.paths import default_paths

    if not os.environ.get("LABGPU_HOME"):
        return
    db = default_paths().database_file
    if not db.is_file():
        return
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            rows = conn.execute("SELECT host, record FROM jobs").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return  # no jobs table (a test that never reached the jobs), or a test's own damaged database
    hosts = sorted({str(host) for host, record in rows if json.loads(record).get("origin", "here") == "here"})
    if hosts:
        from tests.remote.jobs_support import cleanup_jobs

        for host in hosts:
            cleanup_jobs(host)


# The longest test files (seconds of one worker beside two busy processes, `--durations=0`, 2026-12-07), run first:
# pytest-xdist hands files to workers in collection order, and a long file handed out last kept one worker busy
# while the others had nothing left (the run's tail). A file not listed keeps its place after these; a stale
# number only moves a file in the queue.
LONG_FILES = {
    "tests/e2e/test_cli_azure.py": 83, "tests/e2e/test_cli_alibaba.py": 70, "tests/e2e/test_cli_cloud_aws.py": 69,
    "tests/e2e/test_cli_gcp.py": 67, "tests/e2e/test_cli_bucket_sync.py": 65,
    "tests/packaging/test_screenshots.py": 58, "tests/e2e/test_cli_huawei.py": 55,
    "tests/remote/test_watchdog_cases.py": 53, "tests/remote/test_jobs.py": 48,
    "tests/e2e/test_cli_cloud_tencent.py": 45, "tests/e2e/test_cli_vpn.py": 38, "tests/e2e/test_cli_lambda.py": 38,
    "tests/e2e/test_cli_jobs.py": 36, "tests/remote/test_sync_faults.py": 35,
    "tests/packaging/test_first_run_env.py": 34, "tests/cloud/test_cloud_events.py": 34,
    "tests/cloud/test_bucket_sync.py": 30, "tests/cloud/test_launch_flow.py": 30, "tests/ui/test_cloud_ui.py": 29,
    "tests/ui/test_vpn_page.py": 29, "tests/e2e/test_cli_audit_cloud.py": 28,
}


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of LONG_FILES first, longest first; every file's tests stay together and in their order (the
    frozen-app tests keep their place: they wait for the bundle the background build makes)."""
    root = Path(str(config.rootpath))

    def weight(item: pytest.Item) -> int:
        try:
            rel = Path(str(item.path)).relative_to(root).as_posix()
        except ValueError:
            return 0
        return -LONG_FILES.get(rel, 0)

    items.sort(key=weight)  # stable: within a weight, collection order


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session: pytest.Session):
    """Collection imports every test module, the app and most cloud SDKs: without the collector running through
    it (app/core/gcpause.py), and then everything it made is frozen out of later collections — those objects
    live as long as the worker, and each full pass over them cost CPU the whole suite long (the four workers
    spent ~50 s of a ~500 s run in the collector)."""
    import gc

    from app.core.gcpause import gc_paused

    with gc_paused():
        yield
    gc.freeze()
