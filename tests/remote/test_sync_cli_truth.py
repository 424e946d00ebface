"""`labgpu sync` says what it did not transfer: special files and symlink loops
are named in the plain output and in --json, the exit status is non-zero; a non-UTF-8 local name
transfers and is recorded in the history; a LOCAL that is a file is called a file; the capability
path chosen shows in --json. Subprocesses against the real sshd, as a script runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")
T0 = 1_700_000_000
PREIMPORT = (
    "app.remote.sync",
    "app.remote.ssh",
    "app.remote.hostkeys",
    "app.cli.output",
    "app.core.paths",
    "app.core.hosts",
    "app.core.store",
    "app.core.sshcmd",
    "sqlite3",
    "json",
    "getpass",
    "keyring",
    "encodings.idna",
)


def labgpu(*args: str, timeout: float = 90) -> subprocess.CompletedProcess:
    return clirun.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ),
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def host(sshd):
    cmd = f"ssh -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}"
    r = labgpu("hosts", "add", "gpu1", cmd, "--fingerprint", sshd.host_key_fingerprint)
    assert r.returncode == 0, r.stderr
    return "gpu1"


def test_special_files_and_symlink_loops_are_named_and_fail_the_exit_status(sshd, host, tmp_path):
    remote = sshd.remote_dir("cli-truth-special")
    local = tmp_path / "proj"
    (local / "d").mkdir(parents=True)
    (local / "a.txt").write_bytes(b"a")
    os.mkfifo(local / "d" / "pipe")
    os.symlink("loop", local / "loop")
    r = labgpu("sync", str(local), f"{host}:{remote}")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "not transferred: d/pipe — not a regular file" in r.stderr
    assert "not transferred: loop — symbolic link not followed" in r.stderr
    assert "[Incomplete] 2 item(s)" in r.stderr
    assert (remote / "a.txt").read_bytes() == b"a"
    r = labgpu("sync", str(local), f"{host}:{remote}", "--json")
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["complete"] is False
    assert {x["path"] for x in out["not_transferred"]} == {"d/pipe", "loop"}
    assert out["server"]["mode"] == "fast"
    # a dry run lists them too, and stays a preview (exit 0)
    r = labgpu("sync", str(local), f"{host}:{remote}", "--dry-run")
    assert r.returncode == 0 and "not transferred: d/pipe" in r.stderr


def test_non_utf8_local_name_transfers_and_is_recorded(sshd, host, tmp_path):
    remote = sshd.remote_dir("cli-truth-utf8")
    local = tmp_path / "proj"
    local.mkdir()
    bad = os.fsdecode(b"caf\xe9.txt")
    (local / bad).write_bytes(b"latin-1 name")
    r = labgpu("sync", str(local), f"{host}:{remote}", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["files"] == 1
    assert os.path.exists(os.fsencode(remote) + b"/caf\xe9.txt")
    # the bad byte in the LOCAL folder's own name must not break the history either
    local2 = Path(os.fsdecode(os.fsencode(tmp_path) + b"/d\xff"))
    local2.mkdir()
    (local2 / "x").write_bytes(b"x")
    r = labgpu("sync", str(local2), f"{host}:{remote}/two", "--json")
    assert r.returncode == 0, r.stderr
    assert "UnicodeEncodeError" not in r.stderr


def test_local_that_is_a_file_is_called_a_file(sshd, host, tmp_path):
    remote = sshd.remote_dir("cli-truth-file")
    f = tmp_path / "model.bin"
    f.write_bytes(b"x")
    r = labgpu("sync", str(f), f"{host}:{remote}")
    assert r.returncode != 0
    assert "is a file, not a folder" in r.stderr
    assert "does not exist" not in r.stderr


def test_unreadable_local_folder_is_named_and_fails_the_exit_status(sshd, tmp_path):
    """Run as an ordinary user (root reads everything): a sub-folder it cannot read is named with
    its reason, nothing else is lost, and the exit status says the sync is incomplete."""
    import pwd
    import shutil

    from tests.fixtures.server_kinds import KINDS, ensure_user

    pw = ensure_user(KINDS["plain"])
    base = Path(f"/tmp/labgpu-unreadable-{os.getpid()}")
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(mode=0o755)
    try:
        home, proj = base / "home", base / "proj"
        (proj / "locked").mkdir(parents=True)
        (proj / "ok.txt").write_bytes(b"ok")
        (proj / "locked" / "secret.txt").write_bytes(b"s")
        key = base / "id_ed25519"
        shutil.copy(sshd.client_key, key)
        (home / ".ssh").mkdir(parents=True)
        for p in [base, *base.rglob("*")]:
            os.lchown(p, pw.pw_uid, pw.pw_gid)
        key.chmod(0o600)
        (proj / "locked").chmod(0)
        remote = sshd.remote_dir("cli-truth-unreadable")
        env = {k: v for k, v in os.environ.items() if k not in ("SSH_AUTH_SOCK", "LABGPU_HOME")}
        env.update(HOME=str(home), LABGPU_HOME=str(home / "labgpu"), USER=pw.pw_name)

        def run(*args: str) -> subprocess.CompletedProcess:
            """The CLI in a forked child running as the ordinary user (the venv's interpreter
            lives below /root, which that user cannot execute)."""
            out_f, err_f = base / "out.txt", base / "err.txt"
            pid = os.fork()
            if pid == 0:  # child: never returns into pytest
                code = 70
                try:
                    # the ordinary user cannot read the interpreter's library below /root:
                    # import what the CLI needs while still root
                    import importlib

                    from app.cli import build_parser

                    build_parser()
                    for mod in PREIMPORT:
                        importlib.import_module(mod)
                    os.setgroups([])
                    os.setgid(pw.pw_gid)
                    os.setuid(pw.pw_uid)
                    os.environ.clear()
                    os.environ.update(env)
                    with open(out_f, "w") as o, open(err_f, "w") as e:
                        os.dup2(o.fileno(), 1)
                        os.dup2(e.fileno(), 2)
                        sys.stdout, sys.stderr = o, e
                        from app.cli import main as cli_main

                        try:
                            code = cli_main(list(args))
                        except SystemExit as exc:
                            code = int(exc.code or 0)
                        o.flush()
                        e.flush()
                except BaseException:  # noqa: BLE001 - reported through the file, child exits
                    import traceback

                    with open(err_f, "a") as e:
                        traceback.print_exc(file=e)
                finally:
                    os._exit(code)
            _pid, status = os.waitpid(pid, 0)
            return subprocess.CompletedProcess(
                list(args), os.waitstatus_to_exitcode(status), out_f.read_text(), err_f.read_text()
            )

        cmd = f"ssh -p {sshd.port} -i {key} {sshd.user}@{sshd.host}"
        r = run("hosts", "add", "gpu1", cmd, "--fingerprint", sshd.host_key_fingerprint)
        assert r.returncode == 0, r.stderr
        r = run("sync", str(proj), f"gpu1:{remote}")
        assert r.returncode == 1, r.stdout + r.stderr
        assert "not transferred: locked — folder could not be read (Permission denied)" in r.stderr
        assert (remote / "ok.txt").read_bytes() == b"ok"
        r = run("sync", str(proj), f"gpu1:{remote}", "--json")
        assert r.returncode == 1
        out = json.loads(r.stdout)
        assert out["complete"] is False and out["not_transferred"][0]["path"] == "locked"
        assert pwd.getpwuid(os.stat(proj).st_uid).pw_name == pw.pw_name
    finally:
        with __import__("contextlib").suppress(OSError):
            (base / "proj" / "locked").chmod(0o700)
        shutil.rmtree(base, ignore_errors=True)


def test_cli_dash_remote_dry_run_changes_nothing(server_kinds, tmp_path):
    """A remote folder named like an option: `labgpu sync LOCAL 'box:-delete' --dry-run` (and --down)
    against an account whose whole home is snapshotted before and after."""
    from tests.fixtures.server_kinds import KINDS
    from tests.remote.test_sync_hostile_paths import snapshot

    home = server_kinds.home("plain")
    write = {".bashrc": b"# plain\n", "work/notes.txt": b"important"}
    for rel, data in write.items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_bytes(data)
    server_kinds.chown_kind("plain", home)
    cmd = f"ssh -p {server_kinds.port} -i {server_kinds.client_key} {KINDS['plain']}@{server_kinds.host}"
    r = labgpu("hosts", "add", "box", cmd, "--fingerprint", server_kinds.host_key_fingerprint)
    assert r.returncode == 0, r.stderr
    local = tmp_path / "proj"
    local.mkdir()
    (local / "a.txt").write_bytes(b"a")
    (local / "b.txt").write_bytes(b"b")
    before = snapshot(home)
    r = labgpu("sync", str(local), "box:-delete", "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "would transfer 2 files" in r.stdout
    assert snapshot(home) == before
    r = labgpu("sync", str(tmp_path / "down"), "box:-delete", "--down", "--dry-run")
    assert r.returncode != 0
    assert "[RemoteMissing] The remote folder -delete does not exist" in r.stderr
    assert snapshot(home) == before
    assert not (tmp_path / "down").exists()
