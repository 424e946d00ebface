"""What the first thing a user sees costs: the tray alone (``labgpu --tray``, as autostart runs it) and the
main window import only what they show, so they start fast and the tray stays small all day.

Each runs as a child process in an empty LABGPU_HOME on the offscreen platform with LABGPU_STARTUP_PROBE
set: the tray quits once it has read its first costs and the guards' loop has made a pass (its jobs pass
included); the window quits once it is shown and its first page is ready. The modules loaded by then are
read at exit. The SSH stack (paramiko), numpy, the GPU graphs (pyqtgraph) and the cloud SDKs come with
the first connection, GPU sample, monitor page or cloud call, never with start-up.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Runs `python -m app ARGS` and prints the names of the loaded modules at exit, and when the window is shown.
WRAPPER = r"""
import atexit, builtins, runpy, sys
atexit.register(lambda: print("LABGPU_MODULES " + " ".join(sorted(sys.modules)), flush=True))
_print = builtins.print
def _at_shown(*args, **kwargs):
    if args and str(args[0]).startswith("LABGPU_SHOWN "):
        _print("LABGPU_MODULES_SHOWN " + " ".join(sorted(sys.modules)), flush=True)
    if args and str(args[0]).startswith(("LABGPU_SHOWN ", "LABGPU_READY ", "LABGPU_TRAY_UP ")):
        import gc
        _print(f"LABGPU_GC {str(args[0]).split()[0]} {gc.isenabled()}", flush=True)
    _print(*args, **kwargs)
builtins.print = _at_shown
sys.argv = ["labgpu", *sys.argv[1:]]
runpy.run_module("app", run_name="__main__", alter_sys=True)
"""

HEAVY = ("paramiko", "invoke", "numpy", "pyqtgraph", "boto3", "botocore", "tencentcloud", "alibabacloud_ecs20140526",
         "azure", "msal")


def _modules(out: str, tag: str) -> set[str]:
    lines = [ln for ln in out.splitlines() if ln.startswith(tag + " ")]
    assert lines, out[-2000:]
    return set(lines[-1].split()[1:])


def _run(*args: str) -> tuple[str, set[str]]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LABGPU_STARTUP_PROBE="1", LANG="C.UTF-8")
    r = subprocess.run([sys.executable, "-c", WRAPPER, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=120, stdin=subprocess.DEVNULL, check=False)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    return r.stdout, _modules(r.stdout, "LABGPU_MODULES")


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


def test_the_tray_starts_and_runs_its_guards_without_ssh_numpy_graphs_or_sdks():
    out, modules = _run("--tray", "--lang", "en")
    assert "LABGPU_TRAY_UP " in out
    assert "app.watch.watcher" in modules and "app.usecases.costs" in modules  # the guards and the costs ran
    assert _heavy(modules) == []
    assert not any(m.startswith("app.ui.offers") or m.startswith("app.ui.monitor.page") for m in modules)


def test_the_window_is_shown_without_ssh_graphs_or_sdks():
    out, modules = _run("--lang", "en")
    assert "LABGPU_SHOWN " in out and "LABGPU_READY " in out
    assert "app.ui.main_window" in modules
    assert [m for m in _heavy(modules) if not m.startswith("numpy")] == []


# What the window needs no part of before it is on screen (each cost 1-6 ms of a ~125 ms start, measured
# with tests/benchmarks/bench_startup.py): the CLI's output layer, the provider specs, the command modules,
# logging.handlers (socket, pickle, queue), ctypes (the display probe's X11 check is not made under
# QT_QPA_PLATFORM=offscreen) and the widgets of the shared table model and plain-text helpers.
NOT_BEFORE_SHOWN = ("app.cli.output", "app.cli.doctor", "app.core.providers", "app.core.currency", "logging.handlers",
                    "ctypes", "socket", "app.ui.widgets", "app.ui.shared.plain", "app.ui.offers.page")


def test_the_window_is_on_screen_before_the_cli_the_provider_specs_or_its_first_page_load():
    out, at_exit = _run("--lang", "en")
    shown = _modules(out, "LABGPU_MODULES_SHOWN")
    assert "app.ui.main_window" in shown and "app.ui.context" in shown
    assert sorted(m for m in NOT_BEFORE_SHOWN if m in shown) == []
    assert "app.core.providers" in at_exit and "app.ui.offers.page" in at_exit  # then the first page came
    # the cyclic garbage collector is paused for the start (app/__main__.py) and on again once the page is built
    assert "LABGPU_GC LABGPU_SHOWN False" in out and "LABGPU_GC LABGPU_READY True" in out


def test_the_tray_and_commands_run_with_the_garbage_collector_on():
    out, _modules_at_exit = _run("--tray", "--lang", "en")
    assert "LABGPU_GC LABGPU_TRAY_UP True" in out
    env = dict(os.environ, LANG="C.UTF-8")
    code = "import gc, app.__main__ as m, app.cli as c; c.run_cli = lambda args: print('GC', gc.isenabled()) or 0; " \
           "m.run_cli = c.run_cli; m.main(['offers', '--gpus', '1'])"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                       check=False)
    assert r.stdout.strip() == "GC True", r.stdout + r.stderr
    # a mistyped command ends in argparse's exit: the collector is on again for whoever called main()
    code = "import gc, app.__main__ as m\ntry:\n    m.main(['sssh', 'host'])\nexcept SystemExit:\n    pass\n" \
           "print('GC', gc.isenabled())"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                       check=False)
    assert r.stdout.strip() == "GC True", r.stdout + r.stderr
