"""`labgpu sync LOCAL s3://BUCKET/PREFIX …` and `labgpu buckets ls` as a script runs them (real
processes), against the strict S3 peer (tests/fixtures/s3_peer.py: moto behind a proxy that checks
SigV4 signatures, the region, and that COS is reached virtual-hosted) with the account's keys in a
real Secret Service. The peer counts every request, so "a dry run writes nothing" and "a no-change
re-sync only lists" are counted, not assumed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.accounts import AccountBook
from app.core.paths import default_paths
from app.core.store import Store
from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home", "secret_service")
T0 = 1_700_000_000
FILES = {"train.py": b"print('hi')\n", "data/a.csv": b"1,2\n" * 100}


def labgpu(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return clirun.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ),
        stdin=subprocess.DEVNULL,
    )


def ok(*args: str) -> subprocess.CompletedProcess:
    r = labgpu(*args)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def summary(*args: str) -> dict:
    r = ok(*args, "--json")
    return json.loads(r.stdout)  # exactly one JSON object on stdout


def one_error_line(r: subprocess.CompletedProcess, code: str) -> str:
    assert r.returncode != 0
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert f"[{code}]" in lines[0], lines[0]
    assert " — " in lines[0]  # what to do next
    assert r.stdout == ""
    return lines[0]


def add_account(peer, name: str, scheme: str, region: str) -> None:
    account, creds = peer.account(name, scheme, region)
    store = Store(paths=default_paths())
    try:
        AccountBook(store).add(account, creds)
    finally:
        store.close()


def tree(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
        os.utime(p, (T0, T0))


def files_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(("scheme", "bucket", "region"), [("s3", "lab-data", "us-east-1"),
                                                          ("cos", "lab-data-1250000000", "ap-guangzhou"),
                                                          ("oss", "lab-data-oss", "cn-hangzhou"),
                                                          ("obs", "lab-data-obs", "cn-north-4")])
def test_up_resync_dry_run_and_down(s3_peer, tmp_path, scheme, bucket, region):
    add_account(s3_peer, "lab", scheme, region)
    s3_peer.make_bucket(scheme, bucket, region)
    url = f"{scheme}://{bucket}/proj"
    local = tmp_path / "proj"
    tree(local, FILES)

    s = summary("sync", str(local), url, "--account", "lab")
    assert (s["files"], s["bytes"], s["skipped"], s["complete"]) == (2, 412, 0, True)
    assert s3_peer.keys(scheme, bucket, "proj/") == ["proj/data/a.csv", "proj/train.py"]
    assert s3_peer.get(scheme, bucket, "proj/data/a.csv") == FILES["data/a.csv"]

    # nothing changed: the account is the only one of its cloud, so --account may be left out
    s3_peer.clear_requests()
    s = summary("sync", str(local), url)
    assert (s["files"], s["bytes"], s["skipped"]) == (0, 0, 2)
    assert [r for r in s3_peer.requests if r.writes] == []

    # a changed file and a stale object: the preview names both and writes nothing
    (local / "train.py").write_bytes(b"print('bye')\n")
    s3_peer.put(scheme, bucket, "proj/stale.bin", b"s")
    s3_peer.clear_requests()
    s = summary("sync", str(local), url, "--dry-run", "--delete")
    assert s["dry_run"] is True
    assert {(c["action"], c["path"]) for c in s["changes"]} >= {("delete", "stale.bin")}
    assert any(c["path"] == "train.py" for c in s["changes"])
    assert [r for r in s3_peer.requests if r.writes] == []
    assert "proj/stale.bin" in s3_peer.keys(scheme, bucket, "proj/")

    down = tmp_path / "back"
    s = summary("sync", str(down), url, "--down", "--account", "lab")
    assert s["files"] == 3 and s["complete"]
    assert files_of(down) == {**FILES, "stale.bin": b"s"}
    assert os.stat(down / "data/a.csv").st_mtime == T0  # the source's mtime came back


def test_bad_input_is_one_clear_line_and_nothing_is_sent(s3_peer, tmp_path):
    add_account(s3_peer, "aws1", "s3", "us-east-1")
    add_account(s3_peer, "tc", "cos", "ap-guangzhou")
    s3_peer.make_bucket("s3", "lab-data", "us-east-1")
    local = tmp_path / "l"
    tree(local, {"x.txt": b"x"})
    s3_peer.clear_requests()
    cases = [
        (["s3://lab-data/a/../b", "--account", "aws1"], "BadObjectKey", "'..'"),
        (["s3://Lab_Data/x", "--account", "aws1"], "BadBucketName", "Lab_Data"),
        (["gcs://lab-data/x"], "BadBucketUrl", "gcs://"),
        (["cos://lab-data-1250000000/x", "--account", "aws1"], "WrongAccount", "aws1"),
        (["s3://lab-data/x", "--account", "nope"], "NoSuchAccount", "nope"),
        (["oss://lab-data/x"], "NoAccount", "labgpu accounts add alibaba"),
        (["s3://lab-data/x", "--sse", "aes"], "BadSse", "aes"),
    ]
    for extra, code, needle in cases:
        r = labgpu("sync", str(local), *extra)
        assert needle in one_error_line(r, code), extra
    # two accounts of one cloud and none named: both are named
    add_account(s3_peer, "aws2", "s3", "us-east-1")
    line = one_error_line(labgpu("sync", str(local), "s3://lab-data/x"), "SeveralAccounts")
    assert "aws1" in line and "aws2" in line
    assert s3_peer.requests == []  # refused before any request
    # the service's own refusal: a bucket that is not there
    line = one_error_line(labgpu("sync", str(local), "s3://no-such-bucket-here/x", "--account", "aws1"),
                          "NoSuchBucket")
    assert "no-such-bucket-here" in line


def test_encrypted_round_trip_and_the_wrong_key(s3_peer, tmp_path):
    add_account(s3_peer, "lab", "s3", "us-east-1")
    s3_peer.make_bucket("s3", "lab-data", "us-east-1")
    local = tmp_path / "secret"
    secret = {"notes/plan.txt": b"the plan: " + b"p" * 5000, "w.bin": os.urandom(70_000)}
    tree(local, secret)

    r = ok("sync", str(local), "s3://lab-data/enc", "--encrypt", "--json")
    s = json.loads(r.stdout)
    assert (s["files"], s["bytes"]) == (2, sum(len(v) for v in secret.values()))  # payload bytes
    assert "labgpu keys export default" in r.stderr  # said once, when the key was made
    keys = s3_peer.keys("s3", "lab-data", "enc/")
    assert keys and not any("plan" in k or "notes" in k or "w.bin" in k for k in keys)
    blobs = b"".join(s3_peer.get("s3", "lab-data", k) for k in keys)
    assert b"the plan" not in blobs and secret["w.bin"][:64] not in blobs

    r = ok("sync", str(local), "s3://lab-data/enc", "--encrypt", "--json")
    assert json.loads(r.stdout)["bytes"] == 0 and "keys export" not in r.stderr

    down = tmp_path / "back"
    s = summary("sync", str(down), "s3://lab-data/enc", "--down", "--encrypt")
    assert s["files"] == 2 and files_of(down) == secret

    # a key that did not encrypt them: a clear error before anything is written
    ok("keys", "new", "other")
    other = tmp_path / "other"
    line = one_error_line(labgpu("sync", str(other), "s3://lab-data/enc", "--down", "--key", "other"), "WrongKey")
    assert "other" in line or "key" in line
    assert not other.exists() or files_of(other) == {}


def test_buckets_ls(s3_peer, tmp_path):
    add_account(s3_peer, "lab", "s3", "us-east-1")
    s3_peer.make_bucket("s3", "lab-data", "us-east-1")
    s3_peer.put("s3", "lab-data", "imagenet/train/a.jpg", b"a" * 10)
    s3_peer.put("s3", "lab-data", "imagenet/readme.txt", b"r" * 1234)
    names = [b["name"] for b in json.loads(ok("buckets", "ls", "lab", "--json").stdout)]
    assert "lab-data" in names
    level = json.loads(ok("buckets", "ls", "lab", "s3://lab-data/imagenet", "--json").stdout)
    assert level["truncated"] is False
    assert level["folders"] == ["train"]
    assert [(o["name"], o["size"]) for o in level["objects"]] == [("readme.txt", 1234)]
    s3_peer.put("s3", "lab-data", "imagenet/a\\b.txt", b"x")  # no local path can be this name
    r = ok("buckets", "ls", "lab", "s3://lab-data/imagenet")
    assert "readme.txt" in r.stdout and "train/" in r.stdout and "1.2 KiB" in r.stdout
    assert "a\\b" not in r.stdout and "1 object name(s) that cannot be a local path" in r.stderr
    one_error_line(labgpu("buckets", "ls", "lab", "cos://lab-data-1250000000"), "WrongAccount")


def test_bucket_to_host_and_back_through_the_host(s3_peer, sshd, tmp_path):
    """`labgpu sync URL NAME:DIR` and `labgpu sync NAME:DIR URL`: the host (the test sshd) moves the
    bytes with presigned links over loopback (path style: the host has no proxy to the service's name)."""
    account, creds = s3_peer.account("lab", "s3", "us-east-1", virtual=False)
    store = Store(paths=default_paths())
    try:
        AccountBook(store).add(account, creds)
    finally:
        store.close()
    s3_peer.make_bucket("s3", "lab-data", "us-east-1")
    for rel, data in FILES.items():
        s3_peer.put("s3", "lab-data", f"ds/{rel}", data)
    ok("hosts", "add", "gpu1", f"ssh -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}",
       "--fingerprint", sshd.host_key_fingerprint)
    dest = sshd.remote_dir("cli-b2h")

    s = summary("sync", "s3://lab-data/ds", f"gpu1:{dest}")
    assert (s["files"], s["bytes"], s["complete"]) == (2, 412, True)
    assert files_of(dest) == FILES
    s = summary("sync", f"gpu1:{dest}", "s3://lab-data/back", "--account", "lab")
    assert (s["files"], s["bytes"]) == (2, 412)
    assert s3_peer.get("s3", "lab-data", "back/data/a.csv") == FILES["data/a.csv"]
    # what the host cannot do is refused, not ignored
    one_error_line(labgpu("sync", "s3://lab-data/ds", f"gpu1:{dest}", "--dry-run"), "BadOption")
