"""The suite's CLI runner (tests/fixtures/clirun.py) answers as a real ``python -m app`` process does.

Most CLI tests call ``clirun.run`` instead of ``subprocess.run``: a start-up server forks each command from a
process that already did Python's start and imported the CLI's own modules. These tests hold it to what a real
process does — the same output, exit status, stdin, timeout and language — and show it starts from no module a
real ``labgpu --help`` would not import, that what a command imported is learned by the server (and answers
the same after), and that every variable LabGPU or an installed dependency reads while importing gets a
start-up of its own.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import tomllib
from packaging.requirements import Requirement

from tests.fixtures import cli_zygote, clirun

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
    """Names of the environment variables a module reads in its top-level statements (not in a function): by
    ``os.environ.get``/``os.getenv``/``os.environ[...]``/``... in os.environ``, the name a string, a module
    constant of this file, or another module's constant (``environment_vars.NO_GCE_CHECK``: by convention
    named as its value)."""
    names: set[str] = set()
    constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                 and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
                 for t in n.targets if isinstance(t, ast.Name)}

    def key(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return constants.get(node.id)
        if isinstance(node, ast.Attribute) and node.attr.isupper():
            return node.attr
        return None

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return
        found = None
        if isinstance(node, ast.Call) and node.args and ast.unparse(node.func) in (
                "os.environ.get", "os.getenv", "environ.get", "getenv", "os.environ.setdefault"):
            found = key(node.args[0])
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("os.environ", "environ"):
            found = key(node.slice)
        elif isinstance(node, ast.Compare) and len(node.comparators) == 1 \
                and ast.unparse(node.comparators[0]) in ("os.environ", "environ"):
            found = key(node.left)
        if found:
            names.add(found)
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


def _installed_dependencies() -> list[metadata.Distribution]:
    """pyproject's dependencies and theirs, as installed (what a command can import)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    todo = [str(r) for r in project["dependencies"]]
    found: dict[str, metadata.Distribution] = {}
    while todo:
        requirement = Requirement(todo.pop())
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue  # an extra's, or another platform's
        try:
            dist = metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError:
            continue
        key = dist.metadata["Name"].lower().replace("_", "-")
        if key not in found:
            found[key] = dist
            todo += dist.requires or []
    return list(found.values())


def test_what_the_installed_packages_read_while_importing_is_part_of_the_start_up_key() -> None:
    """The server imports what commands imported (learning): an SDK that reads a variable while importing must
    get a start-up of its own for each value, as a real process would read the call's."""
    dists = _installed_dependencies()
    assert {"boto3", "paramiko", "alibabacloud-credentials", "google-auth"} <= {
        d.metadata["Name"].lower() for d in dists}
    never_learned = {name.split(".")[0] for name in cli_zygote.NEVER_LEARNED}  # Qt: never in the server
    read: dict[str, str] = {}
    for dist in dists:
        for file in dist.files or []:
            if file.suffix != ".py" or file.parts[0] in never_learned or "tests" in file.parts \
                    or file.name == "conftest.py":
                continue
            source = Path(str(dist.locate_file(file))).read_bytes()
            if b"environ" in source or b"getenv" in source:
                for name in _read_at_import(ast.parse(source)):
                    read[name] = str(file)
    assert {"ALIBABA_CLOUD_ACCESS_KEY_ID", "GCE_METADATA_HOST"} <= set(read), sorted(read)  # the scan sees real ones
    outside = {name: where for name, where in read.items() if not clirun.startup_key({name: "x"})}
    assert not outside, f"read while importing but not in clirun.startup_key: {outside}"


def _maps(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text(encoding="utf-8", errors="replace")


def test_the_server_learns_what_a_command_imported_and_stays_single_threaded(labgpu_home: Path) -> None:
    """`labgpu doctor` imports paramiko (and the cryptography extension under it) in its own process; after it
    the server has them too, keeps one thread, and the next doctor forked from it answers as a real process."""
    env = dict(os.environ, LABGPU_CLIRUN_LEARNING_TEST="1")  # a start-up of this test's own
    forked, real = _both(["doctor", "--json"], env=env)
    server = clirun._servers[clirun.startup_key(env)].proc.pid  # noqa: SLF001
    assert (forked.returncode, forked.stdout) == (real.returncode, real.stdout)
    clirun.run([*APP, "--version"], capture_output=True, check=True, env=env)  # served after the learning
    assert "_rust.abi3.so" in _maps(server), "the server did not learn cryptography (imported by paramiko)"
    assert os.listdir(f"/proc/{server}/task") == [str(server)]
    again = clirun.run([*APP, "doctor", "--json"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert isinstance(getattr(again, "forked_by", None), int)
    assert (again.returncode, again.stdout) == (real.returncode, real.stdout)


def test_the_window_runs_as_a_real_process(tmp_path: Path) -> None:
    """Qt starts in a real process, never in a forked child (one crashed at its exit beside a busy machine)."""
    _warm()
    r = clirun.run([*APP, "--screenshot", str(tmp_path / "x.png"), "--page", "nope"], capture_output=True,
                   text=True, timeout=120)
    assert getattr(r, "forked_by", None) is None
    assert r.returncode == 2 and "no page named 'nope'" in r.stderr
