"""The suite's CLI runner (tests/fixtures/clirun.py) answers as a real ``python -m app`` process does.

Most CLI tests call ``clirun.run`` instead of ``subprocess.run``: a start-up server forks each command from a
process that already did Python's start and imported the CLI's own modules. These tests hold it to what a real
process does — the same output, exit status, stdin, timeout and language — and show it starts from no module a
real ``labgpu --help`` would not import, and that every variable LabGPU reads while importing gets a start-up
of its own.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
APP = [sys.executable, "-m", "app"]


def _warm(env: dict[str, str] | None = None) -> None:
    """A start-up key's first call runs a real process; from the second on, its server forks them."""
    for _ in range(2):
        clirun.run([*APP, "--version"], capture_output=True, check=True, env=env)


def _both(args: list[str], **kw: object) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    _warm(kw.get("env"))  # type: ignore[arg-type]
    kw = {"capture_output": True, "text": True, "cwd": ROOT, "timeout": 120, **kw}
    forked = clirun.run([*APP, *args], **kw)
    assert isinstance(getattr(forked, "forked_by", None), int)  # the server answered, not a real process
    return forked, subprocess.run([*APP, *args], **kw)  # type: ignore[call-overload]


@pytest.mark.parametrize("args", [
    ["--version"],
    ["--help"],
    ["nosuch"],  # argparse's error, exit 2
    ["--lang", "zh_CN", "ls", "--offline"],
    ["accounts", "ls", "--json"],
    ["hosts", "ls"],
    ["guard", "ls"],
    ["offers", "--provider", "aws", "--json"],
], ids=lambda a: " ".join(a))
def test_same_output_and_status_as_a_real_process(args: list[str], labgpu_home: Path) -> None:
    forked, real = _both(args)
    assert (forked.returncode, forked.stdout, forked.stderr) == (real.returncode, real.stdout, real.stderr)
    assert forked.stdout or forked.stderr  # each says something: the comparison compares something


def test_stdin_env_and_working_folder_are_the_calls(secret_service: object, labgpu_home: Path, tmp_path: Path) -> None:
    # a secret read from stdin: the wrong key is refused the same way by both
    _warm()
    forked = clirun.run([*APP, "accounts", "add", "tencent", "lab", "--region", "ap-guangzhou"], input="AKIDforked\n"
                        "secret\n", capture_output=True, text=True, cwd=ROOT)
    real = subprocess.run([*APP, "accounts", "add", "tencent", "lab2", "--region", "ap-guangzhou"], input="AKIDreal\n"
                          "secret\n", capture_output=True, text=True, cwd=ROOT)
    assert isinstance(getattr(forked, "forked_by", None), int)
    assert forked.returncode == real.returncode == 0, (forked.stderr, real.stderr)
    assert forked.stderr.replace("lab", "lab2") == real.stderr.replace("lab2", "lab").replace("lab", "lab2")
    listed = clirun.run([*APP, "accounts", "ls", "--json"], capture_output=True, text=True, cwd=tmp_path)
    assert listed.returncode == 0 and {a["name"] for a in json.loads(listed.stdout)} == {"lab", "lab2"}
    # the environment is the call's: another LABGPU_HOME is another, empty, set of accounts
    other = dict(os.environ, LABGPU_HOME=str(tmp_path / "other"))
    empty = clirun.run([*APP, "accounts", "ls", "--json"], capture_output=True, text=True, env=other)
    assert empty.returncode == 0 and empty.stdout.strip() == "[]"


def test_language_from_lang_gets_its_own_start_up(labgpu_home: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env["LANG"] = "zh_CN.UTF-8"
    forked, real = _both(["nosuch"], env=env)
    assert forked.returncode == real.returncode == 2
    assert forked.stderr == real.stderr and re.search(r"[\u4e00-\u9fff]", forked.stderr)
    assert clirun.startup_key(env) != clirun.startup_key(dict(os.environ, LANG="en_US.UTF-8"))


def test_timeout_kills_the_command_and_raises_as_subprocess_does(labgpu_home: Path) -> None:
    # `labgpu accounts add` waits on stdin for a secret that never comes (stdin a pipe held open); the command
    # still running after the test would fail it (tests/fixtures/leftovers.py)
    _warm()
    r, w = os.pipe()
    try:
        with pytest.raises(subprocess.TimeoutExpired) as expired:
            clirun.run([*APP, "accounts", "add", "tencent", "slow", "--region", "ap-guangzhou"],
                       stdin=r, capture_output=True, text=True, timeout=2)
        pid = expired.value.pid  # type: ignore[attr-defined]
        assert isinstance(pid, int) and not Path(f"/proc/{pid}").exists()  # killed and reaped, stdin still open
    finally:
        os.close(r)
        os.close(w)


def test_the_start_up_holds_labgpus_own_modules_and_no_sdk() -> None:
    """The server imports LabGPU's CLI modules and the standard library; of other packages only what every
    `labgpu` command imports anyway (a real `labgpu --version`). A cloud SDK, paramiko or Qt is imported by the
    command that needs it, in its own process, as without the server."""
    preloaded = set(subprocess.run([sys.executable, str(clirun.ZYGOTE), "--modules"], cwd=ROOT,
                                   capture_output=True, text=True, timeout=120, check=True).stdout.split())
    timing = subprocess.run([*APP, "--version"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, PYTHONPROFILEIMPORTTIME="1"))
    imported = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", timing.stderr, re.M))
    assert "app.cli" in imported and {"app.cli.cloud", "app.cli.sync", "app.cli.jobs"} <= preloaded

    def top(name: str) -> str:
        return name.split(".")[0]

    others = {m for m in preloaded if top(m) not in sys.stdlib_module_names and top(m) not in ("app", "__main__")}
    assert not {m for m in others if m not in imported}, "the start-up server imports a package that " \
        f"`labgpu --version` does not: {sorted(m for m in others if m not in imported)}"
    for sdk in ("paramiko", "boto3", "botocore", "tencentcloud", "azure", "google", "PySide6", "keyring"):
        assert not any(top(m) == sdk for m in preloaded), sdk


def _read_at_import(tree: ast.Module) -> set[str]:
    """Names of the environment variables a module reads in its top-level statements (not in a function)."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = ast.unparse(node.func)
            if func in ("os.environ.get", "os.getenv", "environ.get", "getenv"):
                names.add(str(node.args[0].value))
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("os.environ", "environ") \
                and isinstance(node.slice, ast.Constant):
            names.add(str(node.slice.value))
        for child in ast.iter_child_nodes(node):
            visit(child)

    for stmt in tree.body:
        visit(stmt)
    return names


def test_every_variable_read_at_import_is_part_of_the_start_up_key() -> None:
    read: dict[str, str] = {}
    for path in (ROOT / "app").rglob("*.py"):
        for name in _read_at_import(ast.parse(path.read_text(encoding="utf-8"))):
            read[name] = str(path.relative_to(ROOT))
    assert "LABGPU_WAIT_BACKOFF_S" in read  # the check sees a real one
    outside = {name: where for name, where in read.items() if not clirun.startup_key({name: "x"})}
    assert not outside, f"read while importing but not in clirun.startup_key: {outside}"


def test_the_window_runs_as_a_real_process(tmp_path: Path) -> None:
    """Qt starts in a real process, never in a forked child (one crashed at its exit beside a busy machine)."""
    _warm()
    r = clirun.run([*APP, "--screenshot", str(tmp_path / "x.png"), "--page", "nope"], capture_output=True,
                   text=True, timeout=120)
    assert getattr(r, "forked_by", None) is None
    assert r.returncode == 2 and "no page named 'nope'" in r.stderr
