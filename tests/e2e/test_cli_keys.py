"""`labgpu keys` as a student runs it: real subprocesses, the real Secret Service, a terminal (a pty)
where one is needed. The key and its recovery phrase reach no file in the LabGPU home, no log line."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import keyring
import pytest

from app.core.cryptkeys import CryptKeys
from app.core.objcrypt import PairCrypt, decrypt_bytes, encrypt_bytes
from app.core.paths import default_paths
from app.core.store import Store
from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("secret_service")


def labgpu(*args: str, stdin: str = "", home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if home is not None:
        env["LABGPU_HOME"] = str(home)
    return clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)


def labgpu_on_a_terminal(*args: str) -> str:
    """stdout (and stdin) a pty, as in a terminal window."""
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "app", *args], stdin=follower, stdout=follower,
                                stderr=subprocess.PIPE, env=dict(os.environ), cwd=ROOT)
        os.close(follower)
        out = bytearray()
        while True:
            try:
                data = os.read(leader, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            out += data
        assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
    finally:
        os.close(leader)
    return out.decode()


def _all_bytes(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


def _crypt(home: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> PairCrypt:
    monkeypatch.setenv("LABGPU_HOME", str(home))
    store = Store(paths=default_paths())
    try:
        return CryptKeys(store=store).get(name)
    finally:
        store.close()


def test_keys_journey(labgpu_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    r = labgpu("keys", "new", "lab")
    assert r.returncode == 0, r.stderr
    assert "key id" in r.stdout and "labgpu keys export lab" in r.stdout
    listed = json.loads(labgpu("keys", "ls", "--json").stdout)
    assert [k["name"] for k in listed] == ["lab"] and listed[0]["source"] == "new"
    key_id = listed[0]["key_id"]
    assert key_id in labgpu("keys", "ls").stdout

    # into a pipe: refused without --show-phrase, and nothing of the phrase is printed
    r = labgpu("keys", "export", "lab")
    assert r.returncode == 2 and "[PhraseNotATerminal]" in r.stderr and "--show-phrase" in r.stderr
    r = labgpu("keys", "export", "lab", "--show-phrase")
    assert r.returncode == 0, r.stderr
    phrase = r.stdout.strip()
    assert len(phrase) == 71 and phrase not in labgpu("keys", "ls").stdout
    shown = labgpu_on_a_terminal("keys", "export", "lab")
    assert phrase in shown and key_id in shown and "labgpu keys import lab" in shown

    crypt = _crypt(labgpu_home, "lab", monkeypatch)
    blob = encrypt_bytes(crypt, b"checkpoint-0042")
    key_hex = keyring.get_password("labgpu", "crypt:lab")
    assert key_hex

    r = labgpu("keys", "new", "lab")
    assert r.returncode == 2 and "[KeyExists]" in r.stderr

    # another computer: a fresh home, a keyring without the key; the phrase comes on stdin
    keyring.delete_password("labgpu", "crypt:lab")
    fresh = tmp_path / "fresh"
    typo = phrase[:20] + ("Z" if phrase[20] != "Z" else "Y") + phrase[21:]
    r = labgpu("keys", "import", "lab", stdin=typo + "\n", home=fresh)
    assert r.returncode == 2 and "[BadPhrase]" in r.stderr and "group 4" in r.stderr
    assert typo not in r.stderr and phrase not in r.stderr
    assert keyring.get_password("labgpu", "crypt:lab") is None
    r = labgpu("keys", "import", "lab", stdin="", home=fresh)
    assert r.returncode == 2 and "[EmptySecret]" in r.stderr
    r = labgpu("keys", "import", "lab", "--json", stdin=phrase.lower() + "\n", home=fresh)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["key_id"] == key_id
    assert decrypt_bytes(_crypt(fresh, "lab", monkeypatch), blob) == b"checkpoint-0042"

    # the phrase is never an argument (argv lands in the shell history and in `ps`): refused, nothing stored
    r = labgpu("keys", "import", "lab2", phrase, home=fresh)
    assert r.returncode == 2 and "unrecognized arguments" in r.stderr
    assert "lab2" not in labgpu("keys", "ls", home=fresh).stdout

    for home in (labgpu_home, fresh):
        found = _all_bytes(home)
        for form in (phrase, phrase.replace("-", ""), phrase.lower(), key_hex, key_hex.upper()):
            assert form.encode() not in found, f"the key or its phrase reached a file under {home}"
        assert bytes.fromhex(key_hex) not in found

    r = labgpu("keys", "rm", "lab", home=fresh)
    assert r.returncode == 2 and "[ConfirmNeeded]" in r.stderr
    r = labgpu("keys", "rm", "lab", "--yes", home=fresh)
    assert r.returncode == 0, r.stderr
    assert keyring.get_password("labgpu", "crypt:lab") is None
    assert json.loads(labgpu("keys", "ls", "--json", home=fresh).stdout) == []
    r = labgpu("keys", "export", "lab", "--show-phrase", home=fresh)
    assert r.returncode == 2 and "[NoKey]" in r.stderr and "labgpu keys import lab" in r.stderr


def test_bad_names_are_refused_before_the_phrase(labgpu_home: Path) -> None:
    r = labgpu("keys", "import", "../etc", stdin="whatever\n")
    assert r.returncode == 2 and "[BadKeyName]" in r.stderr
    r = labgpu("keys", "new", "-")
    assert r.returncode == 2
