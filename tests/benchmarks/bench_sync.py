"""LabGPU sync vs OpenSSH ``scp`` and ``rsync -e ssh`` on the same machine, in the same run.

Run as root (it starts its own sshd like the test fixture):  .venv/bin/python tests/benchmarks/bench_sync.py
Options: --big-mib N (default 1024), --small N (default 10000), --reps N (best of N, default 2),
--only big_up,big_down,small_up,resync.

Cases: a 1 GiB file up and down; 10,000 files of 4 KiB up (first sync into an empty folder); a
re-sync of those with nothing changed. Every tool uses the same cipher (aes128-gcm@openssh.com) and
no compression. LabGPU's time is the engine in-process, INCLUDING its TCP connect, key exchange and
login (as scp/rsync include ssh's) but not Python's start-up (reported separately for the CLI).
The LAST line is ``ratios: big_up=… big_down=… small_up=… resync=…`` = LabGPU time / the faster
of scp and rsync (lower is better; goals: big ≤ 1.1, small and resync ≤ 1.0).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.remote.sync import DOWN, UP, SyncEngine, SyncOptions  # noqa: E402
from tests.fixtures.sshd import SshdServer  # noqa: E402
from tests.remote.sync_support import plain_connect  # noqa: E402

CIPHER = "aes128-gcm@openssh.com"


def ssh_opts(srv: SshdServer) -> list[str]:
    return [
        "-o",
        "BatchMode=yes",
        "-o",
        f"UserKnownHostsFile={srv.known_hosts_file}",
        "-o",
        "StrictHostKeyChecking=yes",
        "-o",
        "GlobalKnownHostsFile=/dev/null",
        "-o",
        "Compression=no",
        "-c",
        CIPHER,
        "-i",
        str(srv.client_key),
    ]


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def run(cmd: list[str]) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"command failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr[-2000:]}")


def clean(path: Path, srv: SshdServer) -> None:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    srv.chown_to_user(path)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--big-mib", type=int, default=1024)
    ap.add_argument("--small", type=int, default=10_000)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--only", default="big_up,big_down,small_up,resync")
    ap.add_argument("--channels", type=int, default=None)
    args = ap.parse_args()
    only = set(args.only.split(","))

    srv = SshdServer.start_new()
    work = Path(tempfile.mkdtemp(prefix="labgpu-bench-"))
    try:
        user_host = f"{srv.user}@{srv.host}"
        opts = ssh_opts(srv)
        scp = ["scp", "-q", "-p", *opts, "-P", str(srv.port)]
        rsync_e = " ".join(["ssh", *opts, "-p", str(srv.port)])
        rsync = ["rsync", "-a", "-e", rsync_e]
        connect = plain_connect(srv)
        eopts = {} if args.channels is None else {"channels": args.channels}

        def labgpu(local: Path, remote: Path, direction: str) -> None:
            SyncEngine(connect, local, str(remote), SyncOptions(direction=direction, **eopts)).run()

        results: dict[str, dict[str, float]] = {}

        def best(case: str, tool: str, prepare, action) -> None:
            times = []
            for _ in range(args.reps):
                prepare()
                times.append(timed(action))
            results.setdefault(case, {})[tool] = min(times)
            print(
                f"  {case:9s} {tool:7s} {min(times):8.3f} s   (runs: {', '.join(f'{t:.3f}' for t in times)})",
                flush=True,
            )

        remote_root = srv.remote_root
        if only & {"big_up", "big_down"}:
            big_dir = work / "big"
            big_dir.mkdir()
            big = big_dir / "big.bin"
            print(f"writing {args.big_mib} MiB test file…", flush=True)
            with open(big, "wb") as fh:
                chunk = os.urandom(64 << 20)
                for i in range(args.big_mib // 64 or 1):
                    fh.write(chunk[: (args.big_mib << 20) if args.big_mib < 64 else len(chunk)])
                    if i % 4 == 3:
                        chunk = os.urandom(64 << 20)
            size = big.stat().st_size
            rdir = remote_root / "big"
            if "big_up" in only:
                best(
                    "big_up",
                    "scp",
                    lambda: clean(rdir, srv),
                    lambda: run([*scp, str(big), f"{user_host}:{rdir}/"]),
                )
                best(
                    "big_up",
                    "rsync",
                    lambda: clean(rdir, srv),
                    lambda: run([*rsync, str(big), f"{user_host}:{rdir}/"]),
                )
                best("big_up", "labgpu", lambda: clean(rdir, srv), lambda: labgpu(big_dir, rdir, UP))
            if "big_down" in only:
                clean(rdir, srv)
                shutil.copy2(big, rdir / "big.bin")
                srv.chown_to_user(rdir)
                ldir = work / "down"
                best(
                    "big_down",
                    "scp",
                    lambda: clean(ldir, srv),
                    lambda: run([*scp, f"{user_host}:{rdir}/big.bin", str(ldir) + "/"]),
                )
                best(
                    "big_down",
                    "rsync",
                    lambda: clean(ldir, srv),
                    lambda: run([*rsync, f"{user_host}:{rdir}/big.bin", str(ldir) + "/"]),
                )
                best("big_down", "labgpu", lambda: clean(ldir, srv), lambda: labgpu(ldir, rdir, DOWN))
                assert (ldir / "big.bin").stat().st_size == size
            shutil.rmtree(rdir, ignore_errors=True)
            shutil.rmtree(work / "down", ignore_errors=True)
            big.unlink()

        if only & {"small_up", "resync"}:
            small = work / "small"
            print(f"writing {args.small} files of 4 KiB…", flush=True)
            for i in range(args.small):
                d = small / f"d{i // 500:03d}"
                if i % 500 == 0:
                    d.mkdir(parents=True)
                (d / f"f{i:05d}.bin").write_bytes(os.urandom(4096))
            rdir = remote_root / "small"
            best(
                "small_up",
                "scp",
                lambda: clean(rdir, srv),
                lambda: run([*scp, "-r", str(small) + "/.", f"{user_host}:{rdir}/"]),
            )
            best(
                "small_up",
                "rsync",
                lambda: clean(rdir, srv),
                lambda: run([*rsync, str(small) + "/", f"{user_host}:{rdir}/"]),
            )
            best("small_up", "labgpu", lambda: clean(rdir, srv), lambda: labgpu(small, rdir, UP))
            n = sum(1 for p in rdir.rglob("*") if p.is_file())
            assert n == args.small, n
            if "resync" in only:
                # the tree is in place (labgpu's copy); re-running changes nothing
                run([*rsync, str(small) + "/", f"{user_host}:{rdir}/"])  # rsync agrees it is in sync
                best(
                    "resync",
                    "rsync",
                    lambda: None,
                    lambda: run([*rsync, str(small) + "/", f"{user_host}:{rdir}/"]),
                )
                best(
                    "resync",
                    "scp",
                    lambda: None,
                    lambda: run([*scp, "-r", str(small) + "/.", f"{user_host}:{rdir}/"]),
                )
                best("resync", "labgpu", lambda: None, lambda: labgpu(small, rdir, UP))
                # the CLI as a user runs it (Python start-up included) — reported, not in the ratio
                home = work / "home"
                env = dict(os.environ, LABGPU_HOME=str(home), HOME=str(work))
                add = subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "app",
                        "hosts",
                        "add",
                        "bench",
                        f"ssh -p {srv.port} -i {srv.client_key} {user_host}",
                        "--fingerprint",
                        srv.host_key_fingerprint,
                    ],
                    env=env,
                    capture_output=True,
                    text=True,
                    cwd=ROOT,
                )
                if add.returncode == 0:
                    cli = [sys.executable, "-m", "app", "sync", str(small), f"bench:{rdir}", "--json"]
                    t = min(
                        timed(lambda: subprocess.run(cli, env=env, capture_output=True, cwd=ROOT, check=True))
                        for _ in range(args.reps)
                    )
                    print(f"  resync    labgpu CLI (incl. Python start-up) {t:.3f} s", flush=True)
                else:
                    print(f"  (CLI timing skipped: hosts add failed: {add.stderr.strip()})")

        print()
        print(f"{'case':10s} {'scp':>9s} {'rsync':>9s} {'labgpu':>9s} {'ratio':>7s}")
        ratios = {}
        for case in ("big_up", "big_down", "small_up", "resync"):
            r = results.get(case)
            if not r:
                continue
            ref = min(r["scp"], r["rsync"])
            ratios[case] = r["labgpu"] / ref
            print(f"{case:10s} {r['scp']:9.3f} {r['rsync']:9.3f} {r['labgpu']:9.3f} {ratios[case]:7.2f}")
        print("ratios: " + " ".join(f"{k}={v:.2f}" for k, v in ratios.items()), flush=True)
        return 0
    finally:
        srv.stop()
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(srv.workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
