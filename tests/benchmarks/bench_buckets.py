"""LabGPU's bucket sync vs ``aws s3 sync`` on the same moto S3 server, in the same run.

Run:  .venv/bin/python tests/benchmarks/bench_buckets.py [--big-mib 1024] [--small 10000] [--reps 1]
      [--only big_up,big_down,small_up,small_down,resync]

moto's server runs as its own process (``moto_server``) so neither client shares its interpreter.
Both tools talk path-style to it over loopback with the same credentials. Cases: a 1 GiB file up
(multipart) and down; 10,000 files of 4 KiB up and down; a re-sync of both with nothing changed.
Every download is compared byte for byte (sha256) with the source, and the re-sync must move 0
bytes. LabGPU's time is its engine in-process (``BucketSyncEngine.run``, listing included);
``aws``'s is the CLI process (its Python start-up, about 0.3 s, included — the tool a student runs).
The LAST line is ``ratios: big_up=… big_down=… small_up=… small_down=… resync=…`` = LabGPU time /
``aws s3 sync`` time (lower is better).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.cloud.storage import engine as bucket_engine  # noqa: E402
from app.cloud.storage.client import target_for  # noqa: E402
from app.core.accounts import Account, Credentials  # noqa: E402
from app.core.buckets import parse_bucket_url  # noqa: E402
from app.core.syncmodel import DOWN, UP, SyncOptions  # noqa: E402

KEY, SECRET = "AKIABENCHMARK0000000", "benchmark-secret-key-0000000000000000000"
BUCKET = "labgpu-bench"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_moto() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    exe = Path(sys.executable).with_name("moto_server")
    proc = subprocess.Popen([str(exe), "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(url + "/moto-api/", timeout=1).read()
            return proc, url
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("moto_server did not start")


def tree_digest(root: Path) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and ".labgpu" not in p.name:
            h = hashlib.sha256()
            with open(p, "rb") as fh:
                for chunk in iter(lambda fh=fh: fh.read(1 << 20), b""):
                    h.update(chunk)
            out[str(p.relative_to(root))] = h.hexdigest()
    return out


def make_big(path: Path, mib: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    block = os.urandom(1 << 20)
    with open(path, "wb") as fh:
        for i in range(mib):
            fh.write(block[:-8] + i.to_bytes(8, "little"))


def make_small(root: Path, n: int) -> None:
    for i in range(n):
        d = root / f"d{i // 500:03d}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"f{i:05d}.bin").write_bytes(os.urandom(4096))


def aws(url: str, *args: str) -> float:
    env = dict(os.environ, AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=SECRET, AWS_DEFAULT_REGION="us-east-1")
    env.pop("AWS_PROFILE", None)
    t0 = time.perf_counter()
    subprocess.run(["aws", "--endpoint-url", url, "s3", *args, "--only-show-errors"], env=env, check=True)
    return time.perf_counter() - t0


def labgpu(url: str, local: Path, prefix: str, direction: str) -> tuple[float, int]:
    account = Account("bench", "aws", "us-east-1", extra={"storage_endpoint": url})
    target = target_for(account, parse_bucket_url(f"s3://{BUCKET}/{prefix}"))
    eng = bucket_engine.BucketSyncEngine(target, Credentials(KEY, SECRET), local, SyncOptions(direction=direction))
    t0 = time.perf_counter()
    result = eng.run()
    took = time.perf_counter() - t0
    if not result.complete:
        raise SystemExit(f"LabGPU's sync was incomplete: {result.not_transferred[:3]}")
    return took, result.bytes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--big-mib", type=int, default=1024)
    ap.add_argument("--small", type=int, default=10000)
    ap.add_argument("--only", default="big_up,big_down,small_up,small_down,resync")
    args = ap.parse_args()
    if not shutil.which("aws"):
        raise SystemExit("the aws CLI is missing: pip install awscli")
    only = set(args.only.split(","))
    proc, url = start_moto()
    work = Path(tempfile.mkdtemp(prefix="labgpu-bench-buckets-"))
    ratios: dict[str, float] = {}
    try:
        import boto3

        s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1",
                          aws_access_key_id=KEY, aws_secret_access_key=SECRET)
        s3.create_bucket(Bucket=BUCKET)
        big, small = work / "big", work / "small"
        make_big(big / "model.bin", args.big_mib)
        make_small(small, args.small)
        want_big, want_small = tree_digest(big), tree_digest(small)
        print(f"moto {url}; {args.big_mib} MiB file; {args.small} files of 4 KiB", flush=True)

        def case(name: str, lab: tuple[float, int], ref: float, size: int) -> None:
            t, moved = lab
            ratios[name] = t / ref
            mib = size / (1 << 20)
            print(f"{name:10s} labgpu {t:7.2f} s ({mib / t:7.1f} MiB/s, {moved} B moved)   "
                  f"aws s3 sync {ref:7.2f} s ({mib / ref:7.1f} MiB/s)   ratio {t / ref:.2f}", flush=True)

        for label, src, want, nbytes in (("big", big, want_big, args.big_mib << 20),
                                          ("small", small, want_small, args.small * 4096)):
            if f"{label}_up" in only or f"{label}_down" in only or "resync" in only:
                ref_up = aws(url, "sync", str(src), f"s3://{BUCKET}/aws/{label}")
                lab_up = labgpu(url, src, f"lab/{label}", UP)
                if f"{label}_up" in only:
                    case(f"{label}_up", lab_up, ref_up, nbytes)
            if f"{label}_down" in only or "resync" in only:
                ref_dir, lab_dir = work / f"aws-{label}-down", work / f"lab-{label}-down"
                ref_down = aws(url, "sync", f"s3://{BUCKET}/aws/{label}", str(ref_dir))
                lab_down = labgpu(url, lab_dir, f"lab/{label}", DOWN)
                if tree_digest(lab_dir) != want:
                    raise SystemExit(f"LabGPU's {label} download is NOT byte-identical to the source")
                if tree_digest(ref_dir) != want:
                    raise SystemExit(f"aws's {label} download is not byte-identical to the source")
                if f"{label}_down" in only:
                    case(f"{label}_down", lab_down, ref_down, nbytes)
            if "resync" in only:
                ref = aws(url, "sync", str(src), f"s3://{BUCKET}/aws/{label}")
                lab = labgpu(url, src, f"lab/{label}", UP)
                if lab[1] != 0:
                    raise SystemExit(f"a no-change re-sync of {label} moved {lab[1]} bytes")
                ratios[f"resync_{label}"] = lab[0] / ref
                print(f"resync_{label:5s} labgpu {lab[0]:7.2f} s (0 B moved)   aws s3 sync {ref:7.2f} s   "
                      f"ratio {lab[0] / ref:.2f}", flush=True)
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    print("ratios: " + " ".join(f"{k}={v:.2f}" for k, v in ratios.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
