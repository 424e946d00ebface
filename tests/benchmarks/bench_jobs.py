"""A training job's log and progress: LabGPU beside what a student would type instead, on the same machine.

Run as root (it starts its own sshd like the test fixture):  .venv/bin/python tests/benchmarks/bench_jobs.py
Options: --log-mib N (default 64), --parse-mib N (default 256), --reps N (best of N, default 3).

Cases:
- ``fetch``: a finished job's whole log (N MiB of base64 text, written by the job itself) printed by
  ``labgpu logs JOB`` (a new process: Python's start-up, the store, the SSH login included) beside
  ``ssh host cat ~/.labgpu/jobs/ID/log`` (OpenSSH's start-up and login included), both to /dev/null;
- ``poll``: one look for new output of a running job on an open connection, the way the Jobs page and
  ``labgpu logs -f`` follow it (status + the new bytes from the stored offset, here 4 KiB), beside
  ``ssh host tail -c +OFFSET log`` through an OpenSSH ControlMaster connection that is already open;
- ``parse``: steps/s and ETA read from a tqdm log of N MiB by app.core.jobprogress.ProgressTracker
  (fed in 1 MiB chunks, as the refresh does) beside ``grep -a 'it/s' | tail -n 1`` (what a student runs
  to see the last rate), plus the tracker's peak memory.

The LAST line is ``ratios: fetch=… poll=… parse=…`` = LabGPU time / the other tool's time (lower is better).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.core.jobprogress import ProgressTracker  # noqa: E402
from app.core.jobs import JobSpec, JobStore  # noqa: E402
from app.core.paths import default_paths  # noqa: E402
from app.core.store import Store  # noqa: E402
from app.remote import jobs as hostjobs  # noqa: E402
from app.remote.ssh import open_connection  # noqa: E402
from app.usecases import jobs as usecase  # noqa: E402
from tests.fixtures.sshd import SshdServer  # noqa: E402
from tests.remote.gpu_support import save_host  # noqa: E402


def best(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def ssh_base(srv: SshdServer) -> list[str]:
    return ["ssh", *srv.openssh_args(), "-o", "BatchMode=yes"]


def wait_ended(store: Store, paths, job_id: str, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if usecase.refresh(paths, store, job_id).state != "running":
            return
        time.sleep(0.2)
    raise SystemExit(f"job {job_id} did not end in {timeout:g} s")


def tqdm_log(mib: int) -> bytes:
    lines = []
    total = 10 ** 7
    for i in range(1, 4000):
        lines.append(f"\r 12%|#2        | {i}/{total} [00:{i % 60:02d}<1:23:45, {17.0 + i % 7 / 10:.2f}it/s]")
        if i % 50 == 0:
            lines.append(f"\n{{'loss': {1 / i:.4f}, 'learning_rate': 1e-05, 'epoch': {i / 1000:.2f}}}\n")
    block = "".join(lines).encode()
    return (block * (mib * 1024 * 1024 // len(block) + 1))[: mib * 1024 * 1024]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--log-mib", type=int, default=64)
    ap.add_argument("--parse-mib", type=int, default=256)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()

    home = Path(tempfile.mkdtemp(prefix="labgpu-bench-jobs-"))
    home.chmod(0o755)  # the server user reads its authorized_keys under it
    os.environ["LABGPU_HOME"] = str(home / "labgpu")
    srv = SshdServer(home / "sshd").start()
    ratios: dict[str, float] = {}
    try:
        paths = default_paths()
        store = Store(paths=paths)
        store.migrate()
        save_host(srv, "bench")
        # fetch ---------------------------------------------------------------------------------------
        rec = usecase.start_job(paths, store, JobSpec(
            host="bench", argv=["sh", "-c", f"head -c {args.log_mib * 3 // 4}M /dev/zero | base64"], name="bench"))
        wait_ended(store, paths, rec.id)
        size = JobStore(store).get(rec.id).log_offset or 0
        env = dict(os.environ)
        labgpu = [sys.executable, "-m", "app", "logs", rec.id]
        cat = [*ssh_base(srv), f"{srv.user}@{srv.host}", f"cat .labgpu/jobs/{rec.id}/log"]
        for cmd in (labgpu, cat):  # both must print the whole log
            out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True).stdout
            assert len(out) >= args.log_mib * 1024 * 1024 * 0.99, (cmd[:4], len(out))
        t_lab = best(lambda: subprocess.run(labgpu, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=True),
                     args.reps)
        t_cat = best(lambda: subprocess.run(cat, stdout=subprocess.DEVNULL, check=True), args.reps)
        print(f"fetch {args.log_mib} MiB log: labgpu logs {t_lab:.3f} s, ssh cat {t_cat:.3f} s "
              f"(log offset recorded {size} B)")
        ratios["fetch"] = t_lab / t_cat
        # poll ----------------------------------------------------------------------------------------
        run = usecase.start_job(paths, store, JobSpec(host="bench", argv=["sleep", "600"], name="poll"))
        conn = open_connection("bench")
        ctl = home / "ctl"
        master = subprocess.Popen([*ssh_base(srv), "-o", "ControlMaster=yes",
                                   "-o", f"ControlPath={ctl}", "-N", f"{srv.user}@{srv.host}"])
        try:
            log = f".labgpu/jobs/{run.id}/log"
            subprocess.run([*ssh_base(srv), f"{srv.user}@{srv.host}",
                            f"head -c 8192 /dev/zero | tr '\\0' x >> {log}"], check=True)
            while not ctl.exists():
                time.sleep(0.05)
            offset = 4096

            def lab_poll() -> None:
                hostjobs.status(conn, run.id)
                data, _nxt, _size = hostjobs.read_log(conn, run.id, offset, 64 * 1024)
                assert len(data) == 4096

            def ssh_poll() -> None:
                out = subprocess.run([*ssh_base(srv), "-o", f"ControlPath={ctl}",
                                      f"{srv.user}@{srv.host}", f"tail -c +{offset + 1} {log}"],
                                     capture_output=True, check=True).stdout
                assert len(out) == 4096

            t_lab = best(lambda: [lab_poll() for _ in range(20)], args.reps) / 20
            t_ssh = best(lambda: [ssh_poll() for _ in range(20)], args.reps) / 20
            print(f"poll for 4 KiB of new output: LabGPU {t_lab * 1000:.1f} ms, ssh (ControlMaster) tail "
                  f"{t_ssh * 1000:.1f} ms")
            ratios["poll"] = t_lab / t_ssh
        finally:
            master.terminate()
            master.wait()
            usecase.stop_job(paths, store, run.id, grace_s=0)
            conn.close()
        # parse ---------------------------------------------------------------------------------------
        data = tqdm_log(args.parse_mib)
        logfile = home / "train.log"
        logfile.write_bytes(data)

        def lab_parse() -> None:
            tr = ProgressTracker()
            now = 0.0
            with open(logfile, "rb") as f:
                while chunk := f.read(1024 * 1024):
                    now += 0.01
                    tr.feed(chunk, now)
            snap = tr.snapshot(now)
            assert snap.steps_per_s and snap.total == 10 ** 7, snap

        def grep_parse() -> None:
            g = subprocess.Popen(["grep", "-a", "it/s", str(logfile)], stdout=subprocess.PIPE)
            out = subprocess.run(["tail", "-n", "1"], stdin=g.stdout, capture_output=True, check=True).stdout
            g.wait()
            assert b"it/s" in out

        t_lab = best(lab_parse, args.reps)
        t_grep = best(grep_parse, args.reps)
        tracemalloc.start()
        peak_before = tracemalloc.get_traced_memory()[1]
        th = threading.Thread(target=lab_parse)
        th.start()
        th.join()
        peak = tracemalloc.get_traced_memory()[1] - peak_before
        tracemalloc.stop()
        print(f"parse {args.parse_mib} MiB tqdm log: LabGPU {t_lab:.2f} s ({args.parse_mib / t_lab:.0f} MiB/s, "
              f"peak Python memory {peak / 1024 / 1024:.1f} MiB beyond the 1 MiB chunk it reads), "
              f"grep | tail {t_grep:.2f} s")
        ratios["parse"] = t_lab / t_grep
    finally:
        srv.stop()
    print("ratios: " + " ".join(f"{k}={v:.2f}" for k, v in ratios.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
